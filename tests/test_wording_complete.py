"""Issue 15, item 3: every code an engine declares and every event kind it emits has a text, in
Russian and in English, in the wording layer (games/wording/ and each rule set's wording.py).

Walked for every registered rule set (games.rulesets.registry.adapters()), from the engine's own
declarations: its check_order and check_vote codes (`reasons`, `vote_reasons`), the other code
tables of its engine modules (`*_REASONS`: cards' deck and GM-effect reasons) and the failures of
its phase close (`FAIL_*`), and its event kinds (its `EVENT_KINDS` and whatever its source emits),
plus the kinds the site stores itself. A text is missing when it is empty, the code itself, the
raw fallback «kind: data», or, in Russian, the English text (no translation).
"""

from __future__ import annotations

import copy
import importlib
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import pytest
from django.utils import translation

from games.rulesets import registry
from games.wording import event_text, wording_of

ROOT = Path(__file__).resolve().parents[1]
# A raw code: snake_case words, key=value pairs, seat ids as «#37: 3».
RAW_CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|(?<![\[\w])[a-z]+=\S|#\d+:")
EMITTED = (re.compile(r'Event\(\s*"([a-z_]+)"'), re.compile(r'gm_note\(\s*"([a-z_]+)"'))
# The events the site stores itself (games/services, games/communication, the views): with an
# engine's Event or a GameEvent written directly.
SITE_EMITTED = (EMITTED[0], re.compile(r'GameEvent\.objects\.create\([^)]*kind="([a-z_]+)"'),
                # a storing function's default kind (games.services.journal.event_store_written)
                re.compile(r'\bkind: str = "([a-z_]+)"'))
# Kinds whose text is the writer's own words, the same in every language: the GM's manual event.
OWN_WORDS = {"manual"}
# Data rich enough for any event's text (names, a role, a tally); the text is only asked to exist.
SAMPLE = {"seat": 37, "name": "Петя", "target_name": "Маша", "voter_name": "Вася", "by_name": "Коля",
          "sender_name": "Коля", "actor_name": "Петя", "text": "Привет", "fouls": 2, "n": 1,
          "players": [{"seat": 37, "name": "Петя"}], "leaders": [{"seat": 37, "name": "Петя"}],
          "tally": [{"target": 37, "target_name": "Петя", "name": "Петя", "votes": 2}]}


def _engine_modules(adapter) -> list[ModuleType]:
    """The modules of a rule set's engine: the one its Ruleset class is defined in and the
    package's `engine` module (a module, or a package whose __init__ re-exports its parts)."""
    package = type(adapter).__module__.rsplit(".", 1)[0]
    modules = [sys.modules[type(adapter.engine).__module__], importlib.import_module(f"{package}.engine")]
    return list({m.__name__: m for m in modules}.values())


def _engine_sources(adapter) -> str:
    paths = set()
    for module in _engine_modules(adapter):
        path = Path(module.__file__)
        paths |= set(path.parent.glob("*.py")) if path.name == "__init__.py" or path.parent.name == "engine" \
            else {path}
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(paths))


def reason_codes(adapter) -> set[str]:
    """Every reason code the engine declares but its vote codes: check_order's, its other code
    tables (`*_REASONS`) and its close's failures (`FAIL_*`)."""
    engine = adapter.engine
    codes = set(engine.reasons) | set(getattr(engine, "deck_reasons", None) or {})
    for module in _engine_modules(adapter):
        for name, value in vars(module).items():
            if name.endswith("REASONS") and name != "VOTE_REASONS" and isinstance(value, Mapping):
                codes |= set(value)
            elif name.startswith("FAIL_") and isinstance(value, str):
                codes.add(value)
    return codes


def vote_codes(adapter) -> set[str]:
    return set(adapter.engine.vote_reasons)


def declared_event_kinds(adapter) -> set[str] | None:
    """The engine's declared `EVENT_KINDS` (or `event_kinds`), None when it declares none."""
    declared = getattr(adapter.engine, "event_kinds", None)
    kinds = set(declared) if declared is not None else None
    for module in _engine_modules(adapter):
        if hasattr(module, "EVENT_KINDS"):
            kinds = (kinds or set()) | set(module.EVENT_KINDS)
    return kinds


def emitted_event_kinds(adapter) -> set[str]:
    """The kinds the engine's source emits (Event("kind", ...), gm_note("kind", ...))."""
    source = _engine_sources(adapter)
    return set().union(*(set(p.findall(source)) for p in EMITTED))


def event_kinds(adapter) -> set[str]:
    """What the engine declares and what its source emits (a rule set may declare none)."""
    return (declared_event_kinds(adapter) or set()) | emitted_event_kinds(adapter)


def site_event_kinds() -> set[str]:
    kinds = set()
    for path in sorted((ROOT / "games").rglob("*.py")):
        if "engine" in path.parts or path.name == "engine.py" or "migrations" in path.parts:
            continue  # an engine's kinds are its own rule set's
        source = path.read_text(encoding="utf-8")
        for pattern in SITE_EMITTED:
            kinds |= set(pattern.findall(source))
    return kinds


def _missing(codes, text_of, *, same_in_all_languages=frozenset()) -> list[str]:
    """The codes without a text: empty, the code itself, a raw code, or Russian equal to English."""
    texts = {}
    for lang in ("en", "ru"):
        with translation.override(lang):
            texts[lang] = {code: text_of(code) for code in sorted(codes)}
    missing = []
    for code in sorted(codes):
        for lang in ("en", "ru"):
            text = texts[lang][code]
            if not text or text == code or text.startswith(f"{code}:") or RAW_CODE.search(text):
                missing.append(f"{lang}:{code}={text!r}")
        if code not in same_in_all_languages and texts["ru"][code] == texts["en"][code]:
            missing.append(f"ru:{code}={texts['ru'][code]!r} (not translated)")
    return missing


def missing_reason_texts(adapter) -> list[str]:
    wording = wording_of(adapter.key)
    return [f"{adapter.key} {m}" for m in _missing(reason_codes(adapter), wording.reason_text)]


def missing_vote_texts(adapter) -> list[str]:
    """A refused vote is told to the voter (games.services.votes.reason_text, the engine's codes in
    the ledger's words) and, dropped at the close, on the GM's event list."""
    from games.services.votes import _VOTE_CODES, reason_text

    codes = vote_codes(adapter)
    missing = _missing(codes, lambda code: reason_text(_VOTE_CODES.get(code, code), vote_word="в тюрьму"))
    if "vote_dropped" in event_kinds(adapter):
        missing += _missing(codes, lambda code: event_text(adapter.key, "vote_dropped", {**SAMPLE, "reason": code}))
    return [f"{adapter.key} {m}" for m in missing]


def missing_event_texts(adapter, kinds) -> list[str]:
    def text(kind: str) -> str:
        value = event_text(adapter.key, kind, dict(SAMPLE))
        return value if value != kind else ""

    # The samples carry no codes, so only the fallback «kind: data» and a missing translation count.
    missing = []
    for lang in ("en", "ru"):
        with translation.override(lang):
            for kind in sorted(kinds):
                value = text(kind)
                if not value or value.startswith(f"{kind}:"):
                    missing.append(f"{adapter.key} {lang}:{kind}={value!r}")
    with translation.override("en"):
        english = {kind: text(kind) for kind in kinds}
    with translation.override("ru"):
        missing += [f"{adapter.key} ru:{kind} (not translated)" for kind in sorted(kinds - OWN_WORDS)
                    if text(kind) == english[kind]]
    return missing


@pytest.fixture
def adapters():
    found = registry.adapters()
    assert {"forum", "club", "cards"} <= {a.key for a in found}
    return found


def test_every_engine_declares_every_event_kind_its_source_emits(adapters):
    """A declared list (the site's rule sets keep one) holds every kind the source emits."""
    assert all(declared_event_kinds(registry.site(key)) for key in ("forum", "club", "cards"))
    for adapter in adapters:
        emitted, declared = emitted_event_kinds(adapter), declared_event_kinds(adapter)
        assert emitted, adapter
        if declared is not None:
            assert emitted <= declared, (adapter.key, sorted(emitted - declared))


def test_every_reason_code_of_every_engine_has_a_text_in_russian_and_english(adapters):
    missing = [m for adapter in adapters for m in missing_reason_texts(adapter)]
    assert missing == []


def test_every_vote_code_of_every_engine_has_a_text_in_russian_and_english(adapters):
    missing = [m for adapter in adapters for m in missing_vote_texts(adapter)]
    assert missing == []


def test_every_event_kind_of_every_engine_has_a_text_in_russian_and_english(adapters):
    missing = [m for adapter in adapters for m in missing_event_texts(adapter, event_kinds(adapter))]
    assert missing == []


def test_every_event_kind_the_site_stores_has_a_text_in_every_rule_set(adapters):
    kinds = site_event_kinds()
    assert {"manual", "modkilled", "prod", "anonymous_message"} <= kinds
    missing = [m for adapter in adapters for m in missing_event_texts(adapter, kinds)]
    assert missing == []


# --- The walk fails when one text is missing ------------------------------------------------------
def test_the_walk_finds_a_reason_code_whose_text_was_removed(adapters, monkeypatch):
    club = registry.site("club")
    assert missing_reason_texts(club) == []
    patched = copy.copy(club.wording)
    patched.order_reasons = {k: v for k, v in club.wording.order_reasons.items() if k != "healed_twice"}
    monkeypatch.setattr(club, "wording", patched)
    assert [m for m in missing_reason_texts(club) if ":healed_twice=" in m] == [
        "club en:healed_twice='healed_twice'", "club ru:healed_twice='healed_twice'",
        "club ru:healed_twice='healed_twice' (not translated)"]


def test_the_walk_finds_a_cards_code_whose_text_was_removed(adapters, monkeypatch):
    from games.rulesets.cards import wording as cards_wording

    cards = registry.site("cards")
    assert missing_reason_texts(cards) == []
    monkeypatch.delitem(cards_wording.CARD_REASONS, "discard_count")  # put back after the test
    assert [m for m in missing_reason_texts(cards) if ":discard_count=" in m] == [
        "cards en:discard_count='discard_count'", "cards ru:discard_count='discard_count'",
        "cards ru:discard_count='discard_count' (not translated)"]


def test_the_walk_finds_an_event_kind_whose_text_was_removed(adapters, monkeypatch):
    club = registry.site("club")
    kinds = event_kinds(club)
    assert missing_event_texts(club, kinds) == []

    class WithoutFoul(type(club.wording)):
        def event_text(self, kind: str, data: dict) -> str | None:
            return None if kind == "foul" else super().event_text(kind, data)

    monkeypatch.setattr(club, "wording", WithoutFoul())
    assert [m for m in missing_event_texts(club, kinds) if ":foul=" in m] == [
        "club en:foul='foul: seat: 37, name: Петя, target_name: Маша, voter_name: Вася, by_name: Коля, sender_name: "
        "Коля, actor_name: Петя, text: Привет, fouls: 2, n: 1'",
        "club ru:foul='foul: seat: 37, name: Петя, target_name: Маша, voter_name: Вася, by_name: Коля, sender_name: "
        "Коля, actor_name: Петя, text: Привет, fouls: 2, n: 1'"]


def test_the_walk_finds_an_untranslated_text(adapters, monkeypatch):
    forum = registry.site("forum")
    patched = copy.copy(forum.wording)
    patched.order_reasons = {**forum.wording.order_reasons, "stolen": "the thief stole it"}  # a plain str
    monkeypatch.setattr(forum, "wording", patched)
    assert missing_reason_texts(forum) == ["forum ru:stolen='the thief stole it' (not translated)"]
