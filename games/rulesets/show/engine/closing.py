"""What a stage's close offers the modules it calls (issue 28, "The package shows its parts").

`close.StageClose` runs a stage's close and hands itself to alliances, bets, economy, money,
privileges, settlement and trials. They read and write it through this protocol, so none of them
imports close.py back (not even for a type): every arrow in the engine points from close.py out.
The protocol is structural: StageClose satisfies it without naming it (tests/engine check it)."""

from __future__ import annotations

import random
from typing import Any, Protocol

from games.engine.events import Event
from games.engine.orders import PhaseInputs
from games.engine.state import GameState


class Closing(Protocol):
    rules: Any  # the ShowRuleset closing the stage (its options, stage lengths and roles)
    start: GameState  # the state the stage opened with
    inputs: PhaseInputs
    kind: str  # the stage's kind (stages.py), and its number
    number: int
    memory: dict[str, Any]  # the show's memory, changed in place by the close
    status: dict[int, str]  # each hero's status as the close goes
    events: list[Event]
    seed_text: str
    rng: random.Random
    facts: dict[str, Any]  # what part 2 reads of the stage (ballots, the bench, the sentence, the night)
    next_phase: str
    roles: dict[int, str]  # roles changed in this close
    over: bool
    winner: str | None
    outcome: dict[str, Any]

    def current(self) -> GameState: ...

    def name(self, hero: int | None) -> str | None: ...

    def free(self) -> list[int]: ...

    def awake(self) -> list[int]: ...

    def seating(self, heroes: Any) -> list[int]: ...

    def enslave(self, hero: int, *, by: str, owners: list[str]) -> None: ...
