"""The abilities players act with (issue 17): one registry of specs, read the same way by the engine,
the site's service and its pages. Pure: no Django import.

An ability belongs to the holder of an overt role (`overt`, compared with roles.overt_key) or of a
secret role (`secret`); it is used in the phases it names, so many times a game and a phase, and
acts either

    at once ("now"):  «в любой момент», «мгновенно» — CardsRuleset.act_now applies it to the
                      state there and then (the site does it under a lock and logs it), or
    at the close ("close"): it stands like a play and is handed to the close as
                      `PhaseInputs.extra["abilities"]`, a list of {"by", "ability", ...} in the order
                      the inputs were made; the last one of the same ability by the same player counts.

Each spec gives its `check` (a REASONS code or None, on the state as it is), its `choices` (what the
pages offer: valid targets, cards), and its effect: `apply` for "now" (changes an `Act`), `close`
for "close" (changes the close's context; returns a REASONS code when it no longer may stand).
Other modules register their abilities with `register`; ruleset.py imports them.

Memory (`state.memory`):
    "abilities": {seat: {key: {"game": uses, "phase": phase name, "in_phase": uses}}}
    "phase_abilities": [{"by", "ability", "result", "at_once", "phase"}]  the phase's uses so far
    "phase_start": {"phase", "hands", "sleeves"}   the containers before the first at-once use of a
                                                   phase, so the close's outcome shows all of the phase's changes
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from games.engine.events import GM, PUBLIC, Event, seat_audience
from games.engine.rulesets.common import pick_seat
from games.engine.rulesets.common import ref as _ref
from games.engine.state import ACTIVE, GameState
from games.rulesets.cards.engine.context import DAY, DECKBUILDING, NIGHT, collection_of, living_other
from games.rulesets.cards.engine.effects import Table
from games.rulesets.cards.engine.roles import JOKER, overt_key, overt_role, winner_of, winners

NOW, CLOSE = "now", "close"



@dataclass
class Act:
    """One at-once use being applied: a deep copy of the memory to change, the seats' statuses, the
    events, and what the player is told (`result`, into his `ability` event)."""

    state: GameState
    seat: int
    data: dict[str, Any]
    memory: dict[str, Any]
    table: Table
    rng: random.Random
    status: dict[int, str]
    events: list[Event] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    winner: str | None = None  # the game ends at once with this winner
    won_by: list[int] | None = None  # who wins, when not the winner faction's seats (the joker)

    def name(self, seat_id: int | None) -> str | None:
        return self.state.seat(seat_id).name if seat_id is not None and self.state.has_seat(seat_id) else None


@dataclass(frozen=True)
class Ability:
    key: str
    seed: str  # the seed's sentence
    overt: str = ""  # the overt role's name (OVERT_ROLES) whose holder has it
    secret: str = ""  # or the secret role's key
    phases: tuple[str, ...] = (NIGHT, DAY)
    when: str = NOW
    per_game: int | None = None
    per_phase: int | None = None
    fields: tuple[str, ...] = ()  # the inputs it takes: target, target2, card, cards, zone, mode, roles
    check: Callable[[Any, GameState, int, Mapping[str, Any]], str | None] | None = None
    choices: Callable[[Any, GameState, int], dict[str, list[Any]]] | None = None
    ready: Callable[[Any, GameState, int], bool] | None = None  # offered on the pages only when True
    confirm: bool = False  # the page asks the player to confirm first (a wrong joker's list takes him out)
    apply: Callable[[Any, Act], None] | None = None  # NOW
    close: Callable[[Any, Any, int, Mapping[str, Any]], str | None] | None = None  # CLOSE: (ruleset, _Close, seat, data)


ABILITIES: dict[str, Ability] = {}


def register(ability: Ability) -> Ability:
    if ability.key in ABILITIES:
        raise ValueError(f"ability {ability.key!r} is registered twice")
    if ability.when not in (NOW, CLOSE) or (ability.when == NOW) != (ability.apply is not None):
        raise ValueError(f"ability {ability.key!r}: 'now' abilities have an apply, 'close' ones a close")
    if ability.when == CLOSE and ability.close is None:
        raise ValueError(f"ability {ability.key!r}: a 'close' ability needs its close")
    ABILITIES[ability.key] = ability
    return ability


def owns(state: GameState, seat: int, ability: Ability) -> bool:
    if ability.secret and state.seat(seat).role != ability.secret:
        return False
    if ability.overt:
        role = overt_role(state.memory.get("overt", {}).get(str(seat), ""))
        if role is None or overt_key(role.name) != overt_key(ability.overt):
            return False
    return bool(ability.secret or ability.overt)


def uses(memory: Mapping[str, Any], seat: int, key: str, phase: str) -> tuple[int, int]:
    """(uses this game, uses this phase)."""
    book = memory.get("abilities", {}).get(str(seat), {}).get(key) or {}
    in_phase = int(book.get("in_phase", 0)) if book.get("phase") == phase else 0
    return int(book.get("game", 0)), in_phase


def count_use(memory: dict[str, Any], seat: int, key: str, phase: str) -> None:
    book = memory.setdefault("abilities", {}).setdefault(str(seat), {}).setdefault(key, {})
    if book.get("phase") != phase:
        book["phase"], book["in_phase"] = phase, 0
    book["game"] = int(book.get("game", 0)) + 1
    book["in_phase"] = int(book.get("in_phase", 0)) + 1


def log_use(memory: dict[str, Any], entry: dict[str, Any]) -> None:
    memory.setdefault("phase_abilities", []).append(entry)


def generic_check(state: GameState, seat: int, key: str) -> str | None:
    """Who may use an ability now, before its own check: a living player of a running phase who
    holds it, within its phases and its uses."""
    if state.over:
        return "game_over"
    if not state.has_seat(seat):
        return "not_a_player"
    if not state.seat(seat).is_active:
        return "not_alive"
    ability = ABILITIES.get(key)
    if ability is None:
        return "no_such_ability"
    if not owns(state, seat, ability):
        return "not_your_ability"
    if state.phase == DECKBUILDING:
        return "wrong_phase"
    kind = state.phase.partition(" ")[0]
    if kind not in ability.phases:
        return "wrong_phase"
    game_uses, phase_uses = uses(state.memory, seat, key, state.phase)
    if ability.per_game is not None and game_uses >= ability.per_game:
        return "used_up"
    if ability.per_phase is not None and phase_uses >= ability.per_phase:
        return "used_this_phase"
    return None


# -- helpers for the specs -----------------------------------------------------------------------


def seat_field(state: GameState, data: Mapping[str, Any], key: str = "target") -> int | None:
    value = data.get(key) if isinstance(data, Mapping) else None
    return pick_seat(state, value) if value is not None else None


def other_living_target(state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    """The check of an ability's `target`: «Целью можно выбрать любого живого персонажа, кроме себя.»
    None when it stands, else a REASONS code."""
    if data.get("target") is None:
        return "missing_target"
    target = seat_field(state, data)
    return "bad_target" if target is None else living_other(state, seat, target)


def game_over_event(ruleset: Any, state: GameState, new_state: GameState, winner: str,
                    won: list[int] | None = None) -> Event:
    """The `game_over` event, as a close ends the game with it."""
    won = won if won is not None else winners(winner, new_state.seats)
    return Event("game_over", PUBLIC, {
        "winner": winner,
        "winners": [_ref(new_state.seat(i)) for i in won],
        "seats": [{**_ref(s), "role": s.role, "faction": s.faction, "status": s.status,
                   "overt": ruleset.overt_of(state, s.id)} for s in new_state.seats],
    })


@dataclass(frozen=True)
class ActResult:
    """What act_now gives back: the new state (the old one when refused), its events, the refusal
    code (None when it acted) and what the player is told."""

    state: GameState
    events: tuple[Event, ...] = ()
    reason: str | None = None
    result: Mapping[str, Any] = field(default_factory=dict)


class AbilitiesMixin:
    """A part of CardsRuleset (ruleset.py), not used alone: the abilities' checks, the at-once
    application and the close's step that takes the phase-end ones."""

    abilities: Mapping[str, Ability] = ABILITIES

    def check_ability(self, state: GameState, seat: int, key: str, data: Mapping[str, Any] | None = None) -> str | None:
        """None if `seat` may use ability `key` with `data` now, else a REASONS code."""
        reason = generic_check(state, seat, key)
        if reason is not None:
            return reason
        ability = ABILITIES[key]
        if not isinstance(data or {}, Mapping):
            return "bad_input"
        return ability.check(self, state, seat, dict(data or {})) if ability.check else None

    def abilities_available(self, state: GameState, seat: int) -> tuple[str, ...]:
        """The abilities this player may use now (each still checked with its input when used)."""
        out = []
        for key, ability in ABILITIES.items():
            if generic_check(state, seat, key) is None and (ability.ready is None or ability.ready(self, state, seat)):
                out.append(key)
        return tuple(out)

    def ability_choices(self, state: GameState, seat: int, key: str) -> dict[str, list[Any]]:
        """What the pages offer for each of the ability's inputs (valid targets, cards ...)."""
        ability = ABILITIES.get(key)
        if ability is None or ability.choices is None:
            return {}
        return ability.choices(self, state, seat)

    def act_now(self, state: GameState, seat: int, key: str, data: Mapping[str, Any] | None = None, *,
                seed: int) -> ActResult:
        """Use an at-once ability: pure and deterministic for (state, seat, key, data, seed). A
        refusal changes nothing. The events: the player's `ability` event (what happened, in his
        words), the GM's log line (`ability`, at once), and the ability's own public events."""
        data = dict(data or {})
        reason = self.check_ability(state, seat, key, data)
        if reason is None and ABILITIES[key].when != NOW:
            reason = "not_your_action"
        if reason is not None:
            return ActResult(state=state, reason=reason)
        ability = ABILITIES[key]
        memory = copy.deepcopy(dict(state.memory))
        table = Table(memory, collection_of(state))
        start = memory.get("phase_start")
        if not start or start.get("phase") != state.phase:
            alive = [s.id for s in state.seats if s.status == ACTIVE]
            memory["phase_start"] = {"phase": state.phase,
                                     "hands": {str(i): list(table.hand(i)) for i in alive},
                                     "sleeves": {str(i): table.sleeve_names(i) for i in alive}}
        act = Act(state=state, seat=seat, data=data, memory=memory, table=table, rng=random.Random(seed),
                  status={s.id: s.status for s in state.seats})
        ability.apply(self, act)
        count_use(memory, seat, key, state.phase)
        log_use(memory, {"by": seat, "ability": key, "result": "done", "at_once": True, "phase": state.phase})
        seats = tuple(replace(s, status=act.status[s.id]) for s in state.seats)
        winner = act.winner
        if winner is None and seats != state.seats:
            winner = winner_of([s.faction for s in seats if s.status == ACTIVE])
        new_state = replace(state, seats=seats, memory=memory, over=winner is not None, winner=winner)
        seat_ref = _ref(state.seat(seat))
        data_out = {**seat_ref, "ability": key, "at_once": True, "phase": state.phase, **act.result}
        events = [Event("ability", seat_audience(seat), data_out), Event("ability", GM, data_out), *act.events]
        if winner is not None:
            won = act.won_by if winner == JOKER and act.won_by is not None else None
            events.append(game_over_event(self, state, new_state, winner, won))
        return ActResult(state=new_state, events=tuple(events), result=dict(act.result))

    # -- the close ---------------------------------------------------------------------------------

    def _take_abilities(self, ctx: Any) -> None:
        """The phase-end abilities standing at the close (`extra["abilities"]`): the last of the
        same ability by the same player counts, taken in the order they were made; each checked
        again on the close's state, then applied by its spec."""
        raw = ctx.inputs.extra.get("abilities") or []
        standing: dict[tuple[int, str], tuple[int, Mapping[str, Any]]] = {}
        for index, item in enumerate(raw if isinstance(raw, list) else []):
            if not isinstance(item, Mapping):
                continue
            by = pick_seat(ctx.state, item.get("by"))
            if by is None:
                ctx.gm_note("input_ignored", given=str(item.get("by")), reason="not_a_player")
                continue
            standing[(by, str(item.get("ability")))] = (index, item)
        for (by, key), (_index, item) in sorted(standing.items(), key=lambda kv: kv[1][0]):
            data = {k: v for k, v in item.items() if k not in ("by", "ability")}
            ability = ABILITIES.get(key)
            reason = None if ctx.alive(by) else "not_alive"
            if reason is None:
                reason = self.check_ability(ctx.state, by, key, data)
            if reason is None and ability.when != CLOSE:
                reason = "not_your_action"
            if reason is None:
                reason = ability.close(self, ctx, by, data)
            if reason is None:
                count_use(ctx.memory, by, key, ctx.state.phase)
            entry = {"by": by, "ability": key, "result": "done" if reason is None else "refused",
                     "reason": reason, "at_once": False, "phase": ctx.state.phase}
            log_use(ctx.memory, entry)
            ctx.report(by).setdefault("abilities", []).append(
                {"ability": key, "result": entry["result"], "reason": reason, **ctx.ability_notes.pop((by, key), {})})
            ctx.gm_note("ability", **_ref(ctx.seat(by)), ability=key, at_once=False, result=entry["result"],
                        reason=reason)


def phase_abilities_outcome(memory: dict[str, Any], phase: str, names: Mapping[int, str]) -> dict[str, list[str]]:
    """The phase's ability uses for the outcome (popped from the memory): {player: [key, ...]} in
    the order they acted, a refused phase-end one as "key: reason"."""
    out: dict[str, list[str]] = {}
    for row in memory.pop("phase_abilities", []):
        if row.get("phase") != phase:
            continue
        text = row["ability"] if row["result"] == "done" else f"{row['ability']}: {row.get('reason')}"
        out.setdefault(str(names.get(row["by"], row["by"])), []).append(text)
    return out
