"""Vote reading: which votes, unvotes and peace calls one post's BBCode casts, under a rule profile."""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from games.text.bbcode import Element, Text, parse
from games.text.names import WORD_RE, MatchResult, RosterMatcher, lower_keep_length, morph, normalize

__all__ = [
    "CASE_SETTINGS",
    "CASTING_SYNTAXES",
    "DEFAULT_PROFILE",
    "INTERNATIONAL_PROFILE",
    "INTERNATIONAL_SYNTAXES",
    "PROFILES",
    "REASONS",
    "SYNTAXES",
    "SYNTAX_EXAMPLES",
    "SYNTAX_NATIVE",
    "SYNTAX_ORDER",
    "VoteFound",
    "VoteProfile",
    "VoteReading",
    "add_profile",
    "jsonl_results",
    "parse_votes",
    "profile_named",
    "profile_with_settings",
    "reading_to_json",
    "roster_key",
    "written_form",
]

# -- profiles -----------------------------------------------------------------------------------

# The rule set's own reading: its intent, unvote and peace words with a bold name («[b]В тюрьму
# Негодяя[/b]», «Голосую за [b]Васю[/b]», «[b]Снимаю голос[/b]»), and a bold name alone told
# `no_intent`. A syntax like the others (issue 29): "in a game set to `##vote` only, a bold name or
# a bold «vote X» without the `##` is talk, not a vote."
SYNTAX_NATIVE = "native"
SYNTAX_BOLD_VOTE = "bold_vote"  # bold "VOTE: X" / "UNVOTE"
SYNTAX_VOTE_TAG = "vote_tag"  # [vote]X[/vote]
SYNTAX_V_TAG = "v_tag"  # [v]X[/v]
SYNTAX_UNVOTE_TAG = "unvote_tag"  # [unvote]
SYNTAX_HASH_VOTE = "hash_vote"  # ##vote X
SYNTAX_HASH_UNVOTE = "hash_unvote"  # ##unvote
INTERNATIONAL_SYNTAXES = frozenset(
    {SYNTAX_BOLD_VOTE, SYNTAX_VOTE_TAG, SYNTAX_V_TAG, SYNTAX_UNVOTE_TAG, SYNTAX_HASH_VOTE, SYNTAX_HASH_UNVOTE}
)
SYNTAXES = INTERNATIONAL_SYNTAXES | {SYNTAX_NATIVE}
# Every syntax the reader knows, in the order the GM's choices list them (games.views: the vote
# options form is built from this, never from a list of its own).
SYNTAX_ORDER: tuple[str, ...] = (
    SYNTAX_NATIVE, SYNTAX_BOLD_VOTE, SYNTAX_HASH_VOTE, SYNTAX_HASH_UNVOTE, SYNTAX_VOTE_TAG, SYNTAX_V_TAG,
    SYNTAX_UNVOTE_TAG,
)
# The syntaxes a vote for a player can be cast with: a game keeps at least one of them on (a game
# left with only `##unvote` would have no way to vote).
CASTING_SYNTAXES = frozenset({SYNTAX_NATIVE, SYNTAX_BOLD_VOTE, SYNTAX_VOTE_TAG, SYNTAX_V_TAG, SYNTAX_HASH_VOTE})
# How each international syntax writes a vote for {name}, a withdrawal and a vote for peace (None:
# it cannot): the GM's choices show the first that exists, and a game whose rule-set words are off
# fills its vote buttons with them. The native syntax's texts are the rule set's wording's.
SYNTAX_EXAMPLES: dict[str, tuple[str | None, str | None, str | None]] = {
    SYNTAX_BOLD_VOTE: ("[b]VOTE: {name}[/b]", "[b]UNVOTE[/b]", "[b]VOTE: no lynch[/b]"),
    SYNTAX_HASH_VOTE: ("##vote {name}", None, "##vote no lynch"),
    SYNTAX_HASH_UNVOTE: (None, "##unvote", None),
    SYNTAX_VOTE_TAG: ("[vote]{name}[/vote]", None, "[vote]no lynch[/vote]"),
    SYNTAX_V_TAG: ("[v]{name}[/v]", None, "[v]no lynch[/v]"),
    SYNTAX_UNVOTE_TAG: (None, "[unvote]", None),
}

# Verbs are expanded to their infinitive, 1st-person present/future and imperative forms
# ("голосую" → голосуем, голосовать, голосуйте); other words are taken as written.
DEFAULT_INTENT_WORDS: tuple[str, ...] = (
    "в тюрьму",
    "в клетку",
    "посадить",
    "сажать",
    "голосую за",
    "голосую против",
    "проголосую за",
    "проголосую против",
    "голос за",
    "голос против",
    "казнить",
    "линч",
    "линчевать",
)
DEFAULT_UNVOTE_WORDS: tuple[str, ...] = (
    "снимаю голос",
    "снимаю свой голос",
    "снять голос",
    "отменяю голос",
    "отменяю свой голос",
)
# The English words are the `bold_vote` syntax (on in the forum profile, off in a game whose GM
# wants `##vote` alone): bold "VOTE: X" and "UNVOTE".
ENGLISH_INTENT_WORDS: tuple[str, ...] = ("vote",)
ENGLISH_UNVOTE_WORDS: tuple[str, ...] = ("unvote",)
DEFAULT_PEACE_WORDS: tuple[str, ...] = (
    "за мир", "no lynch", "no-lynch", "nolynch", "no elimination", "no-elimination",
)
# Hidden or quoted text casts no vote: the rule wants votes open and in the poster's own words.
# A spoiler most often holds a pasted quote: not read either, unless the game counts them
# (VoteProfile.with_spoilers, the GM's vote options).
DEFAULT_IGNORED_TAGS = frozenset({"quote", "s", "code", "private", "img", "spoiler"})


@dataclass(frozen=True)
class VoteProfile:
    """How a game's rule set wants votes written.

    `max_gap_words` is the "just before" window: at most that many words may stand between
    the intent words and the bold name, in the same sentence and line.
    """

    name: str = "default"
    intent_words: tuple[str, ...] = DEFAULT_INTENT_WORDS
    unvote_words: tuple[str, ...] = DEFAULT_UNVOTE_WORDS
    peace_words: tuple[str, ...] = DEFAULT_PEACE_WORDS
    peace_allowed: bool = False
    # The rule set's own words are a syntax too (SYNTAX_NATIVE): on unless a profile leaves it out.
    syntaxes: frozenset[str] = frozenset({SYNTAX_NATIVE})
    ignored_tags: frozenset[str] = DEFAULT_IGNORED_TAGS
    max_gap_words: int = 3

    def __post_init__(self) -> None:
        unknown = set(self.syntaxes) - SYNTAXES
        if unknown:
            raise ValueError(f"unknown vote syntaxes: {sorted(unknown)}")
        object.__setattr__(self, "syntaxes", frozenset(self.syntaxes))

    def with_syntaxes(self, syntaxes: Iterable[str] = INTERNATIONAL_SYNTAXES) -> VoteProfile:
        return replace(self, syntaxes=self.syntaxes | frozenset(syntaxes))

    def without_syntaxes(self, syntaxes: Iterable[str] = INTERNATIONAL_SYNTAXES) -> VoteProfile:
        return replace(self, syntaxes=self.syntaxes - frozenset(syntaxes))

    def with_peace(self, allowed: bool = True) -> VoteProfile:
        return replace(self, peace_allowed=allowed)

    def only_syntaxes(self, syntaxes: Iterable[str]) -> VoteProfile:
        """Exactly these syntaxes (a game's vote options), whatever the profile had."""
        return replace(self, syntaxes=frozenset(syntaxes))

    def with_intent_words(self, words: Iterable[str]) -> VoteProfile:
        """More intent words (the ones a rule set's players use: club's «Голос: X»)."""
        extra = tuple(w for w in words if w not in self.intent_words)
        return replace(self, intent_words=self.intent_words + extra) if extra else self

    def with_spoilers(self, counted: bool = True) -> VoteProfile:
        """Whether votes inside [spoiler] count (by default they do not, like quotes)."""
        tags = self.ignored_tags - {"spoiler"} if counted else self.ignored_tags | {"spoiler"}
        return replace(self, ignored_tags=frozenset(tags))


# The plain game (the forum rules, 002): someone is always jailed, so there is no peace vote. The
# English vote words are on, as they always were for forum games. A rule set names its own
# profiles (add_profile, called when it registers: games.rulesets.base.SiteRuleset.vote_profiles).
DEFAULT_PROFILE = VoteProfile(syntaxes=frozenset({SYNTAX_NATIVE, SYNTAX_BOLD_VOTE}))
INTERNATIONAL_PROFILE = VoteProfile(name="international", syntaxes=SYNTAXES)
PROFILES = {p.name: p for p in (DEFAULT_PROFILE, INTERNATIONAL_PROFILE)}


_KIND_INDEX = {"vote": 0, "unvote": 1, "peace": 2}


def written_form(kind: str, syntaxes: Iterable[str]) -> str | None:
    """How a vote of `kind` ("vote", "unvote", "peace") is written in the first of `syntaxes`
    (SYNTAX_ORDER) besides the rule set's own words that can write it; a vote's has `{name}`.
    None: none of them can (the rule set's words are its wording's: games.wording)."""
    index = _KIND_INDEX[kind]
    enabled = frozenset(syntaxes)
    for syntax in SYNTAX_ORDER:
        forms = SYNTAX_EXAMPLES.get(syntax)
        if syntax in enabled and forms is not None and forms[index] is not None:
            return forms[index]
    return None


def add_profile(name: str, profile: VoteProfile) -> VoteProfile:
    """Make a profile known under `name` (a rule set's own, for profile_named, the parse_vote
    command and JSON lines); the same profile again is a no-op, another one under a taken name
    is an error."""
    profile = replace(profile, name=name)
    known = PROFILES.get(name)
    if known is not None and known != profile:
        raise ValueError(f"vote profile {name!r} is taken")
    PROFILES[name] = profile
    return profile


def profile_named(name: str = DEFAULT_PROFILE.name, *, peace: bool | None = None,
                  syntaxes: Iterable[str] = ()) -> VoteProfile:
    """A named profile, optionally with peace switched and extra syntaxes enabled."""
    try:
        profile = PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown vote profile {name!r}; known: {sorted(PROFILES)}") from None
    if peace is not None:
        profile = profile.with_peace(peace)
    extra = frozenset(syntaxes)
    return profile.with_syntaxes(extra) if extra else profile


# -- results ------------------------------------------------------------------------------------

REASONS = {
    "name_unknown": "no player has that name",
    "name_ambiguous": "the name fits more than one player",
    "name_missing": "no name after the vote words",
    "not_bold": "the name (or unvote / peace words) is not bold",
    "no_intent": "a bold name without words stating the intent to jail",
    "negated": "the intent is negated",
    "peace_not_allowed": "the rule set has no peace / no-jail vote",
    "syntax_disabled": "this vote syntax is not enabled for the game",
}


@dataclass(frozen=True, slots=True)
class VoteFound:
    """One vote-like thing in a post. Offsets are into the post's readable text (quotes removed)."""

    kind: str  # "vote" | "unvote" | "peace"
    target: str | None
    valid: bool
    reason: str | None
    fragment: str
    start: int = 0
    end: int = 0
    syntax: str = SYNTAX_NATIVE  # which of SYNTAXES wrote it (the rule set's own words: "native")
    candidates: tuple[str, ...] = ()
    # How the target's name was read (games.text.names.MatchResult.method): "exact" for a full name
    # or an alias in any case form, else a short form or a typo ("partial", "nickname", "prefix",
    # "fuzzy"); the corpus score (games.text.vote_score) counts the latter apart.
    method: str = ""

    def to_json(self) -> Any:
        if self.valid:
            return {"vote": self.target} if self.kind == "vote" else self.kind
        out: dict[str, Any] = {"vote": self.target} if self.kind == "vote" else {self.kind: True}
        out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class VoteReading:
    votes: tuple[VoteFound, ...] = ()
    final: VoteFound | None = None

    def to_json(self) -> dict[str, Any]:
        return reading_to_json(self)


def reading_to_json(reading: VoteReading) -> dict[str, Any]:
    """The command-line contract: {"final": F, "votes": [...]} with F a vote shape or None."""
    return {
        "final": reading.final.to_json() if reading.final is not None else None,
        "votes": [v.to_json() for v in reading.votes],
    }


_EMPTY = VoteReading()

# -- compiled rules per profile -----------------------------------------------------------------

_NEGATORS = frozenset({"не", "ни", "нельзя", "not", "never", "dont", "don't", "nie"})
# Words that may stand between a negator and the intent without breaking the negation:
# "не [стал бы] голосовать", "не [надо] сажать", "not [going to] vote".
_NEGATION_GLUE = frozenset(
    {
        "бы", "б", "же", "уж", "уже", "еще", "пока", "сегодня", "я", "мы",
        "стал", "стала", "стали", "стану", "станем", "буду", "будем", "будет",
        "хочу", "хотим", "хотел", "хотела", "хотели", "надо", "нужно", "стоит", "стоило",
        "могу", "можем", "можно", "собираюсь", "собираемся", "планирую",
        "i", "we", "will", "would", "to", "going", "gonna", "be",
    }
)
# The "just before" window never crosses these.
_SENTENCE_END = frozenset(".!?;\n")
# The negation look-back stops at these: "Не знаю, [но] голосую за" is not negated.
_CLAUSE_END_RE = re.compile(r"[.!?;\n,:()\[\]]")
_LEAD_RE = re.compile(r"[^\S\n]*(?:[:\-—–,][^\S\n]*)?")
_WB = r"(?<![\w'-])"
_WE = r"(?![\w'-])"
_SLOT_LIMIT = 200
_NEXT_LINE_RE = re.compile(r"\n[^\S\n]*")
_NO_INTENT_MAX_CHARS = 120

# Matched against the lower-cased text.
_INTL_PATTERNS = (
    (SYNTAX_VOTE_TAG, re.compile(r"\[vote\]([^\[\]\n]{0,128})\[/vote\]")),
    (SYNTAX_V_TAG, re.compile(r"\[v\]([^\[\]\n]{0,128})\[/v\]")),
    (SYNTAX_UNVOTE_TAG, re.compile(r"\[unvote\](?:[^\S\n]*\[/unvote\])?")),
    # "##vote X", "## vote X", "#vote X"; the name may stand on the next line ("##vote:" ⏎ ⏎ "X").
    (SYNTAX_HASH_VOTE, re.compile(
        r"(?<![\w#])#{1,2}[^\S\n]?vote(?![\w'-])[^\S\n]*:?[^\S\n]*(?:\n[^\S\n]*){0,2}([^\n]{0,128})")),
    (SYNTAX_HASH_UNVOTE, re.compile(r"(?<![\w#])#{1,2}[^\S\n]?unvote(?![\w'-])")),
)
# A bold span opening with the English words while `bold_vote` is off: told, not counted.
_ENGLISH_BOLD_RE = re.compile(r"[^\S\n]*(un)?vote(?![\w'-])")


@lru_cache(maxsize=256)
def _word_variants(word: str) -> tuple[str, ...]:
    word = normalize(word).lower()
    parses = morph().parse(word) if re.search(r"[а-я]", word) else []
    if not parses or parses[0].tag.POS not in ("VERB", "INFN"):
        return (word,)
    forms = {word}
    for f in parses[0].lexeme:
        tag = f.tag
        if tag.POS == "INFN" or tag.mood == "impr" or (
            tag.POS == "VERB" and tag.person == "1per" and tag.tense in ("pres", "futr")
        ):
            forms.add(normalize(f.word))
    return tuple(sorted(forms, key=len, reverse=True))


def _phrase_words(phrase: str) -> list[str]:
    # "vote:" is "vote": the name slot skips a leading colon anyway.
    return WORD_RE.findall(normalize(phrase).lower())


def _phrase_pattern(phrases: Iterable[str]) -> str:
    seen: set[tuple[str, ...]] = set()
    patterns: list[tuple[int, str]] = []
    for phrase in phrases:
        words = tuple(_phrase_words(phrase))
        if not words or words in seen:
            continue
        seen.add(words)
        parts = ["(?:" + "|".join(re.escape(v) for v in _word_variants(w)) + ")" for w in words]
        patterns.append((len(" ".join(words)), r"[^\S\n]+".join(parts)))
    patterns.sort(key=lambda p: -p[0])
    return "|".join(p for _, p in patterns) or r"(?!x)x"


def _stem(variants: tuple[str, ...]) -> str:
    stem = variants[0]
    for v in variants[1:]:
        while not v.startswith(stem):
            stem = stem[:-1]
    return stem  # may be short, even empty: then every post takes the slow path, which is still correct


@dataclass(frozen=True)
class _Rules:
    # Matched against lower-cased text: case-insensitive alternations are many times slower.
    phrases: re.Pattern[str]
    peace: re.Pattern[str]
    stems: tuple[str, ...]


@lru_cache(maxsize=64)
def _rules(profile: VoteProfile) -> _Rules:
    # The rule set's own words are always looked for, so that a game without them (SYNTAX_NATIVE
    # off) tells the poster why his «[b]В тюрьму Васи[/b]» did not count. The English words are
    # groups of their own (`_en`): what a phrase found is read as depends on which one it is.
    english = SYNTAX_BOLD_VOTE in profile.syntaxes
    phrases = re.compile(
        _WB
        + f"(?:(?P<peace>{_phrase_pattern(profile.peace_words)})"
        + f"|(?P<unvote>{_phrase_pattern(profile.unvote_words)})"
        + f"|(?P<vote>{_phrase_pattern(profile.intent_words)})"
        + (f"|(?P<unvote_en>{_phrase_pattern(ENGLISH_UNVOTE_WORDS)})"
           f"|(?P<vote_en>{_phrase_pattern(ENGLISH_INTENT_WORDS)})" if english else "")
        + f"){_WE}"
    )
    peace = re.compile(f"(?:{_phrase_pattern(profile.peace_words)}){_WE}")
    intent = (*profile.intent_words, *(ENGLISH_INTENT_WORDS if english else ()))
    unvote = (*profile.unvote_words, *(ENGLISH_UNVOTE_WORDS if english else ()))
    stems = set()
    for phrase in (*intent, *unvote, *profile.peace_words):
        words = _phrase_words(phrase)
        if words:
            stems.add(_stem(_word_variants(max(words, key=len))))
    return _Rules(phrases, peace, tuple(sorted(stems)))


def _might_vote(low: str, rules: _Rules) -> bool:
    """The cheapest test that a post might cast anything: substring checks, no regex."""
    if "[b]" in low or "[v" in low or "[unvote" in low or "#" in low:
        return True
    return any(stem in low for stem in rules.stems)


# -- flattening the tree ------------------------------------------------------------------------

# Blocks end a line: the "just before" window and the negation look-back never cross them.
_BLOCK_TAGS = frozenset({"quote", "spoiler", "list", "*", "code", "private"})


def _flatten(root: Element, ignored: frozenset[str]) -> tuple[str, list[tuple[int, int]]]:
    """The readable text of the post and the (start, end) spans of it that are bold.

    Iterative, so depth never matters. Ignored elements leave a separator behind: a line break
    for blocks (a quote between two sentences), a space for inline ones (a struck word).
    """
    parts: list[str] = []
    bold: list[tuple[int, int]] = []
    pos = 0
    stack: list[tuple[Iterator[Text | Element], bool, str]] = [(iter(root.children), False, "")]
    while stack:
        it, in_bold, closer = stack[-1]
        child = next(it, None)
        if child is None:
            stack.pop()
            if closer:
                parts.append(closer)
                pos += len(closer)
            continue
        if isinstance(child, Text):
            text = child.text
            if not text:
                continue
            parts.append(text)
            if in_bold:
                if bold and bold[-1][1] == pos:
                    bold[-1] = (bold[-1][0], pos + len(text))
                else:
                    bold.append((pos, pos + len(text)))
            pos += len(text)
            continue
        tag = child.tag
        block = tag in _BLOCK_TAGS
        if tag in ignored:
            sep = "\n" if block else " "
            parts.append(sep)
            pos += 1
            continue
        if block:
            parts.append("\n")
            pos += 1
        stack.append((iter(child.children), in_bold or tag == "b", "\n" if block else ""))
    return "".join(parts), bold


# -- reading ------------------------------------------------------------------------------------


class _Post:
    """One post being read: its text, bold spans and what has been claimed so far."""

    def __init__(self, flat: str, bold: list[tuple[int, int]]):
        self.flat = flat
        self.low = lower_keep_length(normalize(flat))
        self.bold = bold
        self.bold_starts = [b[0] for b in bold]
        self.used = [False] * len(bold)
        self._newlines: list[int] | None = None

    def bold_at(self, pos: int) -> int:
        i = bisect_right(self.bold_starts, pos) - 1
        return i if i >= 0 and self.bold[i][1] > pos else -1

    def mark(self, start: int, end: int) -> bool:
        """Marks the bold spans overlapping [start, end) as used; True if there were any."""
        i = bisect_right(self.bold_starts, start) - 1
        if i < 0 or self.bold[i][1] <= start:
            i += 1
        hit = False
        while i < len(self.bold) and self.bold[i][0] < end:
            self.used[i] = hit = True
            i += 1
        return hit

    def line_end(self, pos: int) -> int:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.low)]
        i = bisect_right(self._newlines, pos - 1)
        return self._newlines[i] if i < len(self._newlines) else len(self.low)

    def negated(self, start: int) -> bool:
        """A negator right before `start`, or separated from it only by auxiliary words."""
        before = self.low[max(0, start - 64) : start]
        cut = None
        for cut in _CLAUSE_END_RE.finditer(before):
            pass
        if cut is not None:
            before = before[cut.end() :]
        for word in reversed(WORD_RE.findall(before)[-4:]):
            if word in _NEGATORS:
                return True
            if word not in _NEGATION_GLUE:
                return False
        return False

    def at_line_start(self, pos: int) -> bool:
        """Only spaces or list/quote marks stand between the line's start and `pos`: where a
        vote written without bold is an attempt at a vote rather than talk about one."""
        line_start = self.low.rfind("\n", 0, pos) + 1
        return not self.low[line_start:pos].strip(" \t-—–*>•:")

    def fragment(self, start: int, end: int) -> str:
        return " ".join(self.flat[start : min(end, start + _SLOT_LIMIT)].split())

    def slot_text(self, start: int, end: int) -> str:
        return self.flat[start : min(end, start + _SLOT_LIMIT)]


def _has_negator(low: str) -> bool:
    return any(w in _NEGATORS for w in WORD_RE.findall(low))



def _peace_found(
    post: _Post, start: int, end: int, profile: VoteProfile, negated: bool, bold: bool, syntax: str = SYNTAX_NATIVE
) -> VoteFound | None:
    if not bold:
        return None  # "я за мир во всём мире" in passing is talk, not a call for peace
    reason = "negated" if negated else None if profile.peace_allowed else "peace_not_allowed"
    return VoteFound("peace", None, reason is None, reason, post.fragment(start, end), start, end, syntax)


def might_vote(source: str, *, profile: VoteProfile = DEFAULT_PROFILE) -> bool:
    """False when the post certainly casts nothing: callers skip loading the roster then."""
    return bool(source) and _might_vote(lower_keep_length(source), _rules(profile))


def parse_votes(source: str, matcher: RosterMatcher, *, profile: VoteProfile = DEFAULT_PROFILE) -> VoteReading:
    """Every vote, unvote and peace call in one post, in order; `final` is the last valid one."""
    if not source:
        return _EMPTY
    rules = _rules(profile)
    if not _might_vote(lower_keep_length(source), rules):
        return _EMPTY
    if "[" in source:
        flat, bold = _flatten(parse(source), profile.ignored_tags)
    else:
        flat, bold = source.replace("\r\n", "\n").replace("\r", "\n"), []
    post = _Post(flat, bold)
    found: list[VoteFound] = []
    claimed = _read_international(post, matcher, profile, rules, found)
    _read_phrases(post, matcher, profile, rules, claimed, found)
    if SYNTAX_BOLD_VOTE not in profile.syntaxes:
        _read_disabled_english(post, found)
    if SYNTAX_NATIVE in profile.syntaxes:
        _read_bare_bold_names(post, matcher, found)
    elif found:
        # A game without the rule set's words (a `##vote`-only game): what they cast is told, not
        # counted; a bold name alone is talk there and was not listed.
        found = [VoteFound(v.kind, v.target, False, "syntax_disabled", v.fragment, v.start, v.end, v.syntax,
                           v.candidates, v.method) if v.syntax == SYNTAX_NATIVE else v
                 for v in found]
    if not found:
        return _EMPTY
    found.sort(key=lambda v: v.start)
    final = next((v for v in reversed(found) if v.valid), None)
    return VoteReading(tuple(found), final)


def _read_international(
    post: _Post, matcher: RosterMatcher, profile: VoteProfile, rules: _Rules, found: list[VoteFound]
) -> list[tuple[int, int]]:
    """[vote]X[/vote], [v]X[/v], [unvote], ##vote X, ##unvote — reported even when disabled.

    Returns the claimed spans, merged and sorted, so vote words inside them are not read twice.
    """
    low = post.low
    spans: list[tuple[int, int]] = []
    has_bracket, has_hash = "[" in low, "#" in low
    if not has_bracket and not has_hash:
        return spans
    for syntax, pattern in _INTL_PATTERNS:
        if not (has_hash if syntax in (SYNTAX_HASH_VOTE, SYNTAX_HASH_UNVOTE) else has_bracket):
            continue
        enabled = syntax in profile.syntaxes
        for m in pattern.finditer(low):
            start, end = m.span()
            spans.append((start, end))
            post.mark(start, end)
            if syntax in (SYNTAX_UNVOTE_TAG, SYNTAX_HASH_UNVOTE):
                reason = None if enabled else "syntax_disabled"
                found.append(VoteFound("unvote", None, enabled, reason, post.fragment(start, end), start, end, syntax))
                continue
            name_start = m.start(1)
            body = post.flat[name_start : m.end(1)]
            pm = rules.peace.match(low, name_start + (len(body) - len(body.lstrip())))
            if pm is not None:
                reason = None if enabled else "syntax_disabled"
                if reason is None and not profile.peace_allowed:
                    reason = "peace_not_allowed"
                found.append(
                    VoteFound("peace", None, reason is None, reason, post.fragment(start, end), start, end, syntax)
                )
                continue
            if syntax == SYNTAX_HASH_VOTE:
                r = matcher.match_start(body)
                end = name_start + r.end if r.ok else end
            else:
                r = matcher.match(body)
            if not enabled:
                reason = "syntax_disabled"
            elif not r.ok:
                reason = r.reason_code
            else:
                reason = None
            found.append(
                VoteFound(
                    "vote", r.name, reason is None, reason, post.fragment(start, end), start, end, syntax, r.candidates,
                    r.method or "",
                )
            )
    spans.sort()
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _overlaps(claimed: list[tuple[int, int]], start: int, end: int) -> bool:
    i = bisect_right(claimed, (end,)) - 1  # the last claim starting before `end`
    return i >= 0 and claimed[i][1] > start


def _bold_within_gap(post: _Post, slot: int, profile: VoteProfile) -> tuple[int, str] | None:
    """The bold span that starts "just after" `slot`, with the text in between.

    "Just" = at most profile.max_gap_words words and no sentence end or line break between.
    """
    i = bisect_right(post.bold_starts, slot)
    if i >= len(post.bold):
        return None
    bstart = post.bold[i][0]
    if bstart - slot > 80:
        return None
    gap = post.low[slot:bstart]
    if any(c in _SENTENCE_END for c in gap) or len(WORD_RE.findall(gap)) > profile.max_gap_words:
        return None
    return i, gap


def _read_phrases(
    post: _Post,
    matcher: RosterMatcher,
    profile: VoteProfile,
    rules: _Rules,
    claimed: list[tuple[int, int]],
    found: list[VoteFound],
) -> None:
    low = post.low
    consumed = 0
    previous_end = 0  # where the last vote read ended: a name read backwards starts after it
    for m in rules.phrases.finditer(low):
        start, end = m.span()
        if start < consumed or (claimed and _overlaps(claimed, start, end)):
            continue
        consumed = end
        kind = m.lastgroup or "vote"
        syntax = SYNTAX_NATIVE
        if kind.endswith("_en"):  # "VOTE: X", "UNVOTE": the bold_vote syntax
            kind, syntax = kind[:-3], SYNTAX_BOLD_VOTE
        phrase_bold = post.mark(start, end)
        slot = _LEAD_RE.match(low, end).end()

        if kind == "peace":
            v = _peace_found(post, start, end, profile, post.negated(start), phrase_bold)
            if v is not None:
                found.append(v)
            continue

        if kind == "unvote":
            bold, negated = phrase_bold, False
            near = None if phrase_bold else _bold_within_gap(post, slot, profile)
            if near is not None:
                post.used[near[0]] = True
                bold, negated = True, _has_negator(near[1])
            negated = negated or post.negated(start)
            if negated and not bold:
                continue
            if not bold and not post.at_line_start(start):
                continue  # "I'll unvote you if…": talk about unvoting, not an attempt at it
            reason = "negated" if negated else (None if bold else "not_bold")
            found.append(VoteFound("unvote", None, reason is None, reason, post.fragment(start, end), start, end,
                                   syntax))
            continue

        line_end = post.line_end(slot)
        if phrase_bold and line_end - slot <= 3 and not low[slot:line_end].strip(" \t:-—–,"):
            # «[b]В тюрьму⏎Гошу[/b]»: the bold goes on to the next line, and so does the name.
            bi_end = post.bold_at(end - 1)
            following = _NEXT_LINE_RE.match(low, line_end)
            if bi_end >= 0 and following is not None and following.end() < post.bold[bi_end][1]:
                slot = following.end()
                line_end = post.line_end(slot)
        # "Голосую за мир" / "vote: no lynch" call for peace, unless a player is called so.
        last_word = low.rfind(" ", start, end) + 1 or start
        pm = rules.peace.match(low, slot) or (rules.peace.match(low, last_word) if last_word > start else None)
        if pm is not None and not matcher.match_start(post.slot_text(slot, line_end), fuzzy=False).ok:
            consumed = pm.end()
            pbold = post.mark(pm.start(), pm.end()) or phrase_bold
            v = _peace_found(post, start, pm.end(), profile, post.negated(start), pbold, syntax)
            if v is not None:
                found.append(v)
            continue

        negated = False
        name_bold = False
        base = slot
        bi = post.bold_at(slot) if slot < line_end else -1
        if bi >= 0:
            name_bold = True
            post.used[bi] = True
            r = matcher.match_start(
                post.slot_text(slot, min(post.bold[bi][1], line_end)), skip_words=profile.max_gap_words
            )
        else:
            plain = matcher.match_start(post.slot_text(slot, line_end), fuzzy=False)
            near = None if plain.ok or plain.reason == "ambiguous" else _bold_within_gap(post, slot, profile)
            if near is not None:
                bi, gap = near
                name_bold = True
                post.used[bi] = True
                base = post.bold[bi][0]
                negated = _has_negator(gap)
                r = matcher.match_start(
                    post.slot_text(base, min(post.bold[bi][1], post.line_end(base))),
                    skip_words=max(0, profile.max_gap_words - len(WORD_RE.findall(gap))),
                )
            elif plain.ok or plain.reason == "ambiguous":
                r = plain
            elif phrase_bold:
                # The intent is bold but what follows is not: the poster tried and missed the bold.
                r = matcher.match_start(post.slot_text(slot, line_end))
            else:
                continue  # plain talk that happens to contain vote words

        if phrase_bold and r.reason == "empty":
            backward = _name_before(post, matcher, start, after=previous_end)
            if backward is not None:
                # «[b]Гошу в тюрьму![/b]», «[b]Лёшу — в тюрьму[/b]»: the name first, in the same bold.
                name_start, rb = backward
                consumed = end
                reason = None if rb.ok else rb.reason_code
                if reason is None and post.negated(name_start):
                    reason = "negated"
                found.append(VoteFound("vote", rb.name, reason is None, reason, post.fragment(name_start, end),
                                       name_start, end, syntax, rb.candidates, rb.method or ""))
                previous_end = end
                continue
        involved_bold = phrase_bold or name_bold
        if not involved_bold and not r.ok:
            continue
        if not involved_bold and not post.at_line_start(start):
            continue  # "я думаю, в тюрьму Негодяя надо…": talk, not an attempt at a vote
        if r.reason == "unknown" and rules.phrases.search(low, slot, min(line_end, slot + _SLOT_LIMIT)):
            continue  # "Голосую за то, чтобы посадить Васю": the later intent words carry the vote
        negated = (
            negated
            or post.negated(start)
            or (r.ok and r.skipped > 0 and _has_negator(low[base : base + r.start]))
        )
        if not involved_bold and negated:
            continue  # "я не голосую за Васю" in discussion is not an attempt to vote
        if negated:
            reason = "negated"
        elif not name_bold and r.reason != "empty":
            reason = "not_bold"
        elif not r.ok:
            reason = r.reason_code
        else:
            reason = None
        vote_end = base + r.end if r.ok else max(end, base + r.end)
        if r.ok:
            consumed = vote_end
        previous_end = vote_end
        found.append(
            VoteFound(
                "vote",
                r.name,
                reason is None,
                reason,
                post.fragment(start, vote_end),
                start,
                vote_end,
                syntax,
                r.candidates,
                r.method or "",
            )
        )


def _name_before(post: _Post, matcher: RosterMatcher, start: int, *, after: int) -> tuple[int, MatchResult] | None:
    """The name written before bold intent words in the same bold span and line
    («[b]Гошу в тюрьму![/b]»): (where it starts, the match), or None when nothing is there."""
    bi = post.bold_at(start)
    if bi < 0:
        return None
    line_start = post.low.rfind("\n", 0, start) + 1
    begin = max(post.bold[bi][0], line_start, after)
    text = post.flat[begin:start]
    name = text.rstrip(" \t,:-—–")
    stripped = name.lstrip()
    if not stripped or len(stripped) > _NO_INTENT_MAX_CHARS:
        return None
    r = matcher.match(stripped)
    if not r.ok and r.reason != "ambiguous":
        return None
    return begin + (len(name) - len(stripped)), r


def _read_disabled_english(post: _Post, found: list[VoteFound]) -> None:
    """Bold "VOTE: X" / "UNVOTE" in a game without the `bold_vote` syntax: listed as
    `syntax_disabled`, so the poster learns why it did not count."""
    for i, (start, end) in enumerate(post.bold):
        if post.used[i]:
            continue
        m = _ENGLISH_BOLD_RE.match(post.low, start)
        if m is None or m.end() > end:
            continue
        post.used[i] = True
        kind = "unvote" if m.group(1) else "vote"
        found.append(VoteFound(kind, None, False, "syntax_disabled", post.fragment(start, end), start, end,
                               SYNTAX_BOLD_VOTE))


def _read_bare_bold_names(post: _Post, matcher: RosterMatcher, found: list[VoteFound]) -> None:
    """A bold name with no intent words: the commonest way a vote goes uncounted."""
    for i, (start, end) in enumerate(post.bold):
        if post.used[i] or end - start > _NO_INTENT_MAX_CHARS:
            continue
        r = matcher.match(post.flat[start:end], fuzzy=False)
        if r.ok:
            found.append(
                VoteFound("vote", r.name, False, "no_intent", post.fragment(start, end), start, end,
                          method=r.method or "")
            )


# -- command-line helpers -----------------------------------------------------------------------


def roster_key(players: Iterable[Any]) -> tuple[Any, ...]:
    """The players of a JSON case as a RosterMatcher's roster (and a key to reuse its matcher):
    names, or [name, [aliases]]; anything else raises ValueError."""
    key = []
    for p in players:
        if isinstance(p, str):
            key.append(p)
        elif isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], str):
            key.append((p[0], tuple(p[1] or ())))
        else:
            raise ValueError(f"a player is a name or [name, [aliases]], not {p!r}")
    return tuple(key)


# What a case of JSON lines or of a scored corpus may say of the game it was written in: the same
# choices as a game's vote options (Game.vote_syntaxes, count_spoiler_votes) and its rule set.
CASE_SETTINGS = ("profile", "peace", "syntaxes", "spoilers")


def profile_with_settings(profile: VoteProfile, settings: Any) -> VoteProfile:
    """`profile` with a game's settings applied: "profile" (a profile's name: that one instead),
    "peace" (bool), "syntaxes" (exactly these, like a game's vote options: ["hash_vote",
    "hash_unvote"] is a `##vote`-only game) and "spoilers" (bool: votes inside spoilers count).
    A bad value raises ValueError naming its key; other keys are the caller's."""
    if "profile" in settings:
        name = settings["profile"]
        if not isinstance(name, str):
            raise ValueError(f"'profile' must be a profile's name, not {name!r}")
        profile = profile_named(name)
    for key in ("peace", "spoilers"):
        if key in settings and not isinstance(settings[key], bool):
            raise ValueError(f"{key!r} must be true or false, not {settings[key]!r}")
    if "peace" in settings:
        profile = profile.with_peace(settings["peace"])
    if "syntaxes" in settings:
        syntaxes = settings["syntaxes"]
        if not isinstance(syntaxes, list) or not all(isinstance(x, str) for x in syntaxes):
            raise ValueError(f"'syntaxes' must be a list of syntax names, not {syntaxes!r}")
        unknown = sorted(set(syntaxes) - SYNTAXES)
        if unknown:
            raise ValueError(f"'syntaxes': unknown vote syntax {unknown[0]!r}; known: {', '.join(SYNTAX_ORDER)}")
        profile = profile.only_syntaxes(syntaxes)
    if "spoilers" in settings:
        profile = profile.with_spoilers(settings["spoilers"])
    return profile


def jsonl_results(lines: Iterable[str], *, profile: VoteProfile = DEFAULT_PROFILE) -> Iterator[str]:
    """One JSON result line per input line {"players": [...], "text": "..."} (blank lines skipped).

    A line may also carry a game's settings (CASE_SETTINGS: "profile", "peace", "syntaxes",
    "spoilers"; profile_with_settings). Matchers are reused per roster.
    """
    matchers: dict[tuple[Any, ...], RosterMatcher] = {}
    for line in lines:
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            key = roster_key(case.get("players") or ())
            text = case.get("text") or ""
            if not isinstance(text, str):
                raise ValueError("text must be a string")
            case_profile = profile_with_settings(profile, case)
        except (ValueError, AttributeError, TypeError) as exc:
            yield json.dumps({"final": None, "votes": [], "error": str(exc)}, ensure_ascii=False)
            continue
        matcher = matchers.get(key)
        if matcher is None:
            matcher = matchers[key] = RosterMatcher(key)
        reading = parse_votes(text, matcher, profile=case_profile)
        yield json.dumps(reading_to_json(reading), ensure_ascii=False)

