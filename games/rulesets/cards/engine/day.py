"""The day: the Veche's voters and vote checks, the strength of a vote, and the count at the close
(the vote itself is counted by veche.py; here are the inputs read, the events, the execution or
prison). Mixed into CardsRuleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.engine.events import PUBLIC, Event
from games.engine.orders import PEACE
from games.engine.rulesets.common import pick_seat, scalar
from games.engine.rulesets.common import ref as _ref
from games.engine.rulesets.common import seat_id as _seat_id
from games.engine.state import GameState
from games.rulesets.cards.engine.context import (
    DAY,
    EXECUTION_DAMAGE,
    OPTION_DEFAULTS,
    PRISON_PHASES,
    _Close,
    _mapping_by_seat,
)
from games.rulesets.cards.engine.roles import overt_key, overt_role
from games.rulesets.cards.engine.veche import EXECUTION, MEASURES, VecheResult, count_veche


class DayMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. The Veche. `vote_weight` and `veche_measure` are the hooks
    part 2's overt roles override."""

    def voters(self, state: GameState) -> tuple[int, ...]:
        """«Днем каждый персонаж может публично отдать голос»: every living character, by day."""
        if state.over or self._phase(state)[0] != DAY:
            return ()
        return tuple(s.id for s in state.active())

    def vote_targets(self, state: GameState) -> tuple[int, ...]:
        """«за любого персонажа»: any living character, the voter himself included."""
        return self.voters(state)

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        if _seat_id(voter) not in self.voters(state):
            return "not_a_voter"
        if target is None:
            return None
        if isinstance(target, str) and target.strip().lower() == PEACE:
            return None  # «Также можно проголосовать "за мир".»
        if _seat_id(target) not in self.vote_targets(state):
            return "bad_target"
        return None

    def check_measure(self, state: GameState, voter: int, measure: str | None) -> str | None:
        """The measure vote (execution or prison) may stand: a voter of the Veche, a known measure."""
        if _seat_id(voter) not in self.voters(state):
            return "not_a_voter"
        if measure is not None and measure not in MEASURES:
            return "bad_target"
        return None

    def speaking_order(self, state: GameState) -> tuple[int, ...]:
        """Nobody speaks in turn; by day the seating order of the living is shown. Nights and deck
        building are silent («радиомолчание»)."""
        return self.voters(state)

    def vote_weight(self, state: GameState, seat: int) -> float:
        """The strength of a seat's vote: 1, or what its overt role says (part 2: «Авторитет +1 к
        силе голоса (голос считается за 2)», «Политик +0,5»; «Прокурор» adds 2 once by input)."""
        hook = overt_role(state.memory.get("overt", {}).get(str(seat)))
        return hook.vote_weight if hook is not None else 1.0

    def _count_veche(self, ctx: _Close) -> None:
        state = ctx.state
        voters = self.voters(state)
        votes: dict[int, int | str | None] = {}
        for key, given in ctx.inputs.votes.items():
            voter = _seat_id(key)
            if voter is None:
                continue
            if isinstance(given, str) and given.strip().lower() == PEACE:
                value: int | str | None = PEACE
            else:
                value = pick_seat(state, given) if given is not None else None
            reason = self.check_vote(state, voter, value) if given is not None else None
            if given is not None and (reason is not None or (value is None)):
                ctx.gm_note("vote_dropped", voter=voter, voter_name=ctx.name(voter), given=scalar(given),
                            reason=reason or "bad_target")
                continue
            votes[voter] = value
        measures: dict[int, str | None] = {}
        for voter, measure in _mapping_by_seat(state, ctx.inputs.extra.get("measures")).items():
            if self.check_measure(state, voter, measure) is not None:
                ctx.gm_note("measure_dropped", voter=voter, voter_name=ctx.name(voter), given=scalar(measure))
                continue
            measures[voter] = measure
        tie_break = self.option(state, "tie_break")
        gm_pick = pick_seat(state, (ctx.inputs.gm or {}).get("tie_break")) if tie_break == "gm" else None
        result = self._veche_of(state, votes, measures, gm_pick)
        ctx.veche = result

        def name(seat: Any) -> Any:
            return ctx.name(seat) if isinstance(seat, int) else seat

        ctx.events.append(Event("veche_result", PUBLIC, {
            "votes": [{"voter": v, "voter_name": ctx.name(v), "target": result.votes[v],
                       "target_name": name(result.votes[v]), "measure": result.measures[v],
                       "weight": result.weights[v]} for v in voters],
            "tally": [{"target": t, "target_name": name(t), "votes": w} for t, w in result.tally.items()],
            "measure_tally": dict(result.measure_tally),
            "leaders": [_ref(ctx.seat(i)) for i in result.leaders],
            "leader": _ref(ctx.seat(result.leader)) if result.leader is not None else None,
            "measure": result.measure, "peace": result.peace, "reason": result.reason,
        }))
        if result.leader is None:
            return
        if len(result.leaders) > 1:
            # «Приоритет повешения - по алфавиту»: by overt role name, by character name, or the GM's
            # pick (the GM's option `tie_break`); a GM who picked none of the tied falls back to the
            # overt role names, and is told so.
            by = {"overt": "overt_alphabet", "name": "name_alphabet", "gm": "gm"}[tie_break]
            if tie_break == "gm" and gm_pick not in result.leaders:
                by = "overt_alphabet"
                ctx.gm_note("gm_effect_ignored", op="tie_break", reason="no_tie_pick")
            ctx.events.append(Event("tie_break", PUBLIC, {
                "leaders": [{**_ref(ctx.seat(i)), "overt": self.overt_of(state, i)} for i in result.leaders],
                **_ref(ctx.seat(result.leader)), "by": by,
            }))
        leader = ctx.seat(result.leader)
        if result.measure == EXECUTION:
            ctx.executed.append(leader.id)
            ctx.events.append(Event("executed", PUBLIC, {**_ref(leader), "damage": EXECUTION_DAMAGE}))
        else:
            ctx.imprisoned.append(leader.id)
            ctx.events.append(Event("imprisoned", PUBLIC, {**_ref(leader), "phases": PRISON_PHASES}))

    def _veche_of(self, state: GameState, votes: dict[int, int | str | None], measures: dict[int, str | None],
                  gm_pick: int | None) -> VecheResult:
        """The Veche counted from checked votes and measures: the close's count and veche_standing's."""
        result = count_veche(
            voters=self.voters(state), alive=[s.id for s in state.active()], votes=votes, measures=measures,
            weight=lambda seat: self.vote_weight(state, seat),
            tie_key=lambda seat: self._tie_key(state, seat, gm_pick),
            weigh_measure=bool(self.option(state, "measure_weight")),
        )
        if result.leader is not None:
            measure = self.veche_measure(state, result.leader, result.measure)
            if measure != result.measure:
                result = replace(result, measure=measure)
        return result

    def veche_standing(self, state: GameState, votes: Mapping[int, int | str | None],
                       measures: Mapping[int, str | None], *, tie_pick: int | None = None) -> VecheResult | None:
        """The Veche as the close would count it if the day ended with these standing votes (seat,
        "peace" or None) and measures: who is punished and how, or peace and why. The same count as
        the close's (`_count_veche`); a vote or a measure the close would drop is left out, and
        `tie_pick` is the GM's pick for a tie when the game's option `tie_break` is `gm`. None
        outside a day (nobody votes)."""
        if not self.voters(state):
            return None
        checked_votes = {v: t for v, t in votes.items()
                         if t is not None and self.check_vote(state, v, t) is None}
        checked_measures = {v: m for v, m in measures.items() if self.check_measure(state, v, m) is None}
        gm_pick = tie_pick if self.option(state, "tie_break") == "gm" else None
        return self._veche_of(state, checked_votes, checked_measures, gm_pick)

    def veche_measure(self, state: GameState, leader: int, measure: str) -> str:
        """The measure applied to the Veche's leader: the vote's, unless a rule says otherwise (the
        hook for part 2's «Политик: Если он становится лидером голосования в первый раз, попадает в
        тюрьму вместо казни»)."""
        return measure

    def option(self, state: GameState, key: str) -> Any:
        """A game option, with its default for a game begun before the option existed."""
        return state.options.get(key, OPTION_DEFAULTS[key])

    def _tie_key(self, state: GameState, seat: int, gm_pick: int | None = None) -> tuple:
        """«Приоритет повешения - по алфавиту», as the GM's option `tie_break` reads it: the overt
        role's name (no overt role last), the character's name, or the GM's pick first (then the
        overt names)."""
        if self.option(state, "tie_break") == "name":
            return (0, overt_key(state.seat(seat).name))
        overt = self.overt_of(state, seat)
        key = (0, overt_key(overt)) if overt else (1, "")
        if self.option(state, "tie_break") == "gm":
            return (0 if seat == gm_pick else 1, *key)
        return key
