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


# --- Issue 28, item 13: the coins ledger's reasons and the stages' names ----------------------------
# A code left in a text: snake_case, or (in Russian) any word in Latin lower-case letters.
LATIN_WORD = re.compile(r"\b[a-z]{2,}\b")
# The details a ledger line may carry: none, a hero's name, or a code the engine writes (the Show:
# a burden's owner, a fee's stage), which its words must not show as it is.
LEDGER_DETAILS = ("", "Петя")
CODE_DETAILS = {"burden": ("public", "reptiloids", "demon"), "stage_fee": ("day 1",), "coma_fee": ("day 1",)}


def stage_kinds(adapter) -> set[str]:
    """The stages (phase kinds) an engine declares (`stage_kinds`), else its site's phase kinds."""
    declared = getattr(adapter.engine, "stage_kinds", None)
    return set(declared) if declared is not None else set(adapter.phase_kinds)


def _coded(text: str, code: str, lang: str) -> bool:
    """Whether a text shows a code: the code itself (alone or as «judge 2»), a raw code, or any
    Latin lower-case word in Russian."""
    return (not text or text == code or re.search(rf"\b{re.escape(code)} \d", text) is not None
            or RAW_CODE.search(text) is not None or (lang == "ru" and LATIN_WORD.search(text) is not None))


def missing_stage_texts(adapter) -> list[str]:
    """Every stage of the engine has a name on the site (the core's phase label and, for a rule set
    whose games post coins, the «Баланс» page's stage), in Russian and in English, no code left."""
    from coins.wording import GAME_WORDS

    words = GAME_WORDS.get(adapter.key)
    missing = []
    texts: dict[str, dict[str, str]] = {}
    for lang in ("en", "ru"):
        with translation.override(lang):
            for kind in sorted(stage_kinds(adapter)):
                shown = [str(adapter.phase_label(kind, 2))]
                if words is not None:
                    shown.append(str(words.stage_text(f"{kind} 2")))
                texts.setdefault(kind, {})[lang] = " / ".join(shown)
                if any(_coded(t, kind, lang) for t in shown):
                    missing.append(f"{adapter.key} {lang}:{kind}={' / '.join(shown)!r}")
    missing += [f"{adapter.key} ru:{kind}={t['ru']!r} (not translated)" for kind, t in sorted(texts.items())
                if t["ru"] == t["en"]]
    return missing


def missing_ledger_texts(adapter) -> list[str]:
    """Every reason of a coins line the rule set's games post has words, from either side and with
    any detail, in Russian and in English (the «Баланс» page, «Обо мне», the results)."""
    from coins.wording import GAME_WORDS, reason_label

    codes = set(adapter.ledger_reasons)
    if not codes:
        return []
    words = GAME_WORDS.get(adapter.key)
    if words is None:
        return [f"{adapter.key}: no words registered with coins.wording for its ledger lines"]
    missing = []
    texts: dict[tuple, dict[str, str]] = {}
    for lang in ("en", "ru"):
        with translation.override(lang):
            fallback = str(reason_label("", incoming=False))
            for code in sorted(codes):
                for incoming in (False, True):
                    for detail in LEDGER_DETAILS + CODE_DETAILS.get(code, ()):
                        text = str(words.reason_text(code, detail, incoming=incoming))
                        texts.setdefault((code, incoming, detail), {})[lang] = text
                        if _coded(text, code, lang) or text == fallback or (detail and lang == "ru" and detail in text
                                                                          and LATIN_WORD.search(detail)):
                            missing.append(f"{adapter.key} {lang}:{code}{'+' if incoming else '-'}{detail}={text!r}")
    missing += [f"{adapter.key} ru:{code}={t['ru']!r} (not translated)" for (code, _i, _d), t in sorted(texts.items())
                if t["ru"] == t["en"]]
    return sorted(set(missing))


def test_every_stage_of_every_engine_has_a_name_in_russian_and_english(adapters):
    missing = [m for adapter in adapters for m in missing_stage_texts(adapter)]
    assert missing == []


def test_every_ledger_reason_of_every_rule_set_has_a_text_in_russian_and_english(adapters):
    assert any(adapter.ledger_reasons for adapter in adapters)  # the Show posts coins
    missing = [m for adapter in adapters for m in missing_ledger_texts(adapter)]
    assert missing == []


def test_the_walk_finds_a_ledger_reason_and_a_stage_without_words(adapters, monkeypatch):
    from games.rulesets.show import wording as show_wording

    show = registry.site("show")
    assert missing_ledger_texts(show) == [] and missing_stage_texts(show) == []
    monkeypatch.delitem(show_wording.LEDGER_WORDS, "ally_split")  # put back after the test
    monkeypatch.delitem(show_wording.STAGE_NAMES, "judge")
    assert "show en:ally_split-=" in " ".join(missing_ledger_texts(show))
    assert [m for m in missing_stage_texts(show) if m.startswith("show ru:judge=")] == [
        "show ru:judge='judge 2 / judge 2'", "show ru:judge='judge 2 / judge 2' (not translated)"]


def test_every_transfer_the_show_engine_makes_carries_a_declared_reason():
    """The engine refuses a transfer whose reason the site does not word (engine.coins.TRANSFER_REASONS)."""
    from games.rulesets.show.engine.coins import Transfer

    with pytest.raises(ValueError, match="TRANSFER_REASONS"):
        Transfer("hero:1", "bank", 5, "some_new_fee")
    assert Transfer("hero:1", "bank", 5, "stage_fee", "day 1").reason == "stage_fee"
