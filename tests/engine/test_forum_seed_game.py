"""The seed's examples played as one game (shared/scenarios/forum/seed-examples.yaml) through the
pure engine and the pure text readers, with no Django in the loop."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets import get_ruleset
from games.engine.state import GameState
from games.text.names import RosterMatcher
from games.text.orders import parse_order
from games.text.votes import parse_votes

REPO = Path(__file__).resolve().parents[2]
SCENARIO = REPO.parent / "shared" / "scenarios" / "forum" / "seed-examples.yaml"
NOW = datetime(2013, 10, 28, 11, 24, tzinfo=UTC)


def _entries(items):
    """Short form `{name: text}` and long form `{by: name, ...}` as (name, dict)."""
    for item in items or ():
        if "by" in item:
            yield item["by"], item
        else:
            ((name, text),) = item.items()
            yield name, {"text": text}


def _phase_inputs(state: GameState, phase: dict, matcher: RosterMatcher) -> PhaseInputs:
    votes: dict[int, int | str | None] = {}
    for name, post in _entries(phase.get("posts")):
        final = parse_votes(post["text"], matcher).final
        if final is None:
            continue  # a post with no valid vote leaves the standing vote as it was
        voter = state.by_name(name).id
        if final.kind == "vote":
            votes[voter] = state.by_name(final.target).id
        elif final.kind == "peace":
            votes[voter] = "peace"
        else:
            votes[voter] = None
    orders: dict[int, Order] = {}
    for name, item in _entries(phase.get("orders")):
        actor = state.by_name(name)
        if "text" in item:
            parsed = parse_order(item["text"], matcher, actor_name=name)
            assert parsed.valid, (name, item["text"], parsed)
            action, target, source = parsed.action, parsed.target, parsed.source
        else:
            action, target, source = item["action"], item.get("target"), item.get("from")
        order = Order(
            actor=actor.id,
            action=action,
            target=state.by_name(target).id if target else None,
            source=state.by_name(source).id if source else None,
        )
        # The last valid order counts, as the site's order ledger does.
        if get_ruleset(state.ruleset).check_order(state, order) is None:
            orders[actor.id] = order
    gm = dict(phase.get("gm") or {})
    if "tie_break" in gm:
        gm["tie_break"] = state.by_name(gm["tie_break"]).id
    return PhaseInputs(votes=votes, orders=orders, gm=gm)


def _same(expected, actual) -> bool:
    if isinstance(expected, list):
        return isinstance(actual, list) and set(expected) == set(actual)
    return expected == actual


def play(path: Path):
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
    ruleset = get_ruleset(scenario["ruleset"])
    players = scenario["players"]
    seats = [(i, p["name"], p["role"]) for i, p in enumerate(players, start=1)]
    state, _events = ruleset.new_game(seats, options=scenario.get("options") or {})
    matcher = RosterMatcher([p["name"] for p in players])
    results = []
    for phase in scenario["phases"]:
        assert state.phase == phase["phase"], "phases come in the rule set's order"
        assert not state.over
        resolution = ruleset.resolve(
            state, _phase_inputs(state, phase, matcher), seed=scenario["rng_seed"], now=NOW
        )
        results.append((phase, resolution))
        state = resolution.state
    return scenario, state, results


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
