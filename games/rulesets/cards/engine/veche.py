"""The Veche: the day's vote for a character or for peace, the measure vote (execution or prison),
and the reading of the measure from a post's bold text.

«Днем каждый персонаж может публично отдать голос за любого персонажа. Заявку на голос можно менять
сколько угодно. Также можно проголосовать "за мир". Кроме этого днём проводится голосование за меру
наказания - казнь или тюрьма. При равенстве голосов побеждает тюрьма.»
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from games.engine.votecount import PEACE as PEACE_BALLOT
from games.engine.votecount import VOTE, Ballot, tally

__all__ = ["EXECUTION", "MEASURES", "PRISON", "VecheResult", "count_veche", "parse_measure"]

EXECUTION, PRISON = "execution", "prison"
MEASURES = (EXECUTION, PRISON)
PEACE = "peace"


@dataclass(frozen=True)
class VecheResult:
    votes: Mapping[int, int | str | None]  # every voter's standing vote (seat, "peace" or None)
    measures: Mapping[int, str | None]
    tally: Mapping[int | str, float]  # target seat (or "peace") -> weight, heaviest first
    measure_tally: Mapping[str, float]
    leaders: tuple[int, ...] = ()  # the characters with the most votes, before the tie-break
    leader: int | None = None  # who is punished (None: nobody)
    measure: str | None = None  # the measure applied to the leader
    peace: bool = False  # a strict majority for peace, or two players left
    reason: str = ""  # "peace_majority" | "two_left" | "no_votes" | "" (someone punished)
    weights: Mapping[int, float] = field(default_factory=dict)


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def count_veche(
    *,
    voters: Sequence[int],
    alive: Sequence[int],
    votes: Mapping[int, int | str | None],
    measures: Mapping[int, str | None],
    weight: Callable[[int], float],
    tie_key: Callable[[int], tuple],
    weigh_measure: bool = True,
) -> VecheResult:
    """Count one day. `voters` and `alive` in seating order; `weight(seat)` is the strength of a
    seat's vote; `tie_key(seat)` orders tied leaders (the first is punished).

    - «Если строгое большинство голосов "за мир", то казни и посадки не происходит»: peace needs
      more than half of the weight of the votes cast (for a character or for peace).
    - «Также их не происходит, если остались два игрока, независимо от силы голоса.»
    - Otherwise the character with the most votes is the leader, whatever the peace wagon holds.
    - The measure: execution only when it has strictly more weight than prison («При равенстве
      голосов побеждает тюрьма», so no measure vote at all is prison too). The measure votes count
      with the vote strengths unless `weigh_measure` is false (the GM's option `measure_weight`):
      then every measure vote counts 1."""
    weights = {v: float(weight(v)) for v in voters}
    ballots = []
    standing: dict[int, int | str | None] = {}
    for order, voter in enumerate(voters):
        vote = votes.get(voter)
        standing[voter] = vote
        if vote == PEACE:
            ballots.append(Ballot(voter=voter, kind=PEACE_BALLOT, order=order))
        elif isinstance(vote, int):
            ballots.append(Ballot(voter=voter, kind=VOTE, target=vote, order=order))
    count = tally(ballots, voters=list(voters), targets=list(alive), weights=weights)
    seat_order = {s: i for i, s in enumerate(alive)}
    by_target = {w.target: float(w.weight) for w in count.wagons}
    peace_weight = by_target.pop(None, 0.0)
    table: dict[int | str, float] = {
        t: _number(w) for t, w in sorted(by_target.items(), key=lambda kv: (-kv[1], seat_order.get(kv[0], 0)))
    }
    if peace_weight:
        table[PEACE] = _number(peace_weight)
    measure_weights = {EXECUTION: 0.0, PRISON: 0.0}
    standing_measures: dict[int, str | None] = {}
    for voter in voters:
        measure = measures.get(voter)
        measure = measure if measure in MEASURES else None
        standing_measures[voter] = measure
        if measure is not None:
            measure_weights[measure] += weights[voter] if weigh_measure else 1.0
    measure_tally = {k: _number(v) for k, v in measure_weights.items()}
    result = dict(votes=standing, measures=standing_measures, tally=table, measure_tally=measure_tally,
                  weights={k: _number(v) for k, v in weights.items()})
    cast = peace_weight + sum(by_target.values())
    if len(alive) <= 2:
        return VecheResult(**result, peace=True, reason="two_left")
    if peace_weight * 2 > cast:
        return VecheResult(**result, peace=True, reason="peace_majority")
    top = max(by_target.values(), default=0.0)
    leaders = tuple(sorted((t for t, w in by_target.items() if w == top and top > 0), key=seat_order.__getitem__))
    if not leaders:
        return VecheResult(**result, reason="no_votes")
    leader = min(leaders, key=lambda s: (tie_key(s), seat_order[s]))
    measure = EXECUTION if measure_weights[EXECUTION] > measure_weights[PRISON] else PRISON
    return VecheResult(**result, leaders=leaders, leader=leader, measure=measure)


# -- reading the measure from a post --------------------------------------------------------------

# Text that casts nothing: quotes, strike-through, code, private messages and spoilers.
_HIDDEN = ("quote", "s", "code", "private", "spoiler", "img")
_HIDDEN_RE = re.compile(
    r"\[(%s)(?:=[^\]]*)?\].*?\[/\1\]" % "|".join(_HIDDEN), re.IGNORECASE | re.DOTALL
)
_BOLD_RE = re.compile(r"\[b\](.*?)\[/b\]", re.IGNORECASE | re.DOTALL)
_TAG_RE = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.IGNORECASE)
# Words (lower-cased) that name a measure. «казнь», «казнить», «на казнь», «за казнь», «казним»;
# «тюрьма», «в тюрьму», «за тюрьму», «посадить», «сажаем», «заключение».
_WORD_RE = re.compile(r"[a-zа-яё]+")
_EXECUTION_STEMS = ("казн", "execut")
_PRISON_STEMS = ("тюрьм", "тюрем", "посад", "сажа", "заключ", "prison", "jail")
_NEGATIONS = {"не", "ни", "без", "против", "no", "not"}


def _measure_of_word(word: str) -> str | None:
    if word.startswith(_EXECUTION_STEMS):
        return EXECUTION
    if word.startswith(_PRISON_STEMS):
        return PRISON
    return None


def parse_measure(text: str) -> str | None:
    """The measure a post votes for: the last measure word in bold text, outside quotes and hidden
    tags. «[b]казнь[/b]», «[b]Казнить Васю[/b]», «[b]мера: тюрьма[/b]», «[b]в тюрьму![/b]». A
    measure word right after a negation («[b]не казнить[/b]», «[b]против казни[/b]») casts
    nothing. None when the post names no measure."""
    if not text or "[" not in text:
        return None
    visible = text
    while True:
        stripped = _HIDDEN_RE.sub(" ", visible)
        if stripped == visible:
            break
        visible = stripped
    found: str | None = None
    for bold in _BOLD_RE.findall(visible):
        words = _WORD_RE.findall(_TAG_RE.sub(" ", bold).lower())
        for i, word in enumerate(words):
            measure = _measure_of_word(word)
            if measure is None:
                continue
            if i > 0 and words[i - 1] in _NEGATIONS:
                continue
            found = measure
    return found
