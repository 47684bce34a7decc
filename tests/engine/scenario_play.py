"""Plays a scenario file (shared/scenarios/FORMAT.md) through the pure engine and text readers,
with no database in the loop (a rule set's order words come from its wording, found by its key
through the site's registry): the tests of every rule set share it."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets import get_ruleset
from games.engine.state import GameState
from games.text.names import RosterMatcher
from games.text.orders import parse_order
from games.text.votes import parse_votes, profile_named
from games.wording import order_vocabulary

NOW = datetime(2024, 3, 1, 20, 0, tzinfo=UTC)
# `refused` is computed by the site's ledgers (posts and orders refused as they come in); `rooms` and
# `private` by its communication services (the chat rooms agreed in comments, the [private] tags).
SITE_ONLY_KEYS = {"refused", "rooms", "private"}
PHASE_KEYS = {"phase", "posts", "orders", "gm", "expect", "plays", "discards", "reorder", "abilities", "decks",
              "rebuilds"}
# Fields of an `abilities` item that name players (turned into seat ids); `roles` maps names to roles.
ABILITY_SEAT_FIELDS = ("target", "target2")
GM_KEYS = {"forum": {"tie_break"}, "club": {"fouls", "forfeit"}, "cards": {"damage", "armour", "tie_break"}}
# Players' keys besides name and role that a rule set's new_game takes as `seat_data` (cards).
SEAT_DATA_KEYS = ("overt", "deck", "hand", "sleeve")


def _entries(items):
    """Short form `{name: text}` and long form `{by: name, ...}` as (name, dict)."""
    for item in items or ():
        if "by" in item:
            yield item["by"], item
        else:
            ((name, text),) = item.items()
            yield name, {"text": text}


def phase_inputs(state: GameState, phase: dict, matcher: RosterMatcher) -> PhaseInputs:
    ruleset = get_ruleset(state.ruleset)
    # A rule set with a peace vote (cards' «за мир») reads it; one with a measure vote reads that too.
    profile = profile_named("forum", peace=True) if getattr(ruleset, "peace_vote", False) else profile_named("forum")
    read_measure = getattr(ruleset, "parse_measure", None)
    votes: dict[int, Any] = {}
    measures: dict[int, str] = {}
    for name, post in _entries(phase.get("posts")):
        if "as" in post:
            # A post signed as another player: only the show's Говорун may (its own player,
            # tests/engine/test_show_scenarios.py); the site refuses it here as a whole.
            continue
        voter = state.by_name(name).id
        if read_measure is not None:
            measure = read_measure(post["text"])
            if measure is not None and ruleset.check_measure(state, voter, measure) is None:
                measures[voter] = measure
        final = parse_votes(post["text"], matcher, profile=profile).final
        if final is None:
            continue
        value: Any = None
        if final.kind == "vote":
            value = state.by_name(final.target).id
        elif final.kind == "peace":
            value = "peace"
        # The site's ledger refuses a vote that may not stand; the standing vote is kept.
        if ruleset.check_vote(state, voter, value) is None:
            votes[voter] = value
    orders: dict[int, Order] = {}
    for name, item in _entries(phase.get("orders")):
        actor = state.by_name(name)
        if "text" in item:
            parsed = parse_order(item["text"], matcher, vocabulary=order_vocabulary(state.ruleset), actor_name=name)
            if not parsed.valid:
                continue
            action, target, source = parsed.action, parsed.target, parsed.source
        else:
            action, target, source = item["action"], item.get("target"), item.get("from")
        order = Order(actor=actor.id, action=action, target=state.by_name(target).id if target else None,
                      source=state.by_name(source).id if source else None)
        if ruleset.check_order(state, order) is None:  # the last valid order counts
            orders[actor.id] = order
    gm: dict[str, Any] = {}
    for key, value in (phase.get("gm") or {}).items():
        assert key in GM_KEYS[state.ruleset], key
        if key == "fouls":
            value = [state.by_name(n).id for n in value]
        elif key == "tie_break":
            value = state.by_name(value).id
        elif key in ("damage", "armour"):
            value = {state.by_name(n).id: amount for n, amount in value.items()}
        gm[key] = value
    extra: dict[str, Any] = {}
    if measures:
        extra["measures"] = measures
    if phase.get("plays"):
        extra["plays"] = [
            {**item, "by": state.by_name(item["by"]).id,
             **({"target": state.by_name(item["target"]).id} if item.get("target") else {}),
             **({"target2": state.by_name(item["target2"]).id} if item.get("target2") else {})}
            for item in phase["plays"]
        ]
    if phase.get("discards"):
        extra["discards"] = {state.by_name(item["by"]).id: list(item["cards"]) for item in phase["discards"]}
    if phase.get("reorder"):
        extra["reorders"] = {state.by_name(item["by"]).id: list(item["hand"]) for item in phase["reorder"]}
    if phase.get("decks"):  # cards deck building (docs/rulesets/cards.md, "Part 2 (b)"): the deck standing
        extra["decks"] = {state.by_name(item["by"]).id: {k: list(item[k]) for k in ("cards", "colours", "picks")
                                                          if item.get(k)} for item in phase["decks"]}
    if phase.get("rebuilds"):  # cards: an empty deck rebuilt («может в любой момент собрать новую колоду»)
        extra["rebuilds"] = {state.by_name(item["by"]).id: {k: list(item[k]) for k in ("cards", "colours")
                                                             if item.get(k)} for item in phase["rebuilds"]}
    # A phase-end ability refused when it is sent (the site's ledger keeps it as refused) does not
    # reach the close.
    closing = [data for data in (ability_input(state, item) for item in phase.get("abilities") or ()
                                 if not _at_once(state, item))
               if ruleset.check_ability(state, data["by"], data["ability"],
                                        {k: v for k, v in data.items() if k not in ("by", "ability")}) is None]
    if closing:
        extra["abilities"] = closing
    return PhaseInputs(votes=votes, orders=orders, gm=gm, extra=extra)


def ability_input(state: GameState, item: dict) -> dict:
    """An `abilities` item with its players' names as seat ids (`roles`: {name: role} too)."""
    out = {**item, "by": state.by_name(item["by"]).id}
    for key in ABILITY_SEAT_FIELDS:
        if item.get(key) is not None:
            out[key] = state.by_name(item[key]).id
    if isinstance(item.get("roles"), dict):
        out["roles"] = {str(state.by_name(name).id): role for name, role in item["roles"].items()}
    return out


def _at_once(state: GameState, item: dict) -> bool:
    ruleset = get_ruleset(state.ruleset)
    ability = getattr(ruleset, "abilities", {}).get(item.get("ability"))
    return ability is not None and ability.when == "now"


def act_at_once(state: GameState, phase: dict, seed: int) -> GameState:
    """The phase's at-once abilities, in the listed order, applied before the close (a refused one
    changes nothing, as on the site). The seed of the n-th is the scenario's seed plus n."""
    ruleset = get_ruleset(state.ruleset)
    for n, item in enumerate(i for i in phase.get("abilities") or () if _at_once(state, i)):
        if state.over:
            break
        data = ability_input(state, item)
        by, key = data.pop("by"), data.pop("ability")
        state = ruleset.act_now(state, by, key, data, seed=seed + n).state
    return state


def same(expected, actual) -> bool:
    if isinstance(expected, list):
        return isinstance(actual, list) and set(expected) == set(actual)
    return expected == actual


def play(path: Path):
    """(scenario, final state, [(phase spec, resolution)])."""
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
    ruleset = get_ruleset(scenario["ruleset"])
    players = scenario["players"]
    seats = [(i, p["name"], p.get("role") or p["secret"]) for i, p in enumerate(players, start=1)]
    kwargs: dict[str, Any] = {}
    if "seat_data" in inspect.signature(ruleset.new_game).parameters:
        kwargs["seat_data"] = {p["name"]: {k: p[k] for k in SEAT_DATA_KEYS if k in p} for p in players}
        kwargs["seed"] = scenario["rng_seed"]
    state, _events = ruleset.new_game(seats, options=scenario.get("options") or {}, **kwargs)
    matcher = RosterMatcher([p["name"] for p in players])
    results = []
    for phase in scenario["phases"]:
        assert set(phase) <= PHASE_KEYS, set(phase) - PHASE_KEYS
        assert state.phase == phase["phase"], (state.phase, phase["phase"])
        assert not state.over, phase["phase"]
        state = act_at_once(state, phase, scenario["rng_seed"])
        if state.over:  # an at-once ability ended the game (the joker's list): no close
            results.append((phase, None))
            break
        resolution = ruleset.resolve(state, phase_inputs(state, phase, matcher), seed=scenario["rng_seed"], now=NOW)
        results.append((phase, resolution))
        state = resolution.state
    return scenario, state, results


def mismatches(scenario, state, results) -> list[str]:
    """Every expect key that does not hold, as readable lines (empty when all hold)."""
    allowed = set(get_ruleset(scenario["ruleset"]).outcome_keys) | {"winner"} | SITE_ONLY_KEYS
    diffs = []
    for phase, resolution in results:
        if resolution is None:  # ended at once, with no close: only `over` is known
            expected = (phase.get("expect") or {}).get("over")
            if expected is not None and expected is not True:
                diffs.append(f"{phase['phase']}: over: expected {expected!r}, got True")
            continue
        for key, expected in (phase.get("expect") or {}).items():
            assert key in allowed, (phase["phase"], key)
            if key in SITE_ONLY_KEYS:
                continue
            actual = resolution.outcome.get(key)
            if key not in resolution.outcome or not same(expected, actual):
                diffs.append(f"{phase['phase']}: {key}: expected {expected!r}, got {actual!r}")
    for key, expected in (scenario.get("expect") or {}).items():
        actual = {"over": state.over, "winner": state.winner}[key]
        if actual != expected:
            diffs.append(f"game: {key}: expected {expected!r}, got {actual!r}")
    return diffs
