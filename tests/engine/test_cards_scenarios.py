"""Every rule scenario of the cards rule set played through the pure engine and text readers, and the
shared sample ../shared/scenarios/cards/seed-armour-example.yaml (the seed's armour example).

The files live in tests/scenarios/cards/: tests/games/test_scenarios.py plays the same files through
the site's play_scenario (card services, posts, the phase close); here they are played through the
pure engine alone, so a disagreement shows which side is wrong. They use only FORMAT.md's `cards`
keys (checked below)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.engine.scenario_play import play, mismatches

ROOT = Path(__file__).resolve().parents[2]
OURS = sorted((ROOT / "tests" / "scenarios" / "cards").glob("*.yaml"))
SHARED = sorted((ROOT.parent / "shared" / "scenarios" / "cards").glob("*.yaml"))
PLAYER_KEYS = {"name", "secret", "overt", "deck", "hand", "sleeve"}
# `abilities` (issue 17) is documented in docs/rulesets/cards.md, "Part 2 (a)".
# `decks` (a deck-building phase's decks) and gm `tie_break`: docs/rulesets/cards.md, "Part 2 (b)".
PHASE_KEYS = {"phase", "posts", "plays", "discards", "reorder", "gm", "expect", "abilities", "decks", "rebuilds"}
OUTCOME_KEYS = {"votes", "tally", "alive", "refused", "over", "hands", "sleeves", "sleeve_sizes", "free_bottom", "deck_top",
                "rooms", "private",
                "hand_sizes", "damage", "armour",
                "dead", "executed", "imprisoned", "measure", "peace", "abilities"}


def test_there_is_a_scenario_per_rule_and_the_shared_sample_when_the_folders_are_read():
    assert len(OURS) >= 15
    assert [p.name for p in SHARED] == ["seed-armour-example.yaml"]


@pytest.mark.parametrize("path", SHARED + OURS, ids=[p.stem for p in SHARED + OURS])
def test_scenario_holds_when_played_through_the_engine(path):
    scenario, state, results = play(path)
    assert not mismatches(scenario, state, results)
    last = yaml.safe_load(path.read_text(encoding="utf-8"))["phases"][-1]
    if state.over:
        assert (last.get("expect") or {}).get("over") is True, "a game may end early only where it says so"


@pytest.mark.parametrize("path", SHARED + OURS, ids=[p.stem for p in SHARED + OURS])
def test_scenario_uses_only_the_cards_keys_of_the_format(path):
    """FORMAT.md's `cards` section: players carry secret, overt, deck, hand, sleeve; phases posts,
    plays {by, card, from, target}, discards {by, cards}, reorder {by, hand}, gm {damage, armour}."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) <= {"ruleset", "rng_seed", "options", "players", "phases", "expect"}
    assert data["ruleset"] == "cards" and isinstance(data["rng_seed"], int)
    for player in data["players"]:
        assert set(player) <= PLAYER_KEYS and {"name", "secret"} <= set(player)
    for phase in data["phases"]:
        assert set(phase) <= PHASE_KEYS
        assert set(phase.get("gm") or {}) <= {"damage", "armour", "tie_break"}
        for item in phase.get("decks") or ():
            assert set(item) <= {"by", "cards", "colours", "picks"} and phase["phase"] == "deckbuilding"
        assert set((phase.get("expect") or {})) <= OUTCOME_KEYS
        for item in phase.get("plays") or ():
            assert set(item) <= {"by", "card", "from", "target"} and item["from"] in ("hand", "sleeve")
        for item in phase.get("discards") or ():
            assert set(item) == {"by", "cards"} and len(item["cards"]) == 2
        for item in phase.get("reorder") or ():
            assert set(item) == {"by", "hand"}
        for item in phase.get("abilities") or ():
            assert {"by", "ability"} <= set(item)
    assert set(data.get("expect") or {}) <= {"over", "winner"}


def test_a_phase_of_the_wrong_name_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "ruleset: cards\nrng_seed: 1\nplayers:\n"
        "  - {name: А, secret: sheriff, hand: [Кофе], deck: []}\n"
        "  - {name: Б, secret: boss, hand: [Кофе], deck: []}\n"
        "  - {name: В, secret: doctor, hand: [Кофе], deck: []}\n"
        "phases:\n  - phase: day 1\n", encoding="utf-8")
    with pytest.raises(AssertionError):
        play(path)
