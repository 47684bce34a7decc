"""Order reading: which special action, on whom, a player's free-text order to the GM asks for."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from games.text import bbcode
from games.text.names import RosterMatcher, lower_keep_length, normalize

__all__ = [
    "FORUM_VOCABULARY",
    "REASONS",
    "SELF",
    "SLOT_SOURCE",
    "SLOT_TARGET",
    "ActionWords",
    "OrderVocabulary",
    "ParsedOrder",
    "letter_order_text",
    "parse_order",
]

SLOT_TARGET = "target"
SLOT_SOURCE = "source"
# What a self-reference ("применяю к себе") resolves to when the caller did not say who writes.
SELF = "SELF"

REASONS = {
    "no_action_word": "no action word found (e.g. «Проверяю Кикимору»)",
    "name_unknown": "no player has that name",
    "name_ambiguous": "the name fits more than one player",
    "name_missing": "no name where the order needs one",
    "negated": "the action word is negated («не стреляю»)",
}


@dataclass(frozen=True)
class ActionWords:
    """How players write one action.

    `verbs` start the order and are followed by the slots in order; between two slots one of
    `links` must stand ("Краду у X и применяю к Y"). Phrases are matched case-insensitively,
    ё = е, as whole words; list each form players use (no morphology: "лечу" would otherwise
    also bring in "лететь").
    """

    action: str
    verbs: tuple[str, ...]
    slots: tuple[str, ...] = (SLOT_TARGET,)
    links: tuple[str, ...] = ()
    label: str = ""  # the action's name when the site confirms an order back ("проверка")
    # Actions this one may follow without a name of its own: written with no name right after
    # an order of one of them (in the same text, or as the next order after the standing one),
    # it takes that order's target. Club's note: «Записку можно оставить только сразу после
    # проверки», so «Проверяю Дину. Оставляю записку.» is the note about Дина.
    follows: tuple[str, ...] = ()


@dataclass(frozen=True)
class OrderVocabulary:
    """One rule set's order words. Another rule set builds its own (club: kill, freeze, heal,
    check, note, take) from ActionWords; the parser does not change."""

    actions: tuple[ActionWords, ...]
    # Self-references in a name slot; resolved to the writer's own name.
    self_words: tuple[str, ...] = (
        "самого себя", "самому себе", "сам себя", "саму себя", "себя", "себе", "меня", "мне",
    )
    # Words that may stand between the verb and the name: "проверяю игрока Васю", "проверяю роль Васи".
    filler_words: int = 2
    # Words that may stand between a name and the next link: "... у Эсмеральды и применяю его к ...".
    link_fillers: tuple[str, ...] = ("и", "а", "затем", "потом", "после", "далее", "его", "ее", "это", "действие")
    negators: tuple[str, ...] = ("не",)

    def words_for(self, action: str) -> ActionWords:
        for words in self.actions:
            if words.action == action:
                return words
        raise KeyError(action)

    def with_actions(self, *actions: ActionWords) -> OrderVocabulary:
        """A copy with these actions added (an action key already present is replaced)."""
        keys = {a.action for a in actions}
        return replace(self, actions=tuple(a for a in self.actions if a.action not in keys) + tuple(actions))


# The forum rules' order words (seed 002), the parser's default. A rule set gives its own through
# its wording's `order_vocabulary` (games.wording.order_vocabulary(key)); this package knows no
# rule set by key.
FORUM_VOCABULARY = OrderVocabulary(
    actions=(
        ActionWords(
            "check",
            verbs=(
                "проверяю", "проверяем", "проверю", "проверим", "проверить", "проверять", "проверь",
                "проверка", "проверку", "узнаю роль", "узнать роль",
            ),
            label="проверка",
        ),
        ActionWords(
            "protect",
            verbs=(
                "защищаю", "защищаем", "защищу", "защитим", "защитить", "защищать", "защити", "защита",
                "защиту", "лечу", "лечим", "лечить", "вылечу", "вылечить", "лечение", "охраняю", "охраняем",
                "охранять", "охрана", "охрану", "спасаю", "спасу", "спасти", "прикрываю", "прикрыть",
                "реанимирую",
            ),
            label="защита",
        ),
        ActionWords(
            "shoot",
            verbs=(
                "стреляю в", "стреляю во", "стреляем в", "стреляем во", "стрелять в", "стрельнуть в",
                "стреляю по", "стреляем по", "выстрел в", "выстрел во", "выстрел по", "выстрелить в",
                "выстрелю в", "выстрелим в", "стреляю", "стреляем", "выстрел", "убиваю", "убиваем", "убить",
                "убью", "убьем", "убивать",
            ),
            label="выстрел",
        ),
        ActionWords(
            "steal",
            verbs=(
                "краду действие у", "краду спецдействие у", "краду у", "крадем у", "украду у", "украдем у",
                "украсть у", "украсть действие у", "ворую у", "воруем у", "кража у", "кража действия у",
                "краду действие", "краду спецдействие", "обкрадываю", "обкрадываем", "обворовываю",
            ),
            slots=(SLOT_SOURCE, SLOT_TARGET),
            links=(
                "применяю к", "применяю ко", "применяю на", "применяю против", "применю к", "применим к",
                "применяем к", "применить к", "использую на", "использую против", "использую к",
                "использую для", "использовать на", "направляю на", "навожу на", "на", "к", "ко",
                "против", "для",
                # A bare verb lets a word stand before the name: "применяю его к Фроло".
                "применяю", "применю", "применим", "применить", "использую", "направляю",
            ),
            label="кража",
        ),
    )
)

@dataclass(frozen=True, slots=True)
class ParsedOrder:
    action: str | None
    target: str | None  # canonical roster name (or the writer's own name / SELF for "себя")
    source: str | None  # for a theft: whose action is stolen
    valid: bool
    reason: str | None  # None when valid; see REASONS
    candidates: tuple[str, ...] = ()  # for name_ambiguous: the players the name fits


_NO_ORDER = ParsedOrder(None, None, None, False, "no_action_word")

# Simple BBCode tags around names ("[b]Кикимору[/b]", "[color=red]..."): removed, text kept.
_TAG_RE = re.compile(r"\[/?[a-zA-Z*]{1,16}(?:=[^\[\]\n]{0,256})?\]")
# Quote marks are dropped (replaced by a space so that offsets stay simple); apostrophes stay,
# since nicknames such as "O'Hara" use them.
_QUOTES_RE = re.compile("[«»„“”‟\"]")
_LEAD_RE = re.compile(r"[\s:,\-—–]*")
_WB = r"(?<![\w'-])"
_WE = r"(?![\w'-])"
_WORD_RE = re.compile(r"\w+")


def _words(phrase: str) -> tuple[str, ...]:
    return tuple(_WORD_RE.findall(normalize(phrase).lower()))


def _alternation(phrases: tuple[str, ...]) -> str:
    keyed = sorted({_words(p) for p in phrases if _words(p)}, key=lambda w: -len(" ".join(w)))
    return "|".join(r"\s+".join(re.escape(w) for w in words) for words in keyed) or r"(?!x)x"


@dataclass(frozen=True)
class _Compiled:
    verbs: re.Pattern[str]
    verb_action: dict[tuple[str, ...], ActionWords]
    links: dict[str, re.Pattern[str]]
    self_re: re.Pattern[str]
    negators: frozenset[str]


@lru_cache(maxsize=32)
def _compile(vocabulary: OrderVocabulary) -> _Compiled:
    verb_action: dict[tuple[str, ...], ActionWords] = {}
    for words in vocabulary.actions:
        for verb in words.verbs:
            verb_action.setdefault(_words(verb), words)
    verbs = re.compile(_WB + "(?:" + _alternation(tuple(" ".join(k) for k in verb_action)) + ")" + _WE)
    punct = r"[\s,.;:!\-—–]*"
    fillers = sorted({normalize(w).lower() for w in vocabulary.link_fillers}, key=len, reverse=True)
    filler = "|".join(re.escape(w) for w in fillers)
    gap = punct + "(?:(?:" + filler + ")" + _WE + punct + ")*" if filler else punct
    links = {
        words.action: re.compile(gap + "(?:" + _alternation(words.links) + ")" + _WE)
        for words in vocabulary.actions
        if len(words.slots) > 1
    }
    self_re = re.compile("(?:" + _alternation(vocabulary.self_words) + ")" + _WE)
    return _Compiled(verbs, verb_action, links, self_re, frozenset(normalize(n).lower() for n in vocabulary.negators))


def _clean(text: str) -> str:
    text = _TAG_RE.sub("", text)
    text = _QUOTES_RE.sub(" ", text)
    return normalize(text.replace("\r\n", "\n").replace("\r", "\n"))




def parse_order(
    text: str,
    matcher: RosterMatcher,
    *,
    vocabulary: OrderVocabulary = FORUM_VOCABULARY,
    actor_name: str | None = None,
    after: tuple[str, str] | None = None,
) -> ParsedOrder:
    """Read one order text. When the text holds several orders the last valid one counts (the
    rules count a player's last order, and a correction is usually written after the mistake);
    with no valid one, the last attempt is returned with its reason.

    "себя", "себе", "меня" in a name slot stand for the writer: `actor_name` when given, else SELF.
    An action that `follows` another and is written with no name takes the target of the valid
    order just before it in the text, or else of `after` ((action, target name): the writer's
    standing order, sent before this text).
    """
    if not text or not text.strip():
        return _NO_ORDER
    compiled = _compile(vocabulary)
    clean = _clean(text)
    low = lower_keep_length(clean)
    attempts: list[ParsedOrder] = []
    consumed = 0
    for m in compiled.verbs.finditer(low):
        if m.start() < consumed:
            continue  # inside the previous order's names ("... и применяю к ...")
        words = compiled.verb_action[tuple(_WORD_RE.findall(m.group()))]
        before = _WORD_RE.findall(low[max(0, m.start() - 24) : m.start()])
        if before and before[-1] in compiled.negators:
            attempts.append(ParsedOrder(words.action, None, None, False, "negated"))
            continue
        parsed, end = _read_slots(clean, low, m.end(), words, matcher, compiled, vocabulary, actor_name)
        if not parsed.valid and words.follows:
            parsed = _follow(parsed, m.group(), words, attempts, after)
        attempts.append(parsed)
        if parsed.valid:
            consumed = end
    if not attempts:
        return _NO_ORDER
    return next((a for a in reversed(attempts) if a.valid), attempts[-1])


# A verb ending in one of these announces a name («записку про ...»): a name it fails to find is
# a wrong name, not an order that follows the one before.
_NAMING_ENDS = frozenset({"про", "о", "об", "на", "в", "во", "по", "к", "ко", "у", "для"})


def _follow(
    parsed: ParsedOrder, verb: str, words: ActionWords, attempts: list[ParsedOrder], after: tuple[str, str] | None
) -> ParsedOrder:
    """A nameless order of an action that follows another (`ActionWords.follows`) takes the target
    of the order it follows: the last valid one before it in this text, else `after`."""
    if parsed.reason not in ("name_missing", "name_unknown") or words.slots != (SLOT_TARGET,):
        return parsed
    if parsed.reason == "name_unknown" and _WORD_RE.findall(verb)[-1] in _NAMING_ENDS:
        return parsed
    previous = next((a for a in reversed(attempts) if a.valid), None)
    if previous is not None:
        followed = (previous.action, previous.target) if previous.action in words.follows else None
    else:
        followed = after if after is not None and after[0] in words.follows else None
    if followed is None or not followed[1]:
        return parsed
    return ParsedOrder(words.action, followed[1], None, True, None)


def _read_slots(
    clean: str,
    low: str,
    pos: int,
    words: ActionWords,
    matcher: RosterMatcher,
    compiled: _Compiled,
    vocabulary: OrderVocabulary,
    actor_name: str | None,
) -> tuple[ParsedOrder, int]:
    filled: dict[str, str] = {}
    for i, slot in enumerate(words.slots):
        if i > 0:
            link = compiled.links[words.action].match(low, pos)
            if link is None:
                return _slot_failure(words, filled, "name_missing"), pos
            pos = link.end()
        pos = _LEAD_RE.match(clean, pos).end()
        own = compiled.self_re.match(low, pos)
        if own is not None:
            filled[slot] = actor_name if actor_name is not None else SELF
            pos = own.end()
            continue
        r = matcher.match_start(clean[pos:], skip_words=vocabulary.filler_words)
        if not r.ok:
            return _slot_failure(words, filled, r.reason_code, r.candidates), pos
        filled[slot] = r.name
        pos += r.end
    return (
        ParsedOrder(words.action, filled.get(SLOT_TARGET), filled.get(SLOT_SOURCE), True, None),
        pos,
    )


def _slot_failure(
    words: ActionWords, filled: dict[str, str], reason: str, candidates: tuple[str, ...] = ()
) -> ParsedOrder:
    return ParsedOrder(
        words.action, filled.get(SLOT_TARGET), filled.get(SLOT_SOURCE), False, reason, tuple(candidates)
    )


# --- Orders in letters to the GM ---------------------------------------------------------------

# What of a letter is not the writer's own words now: quoted, struck, hidden or code text.
_LETTER_SKIPPED = frozenset({"quote", "s", "code", "spoiler", "private", "img"})
# What may stand before the verb on a line: list bullets, dashes, a numbering, punctuation.
_LINE_LEAD_RE = re.compile(r"[\s\-—–•*>:;,.!?)(\d]*")


def _letter_lines(source: str) -> list[str]:
    parts: list[str] = []
    stack: list = list(reversed(bbcode.parse(source).children))
    while stack:
        node = stack.pop()
        if isinstance(node, bbcode.Text):
            parts.append(node.text)
        elif node.tag in _LETTER_SKIPPED:
            parts.append("\n")
        else:
            if node.tag in ("*", "list"):
                parts.append("\n")
            stack.extend(reversed(node.children))
    return "".join(parts).replace("\r\n", "\n").replace("\r", "\n").split("\n")


def letter_order_text(source: str, vocabulary: OrderVocabulary = FORUM_VOCABULARY) -> str:
    """The order a player's letter to the GM (BBCode) carries: the lines of his own words (not
    quoted, struck, hidden or code text) that BEGIN with one of `vocabulary`'s verbs, after
    bullets, dashes and punctuation — «Проверяю Красную Шапочку.», «- стреляю в Васю». They are
    joined in order for parse_order (the last valid one counts). "" when no line does: the letter
    is an ordinary letter ("Ведущий, а можно сменить цель?", "Сегодня не стреляю") and is not read
    as an order at all, so it gets no refusal."""
    verbs = _compile(vocabulary).verbs
    found = []
    for line in _letter_lines(source or ""):
        clean = _clean(line)
        low = lower_keep_length(clean)
        start = _LINE_LEAD_RE.match(low).end()
        if verbs.match(low, start) is not None:
            found.append(clean.strip())
    return "\n".join(found)

