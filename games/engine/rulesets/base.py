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

__all__ = ["RoleSpec", "Ruleset", "SiteStyle", "site_style", "voting_order"]


@dataclass(frozen=True, slots=True)
class RoleSpec:
    key: str
    faction: str
    actions: tuple[str, ...] = ()  # actions the role may always order (transient ones come from flags)
    knows_team: bool = False  # the faction's members are told each other at the start


@dataclass(frozen=True, slots=True)
class SiteStyle:
    """How a rule set's table looks on the site: what the vote count, the GM's controls and the
    hints say. The site asks these instead of comparing rule-set keys; a rule set that declares
    no `site` gets the defaults, which are the forum's (a strict majority, the GM's tie-break).
    """

    # A strict majority of the voters may decide: the GM may choose to end the day as soon as one
    # is reached (Game.end_day_on_majority), and then the count shows "majority: N" and each
    # wagon's L-n. False, or the GM not choosing it: a plurality at the close, and the count shows
    # the leaders instead.
    majority: bool = True
    # How a tie at the close is settled: "gm" (the GM names who goes, else by lot), "revote"
    # (the tied players go to one re-vote; a tie again is a peaceful day) or "rules" (the rule
    # set's own stages settle it, e.g. the Show's bench takes every hero with the most votes).
    tie: str = "gm"
    # The words a vote is written with, quoted in the hints of a refused vote.
    vote_word: str = "в тюрьму"
    # Whether the table speaks and votes in rounds by seat (the order of speeches and of voting
    # is shown on the game page and under the count).
    rounds: bool = False
    # The default of the game option "night_silence": at night the game thread is closed to the
    # players in play (the GMs still post; the GM may open it).
    night_silence: bool = False


FORUM_STYLE = SiteStyle()


def site_style(ruleset: Any) -> SiteStyle:
    """The rule set's SiteStyle (`ruleset.site`), or the defaults."""
    style = getattr(ruleset, "site", None)
    return style if isinstance(style, SiteStyle) else FORUM_STYLE


def voting_order(ruleset: Any, state: GameState) -> tuple[int, ...]:
    """The voters of the current phase in the order they vote, for a rule set that votes in turn
    (`ruleset.voting_order`); empty for one that does not."""
    method = getattr(ruleset, "voting_order", None)
    return tuple(method(state)) if callable(method) else ()


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
