"""Every rule scenario in tests/scenarios/club/ played through the pure engine and text readers: the
files the site's scenario runner plays, checked here without Django (`refused` is the site's own)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.engine.scenario_play import play, mismatches

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "club").glob("*.yaml"))


def test_there_is_a_scenario_per_rule_when_the_folder_is_read():
    assert len(SCENARIOS) >= 20


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_rule_scenario_holds_when_played_through_the_engine(path):
    scenario, state, results = play(path)
    assert not mismatches(scenario, state, results)
    last = yaml.safe_load(path.read_text(encoding="utf-8"))["phases"][-1]
    if state.over:
        assert (last.get("expect") or {}).get("over") is True, "a game may end early only where it says so"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_rule_scenario_uses_only_club_keys_when_written(path):
    """FORMAT.md's club section: players (name, role), phases with posts / orders / gm (fouls,
    forfeit) / expect with the club and common keys."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) <= {"ruleset", "rng_seed", "options", "players", "phases", "expect"}
    assert data["ruleset"] == "club" and isinstance(data["rng_seed"], int)
    for player in data["players"]:
        assert set(player) == {"name", "role"}
    assert data["phases"][0]["phase"] == "night 0"
    for phase in data["phases"]:
        assert set(phase.get("gm") or {}) <= {"fouls", "forfeit"}
        for item in phase.get("orders") or ():
            assert set(item) <= {"by", "action", "target", "text"} or len(item) == 1
    assert set(data.get("expect") or {}) <= {"over", "winner"}
