"""Reads for the GM's and the moderators' tools: who replaced whom, V/LA absences, the inactivity
table, the open reports and the ledger lines a game keeps. Moved down from
games.services.moderation (issue 15): the pages read them without importing the service that
replaces, modkills, prods and bans."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone

from games.models import Absence, Game, Order, Post, Replacement, Report, Seat, VoteRecord


def replaced_names(game: Game) -> dict[int, list[str]]:
    """user id -> the names of the players he replaced in this game (for the post badges)."""
    out: dict[int, list[str]] = {}
    for new_id, old_name in Replacement.objects.filter(seat__game=game).values_list(
            "new_user_id", "old_user__display_name").order_by("created_at", "pk"):
        out.setdefault(new_id, []).append(old_name)
    return out


def absences_by_user(user_ids, *, today: date | None = None) -> dict[int, Absence]:
    """The current or next absence of each user (what rosters show)."""
    today = today or timezone.localdate()
    out: dict[int, Absence] = {}
    for absence in Absence.objects.filter(user_id__in=list(user_ids), ends_on__gte=today).order_by("starts_on"):
        out.setdefault(absence.user_id, absence)
    return out


def absences_ahead(user, *, today: date | None = None) -> QuerySet[Absence]:
    """The user's own absences that are not over yet, soonest first (his V/LA page)."""
    return Absence.objects.filter(user=user, ends_on__gte=today or timezone.localdate()).order_by("starts_on")


@dataclass
class Activity:
    seat: Seat
    posts_in_phase: int
    posts_total: int
    last_post_at: datetime | None
    last_action_at: datetime | None
    absence: Absence | None


def inactivity_table(*, game: Game, seats: list[Seat] | None = None, last_actions: dict[int, datetime] | None = None,
                     absences: bool = True) -> list[Activity]:
    """Each seat's posts in the game thread (in the open phase and in all, and the last one's
    time), its last own order and its player's absence. `seats` (every seat, with its user) and
    `last_actions` (seat id -> its last own accepted order's time,
    games.selectors.play.dashboard_orders) when the page has read them; without `absences` (the
    page knows none is current) they are not read."""
    seats = list(game.seats.select_related("user").order_by("number")) if seats is None else seats
    phase = game.current_phase
    posts = Post.objects.filter(thread_id=game.game_thread_id, is_deleted=False)
    # One pass over the thread's posts: every author's count and last post, and his count in the phase.
    counts = {"n": Count("pk"), "last": Max("created_at")}
    if phase is not None:
        counts["in_phase"] = Count("pk", filter=Q(created_at__gte=phase.opened_at))
    totals = {row["author_id"]: row for row in posts.order_by().values("author_id").annotate(**counts)}
    if last_actions is None:
        # «Last order»: the player's own last accepted one (issue 29): a refused order is no action,
        # and the GM's override is the GM's.
        last_actions = dict(Order.objects.filter(phase__game=game, valid=True).exclude(source=Order.Source.GM)
                            .values_list("actor_id").annotate(last=Max("recorded_at")))
    found = absences_by_user([s.user_id for s in seats]) if absences else {}
    return [
        Activity(seat=s, posts_in_phase=totals.get(s.user_id, {}).get("in_phase", 0),
                 posts_total=totals.get(s.user_id, {}).get("n", 0),
                 last_post_at=totals.get(s.user_id, {}).get("last"), last_action_at=last_actions.get(s.pk),
                 absence=found.get(s.user_id))
        for s in seats
    ]


def open_reports():
    return Report.objects.filter(resolved_at__isnull=True).select_related("post__thread", "post__author", "reporter")


def votes_and_orders_kept(game: Game) -> tuple[int, int]:
    """How many ledger lines the game has (rollback never deletes them)."""
    return (VoteRecord.objects.filter(phase__game=game).count(), Order.objects.filter(phase__game=game).count())
