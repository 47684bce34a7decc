"""What resolving one phase returns: the next state, the events with their audiences, the outcome."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engine.events import Event
from games.engine.state import GameState

__all__ = ["Resolution"]


@dataclass(frozen=True)
class Resolution:
    state: GameState  # after the phase: next phase named, statuses and flags updated, over/winner set
    events: tuple[Event, ...]
    # Exactly the scenario format's outcome keys for the rule set, with seat NAMES, so that a
    # scenario's `expect` compares against it directly.
    outcome: Mapping[str, Any] = field(default_factory=dict)
