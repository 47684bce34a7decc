"""The site's registry of rule sets: the core asks it for a rule set's adapter by key.

A rule set is a Django app listed in `settings.MAFIA_RULESETS` (settings add them to
INSTALLED_APPS); its AppConfig (a `games.rulesets.base.RulesetAppConfig`) registers its
`SiteRuleset` here, and the engine object with the engine's registry, when Django starts. The
core never imports a rule-set package: it calls `site(game.ruleset)` and asks the adapter for a
capability (docs/architecture.md, "Rule sets as plug-ins").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.engine import rulesets as engine_registry

if TYPE_CHECKING:
    from games.rulesets.base import SiteRuleset

_SITES: dict[str, SiteRuleset] = {}


def register(adapter: SiteRuleset) -> SiteRuleset:
    """Add a rule set's adapter (and its engine) under its key."""
    known = _SITES.get(adapter.key)
    if known is not None and known is not adapter:
        raise ValueError(f"rule set key {adapter.key!r} is taken by {known!r}")
    if adapter.engine.key != adapter.key:
        raise ValueError(f"the adapter {adapter.key!r} carries the engine of {adapter.engine.key!r}")
    engine_registry.register(adapter.engine)
    _SITES[adapter.key] = adapter
    return adapter


def site(key: str) -> SiteRuleset:
    """The adapter of a rule set; KeyError for an unknown key."""
    try:
        return _SITES[key]
    except KeyError:
        raise KeyError(f"unknown rule set {key!r}; known: {sorted(_SITES)}") from None


def find(key: str) -> SiteRuleset | None:
    """The adapter of a rule set, or None for a key no rule set registered (an old game's)."""
    return _SITES.get(key)


def adapters() -> list[SiteRuleset]:
    """Every registered rule set, in the order settings list them."""
    return list(_SITES.values())


def keys() -> list[str]:
    return list(_SITES)


def choices() -> list[tuple[str, str]]:
    """(key, label) of every rule set, for form and model choices."""
    return [(a.key, a.label) for a in _SITES.values()]


def default_key() -> str:
    """The rule set a new game starts with: the first listed."""
    return next(iter(_SITES), "")


def adapter_of_phase_kind(kind: str) -> SiteRuleset | None:
    """The first rule set that declares a phase kind (for a phase whose game is not loaded: the
    kinds rule sets share are worded alike)."""
    return next((a for a in _SITES.values() if a.is_valid_phase_kind(kind)), None)
