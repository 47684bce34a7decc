"""Reads of the playing pages: the player's role page and the GM dashboard (games.views.play).

Each read that is more than one get lives here, so that the views parse, check, call one
service and render. What a viewer may see is still games.permissions' to say: the reads of
secrets take the viewer and go through its filters.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from games import permissions
from games.models import AnonymousMessage, Game, GameEvent, Order, Phase, Replacement, Seat


def rollback_phase(game: Game) -> Phase | None:
    """The phase a rollback would reopen (the same choice as resolution_rollback): the last closed,
    not voided phase that kept the state it was closed from; for the rollback's question."""
    return (Phase.objects.filter(game=game, closed_at__isnull=False, voided_at__isnull=True)
            .exclude(state_before={}).order_by("-closed_at", "-pk").first())


def visible_events(user, game: Game) -> QuerySet[GameEvent]:
    """The game's events this user may read, oldest first."""
    return permissions.filter_visible_events(user, game, GameEvent.objects.select_related("phase")).order_by(
        "created_at", "pk")


def visible_orders(viewer, game: Game, *, limit: int = 30) -> QuerySet[Order]:
    """The order ledger rows this viewer may read, newest first (the role page's history)."""
    rows = Order.objects.select_related("target__user", "source_seat__user", "phase")
    return permissions.filter_visible_orders(viewer, game, rows).order_by("-recorded_at", "-pk")[:limit]


def standing_order_row(viewer, game: Game, seat: Seat) -> Order | None:
    """The seat's last accepted order of the current phase (games.selectors.orders.standing_orders'
    rule: from the role page or a letter to the GM alike), seen through the order permissions."""
    rows = Order.objects.filter(phase_id=game.current_phase_id, actor=seat, valid=True).exclude(action="")
    return (permissions.filter_visible_orders(viewer, game, rows.select_related("target__user", "source_seat__user"))
            .order_by("-recorded_at", "-pk").first())


def seat_replacements(seat: Seat) -> QuerySet[Replacement]:
    """Who held the seat before whom, in order (the role page's history of the seat)."""
    return Replacement.objects.filter(seat=seat).select_related("old_user", "new_user").order_by("created_at")


def refused_orders(phase: Phase | None, *, limit: int = 20) -> list[Order] | QuerySet[Order]:
    """The phase's refused orders, newest first (the GM's dashboard); none without a phase."""
    if phase is None:
        return []
    return Order.objects.filter(phase=phase, valid=False).select_related("actor__user").order_by("-recorded_at")[:limit]


def anonymous_pending(game: Game) -> QuerySet[AnonymousMessage]:
    """The anonymous messages waiting for the GM's approval."""
    return AnonymousMessage.objects.filter(game=game, status="pending", kind="anonymous").select_related(
        "sender__user", "recipient__user")


def anonymous_sent(viewer, game: Game, seat: Seat) -> list[AnonymousMessage]:
    """The anonymous messages this seat sent, newest first, seen through the permissions."""
    mine = permissions.filter_visible_anonymous(viewer, game, AnonymousMessage.objects.select_related("recipient__user"))
    return list(mine.filter(sender=seat, kind=AnonymousMessage.Kind.ANONYMOUS).order_by("-created_at"))


def game_for_page(pk: int) -> Game:
    """The game a GM's or player's page is about, with what every such page shows; 404 if none."""
    return get_object_or_404(Game.objects.select_related("gm", "game_thread", "discussion_thread", "current_phase"), pk=pk)


def seat_choice(game: Game, raw) -> Seat | None:
    """The game's seat a form names, or None (a missing, malformed or other game's id)."""
    try:
        return game.seats.select_related("user").get(pk=int(raw))
    except (TypeError, ValueError, Seat.DoesNotExist):
        return None
