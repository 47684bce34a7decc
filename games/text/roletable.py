"""Reading the role table a GM types at game creation: role names in any language the site shows
them in and in any grammatical form («мирные», «доктора»), each item with an optional count
(«2 мафиози», «мирный ×3», «мирные: 4»). Pure: the caller gives the names of one rule set's roles
(its keys, their labels and the rule set's own synonyms), this module only reads the text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import product

from games.text.names import morph

__all__ = ["RoleNames", "RoleTable", "parse_role_table", "role_names"]

_ITEM_SEPARATORS = re.compile(r"[,;\n]+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# «2 мафиози», «2x мафиози», «2 × мафиози»; «мафиози x2», «мафиози: 2», «мафиози (2)», «мафиози 2».
_COUNT_FIRST = re.compile(r"^(\d+)\s*(?:[x×хX*]\s*)?(\D.*)$")
_COUNT_LAST = re.compile(r"^(\D.*?)\s*(?:[x×хX*:]\s*(\d+)|\((\d+)\)|\s(\d+))$")
_PARENTHESES = re.compile(r"\([^)]*\)")
MAX_COUNT = 30
_MAX_WORDS = 4  # longer names are matched as written only (the forms multiply)


def _fold(text: str) -> str:
    return text.casefold().replace("ё", "е")


def _word_forms(word: str) -> set[str]:
    """The word and each dictionary form pymorphy3 reads it as («мирные» → мирный)."""
    return {word} | {parse.normal_form.replace("ё", "е") for parse in morph().parse(word)}


def _phrase_keys(phrase: str) -> tuple[str, set[str]]:
    """The phrase as written (folded, words only) and every reading of it in dictionary forms."""
    words = _WORD.findall(_fold(phrase))
    exact = " ".join(words)
    if not words or len(words) > _MAX_WORDS:
        return exact, {exact}
    return exact, {" ".join(combo) for combo in product(*(_word_forms(w) for w in words))}


class RoleNames:
    """Names → role keys of one rule set. `names` pairs a name with its key: the keys themselves,
    the labels in each language, the rule set's synonyms. Words in parentheses in a label («(drawn
    at the start)») are not needed to name the role; an underscore in a key reads as a space."""

    def __init__(self, names: Iterable[tuple[str, str]]):
        self.exact: dict[str, str] = {}
        self.forms: dict[str, str] = {}
        for name, key in names:
            for variant in {name, _PARENTHESES.sub(" ", name), name.replace("_", " ")}:
                exact, forms = _phrase_keys(variant)
                if exact:
                    self.exact.setdefault(exact, key)
                for form in forms:
                    self.forms.setdefault(form, key)

    def find(self, name: str) -> str | None:
        exact, forms = _phrase_keys(name)
        if exact in self.exact:
            return self.exact[exact]
        found = {self.forms[f] for f in forms if f in self.forms}
        return found.pop() if len(found) == 1 else None


@dataclass(frozen=True)
class RoleTable:
    roles: tuple[str, ...]  # role keys, one per player, in the order written
    unknown: tuple[str, ...]  # items that name no role of the rule set, as written


def parse_role_table(text: str, names: RoleNames) -> RoleTable:
    roles: list[str] = []
    unknown: list[str] = []
    for raw in _ITEM_SEPARATORS.split(text or ""):
        item = " ".join(raw.split())
        if not item:
            continue
        count, name = 1, item
        if match := _COUNT_FIRST.match(item):
            count, name = int(match.group(1)), match.group(2)
        elif match := _COUNT_LAST.match(item):
            count, name = int(next(g for g in match.groups()[1:] if g)), match.group(1)
        key = names.find(name) if 1 <= count <= MAX_COUNT else None
        if key is None:
            unknown.append(item)
        else:
            roles.extend([key] * count)
    return RoleTable(tuple(roles), tuple(unknown))


def role_names(pairs: Mapping[str, Iterable[str]]) -> RoleNames:
    """RoleNames from {key: [names...]}."""
    return RoleNames((name, key) for key, names in pairs.items() for name in (key, *names))
