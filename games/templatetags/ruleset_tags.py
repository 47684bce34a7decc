"""Rule-set panels on the core's pages: `{% ruleset_panels "gm.links" %}` includes each template
the game's rule set declares for that place (SiteRuleset.template_panels), with the page's
context plus what the adapter adds (SiteRuleset.panel_context). A rule set without a panel
there adds nothing; the core's templates never compare rule-set keys."""

from __future__ import annotations

from django import template
from django.template.loader import get_template
from django.utils.safestring import mark_safe

from games import permissions
from games.rulesets import registry

register = template.Library()


@register.simple_tag(takes_context=True)
def ruleset_panels(context, place: str, game=None):
    """The rendered panels of `place` for the game (the context's `game` unless given)."""
    game = game if game is not None else context.get("game")
    adapter = registry.find(getattr(game, "ruleset", "")) if game is not None else None
    if adapter is None:
        return ""
    names = adapter.panels(place)
    if not names:
        return ""
    flat = context.flatten()
    flat.update(adapter.panel_context(place, flat) or {})
    request = context.get("request")
    return mark_safe("".join(get_template(name).render(flat, request) for name in names))



@register.simple_tag(takes_context=True)
def every_ruleset_panels(context, place: str):
    """The panels of `place` of every registered rule set, in the settings' order, on a page that
    is about no one game (the game list: cards' link to its collection and deck rules)."""
    flat = None
    request = context.get("request")
    parts = []
    for adapter in registry.adapters():
        names = adapter.panels(place)
        if not names:
            continue
        flat = flat if flat is not None else context.flatten()
        local = {**flat, **(adapter.panel_context(place, flat) or {})}
        parts.extend(get_template(name).render(local, request) for name in names)
    return mark_safe("".join(parts))

@register.filter
def ruleset_has(game, capability: str) -> bool:
    """`{% if game|ruleset_has:"cards_pages" %}`: whether the game's rule set has a capability
    (SiteRuleset.has)."""
    adapter = registry.find(getattr(game, "ruleset", ""))
    return bool(adapter and adapter.has(capability))


@register.filter
def in_play(seat, game) -> bool:
    """`{% if seat|in_play:game %}`: whether the seat still plays in its game's rule set
    (games.permissions.in_play; the Show's slave does, a dead player does not)."""
    return permissions.in_play(game, seat)
