"""Creating games with their two threads and seating players (the lifecycle comes later)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat, Thread
from games.services import ActionRefused


def game_create(*, title: str, gm, ruleset: str = Game.Ruleset.FORUM) -> Game:
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
        return Game.objects.create(title=title, ruleset=ruleset, gm=gm, game_thread=game_thread, discussion_thread=discussion)


def seat_add(*, game: Game, user) -> Seat:
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).first()
        existing = Seat.objects.filter(game=game, user=user).first()
        if existing:
            return existing
        number = (Seat.objects.filter(game=game).aggregate(m=Max("number"))["m"] or 0) + 1
        return Seat.objects.create(game=game, user=user, number=number)
