"""The show's ratings (issue 19): the table of rating changes, applied in the closes, the ally's copy
of positive gains, the history, and the normalisation to percentages.

«Каждый герой в начале каждого Шоу имеет нулевой Рейтинг»; «Все Рейтинги скрыты, их нельзя
посмотреть пока идёт Шоу»; «за полезные для своей Роли действия герой получает положительный прирост
Рейтинга, а за вредные - отрицательный». Memory keeps `ratings` {seat: total} and `rating_history`
[{stage, seat, delta, reason}]; the close's events carrying ratings go to the GM until the end.
Only a hero's own decisions count: a coma's automatic night choice earns nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from games.engine.state import GameState
from games.rulesets.show.engine.coins import RatingChange, split
from games.rulesets.show.engine.privileges import adjust_ratings
from games.rulesets.show.engine.roles import DEMON, MASON, REPTILOID, SAVIOUR

GOOD = (MASON, SAVIOUR)
BAD = (REPTILOID, DEMON)


@dataclass(frozen=True)
class Row:
    delta: int
    rule: str  # what earns it (docs/rulesets/show.md, "Ratings")
    source: str  # "seed" (the seed's example) or "completed" (ours, in the same spirit)


# Every row of the table. The seed's examples first, then the completion.
TABLE: Mapping[str, Row] = MappingProxyType(
    {
        # «+1 если герой с Ролью Масона или Спасителя голосует днём или ночью против Рептилоида или Демона»
        "good_votes_bad": Row(+1, "a Mason or the Saviour votes by day (day vote, re-vote) against a Reptiloid or "
                                  "the Demon", "seed"),
        "mason_suspects_bad": Row(+1, "a Mason's night suspicion names a Reptiloid or the Demon («ночью»)", "seed"),
        # «-1 если Масон голосует днём против Спасителя»
        "mason_votes_saviour": Row(-1, "a Mason votes by day against the Saviour", "seed"),
        # «+2 если герой будучи Судьёй в Роли Масона или Спасителя отправляет подсудимого с Ролью
        # Рептилоида или Демона в рабство днём»
        "good_judge_enslaves_bad": Row(+2, "a Mason or Saviour judge enslaves a Reptiloid or the Demon", "seed"),
        # «-2 если герой будучи Судьёй в Роли Масона отправляет в рабство Спасителя»
        "mason_judge_enslaves_saviour": Row(-2, "a Mason judge enslaves the Saviour", "seed"),
        # The completion: the bad roles' useful and harmful acts, mirrored on the seed's rows
        # («отправляйте в рабство самых опасных противников, особенно Демона и Спасителя»).
        "bad_votes_enemy": Row(+1, "a Reptiloid votes by day against the Demon or the Saviour; the Demon against "
                                   "the Saviour or a Reptiloid", "completed"),
        "reptiloid_votes_partner": Row(-1, "a Reptiloid votes by day against his partner (as a Mason against the "
                                           "Saviour)", "completed"),
        "bad_judge_enslaves_enemy": Row(+2, "a Reptiloid or Demon judge enslaves his enemy (as above)", "completed"),
        "reptiloid_judge_enslaves_partner": Row(-2, "a Reptiloid judge enslaves his partner", "completed"),
        "bad_takes_enemy": Row(+2, "a night's enslavement takes the chooser's enemy (each Reptiloid who named "
                                   "the victim; the Demon)", "completed"),
        "saviour_saves": Row(+2, "the Saviour's save stops a night attack", "completed"),
        # «Если герой получает положительный прирост Рейтинга за какое-то своё действие, то и его
        # Союзник получает себе такой же плюс к Рейтингу.»
        "ally_gain": Row(0, "the ally's positive gain, copied (the same delta)", "seed"),
    }
)


def enemy(role_of_actor: str, role_of_target: str, same_team: bool) -> bool:
    """Whom a hero's role wants enslaved: a Reptiloid or the Demon for the good roles; the Demon or
    the Saviour for a Reptiloid; the Saviour or a Reptiloid for the Demon."""
    if role_of_actor in GOOD:
        return role_of_target in BAD
    if role_of_actor == REPTILOID:
        return role_of_target in (DEMON, SAVIOUR)
    if role_of_actor == DEMON:
        return role_of_target in (SAVIOUR, REPTILOID)
    return False


def vote_rows(actor: str, target: str, *, same_team: bool) -> list[str]:
    """The rows a day ballot (day vote, re-vote, «В рабство» for a single defendant) earns. «На
    повторных голосованиях с одним подсудимым за пощаду Рейтинг никому не начисляется»: a spare
    ballot is never passed here."""
    rows = []
    if actor in GOOD and target in BAD:
        rows.append("good_votes_bad")
    if actor == MASON and target == SAVIOUR:
        rows.append("mason_votes_saviour")
    if actor in BAD and enemy(actor, target, same_team):
        rows.append("bad_votes_enemy")
    if actor == REPTILOID and target == REPTILOID:
        rows.append("reptiloid_votes_partner")
    return rows


def judge_rows(actor: str, target: str) -> list[str]:
    rows = []
    if actor in GOOD and target in BAD:
        rows.append("good_judge_enslaves_bad")
    if actor == MASON and target == SAVIOUR:
        rows.append("mason_judge_enslaves_saviour")
    if actor in BAD and enemy(actor, target, False):
        rows.append("bad_judge_enslaves_enemy")
    if actor == REPTILOID and target == REPTILOID:
        rows.append("reptiloid_judge_enslaves_partner")
    return rows


class Rater:
    """The close's rating changes: each row applied to a hero, his ally's copy of a gain, memory's
    totals and history."""

    def __init__(self, state: GameState, memory: dict[str, Any]) -> None:
        self.state = state
        self.memory = memory
        memory.setdefault("ratings", {})
        memory.setdefault("rating_history", [])
        self.changes: list[RatingChange] = []

    def ally_of(self, seat: int) -> int | None:
        partner = (self.memory.get("allies") or {}).get(str(seat))
        return None if partner is None else int(partner)

    def add(self, seat: int, row: str, detail: str = "") -> None:
        delta = TABLE[row].delta
        self._apply(seat, delta, row, detail)
        ally = self.ally_of(seat)
        if delta > 0 and ally is not None:
            self._apply(ally, delta, "ally_gain", self.state.seat(seat).name)

    def _apply(self, seat: int, delta: int, reason: str, detail: str) -> None:
        if delta == 0:
            return
        # part 3: «Гений удваивает любые (положительные и отрицательные) изменения Рейтинга»
        (change,) = adjust_ratings(self.state, [RatingChange(seat, delta, reason, detail)])
        delta = change.delta
        ratings = self.memory["ratings"]
        ratings[str(seat)] = int(ratings.get(str(seat), 0)) + delta
        self.memory["rating_history"].append({"stage": self.state.phase, "seat": seat, "delta": delta,
                                              "reason": reason, "detail": detail})
        self.changes.append(RatingChange(seat, delta, reason, detail))

    def ballot(self, voter: int, target: int) -> None:
        actor, victim = self.state.seat(voter), self.state.seat(target)
        for row in vote_rows(actor.role, victim.role, same_team=actor.faction == victim.faction):
            self.add(voter, row, victim.name)

    def judged(self, judge: int, target: int) -> None:
        for row in judge_rows(self.state.seat(judge).role, self.state.seat(target).role):
            self.add(judge, row, self.state.seat(target).name)


def rating_of(memory: Mapping[str, Any], seat: int) -> int:
    return int((memory.get("ratings") or {}).get(str(seat), 0))


def weights(ratings: Mapping[Any, int]) -> dict[Any, int]:
    """The weights a split by rating uses (A18, C5): a rating below zero weighs 0; when nobody has a
    positive rating everyone weighs the same (1)."""
    positive = {k: max(int(v), 0) for k, v in ratings.items()}
    if not any(positive.values()):
        return dict.fromkeys(ratings, 1)
    return positive


def percents(ratings: Mapping[Any, int]) -> dict[Any, float]:
    """«все набранные Рейтинги нормируются в проценты (суммарно у всех героев 100%)»: each hero's
    share of the weights (above) in hundredths of a percent, split exactly, so the sum is 100.00."""
    if not ratings:
        return {}
    basis = split(10_000, weights(ratings))
    return {k: basis.get(k, 0) / 100 for k in ratings}
