"""Names in a template's sentence (issue 29, item 6; docs/architecture.md, "Names in sentences"):
the case the sentence governs and a list joined the Russian way, as games.wording does for the
Python side."""

from django import template

from games.wording import name_case as _name_case
from games.wording import names_joined as _names_joined

register = template.Library()


@register.filter
def name_case(name, case: str) -> str:
    """`{{ recipient|name_case:"gent" }}`: «Личное сообщение для Кикиморы» (as written for an
    English reader or a name pymorphy3 does not know)."""
    return _name_case(name, case)


@register.filter
def names_joined(names, case: str = "nomn") -> str:
    """`{{ names|names_joined:"ablt" }}`: «между Васей и Кикиморой», «Вася, Петя и Маша»."""
    return _names_joined(list(names or ()), case)


@register.filter
def display_names(seats) -> list[str]:
    """Seats (or users) as their display names, for names_joined: `{{ seats|display_names|names_joined }}`."""
    return [getattr(getattr(s, "user", s), "display_name", str(s)) for s in seats or ()]
