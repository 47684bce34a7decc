"""A code in words for a rule set named by its key: the rule set's wording is reached through the
site's registry (its adapter's `wording`), never by importing a rule-set package.

Some texts are asked without a rule set (a faction's name, an order's action or reason on the GM's
log): those search the shared table first, then every registered rule set's in the order settings
list them (the tables agree where they share a code).
"""

from __future__ import annotations

from collections.abc import Iterator

from games.rulesets import registry
from games.wording.base import RulesetWording
from games.wording.common import FACTION_NAMES, ORDER_REASONS

# The wording of a game whose rule set is not registered (an old game's key): codes as they are.
DEFAULT_WORDING = RulesetWording()


def wording_of(ruleset: str) -> RulesetWording:
    """The wording of the rule set with this key (the default one for an unknown key)."""
    adapter = registry.find(ruleset)
    wording = getattr(adapter, "wording", None) if adapter is not None else None
    return wording if wording is not None else DEFAULT_WORDING


def wordings() -> Iterator[RulesetWording]:
    """Every registered rule set's wording, in the order settings list them."""
    for adapter in registry.adapters():
        if getattr(adapter, "wording", None) is not None:
            yield adapter.wording


def role_label(ruleset: str, role: str) -> str:
    return wording_of(ruleset).role_label(role)


def role_help(ruleset: str, role: str) -> str:
    return str(wording_of(ruleset).role_help.get(role, ""))


def faction_goal(faction: str, ruleset: str = "") -> str:
    return str(wording_of(ruleset).faction_goals.get(faction, ""))


def faction_label(faction: str) -> str:
    if faction in FACTION_NAMES:
        return str(FACTION_NAMES[faction])
    for wording in wordings():
        if faction in wording.faction_names:
            return str(wording.faction_names[faction])
    return str(faction)


def order_reason_text(code: str) -> str:
    """An order's reason code in words, whichever rule set's ledger row it is on."""
    if code in ORDER_REASONS:
        return str(ORDER_REASONS[code])
    for wording in wordings():
        if code in wording.order_reasons:
            return str(wording.order_reasons[code])
    return str(code)


def action_label(action: str) -> str:
    """An order's or a card input's action in words («проверка», «Розыгрыш карты»)."""
    for wording in wordings():
        if action in wording.action_labels:
            return str(wording.action_labels[action])
    return str(action)


def order_vocabulary(ruleset: str):
    """The words a rule set's text orders are read with; KeyError for one without text orders."""
    vocabulary = wording_of(ruleset).order_vocabulary
    if vocabulary is None:
        raise KeyError(f"the rule set {ruleset!r} reads no text orders")
    return vocabulary
