"""Creating games with their two threads and seating players (the lifecycle comes later)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat, Thread
from games.permissions import is_game_master
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


def game_set_vote_options(*, game: Game, by, syntaxes: list[str], end_day_on_majority: bool) -> Game:
    """The GM picks which international vote syntaxes count in his game, and whether a majority
    ends the day at once."""
    from games.text.votes import SYNTAXES

    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM changes the game's options."), code="not_allowed")
    unknown = set(syntaxes) - set(SYNTAXES)
    if unknown:
        raise ActionRefused(_("Unknown vote syntax."), code="bad_syntax")
    game.vote_syntaxes = sorted(set(syntaxes))
    game.end_day_on_majority = end_day_on_majority
    game.save(update_fields=["vote_syntaxes", "end_day_on_majority"])
    return game
