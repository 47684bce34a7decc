"""The registry of rule sets by key, and the protocol each of them implements."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from games.engine.orders import PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec, Ruleset
from games.engine.rulesets.cards import CARDS
from games.engine.rulesets.club import CLUB, ClubRuleset
from games.engine.rulesets.forum import FORUM, ForumRuleset
from games.engine.state import GameState

__all__ = ["CLUB", "FORUM", "RULESETS", "ClubRuleset", "ForumRuleset", "RoleSpec", "Ruleset", "get_ruleset", "resolve"]

# Adding a rule set is adding its module and one line here.
RULESETS: Mapping[str, Ruleset] = MappingProxyType({FORUM.key: FORUM, CLUB.key: CLUB, CARDS.key: CARDS})


def get_ruleset(key: str) -> Ruleset:
    """The rule set for a key; KeyError for an unknown key."""
    try:
        return RULESETS[key]
    except KeyError:
        raise KeyError(f"unknown rule set {key!r}; known: {sorted(RULESETS)}") from None


def resolve(state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
    """Resolve the phase now being played with the state's own rule set."""
    return get_ruleset(state.ruleset).resolve(state, inputs, seed=seed, now=now)
