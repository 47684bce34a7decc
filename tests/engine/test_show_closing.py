"""The show's close hands itself to its modules through a protocol (engine/closing.py, issue 28):
StageClose satisfies it, and no engine module but ruleset.py imports close.py (not even for a type)."""

from __future__ import annotations

import ast
import pathlib
import typing

from games.rulesets.show.engine.close import StageClose
from games.rulesets.show.engine.closing import Closing

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "games" / "rulesets" / "show" / "engine"


def test_stage_close_has_everything_the_protocol_names():
    hints = typing.get_type_hints(Closing)
    methods = [n for n, v in vars(Closing).items() if callable(v) and not n.startswith("_")]
    assert hints and methods
    for name in methods:
        assert callable(getattr(StageClose, name, None)), name
    # the attributes are set in StageClose.__init__: the names it assigns to self
    init = next(n for n in ast.walk(ast.parse((ENGINE / "close.py").read_text()))
                if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assigned = {t.attr for n in ast.walk(init) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                for t in [n]}
    assert set(hints) <= assigned, set(hints) - assigned


def test_only_the_ruleset_imports_the_close():
    importers = []
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("engine.close"):
                importers.append(path.name)
    assert importers == ["ruleset.py"]
