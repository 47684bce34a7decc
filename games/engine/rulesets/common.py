"""Small pieces every rule set module shares: reading seat ids from inputs, event references and
the GM's per-order report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.orders import Order
from games.engine.state import GameState, SeatState


def seat_id(value: Any) -> int | None:
    # Inputs may have passed through JSON, where keys are strings.
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def scalar(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool)) or value is None else repr(value)


def ref(seat: SeatState) -> dict[str, Any]:
    return {"seat": seat.id, "name": seat.name}


@dataclass
class Report:
    """What became of one order, for the GM's summary."""

    order: Order
    result: str = "done"  # "done" | "failed" | "rejected" (| "carried" in club)
    reason: str | None = None
    effect: dict[str, Any] = field(default_factory=dict)

    def fail(self, reason: str) -> None:
        self.result, self.reason = "failed", reason


def pick_seat(state: GameState, value: Any) -> int | None:
    """A seat named by the GM: its id, or (scenario files, hand-typed input) its display name."""
    found = seat_id(value)
    if found is not None and state.has_seat(found):
        return found
    if isinstance(value, str):
        seat = state.by_name(value.strip())
        if seat is not None:
            return seat.id
    return None


def seat_name(state: GameState, value: Any) -> str | None:
    return state.seat(value).name if isinstance(value, int) and state.has_seat(value) else None


def order_data(state: GameState, report: Report) -> dict[str, Any]:
    """The GM event's data about one order; rule sets add their own fields."""
    order = report.order
    actor = state.seat(order.actor) if state.has_seat(order.actor) else None
    return {
        "actor": order.actor,
        "actor_name": actor.name if actor else None,
        "role": actor.role if actor else None,
        "action": order.action,
        "target": order.target,
        "target_name": seat_name(state, order.target),
        "result": report.result,
        "reason": report.reason,
    }
