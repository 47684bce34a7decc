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

    def to_json(self) -> dict[str, Any]:
        return {"actor": self.actor, "action": self.action, "target": self.target, "source": self.source}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Order:
        return cls(
            actor=int(data["actor"]),
            action=str(data["action"]),
            target=data.get("target"),
            source=data.get("source"),
        )


@dataclass(frozen=True)
class PhaseInputs:
    # voter seat id -> target seat id, PEACE, or None: the standing vote at the close (from the ledger)
    votes: Mapping[int, int | str | None] = field(default_factory=dict)
    # actor seat id -> his last valid order
    orders: Mapping[int, Order] = field(default_factory=dict)
    # decisions the rules leave to the GM, e.g. {"tie_break": seat_id}
    gm: Mapping[str, Any] = field(default_factory=dict)
