"""The engine's registry of rule sets by key, and the protocol each of them implements.

The engine knows no rule set by name. Each rule set lives in its own package
(`games/rulesets/<key>/`, see docs/architecture.md, "Adding a rule set") whose pure `engine`
module builds its `Ruleset` object; the site's registry (`games.rulesets.registry`, run when
Django starts) registers each with `register`. Code without Django (a script, a pure test) may
register a rule set itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from games.engine.orders import PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec, Ruleset
from games.engine.state import GameState

__all__ = ["RULESETS", "RoleSpec", "Ruleset", "get_ruleset", "register", "resolve"]

_REGISTERED: dict[str, Ruleset] = {}
# A live read-only view: it shows the rule sets registered so far.
RULESETS: Mapping[str, Ruleset] = MappingProxyType(_REGISTERED)


def register(ruleset: Ruleset) -> Ruleset:
    """Add a rule set under its key (the same object again is a no-op; another under a taken key
    is refused)."""
    known = _REGISTERED.get(ruleset.key)
    if known is not None and known is not ruleset:
        raise ValueError(f"rule set key {ruleset.key!r} is taken by {known!r}")
    _REGISTERED[ruleset.key] = ruleset
    return ruleset


def get_ruleset(key: str) -> Ruleset:
    """The rule set for a key; KeyError for an unknown key."""
    try:
        return _REGISTERED[key]
    except KeyError:
        raise KeyError(f"unknown rule set {key!r}; known: {sorted(_REGISTERED)}") from None


def resolve(state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
    """Resolve the phase now being played with the state's own rule set."""
    return get_ruleset(state.ruleset).resolve(state, inputs, seed=seed, now=now)
