"""The `vanilla` rule set: the plainest day/night game, registered only by the tests.

Town against mafia. By day everyone in play votes in the game thread and the plurality is
lynched (a tie: the GM names one of the leaders, else the lot); by night the mafia kill one player,
ordered by any mafioso (two mafiosi naming different targets kill nobody). The town wins when no
mafioso is left in play, the mafia when they are at least half of those in play.

It proves the "Adding a rule set" recipe (docs/architecture.md, "Adding a rule set"): a pure module implementing
games.engine.rulesets.base.Ruleset, no Django, nothing of the site's core changed for it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience
from games.engine.orders import PEACE, Order, PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec, SiteStyle
from games.engine.rulesets.common import Report, order_data, pick_seat, ref, seat_id
from games.engine.state import GameState, SeatState
from games.engine.votecount import VOTE, Ballot, tally

TOWN, MAFIA = "town", "mafia"
CITIZEN, MAFIOSO = "citizen", "mafioso"
KILL = "kill"
DAY, NIGHT = "day", "night"
LYNCHED = "executed"  # the seat status of a lynched player (the site words it «выгнан»)
KILLED = "killed"

ROLES: Mapping[str, RoleSpec] = MappingProxyType({
    CITIZEN: RoleSpec(CITIZEN, TOWN),
    MAFIOSO: RoleSpec(MAFIOSO, MAFIA, (KILL,), knows_team=True),
})
REASONS: Mapping[str, str] = MappingProxyType({
    "game_over": "the game is over",
    "not_a_player": "the actor is not a player of this game",
    "not_active": "the actor is out of play",
    "not_your_action": "the actor's role has no such action",
    "not_night": "the mafia kill at night",
    "missing_target": "the order names no target",
    "bad_target": "the target is not a town player of this game",
    "target_not_active": "the target is out of play",
})
VOTE_REASONS: Mapping[str, str] = MappingProxyType({
    "not_a_voter": "the voter is out of play, it is night, or the game is over",
    "bad_target": "the target is not a player in play",
    "peace_not_allowed": "vanilla has no vote for peace",
})


def parse_phase(phase: str) -> tuple[str, int]:
    """"night 2" -> ("night", 2)."""
    kind, _sep, number = phase.partition(" ")
    if kind not in (DAY, NIGHT) or not number.isdigit():
        raise ValueError(f"not a vanilla phase: {phase!r}")
    return kind, int(number)


def winner_of(seats: Sequence[SeatState]) -> str | None:
    """The town when no mafioso is in play; the mafia when they are at least half of those in play."""
    mafia = sum(1 for s in seats if s.is_active and s.faction == MAFIA)
    town = sum(1 for s in seats if s.is_active and s.faction == TOWN)
    if mafia == 0:
        return TOWN
    return MAFIA if mafia >= town else None


class VanillaRuleset:
    key = "vanilla"
    roles: Mapping[str, RoleSpec] = ROLES
    factions: tuple[str, ...] = (TOWN, MAFIA)
    min_players = 3
    max_players = 20
    outcome_keys: tuple[str, ...] = ("votes", "tally", "lynched", "killed", "alive", "over")
    reasons: Mapping[str, str] = REASONS
    vote_reasons: Mapping[str, str] = VOTE_REASONS
    # A plurality at the close, a tie settled by the GM; «Голосую за [b]Петя[/b]».
    site = SiteStyle(majority=False, tie="gm", vote_word="голосую за")

    # -- setup ----------------------------------------------------------------------------------

    def default_roles(self, size: int) -> list[str]:
        """A quarter of the table is mafia (one at the least), the rest citizens."""
        if not self.min_players <= size <= self.max_players:
            raise ValueError(f"vanilla is played by {self.min_players} to {self.max_players} players, not {size}")
        mafiosi = max(1, size // 4)
        return [MAFIOSO] * mafiosi + [CITIZEN] * (size - mafiosi)

    def validate_roles(self, roles: Sequence[str]) -> None:
        if not self.min_players <= len(roles) <= self.max_players:
            raise ValueError(f"vanilla is played by {self.min_players} to {self.max_players} players, not {len(roles)}")
        unknown = sorted({r for r in roles if r not in ROLES})
        if unknown:
            raise ValueError(f"unknown vanilla roles: {unknown}")
        dealt = [SeatState(i, f"p{i}", r, ROLES[r].faction) for i, r in enumerate(roles, 1)]
        if winner_of(dealt) is not None:
            raise ValueError("the game would be over before it starts: the mafia must be fewer than the town")

    def new_game(
        self, seats: Sequence[tuple[int, str, str]], *, options: Mapping[str, Any] | None = None
    ) -> tuple[GameState, tuple[Event, ...]]:
        self.validate_roles([role for _id, _name, role in seats])
        state = GameState(ruleset=self.key, phase="day 1", options=dict(options or {}),
                          seats=tuple(SeatState(i, n, r, ROLES[r].faction) for i, n, r in seats))
        events = [Event("game_started", PUBLIC, {"players": [ref(s) for s in state.seats], "phase": state.phase})]
        events += [Event("role", seat_audience(s.id), {**ref(s), "role": s.role, "faction": s.faction})
                   for s in state.seats]
        mafia = [{**ref(s), "role": s.role} for s in state.seats if s.faction == MAFIA]
        events.append(Event("team", faction_audience(MAFIA), {"faction": MAFIA, "members": mafia}))
        return state, tuple(events)

    # -- what may be done now -------------------------------------------------------------------

    def voters(self, state: GameState) -> tuple[int, ...]:
        if state.over or parse_phase(state.phase)[0] != DAY:
            return ()
        return tuple(s.id for s in state.active())

    def vote_targets(self, state: GameState) -> tuple[int, ...]:
        return tuple(s.id for s in state.active()) if self.voters(state) else ()

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        if seat_id(voter) not in self.voters(state):
            return "not_a_voter"
        if target is None:
            return None
        if isinstance(target, str) and target.strip().lower() == PEACE:
            return "peace_not_allowed"
        return None if seat_id(target) in self.vote_targets(state) else "bad_target"

    def speaking_order(self, state: GameState) -> tuple[int, ...]:
        return () if state.over else tuple(s.id for s in state.active())

    def allowed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        if state.over or not state.has_seat(actor) or parse_phase(state.phase)[0] != NIGHT:
            return ()
        seat = state.seat(actor)
        return ROLES[seat.role].actions if seat.is_active else ()

    def owed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        return self.allowed_actions(state, actor)

    def check_order(self, state: GameState, order: Order) -> str | None:
        if state.over:
            return "game_over"
        if not state.has_seat(order.actor):
            return "not_a_player"
        actor = state.seat(order.actor)
        if not actor.is_active:
            return "not_active"
        if order.action not in ROLES[actor.role].actions:
            return "not_your_action"
        if parse_phase(state.phase)[0] != NIGHT:
            return "not_night"
        if order.target is None:
            return "missing_target"
        if not state.has_seat(order.target) or state.seat(order.target).faction == MAFIA:
            return "bad_target"
        return None if state.seat(order.target).is_active else "target_not_active"

    # -- the close --------------------------------------------------------------------------------

    def resolve(self, state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
        """The day's lynch or the night's kill, then the win check. Deterministic for the seed."""
        if state.ruleset != self.key or state.over:
            raise ValueError("not a running vanilla game")
        kind, number = parse_phase(state.phase)
        events: list[Event] = []
        votes: dict[int, int | None] = {}
        weights: dict[int, int] = {}
        lynched: list[int] = []
        killed: list[int] = []
        if kind == DAY:
            votes, weights, lynched = self._lynch(state, inputs, random.Random(seed), events)
            status, next_phase = LYNCHED, f"night {number}"
        else:
            killed = self._kill(state, inputs, events)
            status, next_phase = KILLED, f"day {number + 1}"
        out = set(lynched) | set(killed)
        seats = tuple(replace(s, status=status) if s.id in out else s for s in state.seats)
        winner = winner_of(seats)
        new_state = replace(state, seats=seats, phase=state.phase if winner else next_phase,
                            over=winner is not None, winner=winner)
        if winner:
            events.append(Event("game_over", PUBLIC, {"winner": winner, "seats": [
                {**ref(s), "role": s.role, "faction": s.faction, "status": s.status} for s in seats]}))
        name = {s.id: s.name for s in state.seats}
        outcome: dict[str, Any] = {
            "votes": {name[v]: name.get(t) for v, t in votes.items()},
            "tally": {name[t]: w for t, w in weights.items()},
            "lynched": [name[i] for i in lynched],
            "killed": [name[i] for i in killed],
            "alive": [s.name for s in new_state.active()],
            "over": new_state.over,
        }
        if winner:
            outcome["winner"] = winner
        return Resolution(state=new_state, events=tuple(events), outcome=outcome)

    def _lynch(self, state: GameState, inputs: PhaseInputs, rng: random.Random,
               events: list[Event]) -> tuple[dict[int, int | None], dict[int, int], list[int]]:
        """The plurality of the standing votes; no vote at all lynches nobody."""
        voters = self.voters(state)
        given = {seat_id(k): v for k, v in inputs.votes.items()}
        votes = {v: (seat_id(given.get(v)) if self.check_vote(state, v, given.get(v)) is None else None)
                 for v in voters}
        count = tally([Ballot(voter=v, kind=VOTE, target=t, order=i) for i, (v, t) in enumerate(votes.items())
                       if t is not None], voters=voters, targets=self.vote_targets(state))
        weights = {w.target: w.weight for w in count.wagons if w.target is not None}
        events.append(Event("vote_result", PUBLIC, {"tally": [{**ref(state.seat(t)), "votes": w}
                                                              for t, w in weights.items()]}))
        seat_order = [s.id for s in state.seats]
        leaders = sorted((w.target for w in count.leaders if w.target is not None), key=seat_order.index)
        if not leaders:
            events.append(Event("no_execution", PUBLIC, {"reason": "no_votes"}))
            return votes, weights, []
        chosen = leaders[0]
        if len(leaders) > 1:
            pick = pick_seat(state, inputs.gm.get("tie_break"))
            chosen, by = (pick, "gm") if pick in leaders else (rng.choice(leaders), "lot")
            events.append(Event("tie_break", PUBLIC, {"leaders": [ref(state.seat(i)) for i in leaders],
                                                      **ref(state.seat(chosen)), "by": by}))
        seat = state.seat(chosen)
        events.append(Event("executed", PUBLIC, {**ref(seat), "role": seat.role}))
        return votes, weights, [chosen]

    def _kill(self, state: GameState, inputs: PhaseInputs, events: list[Event]) -> list[int]:
        """One mafioso's order is enough; different targets kill nobody."""
        seat_order = {s.id: i for i, s in enumerate(state.seats)}
        reports = []
        # Seating order, not the mapping's, so that the same orders always resolve the same.
        for key, order in sorted(inputs.orders.items(), key=lambda kv: seat_order.get(kv[1].actor, len(seat_order))):
            report = Report(order)
            reason = "actor_mismatch" if seat_id(key) != order.actor else self.check_order(state, order)
            if reason is not None:
                report.result, report.reason = "rejected", reason
            reports.append(report)
        live = [r for r in reports if r.result == "done"]
        targets = {r.order.target for r in live}
        if len(targets) > 1:
            for report in live:
                report.fail("mafia_disagree")
        killed = sorted(targets) if len(targets) == 1 else []
        for report in reports:
            events.append(Event("order", GM, order_data(state, report)))
        for target in killed:
            seat = state.seat(target)
            events.append(Event("killed", PUBLIC, {**ref(seat), "role": seat.role}))
        if not killed:
            events.append(Event("night_result", PUBLIC, {"killed": []}))
        return killed


VANILLA = VanillaRuleset()
