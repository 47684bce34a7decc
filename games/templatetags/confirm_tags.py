"""The question a destructive action's form asks before it is sent (games/confirm.py)."""

from django import template

from games import confirm

register = template.Library()


@register.simple_tag
def confirm_question(kind: str, **values) -> str:
    """`{% confirm_question "modkill" %}`: the question, with the values given filled in and the
    form's own fields left as `{field}` for static/js/site.js."""
    return confirm.question(kind, **values)
