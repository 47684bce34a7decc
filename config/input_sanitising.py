"""The one place where every text input loses its control characters (docs/security.md, "Control
characters in inputs").

A NUL byte (and the other C0 controls a browser can be made to send) is never typed on purpose,
renders as nothing or as garbage, and PostgreSQL refuses NUL in a text column, which would turn
any form that stores it into a server error. Instead of checking each of the dozens of fields, the
middleware below cleans the query string and the posted form of every request before any view
or form sees them: the characters are removed (a tab, a newline and a carriage return stay), and
the request goes on with the cleaned values. Removing rather than refusing keeps what the user
wrote: a text pasted from a word processor with a stray form feed is posted as he sees it.
"""

from __future__ import annotations

import re

from django.http import HttpRequest, QueryDict

# C0 controls except \t (09), \n (0A) and \r (0D), and DEL.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def strip_control_characters(value: str) -> str:
    """`value` without C0 control characters other than tab, newline and carriage return."""
    return CONTROL_CHARACTERS.sub("", value)


def _cleaned(data: QueryDict) -> QueryDict | None:
    """A cleaned copy of `data`, or None when nothing in it needs cleaning (the common case)."""
    lists = list(data.lists())
    if not any(CONTROL_CHARACTERS.search(key) or any(CONTROL_CHARACTERS.search(v) for v in values)
               for key, values in lists):
        return None
    cleaned = QueryDict(mutable=True, encoding=data.encoding)
    for key, values in lists:
        cleaned.setlist(strip_control_characters(key), [strip_control_characters(v) for v in values])
    cleaned._mutable = False
    return cleaned


class ControlCharacterMiddleware:
    """Cleans request.GET and, for a posted form, request.POST (see the module's docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if request.GET:
            cleaned = _cleaned(request.GET)
            if cleaned is not None:
                request.GET = cleaned
        # Only a form is parsed here: other bodies are left unread for the views that want them.
        if request.method == "POST" and request.content_type in _FORM_TYPES:
            cleaned = _cleaned(request.POST)
            if cleaned is not None:
                request.POST = cleaned
        return self.get_response(request)
