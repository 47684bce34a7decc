"""Creating games with their two threads and seating players (the lifecycle comes later)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat, Thread
from games.permissions import is_game_master
from games.permissions import night_silence as night_silence_of
from games.services import ActionRefused


def game_create(*, title: str, gm, ruleset: str = Game.Ruleset.FORUM, size: int = 9, role_table: list[str] | None = None,
                phase_hours: int = 24, options: dict | None = None) -> Game:
    title = " ".join((title or "").split())
    if not title:
        raise ActionRefused(_("The game needs a title."), code="no_title")
    if ruleset not in Game.Ruleset.values:
        raise ActionRefused(_("Unknown rule set."), code="bad_ruleset")
    with transaction.atomic():
        game_thread = Thread.objects.create(kind=Thread.Kind.GAME, title=title, created_by=gm)
        discussion = Thread.objects.create(
            kind=Thread.Kind.DISCUSSION, title=_("%(title)s: discussion") % {"title": title}, created_by=gm
        )
        return Game.objects.create(title=title, ruleset=ruleset, gm=gm, game_thread=game_thread, discussion_thread=discussion,
                                   size=size, role_table=list(role_table or []), phase_hours=phase_hours,
                                   options=dict(options or {}))


def seat_add(*, game: Game, user) -> Seat:
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).first()
        existing = Seat.objects.filter(game=game, user=user).first()
        if existing:
            return existing
        number = (Seat.objects.filter(game=game).aggregate(m=Max("number"))["m"] or 0) + 1
        return Seat.objects.create(game=game, user=user, number=number)


def seat_set_aliases(*, seat: Seat, by, aliases_text: str) -> Seat:
    """The GM records the other names a player answers to (comma-separated)."""
    from accounts.validators import normalise_display_name

    game = seat.game
    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM changes the game's options."), code="not_allowed")
    aliases = []
    for raw in aliases_text.split(","):
        alias = normalise_display_name(raw)
        if not alias:
            continue
        if len(alias) > 40 or any(c in alias for c in '[]"='):
            raise ActionRefused(_("An alias must be at most 40 characters, without brackets or quotes."), code="bad_alias")
        if alias not in aliases:
            aliases.append(alias)
    if len(aliases) > 10:
        raise ActionRefused(_("At most 10 aliases per player."), code="too_many")
    seat.aliases = aliases
    seat.save(update_fields=["aliases"])
    return seat


def _has_majority(game: Game) -> bool:
    """Whether the game's rule set decides a day by a strict majority (SiteStyle.majority)."""
    from games.engine.rulesets import RULESETS
    from games.engine.rulesets.base import site_style

    return site_style(RULESETS.get(game.ruleset)).majority


def game_set_vote_options(*, game: Game, by, syntaxes: list[str], end_day_on_majority: bool,
                          count_spoiler_votes: bool = False) -> Game:
    """The GM picks which vote syntaxes count in his game besides the Russian bold vote (the
    English words in bold among them), whether votes inside spoilers count, and whether a
    majority ends the day at once."""
    from games.text.votes import SYNTAXES

    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM changes the game's options."), code="not_allowed")
    unknown = set(syntaxes) - set(SYNTAXES)
    if unknown:
        raise ActionRefused(_("Unknown vote syntax."), code="bad_syntax")
    if end_day_on_majority and not _has_majority(game):
        raise ActionRefused(_("This rule set has no majority: the most votes at the close decide."),
                            code="no_majority")
    game.vote_syntaxes = sorted(set(syntaxes))
    game.end_day_on_majority = end_day_on_majority
    game.count_spoiler_votes = count_spoiler_votes
    game.save(update_fields=["vote_syntaxes", "end_day_on_majority", "count_spoiler_votes"])
    return game


# --- How the players of a game may talk (issue 6): the GM's choices, within the rule set's ------
# Defaults per rule set. The cards mafia has no team chat: 001 allows only what the rules specify
# («Любые способы коммуникации, не специфицированные правилами ... запрещены») and gives each
# mafioso one message to another («Один раз каждый мафиози может прислать сообщение другому мафу»),
# which a free chat would make pointless (docs/rulesets/cards.md, "Talking").
TEAM_CHAT_DEFAULTS = {"cards": False}
ANONYMOUS_LIMIT_MAX = 50


def team_chat_enabled(game: Game) -> bool:
    """Whether a team that knows itself gets a chat of its own."""
    return bool((game.options or {}).get("team_chat", TEAM_CHAT_DEFAULTS.get(game.ruleset, True)))


def communication_of(game: Game) -> dict:
    """The game's communication settings as they apply now (the rule set's defaults filled in)."""
    from games.services.private import anonymous_rules, private_mode, rooms_enabled

    anonymous = anonymous_rules(game)
    return {"private_messages": private_mode(game), "rooms": rooms_enabled(game), "team_chat": team_chat_enabled(game),
            "anonymous_limit": anonymous["limit"] if anonymous else 0,
            "anonymous_approval": bool(anonymous and anonymous["approval"]),
            "night_silence": night_silence_of(game)}


def game_set_communication(*, game: Game, by, private_messages: str, rooms: bool, team_chat: bool,
                           anonymous_limit: int, anonymous_approval: bool, night_silence: bool | None = None) -> Game:
    """The GM sets who may talk to whom: [private] tags (anyone / neighbours / off), chat rooms by
    agreement, the team chat (before the start only: it is made with the deal), anonymous
    messages through the GM (a per-player limit, 0 for none, and whether he reads them first), and
    the night silence of the game thread (None leaves it as it is)."""
    from games.services.lifecycle import gm_log
    from games.services.private import MODES

    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM changes the game's options."), code="not_allowed")
    if game.status == Game.Status.FINISHED:
        raise ActionRefused(_("The game is over."), code="finished")
    if private_messages not in MODES:
        raise ActionRefused(_("Unknown private message mode."), code="bad_mode")
    if not isinstance(anonymous_limit, int) or not 0 <= anonymous_limit <= ANONYMOUS_LIMIT_MAX:
        raise ActionRefused(_("The limit of anonymous messages is a number from 0 to %(max)d.")
                            % {"max": ANONYMOUS_LIMIT_MAX}, code="bad_limit")
    if bool(team_chat) != team_chat_enabled(game) and game.status != Game.Status.SIGNUPS:
        raise ActionRefused(_("The team chat is set before the start: it is opened with the deal."),
                            code="team_chat_started")
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        options = dict(locked.options or {})
        options.update({
            "private_messages": private_messages, "rooms": bool(rooms), "team_chat": bool(team_chat),
            "anonymous_messages": {"limit": anonymous_limit, "approval": bool(anonymous_approval)}
            if anonymous_limit else None,
        })
        if night_silence is not None:  # None: unchanged (the rule set's default until the GM sets it)
            options["night_silence"] = bool(night_silence)
        locked.options = options
        locked.save(update_fields=["options"])
        gm_log(game=locked, user=by, action="communication", data=communication_of(locked))
    game.options = options
    return game


# --- The cards collection of one game (issue 9: «the GM may edit it ... before that») ----------
def collection_text(game: Game) -> str:
    """The game's collection as YAML for the GM's editor: his copy, or the shipped file."""
    import yaml

    from games.rulesets.cards.engine.collection import DEFAULT_COLLECTION_PATH

    raw = (game.options or {}).get("collection")
    if raw is None:
        return DEFAULT_COLLECTION_PATH.read_text(encoding="utf-8")
    return yaml.safe_dump(raw, allow_unicode=True, sort_keys=False, width=100)


class CollectionRefused(ActionRefused):
    """A collection the engine's loader refused: `problems` names each card and field (the
    loader's own words, technical English like the YAML they describe)."""

    def __init__(self, problems: list[str]):
        super().__init__(_("The collection is not valid; nothing was changed."), code="bad_collection")
        self.problems = problems


def game_set_collection(*, game: Game, by, text: str | None) -> Game:
    """The GM replaces the game's card collection before the start (None or blank: back to the
    shipped one). The text is YAML (or JSON) in the shape of games/rulesets/cards/data/cards_collection.yaml
    and is validated by the engine's own loader; a refusal lists every problem and changes
    nothing. At the start the collection is frozen into the game's state."""
    import yaml

    from games.rulesets.cards.engine.collection import CollectionError, parse_collection
    from games.services.lifecycle import gm_log

    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM changes the game's options."), code="not_allowed")
    if game.ruleset != Game.Ruleset.CARDS:
        raise ActionRefused(_("Only card mafia has a card collection."), code="not_cards")
    if game.status != Game.Status.SIGNUPS:
        raise ActionRefused(_("The collection is frozen at the start of the game."), code="started")
    data = None
    if text is not None and text.strip():
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise CollectionRefused([str(error)]) from None
        try:
            collection = parse_collection(data, source="collection")
        except CollectionError as error:
            raise CollectionRefused(list(error.errors)) from None
        data = collection.to_json()
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status != Game.Status.SIGNUPS:
            raise ActionRefused(_("The collection is frozen at the start of the game."), code="started")
        options = dict(locked.options or {})
        if data is None:
            options.pop("collection", None)
        else:
            options["collection"] = data
        locked.options = options
        locked.save(update_fields=["options"])
        gm_log(game=locked, user=by, action="collection",
               data={"cards": len(data["cards"]) if data else None, "default": data is None})
    game.options = options
    return game

