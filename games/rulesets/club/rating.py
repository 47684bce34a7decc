"""The club's rating («Рейтинг»): the automatic points a finished game gives each player, one item
per rule applied (`rating_breakdown`), and the total with the best-player votes and the GM's points
(`club_rating`). Pure: no Django import. It reads the game as the club engine left it
(games.rulesets.club.engine: the seats' roles and statuses, memory["deaths"], ["day_log"],
["maniac_end"]); the engine imports it for the breakdown it shows at the game's end, so it imports
only the names they share (roles.py), not the engine.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from games.engine.rulesets.common import seat_id as _seat_id
from games.engine.state import GameState
from games.rulesets.club.roles import ACTIVE_CARDS, BLACK, CIVILIAN, KEY, MANIAC, RED, REMOVED

__all__ = ["club_rating", "rating_breakdown"]


def rating_breakdown(state: GameState, *, blunders: Iterable[int] = ()) -> list[dict[str, Any]]:
    """The automatic rating points of «Рейтинг», one item per rule applied:
    {"seat", "name", "points", "rule"}. `blunders` are the seats the GM marks for «-1 для игрока,
    который мог своим действием гарантировать победу своей команды, но ошибся (при условии, что
    он обладал всей необходимой информацией)» — a judgement the engine cannot make."""
    items: list[dict[str, Any]] = []
    memory = state.memory

    def add(seat_id: int, points: float, rule: str) -> None:
        items.append({"seat": seat_id, "name": state.seat(seat_id).name, "points": float(points), "rule": rule})

    deaths = list(memory.get("deaths") or ())
    day1 = (memory.get("day_log") or {}).get("1") or {}
    executed1 = day1.get("executed")
    finisher = day1.get("decisive")
    night1 = {d["seat"]: d["causes"] for d in deaths if d["phase"] == "night 1"}
    maniacs = [s for s in state.seats if s.role == MANIAC]

    def finished_off_red(seat_id: int) -> bool:
        return seat_id == finisher and executed1 is not None and state.seat(executed1).faction == RED

    for death in deaths:
        seat = state.seat(death["seat"])
        causes = death["causes"]
        if death["phase"] == "night 1" and "mafia" in causes and seat.role == CIVILIAN:
            add(seat.id, 1, "civilian_killed_by_mafia_night1")
        if death["phase"] in ("day 1", "revote 1") and "don" in causes and seat.role == CIVILIAN:
            add(seat.id, 1, "civilian_taken_by_don_day1")
    for seat in state.seats:
        if seat.status == REMOVED:
            add(seat.id, -3, "removed")  # «-3 за смерть по фолам, или в результате случайно открытой карты»
    for maniac in maniacs:
        for victim_id, causes in night1.items():
            if "maniac" not in causes:
                continue
            victim = state.seat(victim_id)
            if victim.faction == BLACK:
                if maniac.id not in set(day1.get("voted") or ()):
                    add(maniac.id, 1, "maniac_killed_black_night1")
            elif not finished_off_red(victim_id):
                if victim.role == CIVILIAN:
                    add(maniac.id, -1, "maniac_killed_civilian_night1")
                elif victim.role in ACTIVE_CARDS:
                    add(maniac.id, -2, "maniac_killed_active_night1")
        end = memory.get("maniac_end")
        if end == "shot":
            add(maniac.id, -1, "maniac_shot_lost_game")
        elif end == "refusal":
            add(maniac.id, -1, "maniac_refusal_lost_game")
    if finisher is not None and executed1 is not None:
        voter, victim = state.seat(finisher), state.seat(executed1)
        if voter.faction == RED and victim.faction == RED:
            if victim.role == CIVILIAN:
                add(voter.id, -1, "finished_off_civilian_day1")
            else:
                add(voter.id, -2, "finished_off_active_day1")
            if "maniac" in night1.get(voter.id, ()):
                add(voter.id, -1, "finisher_killed_by_maniac_night1")
    for seat_id in blunders:
        seat_id = _seat_id(seat_id)
        if seat_id is None or not state.has_seat(seat_id):
            raise ValueError(f"blunders: {seat_id!r} is not a player of this game")
        add(seat_id, -1, "blunder")
        if state.winner not in (None, "none", state.seat(seat_id).faction):
            add(seat_id, -2, "blunder_lost")  # «Ещё -2, если в результате его команда проиграла»
    return items


def club_rating(
    state: GameState,
    *,
    best_player_votes: Mapping[int, int] | None = None,
    gm_points: Mapping[int, float] | None = None,
    blunders: Iterable[int] = (),
) -> dict[int, float]:
    """Seat id -> rating points after the game: the automatic points (rating_breakdown), one point
    per best-player vote received («каждый игрок отдаёт рейтинговый голос лучшему, по его мнению,
    игроку»), and the GM's points («может добавить не более трёх рейтинговых голосов (суммарно на
    весь стол), или отнять не более трёх рейтинговых голосов (у каждого игрока)»)."""
    if state.ruleset != KEY:
        raise ValueError(f"club_rating rates club games, not {state.ruleset!r}")
    if not state.over:
        raise ValueError("the rating is given after the game")
    points = {s.id: 0.0 for s in state.seats}
    for item in rating_breakdown(state, blunders=blunders):
        points[item["seat"]] += item["points"]
    for voter, chosen in (best_player_votes or {}).items():
        voter_id, chosen_id = _seat_id(voter), _seat_id(chosen)
        if voter_id is None or not state.has_seat(voter_id):
            raise ValueError(f"best_player_votes: voter {voter!r} is not a player of this game")
        if chosen_id is None or not state.has_seat(chosen_id):
            raise ValueError(f"best_player_votes: {chosen!r} is not a player of this game")
        if chosen_id == voter_id:
            raise ValueError("best_player_votes: a player gives his vote to another player")
        points[chosen_id] += 1.0
    given = 0.0
    for seat, value in (gm_points or {}).items():
        seat_id = _seat_id(seat)
        if seat_id is None or not state.has_seat(seat_id):
            raise ValueError(f"gm_points: {seat!r} is not a player of this game")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"gm_points: {value!r} is not a number")
        if value < -3:
            raise ValueError("gm_points: the GM takes at most three points from a player")
        given += max(value, 0.0)
        points[seat_id] += float(value)
    if given > 3:
        raise ValueError("gm_points: the GM adds at most three points to the whole table")
    return points
