"""What a rule set offers the site: the adapter base class and the app config of a rule set.

The core asks an adapter for capabilities ("give me your phase kinds", "may this seat act now",
"which panels go on the GM's page") and never compares rule-set keys. Every capability has a
default here, the plain forum-like game's, so a new rule set overrides only what it changes
(docs/architecture.md, "Adding a rule set").
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SiteRuleset:
    """One rule set as the site sees it. Subclass it in `<package>/site.py` as `SITE`.

    Attributes and methods are grouped by what they serve; the defaults are the forum's.
    """

    # --- Identity ---------------------------------------------------------------------------
    key: ClassVar[str] = ""
    label: Any = ""  # a lazy translated name: «Форумная мафия»
    # The engine's Ruleset object (pure, Django-free), from the package's engine module.
    engine: Any = None

    # --- Phases -----------------------------------------------------------------------------
    # The phase kinds this rule set plays, key -> label; the first is the kind a game starts with
    # unless the engine says otherwise. Phase.kind stores the key; the label comes from here.
    phase_kinds: ClassVar[dict[str, Any]] = {
        "day": _("Day"),
        "night": _("Night"),
        "revote": _("Re-vote"),
    }

    def phase_label(self, kind: str, number: int) -> str:
        """«День 2», «Ночь 0», «День 1, переголосование»."""
        if kind == "revote":
            return str(_("Day %(n)d, re-vote")) % {"n": number}
        label = self.phase_kinds.get(kind)
        return f"{label} {number}" if label is not None else f"{kind} {number}"

    def is_valid_phase_kind(self, kind: str) -> bool:
        return kind in self.phase_kinds

    # --- Templates --------------------------------------------------------------------------
    # Panels the core's pages include by name, per page and place: {"game.top": [template, ...]}.
    # A page asks `panels("gm.links")` and includes each; a rule set without a panel adds nothing.
    template_panels: ClassVar[dict[str, tuple[str, ...]]] = {}

    def panels(self, place: str) -> tuple[str, ...]:
        return tuple(self.template_panels.get(place, ()))

    def panel_context(self, place: str, context: dict) -> dict:
        """What a panel of `place` needs besides the page's context (the page's `game`, `request`,
        `my_seat`, ...): override to add it. Reads only; a panel never writes."""
        return {}

    # --- Capabilities by name ---------------------------------------------------------------
    # Plain yes/no features a template may ask with `game|ruleset_has:"name"` (see each rule
    # set's `capabilities`); a feature with data or behaviour gets a method instead.
    capabilities: ClassVar[frozenset[str]] = frozenset()

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    # --- URLs -------------------------------------------------------------------------------
    # A module with `urlpatterns` for the rule set's own pages, included under the games URLs.
    urls_module: ClassVar[str | None] = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}>"


class RulesetAppConfig(AppConfig):
    """The app config of a rule-set package: registers `<package>.site.SITE` when Django starts."""

    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.rulesets import registry  # the registry needs the apps loaded, as ready() does

        module = importlib.import_module(f"{self.name}.site")
        registry.register(module.SITE)
