"""Properties of the forum rule set over random legal games (hypothesis): every game ends, nobody
comes back, the same seed gives the same close, and no event reaches an audience it must not."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.events import GM, PUBLIC, Event, visible_to
from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets import get_ruleset
from games.engine.state import GameState

FORUM = get_ruleset("forum")
NOW = datetime(2024, 1, 1, tzinfo=UTC)
MAFIA_ROLES = ("mafioso", "killer")
TOWN_ROLES = ("citizen", "recruiter", "reanimator")
FILLER_ROLES = ("citizen", "citizen", "citizen", "recruiter", "reanimator", "mafioso", "killer")

PUBLIC_KINDS = {"game_started", "vote_result", "tie_break", "jailed", "killed", "wounded", "game_over"}
GM_KINDS = {"order", "tie_break_ignored"}
PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@st.composite
def role_tables(draw) -> list[str]:
    """Any table new_game accepts: 7-20 seats, a town and a mafia member, at most one thief."""
    size = draw(st.integers(min_value=7, max_value=20))
    if draw(st.booleans()):
        return FORUM.default_roles(size)
    fixed = [draw(st.sampled_from(TOWN_ROLES)), draw(st.sampled_from(MAFIA_ROLES))]
    if draw(st.booleans()):
        fixed.append("thief")
    rest = draw(st.lists(st.sampled_from(FILLER_ROLES), min_size=size - len(fixed), max_size=size - len(fixed)))
    return draw(st.permutations(fixed + rest))


def draw_inputs(draw, state: GameState) -> PhaseInputs:
    seat_ids = [s.id for s in state.seats]
    targets = FORUM.vote_targets(state)
    votes = {}
    for voter in FORUM.voters(state):
        votes[voter] = draw(
            st.one_of(
                st.sampled_from(targets),
                st.sampled_from(targets),
                st.none(),
                st.just("peace"),
                st.sampled_from(seat_ids),  # possibly someone out of play: counts as no vote
            )
        )
    orders = {}
    for seat in state.active():
        actions = FORUM.allowed_actions(state, seat.id)
        if not actions or not draw(st.booleans()):
            continue
        action = draw(st.sampled_from(actions))
        source = draw(st.sampled_from(seat_ids)) if action == "steal" else None
        order = Order(seat.id, action, draw(st.sampled_from(seat_ids)), source)
        # Mostly legal orders, as the site only passes those; now and then one the engine must refuse.
        if FORUM.check_order(state, order) is None or draw(st.integers(0, 9)) == 0:
            orders[seat.id] = order
    gm = {}
    if draw(st.integers(0, 3)) == 0:
        gm["tie_break"] = draw(st.sampled_from(seat_ids))
    return PhaseInputs(votes=votes, orders=orders, gm=gm)


def role_pairs(data) -> list[tuple[int, str]]:
    """Every (seat id, role) an event's data ties together, at any depth."""
    found = []
    if isinstance(data, dict):
        if "role" in data:
            for key in ("seat", "target"):
                if isinstance(data.get(key), int):
                    found.append((data[key], data["role"]))
        for value in data.values():
            found.extend(role_pairs(value))
    elif isinstance(data, (list, tuple)):
        for value in data:
            found.extend(role_pairs(value))
    return found


def assert_no_leak(state_before: GameState, events: tuple[Event, ...], inputs: PhaseInputs | None,
                   outcome_state: GameState) -> None:
    """Before the game is over, a player sees a role only if it is his own, a team-mate's (the
    mafia knows itself), one publicly revealed on jail or death, or the result of his own check."""
    out_of_play_now = {s.id for s in outcome_state.seats if s.status != "active"}
    for event in events:
        if event.kind in PUBLIC_KINDS:
            assert event.audience == PUBLIC, event
        if event.kind in GM_KINDS:
            assert event.audience == GM, event
        if event.kind == "team":
            assert event.audience == "faction:mafia"
        if event.kind in ("role", "granted_check"):
            assert event.audience == f"seat:{event.data['seat']}"
        if event.kind == "check_result":
            checker = int(event.audience.removeprefix("seat:"))
            assert inputs is not None and checker in inputs.orders
            assert inputs.orders[checker].action in ("check", "steal")
            assert inputs.orders[checker].target == event.data["target"]
        if event.kind == "game_over":
            continue  # the archive is unsealed at the end
        for viewer in state_before.seats:
            if not visible_to(event, seat_id=viewer.id, faction=viewer.faction, is_gm=False, game_over=False):
                continue
            for seat_id, role in role_pairs(dict(event.data)):
                other = state_before.seat(seat_id)
                assert role == other.role
                allowed = (
                    seat_id == viewer.id
                    or (viewer.faction == "mafia" and other.faction == "mafia")
                    or (event.audience == PUBLIC and event.kind in ("jailed", "killed") and seat_id in out_of_play_now)
                    or (event.kind == "check_result" and event.audience == f"seat:{viewer.id}")
                )
                assert allowed, (viewer.name, event)


def play_random_game(draw, check_determinism: bool = False):
    roles = draw(role_tables())
    options = {"reveal_roles": draw(st.booleans())}
    state, setup_events = FORUM.new_game([(100 + i, f"P{i}", r) for i, r in enumerate(roles)], options=options)
    assert_no_leak(state, setup_events, None, state)
    turns = []
    while not state.over:
        assert len(turns) < len(roles), "every turn jails somebody, so the game must end"
        inputs = draw_inputs(draw, state)
        seed = draw(st.integers(min_value=0, max_value=2**62))
        resolution = FORUM.resolve(state, inputs, seed=seed, now=NOW)
        if check_determinism:
            again = FORUM.resolve(GameState.from_json(state.to_json()), inputs, seed=seed, now=NOW)
            assert again == resolution
        turns.append((state, inputs, resolution))
        state = resolution.state
    return roles, turns


@PROPERTY_SETTINGS
@given(st.data())
def test_random_game_ends_when_played_turn_after_turn(data):
    roles, turns = play_random_game(data.draw)
    assert 1 <= len(turns) <= len(roles) - 1
    final = turns[-1][2].state
    assert final.over and final.winner in ("town", "mafia", "thief", "none")
    active_factions = {s.faction for s in final.active()}
    assert active_factions == ({final.winner} if final.winner != "none" else set())
    for before, _inputs, resolution in turns:
        assert len(resolution.outcome["jailed"]) == 1
        assert len(resolution.state.active()) < len(before.active())
        assert set(FORUM.outcome_keys) <= set(resolution.outcome)
        assert resolution.outcome["alive"] == [s.name for s in resolution.state.active()]


@PROPERTY_SETTINGS
@given(st.data())
def test_nobody_comes_back_when_jailed_or_killed(data):
    _roles, turns = play_random_game(data.draw)
    for before, _inputs, resolution in turns:
        for old in before.seats:
            new = resolution.state.seat(old.id)
            if old.status != "active":
                assert new.status == old.status
            assert (new.role, new.faction, new.name) == (old.role, old.faction, old.name)
            if new.status != "active":
                assert not new.flags


@PROPERTY_SETTINGS
@given(st.data())
def test_resolution_is_the_same_when_resolved_again_with_the_same_seed(data):
    play_random_game(data.draw, check_determinism=True)


@PROPERTY_SETTINGS
@given(st.data())
def test_no_event_reaches_a_forbidden_audience_when_games_are_played(data):
    _roles, turns = play_random_game(data.draw)
    for before, inputs, resolution in turns:
        assert_no_leak(before, resolution.events, inputs, resolution.state)
        for event in resolution.events:
            assert Event.from_json(event.to_json()) == event
