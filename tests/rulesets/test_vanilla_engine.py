"""The vanilla engine (tests/rulesets/vanilla/engine.py) is a rule set like the site's: pure (it
imports the engine package and the standard library only, as import-linter's `pure-engine`
contract asks of games/rulesets/*/engine), and it implements the engine's Ruleset protocol."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.engine.rulesets import Ruleset
from tests.rulesets.vanilla.engine import VANILLA

SOURCE = Path(__file__).resolve().parent / "vanilla" / "engine.py"


def test_the_engine_imports_no_django_and_nothing_of_the_site_but_the_engine():
    modules = set()
    for node in ast.walk(ast.parse(SOURCE.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            modules.add(node.module or "")
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    site = {m for m in modules if m.split(".")[0] in {"django", "games", "accounts", "config", "tests"}}
    assert site and all(m.startswith("games.engine") for m in site), sorted(site)


def test_it_implements_the_protocol():
    assert isinstance(VANILLA, Ruleset)


def test_a_table_where_the_mafia_are_half_is_refused():
    with pytest.raises(ValueError, match="over before it starts"):
        VANILLA.new_game([(1, "A", "citizen"), (2, "B", "mafioso"), (3, "C", "citizen"), (4, "D", "mafioso")])


def test_the_default_table_is_a_quarter_mafia():
    assert VANILLA.default_roles(8).count("mafioso") == 2
    assert VANILLA.default_roles(3).count("mafioso") == 1
