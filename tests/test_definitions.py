"""No module or class defines the same name twice (issue 28's merges: two branches each gave the
show a `gm_inputs` and a `percent_text`; Python keeps the second silently, and the first branch's
GM forms and number format were gone without an error)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("games", "coins", "accounts", "config", "bench", "tests")


def _redefinitions(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef))]:
        seen: dict[str, int] = {}
        for item in scope.body:
            if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            decorators = [ast.unparse(d) for d in item.decorator_list]
            if any(d.endswith((".setter", ".deleter")) or "overload" in d or "register" in d for d in decorators):
                continue  # a property's setter, typing.overload, singledispatch: meant to share the name
            if item.name in seen:
                found.append(f"{path.relative_to(ROOT)}:{item.lineno} {getattr(scope, 'name', '<module>')}."
                             f"{item.name} hides the one at line {seen[item.name]}")
            seen[item.name] = item.lineno
    return found


def test_no_definition_hides_another():
    found = [line for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if "migrations" not in path.parts for line in _redefinitions(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_hidden_definition(tmp_path, monkeypatch):
    monkeypatch.setattr("tests.test_definitions.ROOT", tmp_path)
    module = tmp_path / "m.py"
    module.write_text("class A:\n    def f(self): ...\n    def f(self): ...\n\ndef g(): ...\ndef g(): ...\n")
    assert len(_redefinitions(module)) == 2
