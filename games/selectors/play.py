"""Reads of the playing pages: the player's role page and the GM dashboard (games.views.play).

Each read that is more than one get lives here, so that the views parse, check, call one
service and render. What a viewer may see is still games.permissions' to say: the reads of
secrets take the viewer and go through its filters.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from games import permissions
from games.selectors.orders import phase_ledger, remember_phase_ledgers
from games.models import Absence, AnonymousMessage, Game, GameEvent, Order, Phase, Replacement, Seat


def rollback_phase(game: Game, phases: list[Phase] | None = None) -> Phase | None:
    """The phase a rollback would reopen (the same choice as resolution_rollback): the last closed,
    not voided phase that kept the state it was closed from; for the rollback's question.
    `phases`: every phase of the game, when the page has read them."""
    if phases is not None:
        kept = [p for p in phases if p.closed_at is not None and p.voided_at is None and p.state_before]
        return max(kept, key=lambda p: (p.closed_at, p.pk), default=None)
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
    """The phase's refused orders, newest first (the GM's dashboard); none without a phase. From
    the phase's ledger when the page keeps it (games.selectors.orders.phase_ledger)."""
    if phase is None:
        return []
    rows = phase_ledger(phase)
    if rows is not None:
        return sorted((o for o in rows if not o.valid), key=lambda o: (o.recorded_at, o.pk), reverse=True)[:limit]
    return Order.objects.filter(phase=phase, valid=False).select_related("actor__user").order_by("-recorded_at")[:limit]


def dashboard_orders(game: Game, phase: Phase | None, seats: list[Seat]) -> dict[int, datetime]:
    """The GM dashboard's orders in one query (issue 30): the open phase's whole ledger, kept on
    the phase for every section that reads it (games.selectors.orders.remember_phase_ledgers: the
    standing and refused orders, the preview, a rule set's panels), and each seat's last own
    accepted order of the game, whose time it returns by seat id (the inactivity table's «last
    order»: a refused order is no action, and the GM's override is the GM's). The seats named
    are taken from `seats` (every seat of the game, with its user)."""
    own = Order.objects.filter(phase__game=game, valid=True).exclude(source=Order.Source.GM)
    later = own.filter(actor_id=OuterRef("actor_id"), recorded_at__gt=OuterRef("recorded_at"))
    last_own = Q(phase__game=game, valid=True) & ~Q(source=Order.Source.GM) & ~Exists(later)
    rows = list(Order.objects.filter(Q(phase=phase) | last_own if phase is not None else last_own)
                .select_related("recorded_by"))
    by_id = {s.pk: s for s in seats}
    last: dict[int, datetime] = {}
    for order in rows:
        for field, seat_id in (("actor", order.actor_id), ("target", order.target_id),
                               ("source_seat", order.source_seat_id)):
            if seat_id in by_id:
                setattr(order, field, by_id[seat_id])
        if order.valid and order.source != Order.Source.GM and (
                order.actor_id not in last or order.recorded_at > last[order.actor_id]):
            last[order.actor_id] = order.recorded_at
    if phase is not None:
        remember_phase_ledgers([phase], [o for o in rows if o.phase_id == phase.pk])
    return last


def anonymous_pending(game: Game) -> QuerySet[AnonymousMessage]:
    """The anonymous messages waiting for the GM's approval."""
    return AnonymousMessage.objects.filter(game=game, status="pending", kind="anonymous").select_related(
        "sender__user", "recipient__user")


def anonymous_sent(viewer, game: Game, seat: Seat) -> list[AnonymousMessage]:
    """The anonymous messages this seat sent, newest first, seen through the permissions."""
    mine = permissions.filter_visible_anonymous(viewer, game, AnonymousMessage.objects.select_related("recipient__user"))
    return list(mine.filter(sender=seat, kind=AnonymousMessage.Kind.ANONYMOUS).order_by("-created_at"))


def _facts() -> dict:
    """Whether the game has any row of the tables a page shows a section of that is empty in most
    games (`game_for_page(facts=True)`): probed in the game's own query, so that an empty
    section costs no query of its own (issue 30). A reader of a section asks `has_any`."""
    return {
        "any_replacement": Exists(Replacement.objects.filter(seat__game=OuterRef("pk"))),
        "any_co_gm": Exists(Game.co_gms.through.objects.filter(game_id=OuterRef("pk"))),
        "any_pending_anonymous": Exists(AnonymousMessage.objects.filter(
            game_id=OuterRef("pk"), status=AnonymousMessage.Status.PENDING, kind=AnonymousMessage.Kind.ANONYMOUS)),
        "any_absence": Exists(Absence.objects.filter(user__seats__game=OuterRef("pk"), ends_on__gte=timezone.localdate())),
    }


def has_any(game: Game, fact: str) -> bool:
    """What game_for_page's `facts` found (`fact`: one of _facts' names); True (read the section)
    for a game read without them."""
    return getattr(game, fact, True) is not False


def game_for_page(pk: int, *, facts: bool = False, viewer=None) -> Game:
    """The game a GM's or player's page is about, with what every such page shows; 404 if none.
    With `facts`, whether it has replacements, co-GMs, anonymous messages waiting for the GM and
    absent players (`has_any`), and whether `viewer` is one of its co-GMs: games.permissions is
    told (no co-GM at all, or the viewer's answer), so that its checks read no more."""
    games = Game.objects.select_related("gm", "game_thread", "discussion_thread", "current_phase")
    if facts:
        games = games.annotate(**_facts())
        if viewer is not None and viewer.is_authenticated:
            games = games.annotate(viewer_co_gm=Exists(Game.co_gms.through.objects.filter(
                game_id=OuterRef("pk"), user_id=viewer.pk)))
    game = get_object_or_404(games, pk=pk)
    if facts and not game.any_co_gm:
        permissions.remember_co_gms(game, ())
    elif facts and viewer is not None and viewer.is_authenticated:
        permissions.remember_co_gm(game, viewer, game.viewer_co_gm)
    return game


def co_gms_of(game: Game) -> list:
    """The game's co-GMs (their users, by name), read once per game instance, and none without a
    query when game_for_page's facts found none; tells games.permissions their ids."""
    co_gms = game.__dict__.get("_co_gm_users")
    if co_gms is None:
        co_gms = list(game.co_gms.all()) if has_any(game, "any_co_gm") else []
        game.__dict__["_co_gm_users"] = co_gms
        permissions.remember_co_gms(game, [u.pk for u in co_gms])
    return co_gms


def seat_choice(game: Game, raw) -> Seat | None:
    """The game's seat a form names, or None (a missing, malformed or other game's id)."""
    try:
        return game.seats.select_related("user").get(pk=int(raw))
    except (TypeError, ValueError, Seat.DoesNotExist):
        return None
