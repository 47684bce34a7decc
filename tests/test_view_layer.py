"""The views' layer rules (issue 15, item 4): a view parses, asks the permissions, calls one
service and renders. So no view writes to the database itself, no view or template tag imports
an engine module (what it needs of the engine it asks a selector or the rule set's adapter), the
stored engine state has one loader (games.selectors.state), and the cards GM primitives have one
definition (the cards engine's GM_OPS).

import-linter's layers see imports between packages; these read the source for what they do not
see: the calls a view makes and the imports placed inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"

# The ORM calls that write; `.update(` is a write only on a queryset (a dict has one too).
WRITES = {"save", "delete", "create", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}


def _view_modules() -> list[Path]:
    views = sorted((GAMES / "views").glob("*.py")) + sorted(GAMES.glob("rulesets/*/views.py"))
    tags = sorted((GAMES / "templatetags").glob("*.py")) + sorted(GAMES.glob("rulesets/*/templatetags/*.py"))
    return views + tags


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):  # module level and inside functions alike
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return found


def _is_engine(module: str) -> bool:
    parts = module.split(".")
    return module == "games.engine" or module.startswith("games.engine.") or (
        parts[:2] == ["games", "rulesets"] and "engine" in parts[3:4])


def _receiver_names(node: ast.AST) -> list[str]:
    """The attribute and call names a method call is made on (`Phase.objects.filter(...).update`)."""
    names = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names
        else:
            return names


def test_no_view_or_template_tag_imports_an_engine_module():
    offenders = [f"{path.relative_to(ROOT)}:{line}: {module}"
                 for path in _view_modules()
                 for line, module in _imports(ast.parse(path.read_text(encoding="utf-8")))
                 if _is_engine(module)]
    assert not offenders, "engine imports in views or template tags:\n" + "\n".join(offenders)


def test_no_view_writes_to_the_database():
    offenders = []
    for path in _view_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            method = node.func.attr
            receiver = _receiver_names(node.func.value)
            on_queryset = "objects" in receiver or any(n in ("filter", "exclude", "all") for n in receiver)
            if method in WRITES or (method == "update" and on_queryset):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{method}(")
    assert not offenders, "database writes in views (move each into a service):\n" + "\n".join(offenders)


def test_the_stored_engine_state_has_one_loader():
    """Outside the engines, only games.selectors.state reads a stored state with from_json."""
    loader = GAMES / "selectors" / "state.py"
    offenders = []
    for path in sorted(GAMES.rglob("*.py")):
        relative = path.relative_to(GAMES).parts
        if path == loader or relative[0] == "engine" or (relative[0] == "rulesets" and "engine" in relative[2:3]):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "from_json" and \
                    isinstance(node.value, ast.Name) and node.value.id == "GameState":
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, "GameState.from_json outside games.selectors.state:\n" + "\n".join(offenders)


def test_the_cards_gm_primitives_are_defined_once():
    definitions = []
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AnnAssign) else []
            if any(isinstance(t, ast.Name) and t.id == "GM_OPS" for t in targets):
                definitions.append(str(path.relative_to(ROOT)))
    assert definitions == ["games/rulesets/cards/engine/context.py"], definitions


def test_the_card_dashboard_offers_every_gm_primitive_but_break_armour():
    """The offered set is derived from the one definition and stays what the form always offered."""
    from games.rulesets.cards.engine.ruleset import GM_OPS
    from games.rulesets.cards.selectors import FORM_GM_OPS, gm_op_choices

    assert FORM_GM_OPS == ("damage", "armour", "draw", "discard", "reveal", "message", "give", "block", "restrict")
    assert set(FORM_GM_OPS) == set(GM_OPS) - {"break_armour"}
    assert [op for op, _label in gm_op_choices()] == list(FORM_GM_OPS)
