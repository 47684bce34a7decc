"""What can be checked of a Russian sentence about a person without reading it (issue 29, item 6),
with pymorphy3 (tests/games/test_names_reviewed.py and test_names_on_pages.py use these):

- a governed nominative: a name as written right after a preposition or a transitive verb that
  governs another case («между Вася», «у Кикимора», «назвал Кикимора»);
- a gendered word: a past tense or a short participle or adjective in the singular, a participle
  in the nominative singular, a third-person pronoun — «убит», «ошибся», «получившая», «его»;
- a disagreement in a rendered text: such a word next to a name (before it with a colon between,
  or right after it) in the other gender than the person's, or in any gender for a person whose
  gender is unknown («Маша: перенёс срок», «Убит: Маша», «Кикимора назвал»).
"""

from __future__ import annotations

import re
from functools import lru_cache

import pymorphy3

from games.text.names import inflect_name

# Prepositions that govern a case other than the nominative.
GOVERNING_PREPOSITIONS = frozenset(
    "у для от до из без между с со к ко о об обо про через вместо кроме после против среди возле около на за в во "
    "по при над под перед мимо ради сквозь вокруг".split())
# Third-person pronouns: the genders they can show (его/ему also stand for a neuter noun).
PRONOUNS = {
    **dict.fromkeys(("он", "его", "ему", "него", "нему", "нём", "ним"), frozenset({"masc", "neut"})),
    **dict.fromkeys(("она", "её", "ее", "ей", "неё", "нее", "ней", "ею", "нею"), frozenset({"femn"})),
}
WORD_RE = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
PLACEHOLDER_RE = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


@lru_cache(maxsize=1)
def morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=20000)
def word_genders(word: str) -> frozenset[str]:
    """The genders a word shows as a gendered form ("masc", "femn"; pronouns also "neut"), or none.
    A word read as a noun at least as likely as a gendered form is a noun («вышибала»)."""
    low = word.lower()
    if low in PRONOUNS:
        return PRONOUNS[low]
    parses = morph().parse(low)
    if not parses:
        return frozenset()
    top = parses[0]
    tag = top.tag
    gendered = tag.number == "sing" and tag.gender in ("masc", "femn") and (
        (tag.POS == "VERB" and tag.tense == "past") or tag.POS in ("PRTS", "ADJS")
        or (tag.POS == "PRTF" and tag.case == "nomn" and "Subx" not in tag))
    if not gendered:
        return frozenset()
    if any(p.tag.POS == "NOUN" and p.score >= top.score for p in parses[1:]):
        return frozenset()
    return frozenset({tag.gender})


def gendered_words(text: str) -> list[tuple[str, frozenset[str]]]:
    """The gendered words of a text (placeholders and markup left out)."""
    plain = PLACEHOLDER_RE.sub(" ", re.sub(r"\[/?\w+[^\]]*\]|<[^>]+>", " ", text))
    return [(w, g) for w in WORD_RE.findall(plain) if (g := word_genders(w))]


@lru_cache(maxsize=20000)
def noun_gender(word: str) -> str:
    """A noun's gender («голос» → masc, «заявка» → femn), from its dictionary form."""
    for p in morph().parse(word.lower()):
        if p.tag.POS == "NOUN" or "Subx" in p.tag:
            return str(p.tag.gender or "")
    return ""


def lemmas(text: str) -> set[str]:
    return {p.normal_form for w in WORD_RE.findall(text) for p in morph().parse(w.lower())[:3]}


@lru_cache(maxsize=20000)
def governs(word: str) -> bool:
    """A preposition or a transitive verb that puts the next name in a case other than the
    nominative («у», «между», «назвал», «отправляет»)."""
    low = word.lower()
    if low in GOVERNING_PREPOSITIONS:
        return True
    parses = morph().parse(low)
    if not parses or parses[0].tag.POS not in ("VERB", "INFN", "GRND") or "tran" not in parses[0].tag:
        return False
    return not any(p.tag.POS == "NOUN" and p.score >= parses[0].score for p in parses[1:])  # «Вышибала X»


def is_preposition(word: str) -> bool:
    return word.lower() in GOVERNING_PREPOSITIONS


def word_before(text: str, start: int) -> str:
    """The word right before position `start` with only spaces between, or "" (a colon, a dash,
    a bracket, a quote or a line break between: a page's blocks are lines)."""
    m = re.search(r"([А-Яа-яЁёA-Za-z-]+)[ \t\u00a0]+$", text[:start])
    return m.group(1) if m else ""


def governed_placeholders(text: str, keys, subjects=()) -> list[str]:
    """The placeholders of `keys` in a msgstr that a governing word puts in another case; for
    `subjects` (the subject after its verb: «Место занимает X») only a preposition governs."""
    found = []
    for m in PLACEHOLDER_RE.finditer(text):
        key = m.group(1) or m.group(2)
        before = word_before(text, m.start())
        if key in keys and before and (is_preposition(before) if key in subjects else governs(before)):
            found.append(f"{before} {m.group(0)}")
    return found


def after_a_colon_or_dash(text: str, key: str) -> bool:
    """Every occurrence of the placeholder follows «:», «—» or «(» (an enumeration's place)."""
    spots = [m for m in PLACEHOLDER_RE.finditer(text) if (m.group(1) or m.group(2)) == key]
    return bool(spots) and all(re.search(r"[:—(]\s*(?:<[^>]+>|\[\w+\])?$", text[:m.start()]) for m in spots)


# --- Rendered text -------------------------------------------------------------------------------
def governed_nominatives(text: str, names) -> list[str]:
    """«между Вася», «для Кикимора»: a name that inflects (pymorphy3 knows it) written as the
    nominative right after a governing preposition or verb."""
    found = []
    for name in names:
        if inflect_name(name, "gent") == name:  # Фроло, SleepWalker: the same in every case
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            before = word_before(text, m.start())
            if before and governs(before):
                found.append(f"{before} {name}")
            # a preposition that a colon cuts from its names: «Переголосование между: Анна, Глеб»
            cut = re.search(r"([А-Яа-яЁё]+)[ \t\u00a0]*:[ \t\u00a0]*$", text[:m.start()])
            if cut and is_preposition(cut.group(1)):
                found.append(f"{cut.group(1)}: {name}")
    return found


def disagreements(text: str, genders: dict[str, str]) -> list[str]:
    """A gendered word next to a name that disagrees with the person: the other gender for "m" or
    "f", any gender for "" (unknown: the wording must be neutral). Next to: the word right after
    the name (a comma or a colon between allowed: «Маша: перенёс срок», «Кикимора назвал»), or
    the first word of the sentence that a colon or a dash ends right before the name («Убит: Маша»,
    «Посажен в тюрьму: Маша»; not «Голос засчитан: Маша», where the first word is the noun)."""
    wrong = {"m": {"femn"}, "f": {"masc"}, "": {"masc", "femn"}}
    found = []
    for name, gender in genders.items():
        if gender not in wrong:
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            after = re.match(r"[ \t\u00a0]*[:,]?[ \t\u00a0]*([А-Яа-яЁё]+)", text[m.end():])
            if after and word_genders(after.group(1)) & wrong[gender] and not _pronoun_of_a_thing(after.group(1)) \
                    and not _apposition(word_before(text, m.start())):
                found.append(f"{name} {after.group(1)}")
            before = re.search(r"(?:^|[.!?\n>\]])\s*([А-Яа-яЁё]+)[^.!?:;\n<>\[]*[:—]\s*$", text[:m.start()])
            if before and word_genders(before.group(1)) & wrong[gender]:
                found.append(f"{before.group(1)}: {name}")
    return found


def _apposition(word: str) -> bool:
    """The name follows a noun in an oblique case («Сброс игрока Маша отклонён», «Роль Демона
    Маша раскрыта»): the word after it agrees with the noun phrase's head, not with the name."""
    if not word:
        return False
    top = morph().parse(word.lower())[0]
    return top.tag.POS == "NOUN" and top.tag.case not in ("nomn", None)


def _pronoun_of_a_thing(word: str) -> bool:
    return word.lower() in PRONOUNS  # «Вася: его ...» is rare; a pronoun right after a name is not its verb
