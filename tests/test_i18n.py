"""The Russian catalogue: complete, compiled, with the placeholders the code fills in.

The .po is parsed by the small reader below (no polib dependency); the compiled .mo is read with
the standard library's gettext, which is what Django uses too. Section (e) runs Django's
makemessages on a copy of the sources, so a string the code marks for translation cannot be left
out of the catalogue (it needs GNU gettext's xgettext and msgmerge, which bin/test installs).
"""

import ast
import contextlib
import gettext
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

PROJECT_DIR = Path(__file__).resolve().parent.parent
LOCALE_DIR = PROJECT_DIR / "locale"
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


# --- (e) every string the code marks for translation is in the catalogue -------------------------
# The catalogue is made by exactly these commands (locations kept, gettext's default wrapping).
MAKEMESSAGES_IGNORE = (".venv", "var", "tests")
MAKEMESSAGES_COMMAND = ("python manage.py makemessages -l ru "
                        + " ".join(f"--ignore={p}" for p in MAKEMESSAGES_IGNORE) + " --no-obsolete")
COMPILEMESSAGES_COMMAND = "python manage.py compilemessages -l ru --ignore=.venv"
HOW_TO_FIX = (f"run `{MAKEMESSAGES_COMMAND}`, translate the new, empty and fuzzy entries of "
              f"locale/ru/LC_MESSAGES/django.po (every plural form; drop the fuzzy flag), then run "
              f"`{COMPILEMESSAGES_COMMAND}`")
SOURCE_SUFFIXES = {".py", ".html", ".txt"}  # makemessages' default extensions for the django domain


def _copy_sources(src: Path, dst: Path) -> None:
    """The files makemessages would read, copied (the real tree is never written to: makemessages
    puts temporary files beside the templates it reads)."""
    for path in src.iterdir():
        if path.name.startswith(".") or path.name in MAKEMESSAGES_IGNORE or path.name == "locale":
            continue
        if path.is_dir():
            shutil.copytree(path, dst / path.name, ignore=lambda folder, names: [
                n for n in names if n == "__pycache__" or n in MAKEMESSAGES_IGNORE
                or (Path(folder, n).is_file() and Path(n).suffix not in SOURCE_SUFFIXES)])
        elif path.suffix in SOURCE_SUFFIXES:
            shutil.copy2(path, dst / path.name)


@pytest.fixture(scope="module")
def merged_entries(tmp_path_factory) -> list[Entry]:
    """The catalogue as makemessages would leave it for the current code (run on a temporary copy)."""
    missing = [tool for tool in ("xgettext", "msgmerge", "msguniq") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"GNU gettext is not installed ({', '.join(missing)} missing): "
                    "apt-get install gettext (bin/test does it)")
    work = tmp_path_factory.mktemp("makemessages")
    _copy_sources(PROJECT_DIR, work)
    po = work / "locale" / "ru" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    shutil.copyfile(PO_PATH, po)
    with override_settings(LOCALE_PATHS=[str(work / "locale")]), contextlib.chdir(work):
        call_command("makemessages", locale=["ru"], ignore_patterns=list(MAKEMESSAGES_IGNORE), no_obsolete=True,
                     verbosity=0)
    return parse_po(po)


def _key(entry: Entry) -> tuple[str | None, str]:
    return entry.msgctxt, entry.msgid


def test_code_has_no_translatable_string_missing_from_the_catalogue_when_makemessages_runs(merged_entries):
    known = {_key(e) for e in ALL_ENTRIES}
    new = [e for e in merged_entries if _key(e) not in known]
    assert not new, (f"{len(new)} translatable string(s) in the code are not in the Russian catalogue: "
                     + "; ".join(repr(e.msgid) for e in new) + f". To fix it, {HOW_TO_FIX}.")


def test_catalogue_has_no_untranslated_or_fuzzy_entry_when_makemessages_runs(merged_entries):
    bad = []
    for entry in merged_entries:
        if entry.msgid == "" and entry.msgctxt is None:
            continue
        forms = [0] if entry.msgid_plural is None else list(range(RU_NPLURALS))
        if "fuzzy" in entry.flags or any(not entry.msgstr.get(n, "").strip() for n in forms):
            bad.append(entry)
    assert not bad, (f"{len(bad)} entr(y/ies) would be untranslated or fuzzy after makemessages: "
                     + "; ".join(repr(e.msgid) for e in bad) + f". To fix it, {HOW_TO_FIX}.")
