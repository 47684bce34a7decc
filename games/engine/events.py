"""Events a resolution produces and the one rule that says who may see each of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GM", "PUBLIC", "Event", "faction_audience", "seat_audience", "visible_to"]

PUBLIC = "public"
GM = "gm"
_FACTION = "faction:"
_SEAT = "seat:"


def faction_audience(faction: str) -> str:
    return f"{_FACTION}{faction}"


def seat_audience(seat_id: int) -> str:
    return f"{_SEAT}{seat_id}"


@dataclass(frozen=True)
class Event:
    kind: str  # "jailed", "killed", "check_result", "game_over", ... (each rule set documents its own)
    audience: str  # PUBLIC | GM | "faction:<key>" | "seat:<id>"
    data: Mapping[str, Any] = field(default_factory=dict)  # JSON-able, string keys only

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience, "data": dict(self.data)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(kind=str(data["kind"]), audience=str(data["audience"]), data=dict(data.get("data") or {}))


def visible_to(event: Event, *, seat_id: int | None, faction: str | None, is_gm: bool, game_over: bool) -> bool:
    """THE audience rule. Once the game is over the archive is unsealed: everyone sees everything.
    An audience this function does not know is treated as secret (GMs only), so a typo never leaks."""
    audience = event.audience
    if audience == PUBLIC or game_over or is_gm:
        return True
    if audience.startswith(_FACTION):
        return faction is not None and audience[len(_FACTION) :] == faction
    if audience.startswith(_SEAT):
        return seat_id is not None and audience[len(_SEAT) :] == str(seat_id)
    return False
