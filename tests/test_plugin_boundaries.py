"""Rule sets are plug-ins (issue 15): the core asks a rule set's adapter
(`registry.site(game.ruleset).<capability>`) and never switches on a rule set's key, nor imports a
rule-set package (docs/architecture.md, "Rule sets as plug-ins").

The core here is everything in games/, accounts/, config/ and the templates outside a rule set's
own package (games/rulesets/<key>/), the registry (which holds the keys) and the migrations (which
record old choices). Tests may name rule sets.

What counts as a switch on a key, in Python (read with `ast`, so words in comments and docstrings
never count): a comparison with a key (`game.ruleset == "club"`, `kind in ("forum", "club")`,
`match ...: case "cards"`), a dict display keyed by keys (a per-rule-set table), and any use of
`Game.Ruleset` (`Game.Ruleset.CARDS`, `Game.Ruleset.values`). In templates: `ruleset ==`,
`ruleset !=`, `ruleset in` and a quoted key inside `{% if %}` / `{% elif %}`. «forum», «club» and
«cards» mean nothing else in this code base, so any of them counts; «show» is also an ordinary
word (a flag, an action), so it counts only beside the word «ruleset» or another key.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from games.rulesets import registry

ROOT = Path(__file__).resolve().parents[1]
PYTHON_ROOTS = ("games", "accounts", "config")
TEMPLATE_ROOTS = ("templates", "games/templates", "accounts/templates")
RULESETS_DIR = ROOT / "games" / "rulesets"
# The keys that name only rule sets here, and «show», a planned rule set's key and an English word.
DISTINCT_KEYS = frozenset({"forum", "club", "cards"})
AMBIGUOUS_KEYS = frozenset({"show"})


def _keys() -> frozenset[str]:
    """Every key a rule set has or had: the registered ones (the test settings add some)."""
    return DISTINCT_KEYS | frozenset(registry.keys()) - AMBIGUOUS_KEYS


def _rule_set_packages() -> list[Path]:
    return sorted(p for p in RULESETS_DIR.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def _is_core(path: Path) -> bool:
    """Whether a file belongs to the core: not a rule set's package, the registry, a migration."""
    if "migrations" in path.parts or path == RULESETS_DIR / "registry.py":
        return False
    return not any(path.is_relative_to(package) for package in _rule_set_packages())


def _python_files() -> Iterator[Path]:
    for root in PYTHON_ROOTS:
        for path in sorted((ROOT / root).rglob("*.py")):
            if _is_core(path):
                yield path


def _template_files() -> Iterator[Path]:
    for root in TEMPLATE_ROOTS:
        folder = ROOT / root
        if folder.is_dir():
            for path in sorted(folder.rglob("*.html")) + sorted(folder.rglob("*.txt")):
                if _is_core(path):
                    yield path


# --- Python ------------------------------------------------------------------------------------------
def _str_constants(node: ast.AST) -> list[str]:
    """The string constants of a literal or of a tuple, list or set display of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _names_a_ruleset(source: str) -> bool:
    return "ruleset" in source.lower()


class _SwitchFinder(ast.NodeVisitor):
    def __init__(self, source: str):
        self.source = source
        self.keys = _keys()
        self.hits: list[int] = []

    def _counts(self, words: list[str], context: str) -> bool:
        """Whether these literals, in this context, name a rule set."""
        if any(w in self.keys for w in words):
            return True
        return any(w in AMBIGUOUS_KEYS for w in words) and _names_a_ruleset(context)

    def visit_Assign(self, node: ast.Assign) -> None:
        # config/settings.py's MAFIA_RULESETS lists the rule-set apps: the one place that names them.
        if any(isinstance(t, ast.Name) and t.id == "MAFIA_RULESETS" for t in node.targets):
            return
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        operands = [node.left, *node.comparators]
        words = [w for operand in operands for w in _str_constants(operand)]
        if self._counts(words, ast.get_source_segment(self.source, node) or ""):
            self.hits.append(node.lineno)
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        words = [w for key in node.keys if key is not None for w in _str_constants(key)]
        # A dict keyed by «show» alone is not a table of rule sets; beside another key it is.
        if any(w in self.keys for w in words):
            self.hits.append(node.lineno)
        self.generic_visit(node)

    def visit_Match(self, node: ast.Match) -> None:
        subject = ast.get_source_segment(self.source, node.subject) or ""
        for case in node.cases:
            words = [p.value.value for p in ast.walk(case.pattern)
                     if isinstance(p, ast.MatchValue) and isinstance(p.value, ast.Constant)
                     and isinstance(p.value.value, str)]
            if self._counts(words, subject):
                self.hits.append(case.pattern.lineno)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # Game.Ruleset and its members: the old TextChoices of the keys.
        if node.attr == "Ruleset" and isinstance(node.value, ast.Name) and node.value.id == "Game":
            self.hits.append(node.lineno)
        self.generic_visit(node)


def _python_switches(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    finder = _SwitchFinder(source)
    finder.visit(ast.parse(source))
    lines = source.splitlines()
    return [f"{path.relative_to(ROOT)}:{n}: {lines[n - 1].strip()}" for n in sorted(set(finder.hits))]


# --- Templates ---------------------------------------------------------------------------------------
CONDITION_RE = re.compile(r"{%-?\s*(?:if|elif)\b(?P<condition>.*?)-?%}", re.DOTALL)
RULESET_TEST_RE = re.compile(r"\bruleset\s*(?:==|!=|\bin\b|\bnot\s+in\b)")
QUOTED_RE = re.compile(r"""["']([a-z_]+)["']""")


def _template_switches(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    keys = _keys()
    hits = []
    for match in CONDITION_RE.finditer(text):
        condition = match.group("condition")
        quoted = QUOTED_RE.findall(condition)
        if RULESET_TEST_RE.search(condition) or any(w in keys for w in quoted) or \
                (any(w in AMBIGUOUS_KEYS for w in quoted) and _names_a_ruleset(condition)):
            line = text.count("\n", 0, match.start()) + 1
            hits.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0).strip()}")
    return hits


# --- The tests -----------------------------------------------------------------------------------------
def _report(title: str, offenders: list[str]) -> str:
    for offender in offenders:
        print(offender)
    return f"{len(offenders)} {title}:\n" + "\n".join(offenders)


def test_the_core_does_not_switch_on_a_rule_set_key():
    """Each offender is printed as file:line: text; ask the adapter instead (a capability of
    games.rulesets.base.SiteRuleset with the plain game's default)."""
    offenders = [hit for path in _python_files() for hit in _python_switches(path)]
    offenders += [hit for path in _template_files() for hit in _template_switches(path)]
    assert not offenders, _report("switches on a rule set's key outside the rule sets", offenders)


def _rule_set_imports(path: Path, packages: set[str]) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            names = [module, *(f"{module}.{a.name}" for a in node.names)]
        else:
            continue
        if any(n == p or n.startswith(p + ".") for n in names for p in packages):
            yield node.lineno, ast.get_source_segment(path.read_text(encoding="utf-8"), node) or ""


def test_the_core_imports_no_rule_set_package():
    """No `import games.rulesets.<key>` nor `from games.rulesets.<key> ...` (nor
    `from games.rulesets import <key>`) in games/ outside the rule sets' own packages: the core
    reaches a rule set through the registry."""
    packages = {f"games.rulesets.{p.name}" for p in _rule_set_packages()}
    offenders = []
    for root in PYTHON_ROOTS:
        for path in sorted((ROOT / root).rglob("*.py")):
            if "migrations" in path.parts or any(path.is_relative_to(p) for p in _rule_set_packages()):
                continue
            offenders += [f"{path.relative_to(ROOT)}:{line}: {text}" for line, text in _rule_set_imports(path, packages)]
    assert not offenders, _report("imports of a rule-set package outside it", offenders)


def test_the_finders_see_what_they_look_for():
    """The scanners themselves: a switch of each shape is found, a docstring, a thread kind and an
    ordinary «show» are not."""
    source = '''
"""The forum game; club and cards too."""
a = game.ruleset == "club"
b = key in ("forum", "x")
c = {"cards": 1, "forum": 2}
d = Game.Ruleset.CARDS
e = action == "show"
f = {"show": True}
g = game.ruleset != "show"
h = thread.kind == "game"
i = Game.Ruleset(key)
match game.ruleset:
    case "cards":
        pass
'''
    finder = _SwitchFinder(source)
    finder.visit(ast.parse(source))
    assert sorted(set(finder.hits)) == [3, 4, 5, 6, 9, 11, 13]
