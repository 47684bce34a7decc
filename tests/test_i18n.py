"""The Russian catalogue: complete, compiled, with the placeholders the code fills in.

The .po is parsed by the small reader below (no polib dependency); the compiled .mo is read with
the standard library's gettext, which is what Django uses too.
"""

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.utils import translation

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
PO_PATH = LOCALE_DIR / "ru" / "LC_MESSAGES" / "django.po"
MO_PATH = PO_PATH.with_suffix(".mo")
RU_NPLURALS = 4


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)  # plain msgstr is form 0
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def label(self) -> str:
        return f"django.po:{self.line} {self.msgid!r}"


def _unquote(token: str, path: Path, lineno: int) -> str:
    token = token.strip()
    if not (len(token) >= 2 and token[0] == token[-1] == '"'):
        raise ValueError(f"{path}:{lineno}: expected a quoted string, got {token!r}")
    # PO strings use C escapes, which are a subset of Python's string escapes.
    return ast.literal_eval(token)


def parse_po(path: Path) -> list[Entry]:
    """Entries of a .po file in order (the header, msgid "", included); obsolete #~ entries skipped."""
    entries: list[Entry] = []
    current = Entry()
    target: tuple[str, int | None] | None = None
    started = False

    def finish():
        nonlocal current, target, started
        if started:
            entries.append(current)
        current, target, started = Entry(), None, False

    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if started:  # flags belong to the next entry
                finish()
            current.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            continue
        if line.startswith("#"):
            if started:
                finish()
            continue
        m = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")$", line)
        if m:
            keyword, index, text = m.group(1), m.group(2), _unquote(m.group(3), path, lineno)
            if keyword in ("msgctxt", "msgid") and started and (current.msgstr or keyword == "msgctxt"):
                finish()
            if not started:
                current.line = lineno
            started = True
            if keyword == "msgctxt":
                current.msgctxt, target = text, ("msgctxt", None)
            elif keyword == "msgid":
                current.msgid, target = text, ("msgid", None)
            elif keyword == "msgid_plural":
                current.msgid_plural, target = text, ("msgid_plural", None)
            else:
                n = int(index) if index is not None else 0
                current.msgstr[n], target = text, ("msgstr", n)
            continue
        if line.startswith('"') and target is not None:
            text = _unquote(line, path, lineno)
            kind, n = target
            if kind == "msgstr":
                current.msgstr[n] += text
            else:
                setattr(current, kind, getattr(current, kind) + text)
            continue
        raise ValueError(f"{path}:{lineno}: cannot parse {raw!r}")
    finish()
    return entries


ALL_ENTRIES = parse_po(PO_PATH)
HEADER = next(e for e in ALL_ENTRIES if e.msgid == "" and e.msgctxt is None)
ENTRIES = [e for e in ALL_ENTRIES if e is not HEADER]


def _ids(entries):
    return [e.label for e in entries]


# --- (a) complete and not fuzzy ------------------------------------------------------------------
def test_po_header_is_russian_with_four_plural_forms():
    header = HEADER.msgstr[0]
    assert "fuzzy" not in HEADER.flags
    assert re.search(r"^Language: ru$", header, re.M)
    assert re.search(rf"^Plural-Forms: nplurals={RU_NPLURALS};", header, re.M)
    assert re.search(r"^Content-Type: text/plain; charset=UTF-8$", header, re.M)


def test_po_has_entries():
    assert len(ENTRIES) > 100


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_every_entry_is_translated_and_not_fuzzy(entry):
    assert "fuzzy" not in entry.flags
    if entry.msgid_plural is None:
        assert set(entry.msgstr) == {0}
        assert entry.msgstr[0].strip()
    else:
        assert sorted(entry.msgstr) == list(range(RU_NPLURALS))
        assert all(form.strip() for form in entry.msgstr.values())


# --- (b) the committed .mo matches the .po -------------------------------------------------------
def _mo_catalog() -> dict:
    with MO_PATH.open("rb") as f:
        return gettext.GNUTranslations(f)._catalog


def _mo_key(entry: Entry) -> str:
    return entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"


def test_mo_is_compiled_from_the_current_po():
    """Run `python manage.py compilemessages -l ru --ignore=.venv` when this fails."""
    assert MO_PATH.exists(), "locale/ru/LC_MESSAGES/django.mo is missing: run compilemessages"
    catalog = _mo_catalog()
    stale = []
    for entry in ENTRIES:
        key = _mo_key(entry)
        if entry.msgid_plural is None:
            if catalog.get(key) != entry.msgstr[0]:
                stale.append(entry.label)
        else:
            for n, form in entry.msgstr.items():
                if catalog.get((key, n)) != form:
                    stale.append(f"{entry.label}[{n}]")
    assert not stale, "the .mo is out of date, run compilemessages: " + ", ".join(stale)
    # Nothing in the .mo that the .po no longer has (e.g. a removed string).
    po_keys = {_mo_key(e) for e in ENTRIES}
    mo_keys = {k[0] if isinstance(k, tuple) else k for k in catalog if k != ""}
    assert mo_keys <= po_keys, f"the .mo has strings the .po lacks: {sorted(mo_keys - po_keys)}"


def test_mo_uses_the_russian_plural_rule():
    with MO_PATH.open("rb") as f:
        plural = gettext.GNUTranslations(f).plural
    expected = {0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 0, 22: 1, 25: 2, 101: 0, 111: 2, 112: 2}
    assert {n: plural(n) for n in expected} == expected


# --- (c) placeholders survive translation --------------------------------------------------------
PY_FORMAT_RE = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa]|%%")
NAMED_RE = re.compile(r"%\((\w+)\)")
TEMPLATE_VAR_RE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")


def _placeholders(text: str, python_format: bool) -> set[str]:
    if python_format:
        return {m.group(0) for m in PY_FORMAT_RE.finditer(text) if m.group(0) != "%%"}
    # Not a format string: only named references can matter (and none should appear).
    return {m.group(0) for m in NAMED_RE.finditer(text)}


@pytest.mark.parametrize("entry", ENTRIES, ids=_ids(ENTRIES))
def test_translation_keeps_the_placeholders_of_the_original(entry):
    python_format = "python-format" in entry.flags
    expected = _placeholders(entry.msgid, python_format)
    if entry.msgid_plural is not None:
        # A Russian form serves several numbers (form 0 is 1, 21, 31…), so every form needs the
        # placeholders of both English forms ("edited once" / "edited %(counter)s times").
        expected |= _placeholders(entry.msgid_plural, python_format)
    for n, form in entry.msgstr.items():
        assert _placeholders(form, python_format) == expected, f"msgstr[{n}] = {form!r}"
        assert set(TEMPLATE_VAR_RE.findall(form)) <= set(TEMPLATE_VAR_RE.findall(entry.msgid)), form


# --- (d) Django actually uses the catalogue -------------------------------------------------------
def test_games_is_translated_in_russian_and_not_in_english():
    with translation.override("ru"):
        assert translation.gettext("Games") == "Игры"
    with translation.override("en"):
        assert translation.gettext("Games") == "Games"


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "1 сообщение"), (3, "3 сообщения"), (5, "5 сообщений"), (11, "11 сообщений"), (21, "21 сообщение")],
)
def test_post_counts_use_russian_plural_forms(count, expected):
    with translation.override("ru"):
        text = translation.ngettext("%(counter)s post", "%(counter)s posts", count) % {"counter": count}
    assert text == expected
