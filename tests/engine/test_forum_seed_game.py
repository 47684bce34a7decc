"""The seed's examples played as one game (shared/scenarios/forum/seed-examples.yaml) through the
pure engine and the pure text readers, with no Django in the loop."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from games.engine.rulesets import get_ruleset
from games.engine.state import GameState
from tests.engine.scenario_play import play
from tests.engine.scenario_play import same as _same

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO.parent / "shared" / "scenarios" / "forum" / "seed-examples.yaml"


PHASES = [p["phase"] for p in yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))["phases"]]


@pytest.fixture(scope="module")
def played():
    return play(SCENARIO)


@pytest.mark.parametrize("index", range(len(PHASES)), ids=PHASES)
def test_seed_game_phase_matches_its_expect_when_played(played, index):
    """Every `expect` key of the phase, lists compared as sets."""
    _scenario, _state, results = played
    phase, resolution = results[index]
    for key, expected in phase.get("expect", {}).items():
        assert key in resolution.outcome, key
        assert _same(expected, resolution.outcome[key]), (key, expected, resolution.outcome[key])


def test_seed_game_ends_with_the_expected_winner_when_played_through(played):
    scenario, state, _results = played
    for key, expected in scenario["expect"].items():
        actual = {"over": state.over, "winner": state.winner}[key]
        assert actual == expected, key


def test_seed_game_outcome_holds_every_forum_key_when_any_phase_closes(played):
    """The scenario runner's --json prints every outcome key, expected or not."""
    keys = set(get_ruleset("forum").outcome_keys)
    for _phase, resolution in played[2]:
        assert keys <= set(resolution.outcome)
        assert ("winner" in resolution.outcome) == resolution.outcome["over"]


def test_seed_game_state_survives_a_json_round_trip_when_stored_between_phases(played):
    for _phase, resolution in played[2]:
        assert GameState.from_json(resolution.state.to_json()) == resolution.state
