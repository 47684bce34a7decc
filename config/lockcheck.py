"""The dependency lock (requirements/*.txt): its fingerprint of pyproject.toml, and what an upgrade changed.

Standard library only: bin/test, bin/site and bin/lock run it with the system's python3 before any
virtual environment exists. Each compiled file of requirements/ starts with a line

    # pyproject.toml: sha256:<hex>

the hash of the dependency tables of pyproject.toml it was compiled from (requires-python,
dependencies, optional-dependencies). A file whose line no longer matches is stale: pyproject.toml's
ranges changed and nobody ran bin/lock. tests/test_lock.py checks more (that every pin lies in its
range, and that the environment holds exactly the pins); this module is the part a shell can ask.

    python3 config/lockcheck.py fingerprint          the hash of pyproject.toml now
    python3 config/lockcheck.py stamp FILE...        write the hash line into compiled files
    python3 config/lockcheck.py check FILE...        exit 1, saying what to run, when one is stale
    python3 config/lockcheck.py pins FILE            "name==version" lines (for diff)
    python3 config/lockcheck.py diff OLD NEW         what moved between two pin lists
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
STAMP_PREFIX = "# pyproject.toml: sha256:"
FIX_COMMAND = "bin/lock"
# A pinned requirement line of a compiled file: "name==version" with an optional marker after ";".
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def dependency_tables(pyproject: Path = PYPROJECT) -> dict:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return {
        "requires-python": project.get("requires-python", ""),
        "dependencies": sorted(project.get("dependencies", [])),
        "optional-dependencies": {k: sorted(v) for k, v in sorted(project.get("optional-dependencies", {}).items())},
    }


def fingerprint(pyproject: Path = PYPROJECT) -> str:
    canonical = json.dumps(dependency_tables(pyproject), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def stamp_of(path: Path) -> str | None:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(STAMP_PREFIX):
            return line[len(STAMP_PREFIX):].strip()
    return None


def stamp(path: Path, digest: str) -> None:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith(STAMP_PREFIX)]
    path.write_text("\n".join([STAMP_PREFIX + digest, *lines]) + "\n", encoding="utf-8")


def stale(paths: list[Path], pyproject: Path = PYPROJECT) -> list[str]:
    """One sentence per lock file that does not match pyproject.toml (missing, unstamped, or stale)."""
    now = fingerprint(pyproject)
    problems = []
    for path in paths:
        if not path.exists():
            problems.append(f"{path.name} is missing")
        elif stamp_of(path) != now:
            problems.append(f"{path.name} was compiled from another pyproject.toml")
    return problems


def pins(path: Path) -> dict[str, str]:
    """{normalised name: version} of a compiled file (a package pinned under two markers keeps its last)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            out[normalise(match.group(1))] = match.group(2)
    return out


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def diff(old: dict[str, str], new: dict[str, str]) -> list[str]:
    lines = []
    for name in sorted(set(old) | set(new)):
        before, after = old.get(name), new.get(name)
        if before == after:
            continue
        if before is None:
            lines.append(f"  + {name} {after}")
        elif after is None:
            lines.append(f"  - {name} {before}")
        else:
            lines.append(f"    {name} {before} -> {after}")
    return lines


def _pins_from_text(text: str) -> dict[str, str]:
    return dict(line.split("==", 1) for line in text.splitlines() if "==" in line)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    command, args = argv[0], [Path(a) for a in argv[1:]]
    if command == "fingerprint":
        print(fingerprint())
    elif command == "stamp":
        digest = fingerprint()
        for path in args:
            stamp(path, digest)
    elif command == "check":
        problems = stale(args)
        if problems:
            print("The dependency lock does not match pyproject.toml:", file=sys.stderr)
            for problem in problems:
                print(f"  requirements/{problem}", file=sys.stderr)
            print(f"Run `{FIX_COMMAND}` to compile it again (it keeps every pin that still fits), "
                  "then commit requirements/.", file=sys.stderr)
            return 1
    elif command == "pins":
        for name, version in sorted(pins(args[0]).items()):
            print(f"{name}=={version}")
    elif command == "diff":
        old, new = (_pins_from_text(p.read_text(encoding="utf-8")) for p in args[:2])
        print("\n".join(diff(old, new)) or "  (nothing moved)")
    else:
        print(f"unknown command {command!r}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
