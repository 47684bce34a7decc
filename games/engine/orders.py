"""What a phase's close receives: each voter's standing vote, each actor's standing order, GM decisions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PEACE", "Order", "PhaseInputs"]

PEACE = "peace"


@dataclass(frozen=True, slots=True)
class Order:
    actor: int
    action: str  # forum: "check" | "protect" | "shoot" | "steal"
    target: int | None = None
    source: int | None = None  # "steal": whose action is stolen (the scenario format's `from`)
    # Rule-set specific particulars that are not a seat (cards: the card and the zone it is played
    # from; show: when the order arrived, for the late fee). JSON-able; forum never sets it.
    detail: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data = {"actor": self.actor, "action": self.action, "target": self.target, "source": self.source}
        if self.detail is not None:
            data["detail"] = dict(self.detail)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Order:
        return cls(
            actor=int(data["actor"]),
            action=str(data["action"]),
            target=data.get("target"),
            source=data.get("source"),
            detail=dict(data["detail"]) if data.get("detail") is not None else None,
        )


@dataclass(frozen=True)
class PhaseInputs:
    # voter seat id -> target seat id, PEACE, or None: the standing vote at the close (from the ledger)
    votes: Mapping[int, int | str | None] = field(default_factory=dict)
    # actor seat id -> his last valid order
    orders: Mapping[int, Order] = field(default_factory=dict)
    # decisions the rules leave to the GM, e.g. {"tie_break": seat_id}
    gm: Mapping[str, Any] = field(default_factory=dict)
    # Per-phase inputs only one rule set has (cards: each voter's measure vote, discards,
    # reorders); documented by that rule set, ignored by the others.
    extra: Mapping[str, Any] = field(default_factory=dict)
