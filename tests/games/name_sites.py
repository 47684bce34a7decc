"""Where each translatable message is filled in, and in which grammatical case each placeholder's
value is put there (issue 29, item 6; the registry of tests/games/names_reviewed.py is checked
against it).

Python: every gettext call (`_`, `gettext`, `gettext_lazy`, `pgettext`, `pgettext_lazy`,
`ngettext`) with a literal msgid, followed up through `str(...)`, `agreed(...)` and a conditional
to the `%` (or `.format(...)`) that fills it; a value is classified by the call that makes it:
`name_case(x, "gent")` → "gent", `names_joined(xs, "ablt")` → "joined:ablt", `inflect_name(x,
"accs")` → "accs", `replaced_name(x)` → "gent", anything else → "nomn" (as written). A variable is
followed to its assignments in the same function. A message kept in a table and filled in
elsewhere has a site whose values are unknown (None).

Templates: `{% blocktranslate with k=expr|filter:"case" %}`, the same classes by filter
(`|name_case:"gent"`, `|names_joined:"ablt"`, `|replaced_name`)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("games", "accounts", "coins", "config", "templates")
GETTEXT = {"_", "gettext", "gettext_lazy", "gettext_now", "pgettext", "pgettext_lazy", "ngettext", "ngettext_lazy"}
CONTEXT_FIRST = {"pgettext", "pgettext_lazy"}
CASE_FUNCTIONS = {"name_case", "inflect_name", "phrase_case"}
ANY = "any"  # a fixed text in place of a name (an empty list said «—»): fits every case


@dataclass
class Site:
    path: str
    line: int
    values: dict[str, str] | None  # placeholder -> case class; None: filled in elsewhere
    context: str | None = None
    extra: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def _func_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _const(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class _Module:
    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.functions = {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}
        self.parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node

    def scope(self, node: ast.AST) -> ast.AST:
        while node in self.parent:
            node = self.parent[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return node
        return self.tree

    def assignments(self, scope: ast.AST, name: str) -> list[ast.AST]:
        found = []
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == name:
                        found.append(node.value)
                    elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        for t, v in zip(target.elts, node.value.elts):
                            if isinstance(t, ast.Name) and t.id == name:
                                found.append(v)
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and isinstance(node.target, ast.Name) \
                    and node.target.id == name and node.value is not None:
                found.append(node.value)
        return found

    def value_case(self, node: ast.AST, scope: ast.AST, depth: int = 0) -> str:
        if isinstance(node, ast.Call):
            name = _func_name(node.func)
            if name in CASE_FUNCTIONS:
                case = _const(node.args[1]) if len(node.args) > 1 else _const(
                    next((k.value for k in node.keywords if k.arg == "case"), None))
                return case or ("accs" if name != "name_case" else "?")
            if name == "names_joined":
                case = _const(node.args[1]) if len(node.args) > 1 else _const(
                    next((k.value for k in node.keywords if k.arg == "case"), None))
                return f"joined:{case or 'nomn'}"
            if name == "replaced_name":
                return "gent"
            if name == "str" and node.args:
                return self.value_case(node.args[0], scope, depth)
            helper = self.functions.get(name) if isinstance(node.func, ast.Name) else None
            if helper is not None and depth < 4:  # a helper of the module: what it returns
                cases = {self.value_case(r.value, helper, depth + 1) for r in ast.walk(helper)
                         if isinstance(r, ast.Return) and r.value is not None}
                if len(cases) == 1:
                    return cases.pop()
        if _const(node) is not None:
            return ANY  # a fixed text (no name): «» or «—» for nobody
        if isinstance(node, ast.Name) and depth < 4:
            cases = {self.value_case(v, scope, depth + 1) for v in self.assignments(scope, node.id)} - {ANY}
            if len(cases) == 1:
                return cases.pop()
            if cases:
                return "mixed:" + ",".join(sorted(cases))
        if isinstance(node, ast.IfExp):
            cases = {self.value_case(node.body, scope, depth), self.value_case(node.orelse, scope, depth)} - {ANY}
            return cases.pop() if len(cases) == 1 else ("mixed:" + ",".join(sorted(cases)) if cases else ANY)
        if isinstance(node, ast.BoolOp):
            cases = {self.value_case(v, scope, depth) for v in node.values} - {ANY}
            return cases.pop() if len(cases) == 1 else ("mixed:" + ",".join(sorted(cases)) if cases else ANY)
        return "nomn"

    def mapping(self, node: ast.AST, scope: ast.AST) -> dict[str, ast.AST] | None:
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None and isinstance(v, (ast.Dict, ast.Name)):  # {**base, ...}
                    out.update(self.mapping(v, scope) or {})
                elif _const(k) is not None:
                    out[_const(k)] = v
            return out
        if isinstance(node, ast.Call) and _func_name(node.func) == "dict":
            return {k.arg: k.value for k in node.keywords if k.arg}
        if isinstance(node, ast.Name):
            out: dict[str, ast.AST] = {}
            for value in self.assignments(scope, node.id):
                out.update(self.mapping(value, scope) or {})
            for sub in ast.walk(scope):  # values["value"] = ...
                if isinstance(sub, ast.Assign):
                    for target in sub.targets:
                        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                                and target.value.id == node.id and _const(target.slice) is not None:
                            out[_const(target.slice)] = sub.value
            return out or None
        return None

    def filled(self, call: ast.Call) -> dict[str, ast.AST] | None:
        """The mapping that fills the message of a gettext call, or None."""
        node: ast.AST = call
        while True:
            parent = self.parent.get(node)
            if parent is None:
                return None
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod) and parent.left is node:
                return self.mapping(parent.right, self.scope(parent))
            if isinstance(parent, ast.Attribute) and parent.attr in ("format", "format_map"):
                outer = self.parent.get(parent)
                if isinstance(outer, ast.Call):
                    if parent.attr == "format":
                        return {k.arg: k.value for k in outer.keywords if k.arg}
                    return self.mapping(outer.args[0], self.scope(outer)) if outer.args else None
                return None
            if isinstance(parent, ast.Call) and _func_name(parent.func) in ("str", "agreed"):
                node = parent
                continue
            if isinstance(parent, (ast.IfExp, ast.BoolOp)) and node is not getattr(parent, "test", None):
                node = parent
                continue
            if isinstance(parent, ast.keyword) and parent.arg == "text":
                # notify(text=_("..."), params={...}): the notification is worded when shown
                outer = self.parent.get(parent)
                params = next((k.value for k in getattr(outer, "keywords", ()) if k.arg == "params"), None)
                return self.mapping(params, self.scope(outer)) if params is not None else None
            if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                # text = _("..."); ... text % {...}
                scope, name = self.scope(parent), parent.targets[0].id
                for sub in ast.walk(scope):
                    if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod) and isinstance(sub.left, ast.Name) \
                            and sub.left.id == name:
                        return self.mapping(sub.right, scope)
            return None


@cache
def _python_files() -> tuple[Path, ...]:
    files = []
    for top in SOURCE_DIRS:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts and "tests" not in path.parts:
                files.append(path)
    return tuple(files)


@cache
def python_sites() -> dict[tuple[str | None, str], list[Site]]:
    """(msgctxt, msgid) -> its sites in the Python sources."""
    sites: dict[tuple[str | None, str], list[Site]] = {}
    for path in _python_files():
        module = _Module(path)
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(module.tree):
            if not (isinstance(node, ast.Call) and _func_name(node.func) in GETTEXT and node.args):
                continue
            context = None
            if _func_name(node.func) in CONTEXT_FIRST:
                if len(node.args) < 2:
                    continue
                context, msgid = _const(node.args[0]), _const(node.args[1])
            else:
                msgid = _const(node.args[0])
            if msgid is None:
                continue
            mapping = module.filled(node)
            values = None
            if mapping is not None:
                scope = module.scope(node)
                values = {key: module.value_case(value, scope) for key, value in mapping.items()}
            sites.setdefault((context, msgid), []).append(Site(rel, node.lineno, values, context))
    return sites


BLOCK_RE = re.compile(r"\{%\s*blocktrans(?:late)?\b(?P<args>.*?)%\}(?P<body>.*?)\{%\s*endblocktrans(?:late)?\s*%\}", re.S)
WITH_RE = re.compile(r"(\w+)=(\S+)")
VAR_RE = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def _template_case(expr: str) -> str:
    filters = expr.split("|")[1:]
    for f in filters:
        name, _sep, arg = f.partition(":")
        arg = arg.strip("\"'")
        if name in ("name_case",):
            return arg or "?"
        if name == "names_joined":
            return f"joined:{arg or 'nomn'}"
        if name == "replaced_name":
            return "gent"
    return "nomn"


@cache
def template_sites() -> dict[str, list[Site]]:
    """msgid (as the .po writes it, %(name)s) -> its {% blocktranslate %} sites in the templates."""
    sites: dict[str, list[Site]] = {}
    for top in SOURCE_DIRS:
        for path in sorted((ROOT / top).rglob("*.html")):
            text = path.read_text(encoding="utf-8")
            for m in BLOCK_RE.finditer(text):
                body = m.group("body")
                singular = re.split(r"\{%\s*plural\s*%\}", body)[0]
                msgid = VAR_RE.sub(lambda v: f"%({v.group(1)})s", singular)
                args = m.group("args")
                values = {k: _template_case(v) for k, v in WITH_RE.findall(args)}
                for key in VAR_RE.findall(singular):
                    values.setdefault(key, "nomn")
                line = text.count("\n", 0, m.start()) + 1
                context = re.search(r'context\s+"([^"]+)"', args)
                sites.setdefault(msgid, []).append(Site(str(path.relative_to(ROOT)), line, values,
                                                        context.group(1) if context else None))
    return sites


def sites_of(msgid: str, context: str | None = None) -> list[Site]:
    found = list(python_sites().get((context, msgid), ()))
    if context is None:
        found += template_sites().get(msgid, [])
    return found
