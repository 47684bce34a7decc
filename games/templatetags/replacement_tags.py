"""Names in the texts about replacements («Запасной вместо Эсмеральды»): games.selectors.holders.replaced_name."""

from django import template

from games.selectors.holders import replaced_name as _replaced_name

register = template.Library()


@register.filter
def replaced_name(name: str) -> str:
    """`{{ r.old_user.display_name|replaced_name }}`: the replaced player's name in the form the
    active language puts after "instead of" (the genitive in Russian)."""
    return _replaced_name(str(name or ""))
