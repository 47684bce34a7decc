"""The shared sample game (shared/scenarios/club/short-game.yaml) played through the pure engine
and the pure text readers, with no Django in the loop: every `expect` key must come out as written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from games.engine.rulesets import get_ruleset
from games.engine.state import GameState
from tests.engine.scenario_play import SITE_ONLY_KEYS, play, same

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO.parent / "shared" / "scenarios" / "club" / "short-game.yaml"
PHASES = [p["phase"] for p in yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))["phases"]]


@pytest.fixture(scope="module")
def played():
    return play(SCENARIO)


@pytest.mark.parametrize("index", range(len(PHASES)), ids=PHASES)
def test_short_game_phase_matches_its_expect_when_played(played, index):
    """Every `expect` key of the phase, lists compared as sets."""
    _scenario, _state, results = played
    phase, resolution = results[index]
    for key, expected in phase.get("expect", {}).items():
        if key in SITE_ONLY_KEYS:
            continue
        assert key in resolution.outcome, key
        assert same(expected, resolution.outcome[key]), (key, expected, resolution.outcome[key])


def test_short_game_goes_on_when_its_last_phase_closes(played):
    scenario, state, _results = played
    for key, expected in (scenario.get("expect") or {}).items():
        assert {"over": state.over, "winner": state.winner}[key] == expected
    assert not state.over and state.phase == "night 2"


def test_short_game_outcome_holds_every_club_key_when_any_phase_closes(played):
    """The scenario runner's --json prints every outcome key, expected or not."""
    keys = set(get_ruleset("club").outcome_keys)
    for _phase, resolution in played[2]:
        assert keys <= set(resolution.outcome)
        assert ("winner" in resolution.outcome) == resolution.outcome["over"]


def test_short_game_state_survives_a_json_round_trip_when_stored_between_phases(played):
    import json

    for _phase, resolution in played[2]:
        stored = json.loads(json.dumps(resolution.state.to_json()))
        assert GameState.from_json(stored) == resolution.state
