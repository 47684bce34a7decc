"""Creating games with their two threads and seating players (the lifecycle comes later)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat, Thread
from games.permissions import is_game_master
from games.rulesets import registry
from games.selectors.communication import MODES, communication_of, team_chat_enabled
from games.selectors.state import table_style
from games.services import ActionRefused
from games.services.journal import gm_log
from games.text.votes import CASTING_SYNTAXES, SYNTAXES


def game_create(*, title: str, gm, ruleset: str | None = None, size: int = 9, role_table: list[str] | None = None,
                phase_hours: int = 24, options: dict | None = None) -> Game:
    """A game in sign-ups with its game and discussion threads; `ruleset` None: the first registered."""
    if ruleset is None:
        ruleset = registry.default_key()
    title = " ".join((title or "").split())
    if not title:
        raise ActionRefused(_("The game needs a title."), code="no_title")
    if registry.find(ruleset) is None:  # any registered rule set (settings.MAFIA_RULESETS)
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
    return table_style(game).majority


def game_set_vote_options(*, game: Game, by, syntaxes: list[str], end_day_on_majority: bool,
                          count_spoiler_votes: bool = False) -> Game:
    """The GM picks which vote syntaxes count in his game (games.text.votes.SYNTAXES: the rule
    set's own words with a bold name, `native`, among them: issue 29, "in a game set to `##vote`
    only, a bold name or a bold «vote X» without the `##` is talk, not a vote"), whether votes
    inside spoilers count, and whether a majority ends the day at once. A choice that leaves no
    syntax a vote can be cast with (none, or only withdrawals) is refused and changes nothing."""
    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM changes the game's options."), code="not_allowed")
    adapter = registry.find(game.ruleset)
    if adapter is not None and not adapter.votes_in_posts:
        raise ActionRefused(_("This rule set reads no votes from posts: its ballots are cast on the players' panel."),
                            code="no_post_votes")
    unknown = set(syntaxes) - set(SYNTAXES)
    if unknown:
        raise ActionRefused(_("Unknown vote syntax."), code="bad_syntax")
    if not set(syntaxes) & CASTING_SYNTAXES:
        raise ActionRefused(_("Keep at least one way to cast a vote: with none, no vote in this game would count."),
                            code="no_syntax")
    if end_day_on_majority and not _has_majority(game):
        raise ActionRefused(_("This rule set has no majority: the most votes at the close decide."),
                            code="no_majority")
    game.vote_syntaxes = sorted(set(syntaxes))
    game.end_day_on_majority = end_day_on_majority
    game.count_spoiler_votes = count_spoiler_votes
    game.save(update_fields=["vote_syntaxes", "end_day_on_majority", "count_spoiler_votes"])
    return game


# --- How the players of a game may talk (issue 6): the GM's choices, within the rule set's ------
# The defaults are the rule set's (SiteRuleset.team_chat_default and the others of its
# "Communication" section). The cards mafia has no team chat: 001 allows only what the rules specify
# («Любые способы коммуникации, не специфицированные правилами ... запрещены») and gives each
# mafioso one message to another («Один раз каждый мафиози может прислать сообщение другому мафу»),
# which a free chat would make pointless (docs/rulesets/cards.md, "Talking").
ANONYMOUS_LIMIT_MAX = 50


def game_set_communication(*, game: Game, by, private_messages: str, rooms: bool, team_chat: bool,
                           anonymous_limit: int, anonymous_approval: bool, night_silence: bool | None = None) -> Game:
    """The GM sets who may talk to whom: [private] tags (anyone / neighbours / off), chat rooms by
    agreement, the team chat (before the start only: it is made with the deal), anonymous
    messages through the GM (a per-player limit, 0 for none, and whether he reads them first), and
    the night silence of the game thread (None leaves it as it is)."""
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
