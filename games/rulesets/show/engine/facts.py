"""Facts read from a show's state that every part of the engine asks: slaves, coma, today's judge."""

from __future__ import annotations

from typing import Any

from games.engine.rulesets.common import seat_id
from games.engine.state import GameState
from games.rulesets.show.engine.stages import parse_phase

SLAVE = "enslaved"  # SeatState.status of a slave: «Рабство это ещё не конец»


def ids(values: Any) -> list[int]:
    return [i for i in (seat_id(v) for v in (values or ())) if i is not None]


def id_map(values: Any) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for key, value in dict(values or {}).items():
        k = seat_id(key)
        if k is not None:
            out[k] = value
    return out


def in_coma(state: GameState, hero: int) -> bool:
    return str(hero) in (state.memory.get("coma") or {})


def coma_missed(state: GameState, hero: int) -> int | None:
    """Stages missed in this coma (None: awake). «Спит» while at most one is missed."""
    value = (state.memory.get("coma") or {}).get(str(hero))
    return None if value is None else int(value)


def judge_sits(state: GameState, hero: int | None) -> bool:
    """Whether the hero may sit as the judge: a free hero, or with `judge_from: all` (A9, issue 28)
    a slave too («среди всех героев, которые не находятся в Коме»); never one in coma."""
    if hero is None or not state.has_seat(hero) or in_coma(state, hero):
        return False
    seat = state.seat(hero)
    return seat.is_active or (seat.status == SLAVE and state.options.get("judge_from") == "all")


def judge_today(state: GameState) -> int | None:
    """The judge of the current day, if any (drawn in the morning before it)."""
    judge = state.memory.get("judge")
    if judge is None:
        return None
    _kind, number = parse_phase(state.phase)
    return int(judge) if int(state.memory.get("judge_day") or 0) == number else None




def holders(state: GameState, privilege: str) -> list[int]:
    """The heroes holding a privilege (part 3), in seating order; none when the show has none."""
    held = state.memory.get("privileges") or {}
    return [s.id for s in state.seats if privilege in (held.get(str(s.id)) or ())]


def holds(state: GameState, hero: int | None, privilege: str) -> bool:
    return hero is not None and privilege in ((state.memory.get("privileges") or {}).get(str(hero)) or ())


def priv_memory(state: GameState) -> dict[str, Any]:
    """The privileges' own bookkeeping (stuns used, exclusions, the Hacker's open knowledge, ...)."""
    return dict(state.memory.get("priv") or {})
