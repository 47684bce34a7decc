"""The game's state between phases: seats with roles, factions, statuses and flags; JSON round trip."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["ACTIVE", "GameState", "SeatState"]

ACTIVE = "active"


@dataclass(frozen=True, slots=True)
class SeatState:
    id: int  # the site's seat id (unique in the game)
    name: str  # display name
    role: str
    faction: str
    status: str = ACTIVE  # "active" | "killed" | "jailed" (other rule sets add values)
    flags: frozenset[str] = frozenset()  # short-lived marks such as "wounded", "granted_check"

    def __post_init__(self) -> None:
        # Callers pass sets or lists; a frozenset keeps the seat hashable and comparable.
        if not isinstance(self.flags, frozenset):
            object.__setattr__(self, "flags", frozenset(self.flags))

    @property
    def is_active(self) -> bool:
        return self.status == ACTIVE

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "role": self.role,
            "faction": self.faction,
            "status": self.status,
            "flags": sorted(self.flags),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatState:
        return cls(
            id=int(data["id"]),
            name=str(data["name"]),
            role=str(data["role"]),
            faction=str(data["faction"]),
            status=str(data.get("status", ACTIVE)),
            flags=frozenset(data.get("flags") or ()),
        )


@dataclass(frozen=True)
class GameState:
    """Immutable: a phase's resolution returns a new state. `memory` is the rule set's own
    JSON-able scratch space (club's fouls, cards' decks, show's coins) so that the core never
    has to learn their shapes."""

    ruleset: str
    seats: tuple[SeatState, ...]
    phase: str  # the phase now being played, e.g. "day 1"
    over: bool = False
    winner: str | None = None  # faction key, or "none" for no winner
    options: Mapping[str, Any] = field(default_factory=dict)
    memory: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))
        # Private copies: a caller mutating the dict it passed in must not change a past state.
        object.__setattr__(self, "options", dict(self.options))
        object.__setattr__(self, "memory", dict(self.memory))
        ids = [s.id for s in self.seats]
        if len(set(ids)) != len(ids):
            raise ValueError("seat ids must be unique in a game")

    def seat(self, seat_id: int) -> SeatState:
        for s in self.seats:
            if s.id == seat_id:
                return s
        raise KeyError(seat_id)

    def has_seat(self, seat_id: Any) -> bool:
        return any(s.id == seat_id for s in self.seats)

    def by_name(self, name: str) -> SeatState | None:
        return next((s for s in self.seats if s.name == name), None)

    def active(self) -> tuple[SeatState, ...]:
        return tuple(s for s in self.seats if s.status == ACTIVE)

    def with_seats(self, seats: Iterable[SeatState]) -> GameState:
        """The same state with some seats replaced (matched by id); seating order is kept."""
        new = {s.id: s for s in seats}
        return replace(self, seats=tuple(new.get(s.id, s) for s in self.seats))

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "seats": [s.to_json() for s in self.seats],
            "phase": self.phase,
            "over": self.over,
            "winner": self.winner,
            "options": dict(self.options),
            "memory": dict(self.memory),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameState:
        return cls(
            ruleset=str(data["ruleset"]),
            seats=tuple(SeatState.from_json(s) for s in data["seats"]),
            phase=str(data["phase"]),
            over=bool(data.get("over", False)),
            winner=data.get("winner"),
            options=dict(data.get("options") or {}),
            memory=dict(data.get("memory") or {}),
        )
