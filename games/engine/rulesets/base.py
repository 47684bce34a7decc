"""The rule-set protocol: what every rule set module offers the site, and the role description."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from games.engine.events import Event
from games.engine.orders import Order, PhaseInputs
from games.engine.resolution import Resolution
from games.engine.state import GameState

__all__ = ["RoleSpec", "Ruleset"]


@dataclass(frozen=True, slots=True)
class RoleSpec:
    key: str
    faction: str
    actions: tuple[str, ...] = ()  # actions the role may always order (transient ones come from flags)
    knows_team: bool = False  # the faction's members are told each other at the start


@runtime_checkable
class Ruleset(Protocol):
    """One module per seed implements this; the site never branches on a rule set's key.

    All methods are pure: the state passed in is never changed, and `resolve` is deterministic
    for (state, inputs, seed). `now` is for rule sets whose rules depend on time (none yet).
    """

    key: str
    roles: Mapping[str, RoleSpec]
    factions: tuple[str, ...]
    min_players: int
    max_players: int
    outcome_keys: tuple[str, ...]  # the scenario format's phase keys this rule set reports
    reasons: Mapping[str, str]  # check_order's reason codes with an English gloss
    vote_reasons: Mapping[str, str]  # check_vote's reason codes with an English gloss

    def default_roles(self, size: int) -> list[str]: ...

    def new_game(
        self, seats: Sequence[tuple[int, str, str]], *, options: Mapping[str, Any] | None = None
    ) -> tuple[GameState, tuple[Event, ...]]: ...

    def voters(self, state: GameState) -> tuple[int, ...]: ...

    def vote_targets(self, state: GameState) -> tuple[int, ...]: ...

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        """None if this vote (a seat id, "peace", or None to withdraw) may stand in the current phase,
        else a reason code of `vote_reasons` ("not_a_voter", "bad_target", "peace_not_allowed", ...)."""
        ...

    def speaking_order(self, state: GameState) -> tuple[int, ...]:
        """Seats in the order of the current phase's monologues (empty when nobody speaks)."""
        ...

    def allowed_actions(self, state: GameState, actor: int) -> tuple[str, ...]: ...

    def owed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        """The actions of `allowed_actions` a player is expected to send before the deadline (the
        desk's "you still owe", the due-soon notices and the GM's prods); the others are optional
        (a card play, a Hand reorder)."""
        ...

    def check_order(self, state: GameState, order: Order) -> str | None: ...

    def resolve(self, state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution: ...
