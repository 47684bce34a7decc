"""The import structure of `games` (issue 15): no cycle among its modules, imports placed inside
functions included, and such an import only where a comment says why.

import-linter (`lint-imports`, run by ./bin/test) keeps the layers one way (pyproject.toml,
[tool.importlinter]); this test catches what a layer contract does not see: a cycle between two
modules of one layer, such as two services calling each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _cycles(graph, package: str) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    edges = {m: sorted(x for x in graph.find_modules_directly_imported_by(m) if x in set(modules)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for j in range(i, len(edges[node])):
                nxt = edges[node][j]
                if nxt not in index:
                    work.append((node, j + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups


def _example_path(graph, group: list[str]) -> str:
    """One cycle inside a group, as `a -> b -> ... -> a`."""
    first, members = group[0], set(group)
    for nxt in sorted(graph.find_modules_directly_imported_by(first)):
        if nxt in members:
            chain = graph.find_shortest_chain(importer=nxt, imported=first)
            if chain:
                return " -> ".join((first, *chain))
    return first


def test_no_import_cycle_in_games():
    """No module of `games` imports, however indirectly and from however deep inside a function,
    one that imports it back."""
    graph = grimp.build_graph("games", exclude_type_checking_imports=True)
    groups = _cycles(graph, "games")
    described = [f"{len(g)} modules: {', '.join(g)}\n  e.g. {_example_path(graph, g)}" for g in groups]
    assert not groups, "import cycles:\n" + "\n".join(described)


def _function_level_imports(path: Path):
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    seen: set[int] = set()  # a nested function's imports are walked from each enclosing one
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if id(inner) in seen:
                continue
            seen.add(id(inner))
            if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("games") or \
                    isinstance(inner, ast.Import) and any(a.name.startswith("games") for a in inner.names):
                line = lines[inner.lineno - 1]
                above = lines[inner.lineno - 2].strip() if inner.lineno >= 2 else ""
                if "#" not in line and not above.startswith("#"):
                    yield f"{path.relative_to(ROOT)}:{inner.lineno}: {line.strip()}"


@pytest.mark.parametrize("package", ["games", "accounts", "config"])
def test_function_level_imports_say_why(package):
    """An import of `games` placed inside a function hides a dependency from the reader and from
    the layer contracts' first glance; each one keeps a comment (on its line or the line above)
    saying why it is not at the top."""
    offenders = [hit for path in sorted((ROOT / package).rglob("*.py")) if "migrations" not in path.parts
                 for hit in _function_level_imports(path)]
    assert not offenders, f"{len(offenders)} function-level imports without a reason:\n" + "\n".join(offenders)
