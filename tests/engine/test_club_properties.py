"""Properties of the club rule set over random legal games (hypothesis): every game ends, nobody
comes back, the same seed gives the same close, and no event reaches an audience it must not."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.events import GM, PUBLIC, Event, visible_to
from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets import get_ruleset
from games.rulesets.club.engine import end_of_game, parse_phase
from games.engine.state import GameState

CLUB = get_ruleset("club")
NOW = datetime(2024, 3, 1, tzinfo=UTC)
BLACK_ROLES = ("don", "mafioso", "putana")
RED_ROLES = ("commissar", "doctor", "maniac", "civilian")
UNIQUE = ("don", "putana", "commissar", "doctor", "maniac")

PUBLIC_KINDS = {"game_started", "newcomers", "vote_result", "revote", "no_execution", "executed", "taken",
                "night_result", "killed", "note", "foul", "removed", "forfeit", "game_over"}
GM_KINDS = {"order", "vote_dropped", "foul_ignored", "forfeit_ignored"}
# Phases played with random inputs before every later phase pushes the game towards its end.
RANDOM_PHASES = 24
PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@st.composite
def role_tables(draw) -> list[str]:
    """Any table new_game accepts: 8-14 seats, a black and a red, the singular roles at most once."""
    size = draw(st.integers(min_value=8, max_value=14))
    if draw(st.booleans()):
        return CLUB.default_roles(size)
    fixed = [draw(st.sampled_from(BLACK_ROLES)), draw(st.sampled_from(RED_ROLES))]
    extras = [r for r in UNIQUE if r not in fixed and draw(st.booleans())]
    roles = fixed + extras
    rest = draw(st.lists(st.sampled_from(("mafioso", "civilian")), min_size=size - len(roles),
                         max_size=size - len(roles)))
    return draw(st.permutations(roles + rest))


def draw_inputs(draw, state: GameState) -> PhaseInputs:
    seat_ids = [s.id for s in state.seats]
    targets = CLUB.vote_targets(state)
    votes = {}
    for voter in CLUB.voters(state):
        choices = [st.none(), st.just("peace"), st.sampled_from(seat_ids)]
        if targets:
            choices = [st.sampled_from(targets)] * 3 + choices
        vote = draw(st.one_of(*choices))
        # Mostly votes that stand, as the ledger only passes those; now and then one the engine drops.
        if CLUB.check_vote(state, voter, vote) is None or draw(st.integers(0, 9)) == 0:
            votes[voter] = vote
    orders = {}
    for seat in state.active():
        actions = CLUB.allowed_actions(state, seat.id)
        if not actions or not draw(st.booleans()):
            continue
        action = draw(st.sampled_from(actions))
        detail = None
        if action == "kill" and seat.role == "putana" and draw(st.booleans()):
            detail = {"freeze": draw(st.sampled_from(seat_ids))}
        order = Order(seat.id, action, draw(st.sampled_from(seat_ids)), detail=detail)
        if CLUB.check_order(state, order) is None or draw(st.integers(0, 9)) == 0:
            orders[seat.id] = order
    gm = {}
    fouls = draw(st.sampled_from((None, None, None, "some", "one")))
    if fouls == "some":
        gm["fouls"] = draw(st.lists(st.sampled_from(seat_ids), max_size=3))
    elif fouls == "one":
        gm["fouls"] = [draw(st.sampled_from(seat_ids))] * draw(st.integers(1, 4))
    # sampled_from leans to its first item, so a forfeit stays rare.
    forfeit = draw(st.sampled_from((None,) * 30 + ("black", "red", "nobody")))
    if forfeit is not None:
        gm["forfeit"] = forfeit
    return PhaseInputs(votes=votes, orders=orders, gm=gm)


def pushing_inputs(draw, state: GameState) -> PhaseInputs:
    """Inputs that move a long game on: the town votes one player out; the mafia and the maniac
    shoot someone of the other team."""
    kind, _number = parse_phase(state.phase)
    votes, orders = {}, {}
    targets = CLUB.vote_targets(state)
    if kind in ("day", "revote") and targets:
        victim = draw(st.sampled_from(targets))
        for voter in CLUB.voters(state):
            others = [t for t in targets if t != voter]
            if others:
                votes[voter] = victim if voter != victim else others[0]
    elif kind == "night":
        for seat in state.active():
            if "kill" not in CLUB.allowed_actions(state, seat.id):
                continue
            prey = [s.id for s in state.active() if s.faction != seat.faction]
            if prey:
                order = Order(seat.id, "kill", draw(st.sampled_from(prey)))
                if CLUB.check_order(state, order) is None:
                    orders[seat.id] = order
    return PhaseInputs(votes=votes, orders=orders)


def role_pairs(data) -> list[tuple[int, str]]:
    """Every (seat id, role) an event's data ties together, at any depth."""
    found = []
    if isinstance(data, dict):
        if "role" in data and isinstance(data.get("seat"), int):
            found.append((data["seat"], data["role"]))
        for value in data.values():
            found.extend(role_pairs(value))
    elif isinstance(data, (list, tuple)):
        for value in data:
            found.extend(role_pairs(value))
    return found


def assert_no_leak(before: GameState, events, inputs: PhaseInputs | None, after: GameState) -> None:
    """Before the game is over a player sees a role only if it is his own, a fellow black's (after
    the acquaintance), or one opened in public (voted out or removed); a colour only from his own
    check, or from the note of a commissar killed that night."""
    out_now = {s.id for s in after.seats if s.status != "active"}
    killed_commissars = {s.id for s in after.seats if s.role == "commissar" and s.status == "killed"}
    for event in events:
        if event.kind in PUBLIC_KINDS:
            assert event.audience == PUBLIC, event
        if event.kind in GM_KINDS:
            assert event.audience == GM, event
        if event.kind == "team":
            assert event.audience == "faction:black" and before.phase == "night 0"
        if event.kind in ("role", "frozen"):
            assert event.audience == f"seat:{event.data['seat']}"
        if event.kind == "check_result":
            checker = int(event.audience.removeprefix("seat:"))
            assert before.seat(checker).role == "commissar"
            assert inputs is not None and inputs.orders[checker].target == event.data["target"]
            assert event.data["color"] == before.seat(event.data["target"]).faction
        if event.kind == "note":
            assert event.data["seat"] in killed_commissars
            assert inputs is not None and inputs.orders[event.data["seat"]].action == "note"
        if event.kind == "game_over":
            continue  # the archive is unsealed at the end
        for viewer in before.seats:
            if not visible_to(event, seat_id=viewer.id, faction=viewer.faction, is_gm=False, game_over=False):
                continue
            for seat_id, role in role_pairs(dict(event.data)):
                other = before.seat(seat_id)
                assert role == other.role
                allowed = (
                    seat_id == viewer.id
                    or (event.kind == "team" and viewer.faction == "black" and other.faction == "black")
                    or (event.audience == PUBLIC and event.kind in ("executed", "removed") and seat_id in out_now)
                )
                assert allowed, (viewer.name, event)


def play_random_game(draw, check_determinism: bool = False):
    roles = draw(role_tables())
    names = [f"P{i}" for i in range(len(roles))]
    newcomers = draw(st.lists(st.sampled_from(names), max_size=3, unique=True))
    state, setup_events = CLUB.new_game([(100 + i, n, r) for i, (n, r) in enumerate(zip(names, roles))],
                                        options={"newcomer_immunity": newcomers})
    assert_no_leak(state, setup_events, None, state)
    phases = []
    while not state.over:
        assert len(phases) < RANDOM_PHASES + 8 * len(roles), "the game must end"
        if len(phases) < RANDOM_PHASES:
            inputs = draw_inputs(draw, state)
        else:
            inputs = pushing_inputs(draw, state)
        seed = draw(st.integers(min_value=0, max_value=2**62))
        resolution = CLUB.resolve(state, inputs, seed=seed, now=NOW)
        if check_determinism:
            stored = GameState.from_json(json.loads(json.dumps(state.to_json())))
            assert CLUB.resolve(stored, inputs, seed=seed, now=NOW) == resolution
            # The club rules draw no lots (a tie goes to a re-vote, then to a peaceful day).
            assert CLUB.resolve(stored, inputs, seed=seed + 1, now=NOW) == resolution
        phases.append((state, inputs, resolution))
        state = resolution.state
    return roles, phases


@PROPERTY_SETTINGS
@given(st.data())
def test_random_game_ends_when_played_phase_after_phase(data):
    _roles, phases = play_random_game(data.draw)
    final = phases[-1][2].state
    assert final.over and final.winner in ("black", "red", "none")
    blacks = [s for s in final.active() if s.faction == "black"]
    reds = [s for s in final.active() if s.faction == "red"]
    reason = next(e for e in phases[-1][2].events if e.kind == "game_over").data["reason"]
    if reason != "forfeit":
        if final.winner == "red":
            assert not blacks and reds
        elif final.winner == "none":
            assert not blacks and not reds
        else:
            assert blacks and (not reds or reason == "guaranteed")
    for before, _inputs, resolution in phases:
        assert set(CLUB.outcome_keys) <= set(resolution.outcome)
        assert ("winner" in resolution.outcome) == resolution.outcome["over"]
        assert resolution.outcome["alive"] == [s.name for s in resolution.state.active()]
        if not resolution.state.over:
            kind, _n = parse_phase(resolution.state.phase)
            assert end_of_game(resolution.state.seats, next_phase=resolution.state.phase,
                               memory=resolution.state.memory) == (None, None)
            assert kind != "revote" or resolution.outcome["revote"]


@PROPERTY_SETTINGS
@given(st.data())
def test_nobody_comes_back_when_voted_out_killed_or_removed(data):
    _roles, phases = play_random_game(data.draw)
    for before, _inputs, resolution in phases:
        for old in before.seats:
            new = resolution.state.seat(old.id)
            if old.status != "active":
                assert new.status == old.status
            assert (new.role, new.faction, new.name) == (old.role, old.faction, old.name)
        left = {s.name for s in before.active()} - set(resolution.outcome["alive"])
        reported = (set(resolution.outcome["executed"]) | set(resolution.outcome["killed"])
                    | set(resolution.outcome["removed"]) | {resolution.outcome["taken"]} - {None})
        assert left == reported


@PROPERTY_SETTINGS
@given(st.data())
def test_resolution_is_the_same_when_resolved_again_from_stored_state(data):
    play_random_game(data.draw, check_determinism=True)


@PROPERTY_SETTINGS
@given(st.data())
def test_no_event_reaches_a_forbidden_audience_when_games_are_played(data):
    _roles, phases = play_random_game(data.draw)
    for before, inputs, resolution in phases:
        assert_no_leak(before, resolution.events, inputs, resolution.state)
        for event in resolution.events:
            assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event
