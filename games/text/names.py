"""Roster name matching: finds which player a fragment of a post names, in any Russian case form."""

from __future__ import annotations

import re
import threading
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice, product

import pymorphy3
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

__all__ = [
    "FUZZY_EDITS",
    "PREFIX_MIN_LEN",
    "MatchResult",
    "RosterEntry",
    "RosterMatcher",
    "SUGGEST_EDITS",
    "Token",
    "morph",
    "guess_gender",
    "normalize",
    "tokenize",
    "word_forms",
]

# Fuzzy names are judged by edits (rapidfuzz's OSA distance: a swap of two neighbouring letters
# is one edit, not two), with a budget that grows with the name's length: one letter off in four
# letters is another name ("Вася"/"Васа"), in eight it is a typo ("Кикамора").
# (length from, edits allowed): substitutions, insertions and deletions...
FUZZY_EDITS = ((6, 1), (10, 2), (16, 3))
# ...while a swapped pair of letters ("Mrai" for "Miar", "Stormbrigner") counts as one edit at
# any length from FUZZY_MIN_LEN on.
# Shorter queries are never fuzzy-matched.
FUZZY_MIN_LEN = 4
# A name that matched nobody is answered with the closest names, never taken for one of them:
# (length from, edits allowed) — one letter doubled, missing or off in a short name («Вассю»,
# «Фролу»), more in longer ones; at most SUGGEST_MAX names, from SUGGEST_MIN_LEN letters.
SUGGEST_EDITS = ((3, 1), (6, 2), (10, 3))
SUGGEST_MIN_LEN = 3
SUGGEST_MAX = 3
# A unique prefix names the player from this many letters on ("Кики" for Кикимора).
PREFIX_MIN_LEN = 3
# Parts of nicknames that never name a player alone (articles, "Im" in ImVladTheGreat).
_NICK_STOPWORDS = frozenset({"the", "a", "an", "im", "i", "mr", "mrs", "ms", "dr", "of", "and", "von", "van",
                             "der", "de", "la", "le", "el", "da", "du", "mc", "mac", "xx", "x"})
# The parts of a one-word nickname: CamelCase humps, runs of digits, and the pieces between
# underscores or hyphens, in either alphabet ("Ночная_Фурия", "Анна-Мария", "ТёмныйРыцарь").
_NICK_PART_RE = re.compile(r"[A-ZА-ЯЁ]+(?=[A-ZА-ЯЁ][a-zа-яё])|[A-ZА-ЯЁ]?[a-zа-яё]+|[A-ZА-ЯЁ]+|\d+")
# Words of a multi-word name shorter than this never name the player alone ("де", "Ли").
PARTIAL_MIN_LEN = 3
# Beyond this many combinations a multi-word name only offers its same-position forms to fuzzy.
_FUZZY_COMBOS_MAX = 200
_CACHE_MAX = 4096
_CACHEABLE_LEN = 80

# One character in, one character out, so offsets into normalised text stay valid for the original.
_NORMALIZE = (
    ("ё", "е"),
    ("Ё", "Е"),
    ("’", "'"),
    ("‘", "'"),
    ("ʼ", "'"),
    ("`", "'"),
    ("´", "'"),
    ("′", "'"),
    ("‐", "-"),
    ("‑", "-"),
    ("‒", "-"),
)
_NEEDS_NORMALIZE = re.compile("[ёЁ’‘ʼ`´′‐‑‒]")
WORD_RE = re.compile(r"\w+(?:['-]\w+)*")
_CYRILLIC_RE = re.compile(r"[а-яА-ЯёЁ]")
_REPEATS_RE = re.compile(r"(\w)\1+")
_LATIN_RE = re.compile(r"[a-zA-Z0-9_]")
_SENTENCE_END = frozenset(".!?;\n")
# Skipping filler words never crosses these: "в тюрьму того, кто защищал Васю" is not about Вася.
_CLAUSE_END = frozenset(".!?;:,()\n")

_CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
_INDECLINABLE_FINALS = frozenset("оеиуюыэ")
# Endings Russian writers glue to foreign nicknames, with or without a hyphen or apostrophe.
_FOREIGN_ENDINGS = ("а", "у", "ом", "е", "ы", "ой", "ою", "ю", "я", "ем", "и", "ей", "ым")
# The same endings typed without switching the keyboard layout ("SleepWalker-a").
_FOREIGN_LATIN_ENDINGS = ("a", "u", "om", "e", "y", "oj", "oi", "ym", "ya", "yu")
_SEPARATORS = ("", "-", "'")

_morph: pymorphy3.MorphAnalyzer | None = None
_morph_lock = threading.Lock()


def morph() -> pymorphy3.MorphAnalyzer:
    """The process-wide analyzer: loading the dictionaries is the slow part, so it happens once."""
    global _morph
    if _morph is None:
        with _morph_lock:
            if _morph is None:
                _morph = pymorphy3.MorphAnalyzer()
    return _morph


def lower_keep_length(text: str) -> str:
    """Lower-cased with ё → е, the same length as `text` so offsets stay valid (the few letters
    that lower-case to two characters are left as they are)."""
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    return low.replace("ё", "е") if "ё" in low else low


def normalize(text: str) -> str:
    """ё → е and typographic apostrophes/hyphens → ASCII; keeps length (offsets stay valid)."""
    # str.translate() with a dict costs ~50 ns a character; a few replace() calls are C loops.
    if _NEEDS_NORMALIZE.search(text) is None:
        return text
    for old, new in _NORMALIZE:
        if old in text:
            text = text.replace(old, new)
    return text


@dataclass(frozen=True, slots=True)
class Token:
    key: str  # normalised, lower-case
    start: int
    end: int


def tokenize(text: str, limit: int | None = None) -> list[Token]:
    """Words of `text` (hyphenated and apostrophised words stay whole: "SleepWalker'а")."""
    it: Iterator[re.Match[str]] = WORD_RE.finditer(normalize(text))
    if limit is not None:
        it = islice(it, limit)
    return [Token(m.group().lower(), m.start(), m.end()) for m in it]


def _gap_key(gap: str) -> str:
    # Whitespace between words is free ("Джеймса  Бонда"), punctuation must be as in the roster ("A.B").
    return "".join(gap.split())


def _is_dictionary_parse(parse: pymorphy3.analyzer.Parse) -> bool:
    stack = parse.methods_stack
    return len(stack) == 1 and type(stack[0][0]).__name__ == "DictionaryAnalyzer"


def _hand_forms(word: str) -> set[str]:
    """The usual noun endings for a name the dictionary does not know."""
    forms = {word}
    last = word[-1]
    if not _CYRILLIC_RE.match(last):
        # Latin or digit-final nickname: Russian endings are appended to the whole word.
        for sep in _SEPARATORS:
            forms.update(word + sep + e for e in _FOREIGN_ENDINGS)
        for sep in ("-", "'"):
            forms.update(word + sep + e for e in _FOREIGN_LATIN_ENDINGS)
        return forms
    if last in _INDECLINABLE_FINALS:
        return forms  # Фроло, Гюго, Шевченко: foreign and -о names do not decline
    stem = word[:-1]
    if last == "а":
        forms.update(stem + e for e in ("ы", "и", "е", "у", "ой", "ою"))
    elif last == "я":
        forms.update(stem + e for e in ("и", "е", "ю", "ей", "ею"))
    elif last == "й":
        forms.update(stem + e for e in ("я", "ю", "ем", "е"))
    elif last == "ь":
        forms.update(stem + e for e in ("я", "ю", "ем", "е", "и", "ью"))
    else:
        endings = ["а", "у", "ом", "е", "ем"]
        if word.endswith(("ин", "ын", "ов", "ев")):
            endings.append("ым")
        for sep in _SEPARATORS:
            forms.update(word + sep + e for e in endings)
    return forms


@lru_cache(maxsize=8192)
def word_forms(word: str) -> frozenset[str]:
    """Every singular case form of one word of a name, normalised and lower-case.

    Built from the word's nominative parses (inflecting the post's words back to a lemma fails:
    pymorphy3 reads "Фроло" as a verb). Adjectives keep their gender so that "Красная" gives
    "красную", and take both accusatives ("маленького" for people, "маленький" for things).
    """
    w = normalize(word).lower()
    forms = {w}
    known = False
    if _CYRILLIC_RE.search(w):
        for p in morph().parse(w):
            tag = p.tag
            if tag.POS not in ("NOUN", "ADJF") or tag.case != "nomn" or tag.number == "plur":
                continue
            if _is_dictionary_parse(p):
                known = True
            if "Fixd" in tag:
                continue
            for case in _CASES:
                grams = {case, "sing"}
                if tag.POS == "ADJF" and tag.gender:
                    grams.add(tag.gender)
                variants = [grams | {"anim"}, grams | {"inan"}] if tag.POS == "ADJF" and case == "accs" else [grams]
                for g in variants:
                    f = p.inflect(g)
                    if f is not None:
                        forms.add(normalize(f.word))
    if not known:
        forms |= _hand_forms(w)
    return frozenset(forms)


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """A player as the matcher sees them: the canonical display name and any aliases."""

    name: str
    aliases: tuple[str, ...] = ()


RosterItem = str | tuple[str, Iterable[str]] | RosterEntry


def _coerce(item: RosterItem) -> RosterEntry:
    if isinstance(item, RosterEntry):
        return item
    if isinstance(item, str):
        return RosterEntry(item.strip())
    name, aliases = item
    return RosterEntry(name.strip(), tuple(a.strip() for a in aliases if a and a.strip()))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Which player a fragment names; when none, why not.

    `start`/`end` are character offsets of the name in the text that was searched;
    `skipped` is how many words were passed over before it (match_start with skip_words).
    """

    name: str | None
    reason: str | None = None  # None | "unknown" | "ambiguous" | "empty"
    candidates: tuple[str, ...] = ()
    method: str | None = None  # "exact" | "partial" | "nickname" | "prefix" | "fuzzy" | "symbol"
    score: float = 0.0
    start: int = 0
    end: int = 0
    skipped: int = 0

    @property
    def ok(self) -> bool:
        return self.name is not None

    @property
    def reason_code(self) -> str:
        """The reason code votes and orders report for a name that did not match."""
        if self.reason == "ambiguous":
            return "name_ambiguous"
        if self.reason == "empty":
            return "name_missing"
        return "name_unknown"


@dataclass(frozen=True, slots=True)
class _Entry:
    player: int
    words: tuple[frozenset[str], ...]
    gaps: tuple[str, ...]
    prefix: str
    suffix: str


class RosterMatcher:
    """Looks a post's words up in a table of every case form of every roster name.

    Build once per roster (it runs pymorphy3 over each name word); lookups are dictionary hits.
    `roster` items are display names, `(name, [aliases])` pairs or RosterEntry objects; the
    display name is what matches return.
    """

    def __init__(self, roster: Iterable[RosterItem] = ()):
        entries = [_coerce(item) for item in roster]
        entries = [e for e in entries if e.name]
        self.players: tuple[RosterEntry, ...] = tuple(entries)
        self.names: tuple[str, ...] = tuple(e.name for e in entries)
        self._by_first: dict[str, list[_Entry]] = {}
        self._partial: dict[str, set[int]] = {}
        # Shortened nicknames (parts of CamelCase or digit-split names, with or without their
        # article) and initials ("KWS"): only at the name slot of a vote or order.
        self._nick: dict[str, set[int]] = {}
        self._initials: dict[str, set[int]] = {}
        prefixes: set[tuple[str, int]] = set()
        self._symbolic: list[tuple[str, int]] = []
        self._max_words = 1
        fuzzy: dict[str, set[int]] = {}
        for player, entry in enumerate(entries):
            for spelling in (entry.name, *entry.aliases):
                self._add_spelling(player, spelling, fuzzy, prefixes)
        for form, players in self._partial.items():
            if len(players) == 1:
                fuzzy.setdefault(form, set()).update(players)
        # Every case form of every name word, sorted, for unique prefixes ("Кики" → Кикимора).
        ordered = sorted(prefixes)
        self._prefix_forms = [form for form, _player in ordered]
        self._prefix_players = [player for _form, player in ordered]
        self._fuzzy_choices = list(fuzzy)
        self._fuzzy_players = [frozenset(fuzzy[c]) for c in self._fuzzy_choices]
        # Posts repeat the same few names endlessly; memoising short lookups keeps recounts cheap.
        self._fuzzy_cache: dict[str, MatchResult | None] = {}
        self._cache: dict[tuple[str, int, bool, int], MatchResult] = {}

    def __len__(self) -> int:
        return len(self.names)

    def _add_nicknames(self, player: int, norm: str, toks: list[Token], fuzzy: dict[str, set[int]],
                       prefixes: set[tuple[str, int]]) -> None:
        """The short forms players write for a long nickname: its parts and runs of parts
        (ImVladTheGreat → Vlad, VladTheGreat; TheNightOwl → NightOwl, Owl; Pike2077 → Pike), its
        parts spaced out as a name of several words ("the night owl"), and its initials (KWS for
        KingWithoutSword, TQB for "The Quiet Bard")."""
        if len(toks) > 1:
            letters = [t.key[0] for t in toks if t.key[0].isalpha()]
            if len(letters) >= 2:
                self._initials.setdefault("".join(letters), set()).add(player)
            if toks[0].key in ("the", "a", "an") and len(toks) > 2:
                self._add_spelling(player, norm[toks[1].start :], fuzzy, prefixes, nicknames=False)
            return
        original = norm[toks[0].start : toks[0].end]
        parts = _NICK_PART_RE.findall(original)
        if len(parts) < 2:
            return
        lows = [p.lower() for p in parts]
        letters = [p[0].lower() for p in parts if p[0].isalpha()]
        if len(letters) >= 2:
            self._initials.setdefault("".join(letters), set()).add(player)
        content = [i for i, p in enumerate(lows) if p not in _NICK_STOPWORDS and not p.isdigit()]
        for i in content:
            for j in content:
                if j < i or (i == 0 and j == len(lows) - 1):
                    continue  # a run ends on a content part; the whole name is not a nickname of itself
                run = "".join(lows[i : j + 1])
                if len(run) < PARTIAL_MIN_LEN:
                    continue
                for form in word_forms(run):
                    self._nick.setdefault(form, set()).add(player)
                    prefixes.add((form, player))
        if len(parts) <= 5:
            self._add_spelling(player, " ".join(parts), fuzzy, prefixes, nicknames=False, partials=False)

    def _add_spelling(self, player: int, spelling: str, fuzzy: dict[str, set[int]],
                      prefixes: set[tuple[str, int]], *, nicknames: bool = True, partials: bool = True) -> None:
        norm = normalize(spelling)
        toks = tokenize(norm)
        if not toks:
            # Nothing but punctuation ("???"): only the exact spelling can name this player.
            sym = " ".join(norm.lower().split())
            if sym:
                self._symbolic.append((sym, player))
            return
        words = tuple(word_forms(t.key) for t in toks)
        gaps = tuple(_gap_key(norm[a.end : b.start]) for a, b in zip(toks, toks[1:]))
        entry = _Entry(
            player,
            words,
            gaps,
            prefix="".join(norm[: toks[0].start].split()),
            suffix="".join(norm[toks[-1].end :].split()),
        )
        for form in words[0]:
            self._by_first.setdefault(form, []).append(entry)
        self._max_words = max(self._max_words, len(words))
        if len(words) > 1 and partials:
            for index in {0, len(words) - 1}:
                if len(toks[index].key) >= PARTIAL_MIN_LEN and toks[index].key not in _NICK_STOPWORDS:
                    for form in words[index]:
                        self._partial.setdefault(form, set()).add(player)
        for word in words:
            prefixes.update((form, player) for form in word if len(form) >= PREFIX_MIN_LEN)
        if nicknames:
            self._add_nicknames(player, norm, toks, fuzzy, prefixes)
        combos = 1
        for w in words:
            combos *= len(w)
        joiners = [g or " " for g in gaps]
        if combos <= _FUZZY_COMBOS_MAX:
            for combo in product(*words):
                phrase = combo[0] + "".join(j + w for j, w in zip(joiners, combo[1:]))
                fuzzy.setdefault(phrase, set()).add(player)
        else:
            phrase = toks[0].key + "".join(j + t.key for j, t in zip(joiners, toks[1:]))
            fuzzy.setdefault(phrase, set()).add(player)

    # -- lookups at one word position -------------------------------------------------------

    def _exact_at(self, text: str, toks: list[Token], i: int) -> MatchResult | None:
        """The longest full name or alias starting at word i, or an ambiguity, or None."""
        best_len = 0
        hits: list[_Entry] = []
        for e in self._by_first.get(toks[i].key, ()):
            n = len(e.words)
            if i + n > len(toks) or n < best_len:
                continue
            if all(
                toks[i + k].key in e.words[k]
                and _gap_key(text[toks[i + k - 1].end : toks[i + k].start]) == e.gaps[k - 1]
                for k in range(1, n)
            ):
                if n > best_len:
                    best_len, hits = n, [e]
                else:
                    hits.append(e)
        if not hits:
            return None
        start, end = toks[i].start, toks[i + best_len - 1].end
        players = {e.player for e in hits}
        if len(players) > 1:
            hits = self._decoration_winners(text, start, end, hits)
            players = {e.player for e in hits}
        if len(players) > 1:
            return self._ambiguous(players, start, end, "exact")
        e = max(hits, key=lambda h: len(h.prefix) + len(h.suffix))
        if e.prefix and text[start - len(e.prefix) : start] == e.prefix:
            start -= len(e.prefix)
        if e.suffix and text[end : end + len(e.suffix)] == e.suffix:
            end += len(e.suffix)
        return MatchResult(self.names[e.player], method="exact", score=100.0, start=start, end=end)

    @staticmethod
    def _decoration_winners(text: str, start: int, end: int, hits: list[_Entry]) -> list[_Entry]:
        # "(Вася)" and "Вася" share their words; the punctuation actually written around them decides.
        def fits(e: _Entry) -> bool:
            return (not e.prefix or text[max(0, start - len(e.prefix)) : start] == e.prefix) and (
                not e.suffix or text[end : end + len(e.suffix)] == e.suffix
            )

        fitting = [e for e in hits if fits(e)]
        if not fitting:
            return hits
        longest = max(len(e.prefix) + len(e.suffix) for e in fitting)
        return [e for e in fitting if len(e.prefix) + len(e.suffix) == longest]

    def _partial_at(self, toks: list[Token], i: int) -> MatchResult | None:
        players = self._partial.get(toks[i].key)
        if not players:
            return None
        start, end = toks[i].start, toks[i].end
        if len(players) > 1:
            return self._ambiguous(players, start, end, "partial")
        (player,) = players
        return MatchResult(self.names[player], method="partial", score=100.0, start=start, end=end)

    def _word_at(self, text: str, toks: list[Token], i: int) -> MatchResult | None:
        return self._exact_at(text, toks, i) or self._partial_at(toks, i)

    def _short_at(self, text: str, toks: list[Token], i: int) -> MatchResult | None:
        """A shortened name at word i: a nickname's part or initials, else a unique prefix of a
        name word in any case form. Two players fitting is `ambiguous`, never a guess."""
        tok = toks[i]
        # A pronoun is never a nickname's part either («эту» of «Эту-Эту»).
        players = self._nick.get(tok.key) if not _function_word(tok.key) else None
        method = "nickname"
        if not players and len(tok.key) >= 2 and text[tok.start : tok.end].isupper():
            players = self._initials.get(tok.key)  # initials only as written: "KWS", not "kws"
        if not players:
            players, method = self._prefixed(tok.key), "prefix"
        if not players:
            return None
        if len(players) > 1:
            return self._ambiguous(players, tok.start, tok.end, method)
        (player,) = players
        return MatchResult(self.names[player], method=method, score=100.0, start=tok.start, end=tok.end)

    def _prefixed(self, key: str) -> set[int]:
        if len(key) < PREFIX_MIN_LEN or not key.isalpha() or _function_word(key):
            return set()
        found: set[int] = set()
        i = bisect_left(self._prefix_forms, key)
        while i < len(self._prefix_forms) and self._prefix_forms[i].startswith(key):
            if self._prefix_forms[i] != key:
                found.add(self._prefix_players[i])
            i += 1
        return found

    def _ambiguous(self, players: Iterable[int], start: int, end: int, method: str) -> MatchResult:
        names = tuple(sorted({self.names[p] for p in players}))
        return MatchResult(None, "ambiguous", names, method=method, start=start, end=end)

    def _fuzzy(self, query: str) -> MatchResult | None:
        """A misspelt name, only when one player is strictly closest in edits (FUZZY_EDITS; a
        swapped pair of letters is one edit); offsets are left 0."""
        if len(query) < FUZZY_MIN_LEN or not self._fuzzy_choices:
            return None
        if query in self._fuzzy_cache:
            return self._fuzzy_cache[query]
        best: dict[int, tuple[int, str]] = {}
        cutoff = max(2, _edit_budget(len(query)))
        for choice, distance, idx in process.extract(query, self._fuzzy_choices, scorer=OSA.distance,
                                                     score_cutoff=cutoff, limit=None):
            edits = _edits(query, choice, int(distance))
            if edits is None:
                continue
            for p in self._fuzzy_players[idx]:
                if p not in best or edits < best[p][0]:
                    best[p] = (edits, choice)
        result: MatchResult | None = None
        if best:
            fewest = min(edits for edits, _choice in best.values())
            closest = [p for p, (edits, _choice) in best.items() if edits == fewest]
            if len(closest) > 1:
                result = self._ambiguous(closest, 0, 0, "fuzzy")
            else:
                choice = best[closest[0]][1]
                result = MatchResult(self.names[closest[0]], method="fuzzy", score=round(fuzz.ratio(query, choice), 1))
        if len(self._fuzzy_cache) >= _CACHE_MAX:
            self._fuzzy_cache.clear()
        self._fuzzy_cache[query] = result
        return result

    def _fuzzy_at(self, text: str, toks: list[Token], i: int) -> MatchResult | None:
        """Try 1..max_words words from position i; the best-scoring length wins."""
        best: MatchResult | None = None
        best_end = 0
        for n in range(1, min(self._max_words, len(toks) - i) + 1):
            if n > 1 and any(c in _SENTENCE_END for c in text[toks[i + n - 2].end : toks[i + n - 1].start]):
                break
            query = " ".join(t.key for t in toks[i : i + n])
            r = self._fuzzy(query)
            if r is not None and (best is None or r.score > best.score or (r.ok and not best.ok)):
                best, best_end = r, toks[i + n - 1].end
        if best is None:
            return None
        return _with_span(best, toks[i].start, best_end)

    def _symbol_at(self, text: str, offset: int) -> MatchResult | None:
        if not self._symbolic:
            return None
        rest = " ".join(normalize(text[offset:]).lower().split())
        hits = {p for sym, p in self._symbolic if rest.startswith(sym)}
        if not hits:
            return None
        if len(hits) > 1:
            return self._ambiguous(hits, offset, offset, "symbol")
        (player,) = hits
        sym = next(s for s, p in self._symbolic if p == player and rest.startswith(s))
        start = offset + (len(text[offset:]) - len(text[offset:].lstrip()))
        return MatchResult(self.names[player], method="symbol", score=100.0, start=start, end=start + len(sym))

    # -- public API -------------------------------------------------------------------------

    def _cached(self, key: tuple[str, int, bool, int], compute) -> MatchResult:
        if len(key[0]) > _CACHEABLE_LEN:
            return compute()
        r = self._cache.get(key)
        if r is None:
            if len(self._cache) >= _CACHE_MAX:
                self._cache.clear()
            r = self._cache[key] = compute()
        return r

    def match(self, fragment: str, *, fuzzy: bool = True) -> MatchResult:
        """The player the whole fragment names ("Васю", "[private=...]" value, a room name)."""
        return self._cached((fragment, -1, fuzzy, 0),
                            lambda: self._with_suggestions(self._match(fragment, fuzzy), fragment))

    def _match(self, fragment: str, fuzzy: bool) -> MatchResult:
        norm = normalize(fragment)
        toks = tokenize(norm, self._max_words + 1)
        if not toks:
            sym = self._symbol_at(norm, 0)
            if sym is not None and not norm[sym.end :].strip():
                return sym
            return MatchResult(None, "empty") if not norm.strip() else MatchResult(None, "unknown", end=len(fragment))
        if len(toks) <= self._max_words:
            r = self._exact_at(norm, toks, 0)
            if r is not None and (not r.ok or r.end >= toks[-1].end):
                return r
            if len(toks) == 1:
                r = self._partial_at(toks, 0) or self._short_at(norm, toks, 0)
                if r is not None:
                    return r
            if fuzzy:
                r = self._fuzzy(" ".join(t.key for t in toks))
                if r is not None:
                    return _with_span(r, toks[0].start, toks[-1].end)
        sym = self._symbol_at(norm, 0)
        if sym is not None and not norm[sym.end :].strip():
            return sym
        return MatchResult(None, "unknown", start=toks[0].start, end=toks[-1].end)

    def match_start(
        self, text: str, *, skip_words: int = 0, fuzzy: bool = True, limit: int = 200
    ) -> MatchResult:
        """The player named by the words at the start of `text` (votes: the name after the intent).

        Up to `skip_words` leading words may be passed over ("за нашего Васю"), but never across
        punctuation; fuzzy matching is only tried at the very first word. Only the first
        `limit` characters are read.
        """
        text = text[:limit]
        return self._cached((text, skip_words, fuzzy, 1),
                            lambda: self._with_suggestions(self._match_start(text, skip_words, fuzzy), text))

    def _match_start(self, text: str, skip_words: int, fuzzy: bool) -> MatchResult:
        norm = normalize(text)
        sym = self._symbol_at(norm, 0)
        if sym is not None:
            return sym
        toks = tokenize(norm, skip_words + self._max_words + 1)
        if not toks:
            return MatchResult(None, "empty")
        r = self._word_at(norm, toks, 0) or self._short_at(norm, toks, 0)
        if r is not None:
            return r
        if fuzzy:
            r = self._fuzzy_at(norm, toks, 0)
            if r is not None:
                return r
        for j in range(1, min(skip_words, len(toks) - 1) + 1):
            if any(c in _CLAUSE_END for c in norm[toks[j - 1].end : toks[j].start]):
                break
            r = self._word_at(norm, toks, j)
            if r is not None:
                return _with_skipped(r, j)
        return MatchResult(None, "unknown", start=toks[0].start, end=toks[0].end)

    def suggest(self, text: str, *, limit: int = SUGGEST_MAX) -> tuple[str, ...]:
        """The players whose names come closest to the words at the start of `text`, which named
        nobody («Вассю», «в тюрьму Фролу»: a letter doubled, one off, a wrong ending): the names
        a refusal offers («Может быть, Фроло?»), never a match. A looser budget than a match's
        (SUGGEST_EDITS: a suggestion is asked, not taken), closest first, then by name; none for
        a word that is no name at all (a pronoun, «его»)."""
        toks = tokenize(normalize(text), self._max_words)
        if not toks or not self._fuzzy_choices or _function_word(toks[0].key):
            return ()
        best: dict[int, int] = {}
        for n in range(1, len(toks) + 1):
            query = " ".join(t.key for t in toks[:n])
            if len(query) < SUGGEST_MIN_LEN:
                continue
            budget = _suggest_budget(len(query))
            for _choice, distance, idx in process.extract(query, self._fuzzy_choices, scorer=OSA.distance,
                                                          score_cutoff=budget, limit=None):
                for p in self._fuzzy_players[idx]:
                    best[p] = min(best.get(p, budget + 1), int(distance))
        order = sorted(best, key=lambda p: (best[p], self.names[p]))
        return tuple(self.names[p] for p in order[:limit])

    def _with_suggestions(self, r: MatchResult, text: str) -> MatchResult:
        """An unknown name's result carrying the closest names as its candidates (suggest)."""
        if r.reason != "unknown" or r.candidates:
            return r
        found = self.suggest(text)
        return replace(r, candidates=found) if found else r

    def search(self, text: str) -> MatchResult:
        """The first player named anywhere in `text` (exact or partial forms, no fuzzy)."""
        norm = normalize(text)
        toks = tokenize(norm)
        for i in range(len(toks)):
            r = self._word_at(norm, toks, i)
            if r is not None:
                return r
        low = norm.lower()
        found = min(((low.find(sym), sym, p) for sym, p in self._symbolic if sym in low), default=None)
        if found is not None:
            pos, sym, player = found
            return MatchResult(self.names[player], method="symbol", score=100.0, start=pos, end=pos + len(sym))
        return MatchResult(None, "unknown" if toks else "empty")

    def forms(self, name: str) -> frozenset[str]:
        """Every phrase form the matcher accepts for one canonical name (for docs and debugging)."""
        out: set[str] = set()
        for first, entries in self._by_first.items():
            for e in entries:
                if self.names[e.player] == name and first in e.words[0]:
                    joiners = [g or " " for g in e.gaps]
                    for combo in islice(product(*e.words[1:]), _FUZZY_COMBOS_MAX):
                        out.add(first + "".join(j + w for j, w in zip(joiners, combo)))
        return frozenset(out)


# Words that stand where a name would and point at a player without naming him: "[b]В тюрьму
# его![/b]" is not a vote for Егор, "голосую за него" not for Негодяй, "vote him" not for Himmel.
_FUNCTION_POS = frozenset({"NPRO", "PREP", "CONJ", "PRCL", "INTJ", "PRED", "ADVB"})
_ENGLISH_FUNCTION_WORDS = frozenset({
    "him", "her", "hers", "his", "them", "they", "you", "your", "the", "this", "that", "these", "those", "all",
    "any", "one", "and", "not", "but", "for", "who", "she", "its", "our", "out", "now", "then", "here", "there",
    "mine", "yours", "their", "whoever", "someone", "anyone", "everyone", "nobody",
})


@lru_cache(maxsize=4096)
def _function_word(key: str) -> bool:
    """A pronoun, preposition, particle or the like (or a pronominal adjective: «эту», «того»,
    «всех»): never a shortened name, whichever player's name it begins."""
    if not _CYRILLIC_RE.search(key):
        return key in _ENGLISH_FUNCTION_WORDS
    return any(p.tag.POS in _FUNCTION_POS or "Apro" in p.tag for p in morph().parse(key) if p.score >= 0.1)


def _suggest_budget(length: int) -> int:
    """Edits a name offered as a suggestion may differ by (SUGGEST_EDITS)."""
    budget = 0
    for from_length, edits in SUGGEST_EDITS:
        if length >= from_length:
            budget = edits
    return budget


def _edit_budget(length: int) -> int:
    """Edits a misspelt name of this length may have (FUZZY_EDITS)."""
    budget = 0
    for from_length, edits in FUZZY_EDITS:
        if length >= from_length:
            budget = edits
    return budget


def _is_swap(a: str, b: str) -> bool:
    """Two letters of one word trade places ("Mrai" for "Miar", "Stormbrigner")."""
    if len(a) != len(b):
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return len(diff) == 2 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _squeezed(word: str) -> str:
    """The word with each run of one letter written once ("Miiar", "Bobb", "Кикиморра")."""
    return _REPEATS_RE.sub(r"\1", word)


def _edits(query: str, choice: str, distance: int) -> int | None:
    """The edits to count for a near miss, or None when it is too far for the name's length. A
    swapped pair of letters, and in a Latin handle letters doubled or undoubled (players stretch
    short handles: "Miiar", "Bobb"), count as one edit whatever the length. A Russian name with a
    letter doubled («Вассю») stays a typo that is refused with a suggestion (issue 29, item 7)."""
    if distance <= _edit_budget(min(len(query), len(choice))):
        return distance
    if distance <= 2 and _is_swap(query, choice):
        return 1
    if distance <= 2 and not _CYRILLIC_RE.search(query) and _squeezed(query) == _squeezed(choice):
        return 1
    return None


def _with_span(r: MatchResult, start: int, end: int) -> MatchResult:
    return MatchResult(r.name, r.reason, r.candidates, r.method, r.score, start, end, r.skipped)


def _with_skipped(r: MatchResult, skipped: int) -> MatchResult:
    return MatchResult(r.name, r.reason, r.candidates, r.method, r.score, r.start, r.end, skipped)


def _inflect_word(word: str, case: str, gender: str | None, animate: bool = True) -> tuple[str, str | None]:
    """One word of a name in `case`, keeping its capitalisation; returns (form, its gender). An
    adjective's accusative follows `animate` (a person's name: «Красную Шапочку»; a thing:
    «защитную речь», «ночной выбор»)."""
    if not _CYRILLIC_RE.search(word):
        return word, gender
    candidates = [
        p for p in morph().parse(word.lower())
        if p.tag.POS in ("NOUN", "ADJF") and p.tag.case == "nomn" and p.tag.number != "plur" and "Fixd" not in p.tag
    ]
    # Prefer a person's name or surname, then a noun that agrees with the gender seen so far.
    candidates.sort(key=lambda p: (not ({"Name", "Surn", "Patr"} & set(p.tag.grammemes)), p.tag.POS != "NOUN",
                                   bool(gender) and p.tag.gender not in (gender, None), -p.score))
    for p in candidates:
        grams = {case, "sing"}
        if p.tag.POS == "ADJF":
            # Animacy only decides the accusative; asking it of another case finds no form.
            grams |= ({"anim" if animate else "inan"} if case == "accs" and (gender or p.tag.gender) == "masc" else set()) \
                | ({gender} if gender else ({p.tag.gender} if p.tag.gender else set()))
        inflected = p.inflect(grams)
        if inflected is not None:
            form = inflected.word
            if word[:1].isupper():
                form = form[:1].upper() + form[1:]
            return form, p.tag.gender if p.tag.POS == "NOUN" else gender or p.tag.gender
    return word, gender


# A display name's gender is guessed only from a first name pymorphy3 is sure of (tagged Name,
# masculine or feminine, not «ms-f» like Саша, in the nominative with at least this score):
# a nickname's grammatical gender (Кикимора, Негодяй) says nothing of the player's.
GENDER_GUESS_MIN_SCORE = 0.8
_GENDERS = {"masc": "m", "femn": "f"}


def guess_gender(name: str) -> str:
    """"m" or "f" when the display name is a first name pymorphy3 is confident of (Вася, Маша,
    «Иван Грозный»), "" otherwise (Кикимора, Саша, SleepWalker, Фроло, two first names that disagree)."""
    found = set()
    for word in WORD_RE.findall(normalize(name or "")):
        if not _CYRILLIC_RE.search(word):
            continue
        parses = [p for p in morph().parse(word) if "Name" in p.tag and p.tag.case == "nomn"]
        genders = {p.tag.gender for p in parses}
        if not parses or len(genders) != 1:
            continue
        gender = genders.pop()
        if gender in _GENDERS and sum(p.score for p in parses) >= GENDER_GUESS_MIN_SCORE:
            found.add(_GENDERS[gender])
    return found.pop() if len(found) == 1 else ""


def inflect_name(name: str, case: str = "accs") -> str:
    """A display name in a grammatical case, for text the site writes on a player's behalf
    ("В тюрьму Красную Шапочку"). Words pymorphy3 does not know stay as written, which the
    matcher still reads. Gender agreement runs from the noun back to the adjectives."""
    words = name.split()
    if case not in _CASES or not words:
        return name
    # Find the head noun's gender first (the last word in "Красная Шапочка", "Маленький Джон").
    _, gender = _inflect_word(words[-1], "nomn", None)
    return " ".join(_inflect_word(word, case, gender)[0] for word in words)


def inflect_phrase(phrase: str, case: str = "accs") -> str:
    """A phrase naming a thing (an adjective and its noun: «защитная речь», «приветствие») in a
    grammatical case, for a sentence that governs it («Опубликуйте защитную речь»). As
    inflect_name, with the accusative of a thing (inanimate)."""
    words = phrase.split()
    if case not in _CASES or not words:
        return phrase
    _, gender = _inflect_word(words[-1], "nomn", None, animate=False)
    return " ".join(_inflect_word(word, case, gender, animate=False)[0] for word in words)
