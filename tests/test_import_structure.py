"""The import structure of the site's apps (issue 15; issue 29 for every app and the packages'
`__init__`): no cycle among their modules, imports placed inside functions included, and such an
import only where a comment says why.

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


APPS = ("games", "accounts", "coins", "config")


def _package_edges(graph) -> dict[str, set[str]]:
    """`from <package> import <name>` reads an attribute of the package, so the importer depends on
    the package's `__init__` (and whatever that imports) even when <name> is a submodule, which is
    all grimp records: importer -> package, for every such import of one of the apps' packages."""
    packages = {m for m in graph.modules if (ROOT.joinpath(*m.split(".")) / "__init__.py").is_file()}
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        base = ROOT.joinpath(*module.split("."))
        path = base / "__init__.py" if module in packages else base.with_suffix(".py")
        if not path.is_file() or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in packages \
                    and node.module != module:
                edges.setdefault(module, set()).add(node.module)
    return edges


def _graph():
    return grimp.build_graph(*APPS, exclude_type_checking_imports=True)


def _cycles(graph, package: str | None = None, extra: dict[str, set[str]] | None = None) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively), among the
    modules of `package` (every module of the graph when None), with the `extra` edges too."""
    modules = sorted(m for m in graph.modules if package is None or m == package or m.startswith(package + "."))
    inside, extra = set(modules), extra or {}
    edges = {m: sorted(x for x in set(graph.find_modules_directly_imported_by(m)) | extra.get(m, set()) if x in inside)
             for m in modules}
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


def _example_path(graph, group: list[str], extra: dict[str, set[str]] | None = None) -> str:
    """One cycle inside a group, as `a -> b -> ... -> a` (breadth-first over the group's edges)."""
    members, extra = set(group), extra or {}

    def after(m: str) -> list[str]:
        return sorted(x for x in set(graph.find_modules_directly_imported_by(m)) | extra.get(m, set()) if x in members)

    first = group[0]
    paths = {nxt: [first, nxt] for nxt in after(first)}
    queue = list(paths)
    while queue:
        node = queue.pop(0)
        if node == first:
            return " -> ".join(paths[node])
        for nxt in after(node):
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    return first


@pytest.mark.parametrize("package", [*APPS, None])
def test_no_import_cycle(package):
    """No module of an app (None: of all of them together, across apps) imports, however
    indirectly, from however deep inside a function, or through a package's `__init__` that
    `from <package> import <name>` runs, one that imports it back."""
    graph = _graph()
    extra = _package_edges(graph)
    groups = _cycles(graph, package, extra)
    described = [f"{len(g)} modules: {', '.join(g)}\n  e.g. {_example_path(graph, g, extra)}" for g in groups]
    assert not groups, "import cycles:\n" + "\n".join(described)


def test_a_package_import_is_an_edge_to_the_packages_init():
    """The cycle test sees `from <package> import <submodule>` as an import of the package (whose
    `__init__` may import the importer back: the cards and show engines did)."""
    graph = _graph()
    extra = _package_edges(graph)
    assert "games.rulesets" in extra["games.forms"]  # `from games.rulesets import registry`
    # a made-up one: a submodule reading its own package's attribute while the package imports it
    fake = {"games.rulesets.cards.engine.ruleset": {"games.rulesets.cards.engine"}}
    assert ["games.rulesets.cards.engine", "games.rulesets.cards.engine.ruleset"] in _cycles(
        graph, "games.rulesets.cards.engine", fake)


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


@pytest.mark.parametrize("package", APPS)
def test_function_level_imports_say_why(package):
    """An import of `games` placed inside a function hides a dependency from the reader and from
    the layer contracts' first glance; each one keeps a comment (on its line or the line above)
    saying why it is not at the top."""
    offenders = [hit for path in sorted((ROOT / package).rglob("*.py")) if "migrations" not in path.parts
                 for hit in _function_level_imports(path)]
    assert not offenders, f"{len(offenders)} function-level imports without a reason:\n" + "\n".join(offenders)
