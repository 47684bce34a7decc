"""Look-alike display names: the Unicode TR39 "skeleton" of a name, and the mixed-script test.

Two names with the same skeleton look the same on screen (`Aнтон` with a Latin A and `Антон`),
so the site treats them as one name (accounts.models.display_name_confusable_key, unique in the
database). The confusable pairs come from Unicode's confusables.txt as shipped, in JSON, by the
kept library confusable-homoglyphs (the one django-registration uses). That library answers
"is this string confusable with some other script?" but has no skeleton function, and its JSON
lists, for each character, the characters it is paired with in both directions (a source with its
prototype, a prototype with its sources). Each TR39 class (one prototype and its sources) is a
connected component of that graph, so the skeleton maps every character to one fixed member of
its component — which gives the same equality as TR39's skeleton without knowing which member is
the prototype. A source whose prototype is several characters (`㎏` → `kg`) maps to that string.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

from confusable_homoglyphs import confusables as _confusables

_MARKS = "\u200e\u200f"  # the JSON wraps right-to-left characters in direction marks


@cache
def _table() -> dict[str, str]:
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    longer: dict[str, str] = {}
    for key, pairs in raw.items():
        key = key.strip(_MARKS)
        for pair in pairs:
            other = pair["c"].strip(_MARKS)
            if len(key) == 1 and len(other) == 1:
                a, b = find(key), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif len(key) == 1 and len(other) > 1:
                longer[key] = other  # only a source maps to several characters
    table = {c: find(c) for c in parent}
    table.update({c: "".join(table.get(x, x) for x in s) for c, s in longer.items()})
    return {c: s for c, s in table.items() if c != s}


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character replaced by its class's representative, NFD again."""
    table = _table()
    text = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in text))


def confusable_key(name: str) -> str:
    """The form in which two display names look the same: the skeleton of the case-folded skeleton
    (so `Bася`, `Вася` and `ВАСЯ` meet), with ё read as е and runs of spaces as one."""
    name = " ".join(name.split()).replace("ё", "е").replace("Ё", "Е")
    return skeleton(skeleton(name).casefold())


def is_mixed_script(name: str) -> bool:
    """True when the letters of `name` come from more than one script (Latin and Cyrillic...);
    digits, spaces and punctuation belong to none."""
    return bool(_confusables.is_mixed_script(name, allowed_aliases=["COMMON", "INHERITED"]))
