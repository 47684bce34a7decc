"""The vote count: who is on whose wagon, the majority and L-n, from an ordered list of ballots.

Pure and deterministic: the same ballots give the same count. The ledger (games.models.VoteRecord)
supplies the ballots; rule sets supply the voters and their weights.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import NamedTuple

VOTE = "vote"
UNVOTE = "unvote"
PEACE = "peace"


class Ballot(NamedTuple):
    """One post's reading. A named tuple, not a frozen dataclass: a day of 100,000 votes builds
    100,000 of them per recount, and a tuple is built in half the time (docs/performance.md,
    "Growth")."""

    voter: int  # seat id
    kind: str  # VOTE | UNVOTE | PEACE
    target: int | None = None  # seat id for VOTE
    post_number: int | None = None  # where it was cast (for links)
    order: int = 0  # position in the day (the post number)


@dataclass(frozen=True, slots=True)
class Wagon:
    target: int | None  # seat id, or None for the peace wagon
    voters: tuple[tuple[int, int | None], ...]  # (voter seat id, post number) in the order they joined
    weight: int
    to_majority: int  # the "L-n": how many more votes reach the majority (0 = reached)
    last_order: int = 0

    @property
    def is_peace(self) -> bool:
        return self.target is None


@dataclass(frozen=True)
class VoteCount:
    wagons: tuple[Wagon, ...]
    not_voting: tuple[int, ...]  # eligible voters with no current vote, in seat order
    majority: int
    total_weight: int
    current: Mapping[int, Ballot] = field(default_factory=dict)  # voter -> his standing ballot

    @property
    def leaders(self) -> tuple[Wagon, ...]:
        top = max((w.weight for w in self.wagons), default=0)
        return tuple(w for w in self.wagons if w.weight == top and top > 0)

    @property
    def majority_reached(self) -> Wagon | None:
        return next((w for w in self.wagons if w.to_majority <= 0), None)


@dataclass(frozen=True)
class CloseCount:
    """A day's votes as a rule set's close counts them (a Ruleset's optional `count_at_close`),
    which may differ from the votes cast: the forum's close counts each voter who has not voted as
    voting for himself. The counts the site shows ask it for who leads, so that they name whom the
    close will find level (docs/votes.md, "Leaders at the close")."""

    votes: Mapping[int, int]  # voter -> the target his vote counts for
    defaulted: frozenset[int]  # the voters whose counted vote is the rules' default, not one cast
    weights: Mapping[int, int]  # target -> its votes, heaviest first
    leaders: tuple[int, ...]  # the targets with the most votes, in seat order

    @property
    def top(self) -> int:
        return max(self.weights.values(), default=0)


def majority_of(total_weight: int) -> int:
    """More than half of all the votes that can be cast."""
    return total_weight // 2 + 1


def tally(
    ballots: Iterable[Ballot],
    *,
    voters: Sequence[int],
    targets: Iterable[int] | None = None,
    weights: Mapping[int, int] | None = None,
    majority: int | None = None,
    as_of: int | None = None,
) -> VoteCount:
    """Count the day. `voters` are the seats allowed to vote, in seat order; ballots of anyone
    else are ignored. Each voter's last ballot (by `order`) stands; an unvote clears it, and so
    does a last vote for a seat outside `targets` (when given: a player who left the game after
    the vote). `as_of` counts only ballots with order <= as_of (the count as of a post).

    Wagons are ordered by weight, heaviest first; between equal weights the wagon that got
    there first (its latest joiner voted earliest) comes first, as GMs read ties.
    """
    weights = weights or {}
    eligible = set(voters)
    allowed_targets = set(targets) if targets is not None else None
    current: dict[int, Ballot] = {}
    by_order = attrgetter("order")
    for ballot in sorted(ballots, key=by_order):
        if as_of is not None and ballot.order > as_of:
            break
        if ballot.voter not in eligible:
            continue
        if ballot.kind == UNVOTE:
            current.pop(ballot.voter, None)
        elif ballot.kind == PEACE:
            current[ballot.voter] = ballot
        elif ballot.kind == VOTE:
            if allowed_targets is None or ballot.target in allowed_targets:
                current[ballot.voter] = ballot
            else:
                # His last vote names a player who left the game after it (a modkill, a
                # replacement's end): it stands for nobody now, and an earlier vote of his does
                # not come back (only the last vote counts; the close reads it so too).
                current.pop(ballot.voter, None)

    total_weight = sum(weights.get(v, 1) for v in voters)
    needed = majority if majority is not None else majority_of(total_weight)
    grouped: dict[int | None, list[Ballot]] = {}
    for ballot in sorted(current.values(), key=by_order):
        grouped.setdefault(ballot.target if ballot.kind == VOTE else None, []).append(ballot)
    wagons = []
    for target, on_wagon in grouped.items():
        weight = sum(weights.get(b.voter, 1) for b in on_wagon)
        wagons.append(
            Wagon(
                target=target,
                voters=tuple((b.voter, b.post_number) for b in on_wagon),
                weight=weight,
                to_majority=max(needed - weight, 0),
                last_order=on_wagon[-1].order,
            )
        )
    wagons.sort(key=lambda w: (-w.weight, w.last_order))
    not_voting = tuple(v for v in voters if v not in current)
    return VoteCount(wagons=tuple(wagons), not_voting=not_voting, majority=needed, total_weight=total_weight,
                     current=dict(current))
