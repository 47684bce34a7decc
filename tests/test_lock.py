"""The dependency lock (requirements/*.txt, compiled by bin/lock) matches pyproject.toml and is what
runs: every install (bin/site, bin/test, .ci/run) installs exactly it (bin/install), and a new
release arrives only through bin/upgrade and the tests (README, "Dependencies")."""

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.markers import Marker, default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from config import lockcheck

ROOT = Path(__file__).resolve().parent.parent
LOCKS = {"base": (), "dev": ("dev",), "s3": ("s3",), "load": ("load",)}


def _lock(name: str) -> Path:
    return ROOT / "requirements" / f"{name}.txt"


def _requirements(extras: tuple[str, ...]) -> list[Requirement]:
    tables = lockcheck.dependency_tables()
    lines = list(tables["dependencies"])
    for extra in extras:
        lines += tables["optional-dependencies"][extra]
    return [Requirement(line) for line in lines]


def _pinned_lines(path: Path) -> list[tuple[str, str, str]]:
    """(name, version, marker) of every pin, with the marker text after ';' (or '')."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = lockcheck.PIN.match(line)
        if match:
            marker = line.split(";", 1)[1].rstrip(" \\") if ";" in line else ""
            out.append((canonicalize_name(match.group(1)), match.group(2), marker.strip()))
    return out


def test_the_lock_was_compiled_from_this_pyproject():
    """Run `bin/lock` when this fails: pyproject.toml's ranges changed since the lock was compiled."""
    problems = lockcheck.stale([_lock(name) for name in LOCKS])
    assert problems == [], "the lock is stale, run bin/lock: " + "; ".join(problems)


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_every_direct_dependency_is_pinned_inside_its_range(name):
    pins = {pin: version for pin, version, _marker in _pinned_lines(_lock(name))}
    wrong = []
    for requirement in _requirements(LOCKS[name]):
        version = pins.get(canonicalize_name(requirement.name))
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            wrong.append(f"{requirement} pinned at {version}")
    assert wrong == [], f"requirements/{name}.txt: run bin/lock: " + ", ".join(wrong)


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_every_pin_carries_its_hashes(name):
    # Each pin line ends with a continuation and is followed by at least one --hash line.
    lines = _lock(name).read_text(encoding="utf-8").splitlines()
    pinned = [index for index, line in enumerate(lines) if lockcheck.PIN.match(line)]
    assert len(pinned) > 40, name
    for index in pinned:
        assert lines[index].endswith("\\") and lines[index + 1].strip().startswith("--hash=sha256:"), lines[index]


def test_base_and_s3_agree_with_dev():
    dev = {(pin, version) for pin, version, _m in _pinned_lines(_lock("dev"))}
    for name in ("base", "s3"):
        extra = {(pin, version) for pin, version, _m in _pinned_lines(_lock(name))} - dev
        assert extra == set(), f"requirements/{name}.txt pins what dev.txt does not: {sorted(extra)}"


def test_the_load_lock_agrees_with_dev_where_they_overlap():
    """requirements/load.txt (the site and Locust, bin/install load into .venv-load) is compiled
    inside dev's pins: a package both hold is pinned at the same version; the rest is Locust's."""
    dev = {pin: version for pin, version, _m in _pinned_lines(_lock("dev"))}
    load = {pin: version for pin, version, _m in _pinned_lines(_lock("load"))}
    moved = {pin: (version, dev[pin]) for pin, version in load.items() if pin in dev and dev[pin] != version}
    assert moved == {}, f"requirements/load.txt pins otherwise than dev.txt: {moved}"
    assert "locust" in load and "locust" not in dev and "gevent" not in dev


def test_the_environment_holds_exactly_the_dev_lock():
    """The tests run on what bin/install dev installed: every pin at its version, and nothing else
    (a package installed by hand, or an old editable install of the site, shows up here)."""
    environment = default_environment()
    expected = {}
    for pin, version, marker in _pinned_lines(_lock("dev")):
        if not marker or Marker(marker).evaluate(environment):
            expected[pin] = version
    installed = {
        canonicalize_name(dist.metadata["Name"]): dist.version
        for dist in importlib.metadata.distributions()
        if dist.metadata["Name"]
    }
    # The virtual environment's own seed tools are not part of the site.
    installed = {k: v for k, v in installed.items() if k not in {"pip", "setuptools", "wheel"}}
    wrong = {name: (installed.get(name), version) for name, version in expected.items() if installed.get(name) != version}
    extra = sorted(set(installed) - set(expected))
    assert wrong == {}, f"installed != locked (run bin/install dev): {wrong}"
    assert extra == [], f"installed but not in the lock (run bin/install dev): {extra}"


def test_a_changed_range_makes_the_lock_stale_and_says_what_to_run(tmp_path):
    shutil.copytree(ROOT / "config", tmp_path / "config", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "requirements", tmp_path / "requirements")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")

    def check():
        return subprocess.run(
            [sys.executable, str(tmp_path / "config" / "lockcheck.py"), "check", "requirements/dev.txt"],
            cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""},
        )

    assert check().returncode == 0
    widened = pyproject.replace('"django-htmx>=1.23,<2"', '"django-htmx>=1.23,<3"')
    assert widened != pyproject
    (tmp_path / "pyproject.toml").write_text(widened, encoding="utf-8")
    result = check()
    assert result.returncode == 1
    assert "dev.txt was compiled from another pyproject.toml" in result.stderr
    assert "Run `bin/lock`" in result.stderr


def test_the_install_scripts_install_the_lock_and_never_resolve():
    """bin/site, bin/test and .ci/run go through bin/install, which syncs a lock with hashes."""
    install = (ROOT / "bin" / "install").read_text(encoding="utf-8")
    assert "uv pip sync" in install and "--require-hashes" in install
    assert "pip install -e" not in install and "uv pip install" not in install
    for script in ("bin/site", "bin/test"):
        text = (ROOT / script).read_text(encoding="utf-8")
        assert "bin/install" in text and "pip install" not in text, script
    assert "bin/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_lockcheck_diff_names_what_moved():
    assert lockcheck.diff({"a": "1", "b": "2", "c": "3"}, {"a": "1", "b": "2.1", "d": "4"}) == [
        "    b 2 -> 2.1", "  - c 3", "  + d 4",
    ]


@pytest.mark.skipif(Path(sys.prefix).resolve() != (ROOT / ".venv").resolve(),
                    reason="runs in the environment bin/install made (./bin/test)")
def test_a_satisfied_lock_installs_without_the_network():
    """A second start downloads nothing: with every address of the package index unreachable,
    bin/install finds .venv holding the lock and succeeds."""
    unreachable = "http://127.0.0.1:9"
    env = {**os.environ, "UV_INDEX_URL": unreachable + "/simple", "UV_DEFAULT_INDEX": unreachable + "/simple",
           "HTTP_PROXY": unreachable, "HTTPS_PROXY": unreachable, "ALL_PROXY": unreachable,
           "PIP_INDEX_URL": unreachable + "/simple"}
    result = subprocess.run([str(ROOT / "bin" / "install"), "dev"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
