"""What a player still owes in his running games: a vote in an open day, an order in an open phase
where his role may act. Read by the personal desk (what is due, with the time left) and by the
"due soon" notifications; the same rules as the prods (games.services.moderation.prods_send)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from games import permissions
from games.models import Game, Order, Phase, Seat
from games.engine.rulesets import get_ruleset
from games.rulesets import registry
from games.selectors.orders import phase_ledger, remember_phase_ledgers
from games.selectors.state import game_state
from games.selectors.votes import standing_votes_of, voters_and_targets, voting_kinds


@dataclass(frozen=True)
class Duty:
    game: Game
    seat: Seat
    phase: Phase
    kind: str  # "vote" or "order"

    @property
    def deadline_at(self) -> datetime | None:
        return self.phase.deadline_at

    def time_left(self, now: datetime) -> timedelta | None:
        return None if self.deadline_at is None else max(self.deadline_at - now, timedelta(0))


def running_seats(user):
    """The user's seats in play in running games, with what duties_of reads of each (one query)."""
    return (Seat.objects.filter(user=user, status__in=permissions.in_play_statuses(), game__status=Game.Status.RUNNING)
            .select_related("game", "game__current_phase", "game__game_thread", "game__gm"))


def duties_of(user, *, now: datetime | None = None, seats: list[Seat] | None = None) -> list[Duty]:
    """The votes and orders this user owes now, soonest deadline first (no deadline last).

    A fixed number of queries whatever the number of his games (issue 30: the desk of a user in 20
    games): his seats with their games and phases, the tables' seats, his standing votes in every
    open day and his orders in every open phase, each in one query."""
    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    seats = list(running_seats(user)) if seats is None else seats
    open_seats = []
    for seat in seats:
        game, phase = seat.game, seat.game.current_phase
        if phase is None or not phase.is_open or phase.voided_at is not None:
            continue
        if phase.deadline_at is not None and phase.deadline_at <= now:
            continue  # past the deadline: nothing can be done any more
        phase.game = game  # at hand: the vote rules read it
        open_seats.append(seat)
    voting = [s for s in open_seats if s.game.current_phase.kind in voting_kinds(s.game)]
    voted = standing_votes_of([s.game.current_phase for s in voting], [s.pk for s in voting])
    # Every open phase's order ledger in one query, kept on each phase: his accepted orders, and
    # a rule set's own count of whom the phase awaits (the Show's), read from it.
    remember_phase_ledgers([s.game.current_phase for s in open_seats])
    mine = {s.pk for s in open_seats}
    acted = {(o.phase_id, o.actor_id) for s in open_seats for o in phase_ledger(s.game.current_phase)
             if o.valid and o.actor_id in mine}
    duties: list[Duty] = []
    for seat in open_seats:
        game, phase = seat.game, seat.game.current_phase
        if seat in voting:
            # The engine's state says who votes; the seats only for a game the engine does not run.
            voters, _targets = voters_and_targets(phase, [] if game.state else list(game.seats.all()))
            if seat.pk in voters and voted.get((phase.pk, seat.pk)) is None:
                duties.append(Duty(game, seat, phase, "vote"))
        if game.state and owes_order(game, seat, phase, acted={a for p, a in acted if p == phase.pk}):
            duties.append(Duty(game, seat, phase, "order"))
    far = now + timedelta(days=3650)
    return sorted(duties, key=lambda d: (d.deadline_at or far, d.game.pk, d.kind))


def owes_order(game: Game, seat: Seat, phase: Phase, *, awaited: frozenset[int] | None = None,
               acted: set[int] | None = None) -> bool:
    """Whether the seat still owes the open phase an order: the rule set's own count when it keeps
    one (SiteRuleset.awaited: the Show's stage waits for its own action, not any input), else an
    owed action of the engine and no accepted order on the ledger. `awaited`/`acted` are the
    phase's, when the caller has them for every seat."""
    adapter = registry.find(game.ruleset)
    if awaited is None and adapter is not None:
        awaited = adapter.awaited(game, phase)
    if awaited is not None:
        return seat.pk in awaited
    if not get_ruleset(game.ruleset).owed_actions(game_state(game), seat.pk):
        return False
    if acted is not None:
        return seat.pk not in acted
    return not Order.objects.filter(phase=phase, actor=seat, valid=True).exists()
