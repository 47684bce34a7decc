"""The audience rule (games.engine.events.visible_to) from every perspective, the JSON round trips
of the engine's shared types, and the rule-set registry."""

from __future__ import annotations

import pytest

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience, visible_to
from games.engine.state import GameState, SeatState

PUBLIC_EVENT = Event("jailed", PUBLIC, {"seat": 3, "name": "Вася"})
GM_EVENT = Event("order", GM, {"actor": 1})
MAFIA_EVENT = Event("team", faction_audience("mafia"), {"members": []})
SEAT_EVENT = Event("check_result", seat_audience(12), {"target": 3, "role": "mafioso"})
ODD_EVENT = Event("note", "players:1,2", {})

# (perspective name, keyword arguments for visible_to)
PERSPECTIVES = {
    "gm": dict(seat_id=None, faction=None, is_gm=True),
    "checker": dict(seat_id=12, faction="town", is_gm=False),
    "mafioso": dict(seat_id=5, faction="mafia", is_gm=False),
    "town_player": dict(seat_id=7, faction="town", is_gm=False),
    "thief": dict(seat_id=9, faction="thief", is_gm=False),
    "spectator": dict(seat_id=None, faction=None, is_gm=False),
}

EXPECTED = {
    # event: the perspectives that see it while the game runs
    "public": {"gm", "checker", "mafioso", "town_player", "thief", "spectator"},
    "gm": {"gm"},
    "mafia": {"gm", "mafioso"},
    "seat": {"gm", "checker"},
    "odd": {"gm"},
}
EVENTS = {"public": PUBLIC_EVENT, "gm": GM_EVENT, "mafia": MAFIA_EVENT, "seat": SEAT_EVENT, "odd": ODD_EVENT}


@pytest.mark.parametrize("event_key", EVENTS)
@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_event_reaches_only_its_audience_when_the_game_runs(event_key, perspective):
    seen = visible_to(EVENTS[event_key], game_over=False, **PERSPECTIVES[perspective])
    assert seen == (perspective in EXPECTED[event_key])


@pytest.mark.parametrize("event_key", EVENTS)
@pytest.mark.parametrize("perspective", PERSPECTIVES)
def test_every_event_is_visible_to_everyone_when_the_game_is_over(event_key, perspective):
    """The archive of a finished game is unsealed."""
    assert visible_to(EVENTS[event_key], game_over=True, **PERSPECTIVES[perspective])


def test_seat_audience_matches_the_whole_id_when_ids_share_digits():
    assert not visible_to(SEAT_EVENT, seat_id=1, faction=None, is_gm=False, game_over=False)
    assert not visible_to(SEAT_EVENT, seat_id=123, faction=None, is_gm=False, game_over=False)
    assert not visible_to(MAFIA_EVENT, seat_id=5, faction="maf", is_gm=False, game_over=False)


def test_audience_helpers_spell_the_audiences_when_called():
    assert faction_audience("mafia") == "faction:mafia"
    assert seat_audience(12) == "seat:12"


def test_event_survives_a_json_round_trip_when_serialised():
    event = Event("check_result", seat_audience(1), {"target": 2, "target_name": "Кикимора", "role": "mafioso"})
    assert Event.from_json(event.to_json()) == event


def test_state_survives_a_json_round_trip_when_serialised():
    import json

    state = GameState(
        ruleset="forum",
        seats=(
            SeatState(1, "Вася", "recruiter", "town", flags=frozenset({"wounded", "granted_check"})),
            SeatState(2, "Кикимора", "mafioso", "mafia", status="jailed"),
        ),
        phase="day 3",
        options={"reveal_roles": False},
        memory={"anything": [1, 2]},
    )
    data = json.loads(json.dumps(state.to_json()))
    assert data["seats"][0]["flags"] == ["granted_check", "wounded"]
    assert GameState.from_json(data) == state
    assert state.by_name("Кикимора").id == 2 and state.by_name("Нет") is None
    assert [s.name for s in state.active()] == ["Вася"]
    with pytest.raises(KeyError):
        state.seat(99)


def test_order_survives_a_json_round_trip_when_serialised():
    from games.engine.orders import Order

    plain = Order(actor=1, action="steal", target=2, source=3)
    assert plain.to_json() == {"actor": 1, "action": "steal", "target": 2, "source": 3}
    assert Order.from_json(plain.to_json()) == plain
    detailed = Order(actor=1, action="play", target=2, detail={"card": "Щит", "from": "hand"})
    assert Order.from_json(detailed.to_json()) == detailed


def test_registry_finds_the_forum_rule_set_when_asked_by_key():
    from datetime import UTC, datetime

    from games.engine.orders import PhaseInputs
    from games.engine.rulesets import RULESETS, Ruleset, get_ruleset, resolve

    forum = get_ruleset("forum")
    assert RULESETS["forum"] is forum and isinstance(forum, Ruleset)
    with pytest.raises(KeyError):
        get_ruleset("nosuch")
    roles = forum.default_roles(7)
    state, _events = forum.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])
    now = datetime(2024, 1, 1, tzinfo=UTC)
    assert resolve(state, PhaseInputs(votes={}), seed=3, now=now) == forum.resolve(
        state, PhaseInputs(votes={}), seed=3, now=now
    )
