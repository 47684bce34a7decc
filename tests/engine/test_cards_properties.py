"""Properties of the cards rule set over random games (hypothesis): every game ends once damage keeps
coming, the containers stay consistent (no card appears from nowhere, Hand sizes are what everyone
is told, the living hold cards and the dead none), the dead never act, nobody comes back, the same
seed gives the same close, and no event reaches an audience it must not."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.events import GM, PUBLIC, faction_audience, seat_audience
from games.engine.orders import PhaseInputs
from games.engine.rulesets import get_ruleset
from games.rulesets.cards.engine import collection_of, starter_deck
from games.rulesets.cards.engine.collection import ACE
from games.rulesets.cards.engine.roles import LAW_ROLES, SINGLE_ROLES, winner_of
from games.engine.state import ACTIVE, GameState

CARDS = get_ruleset("cards")
NOW = datetime(2024, 3, 1, tzinfo=UTC)
RANDOM_PHASES = 14
PUBLIC_KINDS = {"game_started", "hand_sizes", "veche_result", "tie_break", "executed", "imprisoned", "died",
                "joker_won", "joker_left", "game_over",
                # issue 17 (d)
                "politician_spared", "hero_left", "avenger_dice", "avenger_team_won", "assassinated"}
SEAT_KINDS = {"role", "containers", "phase_report", "reveal", "message", "mafia_message", "deck_refused", "deck_auto",
              "dead_role", "hero_goal"}
GM_KINDS = {"play", "gm_resolve", "phase_summary", "deck_order", "deck_refused", "deck_auto", "deck_rebuilt",
            "input_ignored", "vote_dropped", "measure_dropped", "discard", "message", "mafia_message",
            "gm_effect_ignored", "joker_guess", "hero_goal", "hero_goal_void", "hero_mark"}
MAFIA_KINDS = {"team", "mafia_decks"}
PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@st.composite
def tables(draw) -> tuple[list[str], dict]:
    size = draw(st.integers(min_value=3, max_value=16))
    options = {"hero": draw(st.booleans()), "extra_neutral": draw(st.sampled_from(("random", "joker", "traitor")))}
    if draw(st.booleans()):
        return CARDS.default_roles(size), options
    singles = [r for r in SINGLE_ROLES if r != "hero" and draw(st.booleans())][: size - 1]
    rest = draw(st.lists(st.sampled_from(("law", *LAW_ROLES)), min_size=size - len(singles),
                         max_size=size - len(singles)))
    return draw(st.permutations(singles + rest)), options


def draw_inputs(draw, state: GameState) -> PhaseInputs:
    ids = [s.id for s in state.seats]
    extra: dict = {}
    if state.phase == "deckbuilding":
        decks = {}
        for seat in state.seats:
            choice = draw(st.sampled_from(("none", "starter", "junk")))
            if choice == "starter":
                colours = ["damage", "recon"] if seat.role == "joker" else None
                decks[seat.id] = {"cards": starter_deck(seat.role, collection_of(state), random.Random(seat.id),
                                                        colours=colours), "colours": colours}
            elif choice == "junk":
                decks[seat.id] = draw(st.lists(st.sampled_from(("Пистолет", "Маллиган", "Нож", "Лазер")), max_size=20))
        return PhaseInputs(extra={"decks": decks})
    plays = []
    for seat in state.seats:  # the dead try too: they must be refused
        view = CARDS.player_view(state, seat.id)
        for zone in ("hand", "sleeve"):
            cards = view[zone]
            if not cards or not draw(st.booleans()):
                continue
            plays.append({"by": seat.id, "card": draw(st.sampled_from(cards)), "from": zone,
                          "target": draw(st.sampled_from([None, *ids])), "target2": draw(st.sampled_from([None, *ids])),
                          "message": draw(st.sampled_from(("", "Привет", "см. www.example.org")))})
    extra["plays"] = plays
    discards = {}
    reorders = {}
    rebuilds = {}
    for seat in state.active():
        view = CARDS.player_view(state, seat.id)
        if len(view["hand"]) >= 2 and draw(st.integers(0, 5)) == 0:
            discards[seat.id] = view["hand"][:2]
        if view["hand"] and draw(st.integers(0, 4)) == 0:
            reorders[seat.id] = draw(st.permutations(view["hand"]))
        if view["can_rebuild"] and draw(st.booleans()):
            colours = state.memory["players"][str(seat.id)].get("colours") or None
            rebuilds[seat.id] = starter_deck(seat.role, collection_of(state), random.Random(seat.id), colours=colours)
        if seat.role == "joker" and draw(st.integers(0, 9)) == 0:
            guess = {s.id: draw(st.sampled_from((s.role, "sheriff"))) for s in state.seats if s.id != seat.id}
            extra["joker_guess"] = {seat.id: guess}
        if seat.faction == "mafia" and draw(st.integers(0, 5)) == 0:
            extra.setdefault("mafia_messages", {})[seat.id] = {"to": draw(st.sampled_from(ids)), "text": "план"}
    extra.update(discards=discards, reorders=reorders, rebuilds=rebuilds)
    votes, measures = {}, {}
    for voter in CARDS.voters(state):
        votes[voter] = draw(st.sampled_from([None, "peace", *CARDS.vote_targets(state)]))
        measures[voter] = draw(st.sampled_from([None, "execution", "prison"]))
    extra["measures"] = measures
    gm = {}
    if draw(st.integers(0, 3)) == 0:
        gm["damage"] = {draw(st.sampled_from(ids)): draw(st.integers(0, 4))}
    if draw(st.integers(0, 5)) == 0:
        gm["armour"] = {draw(st.sampled_from(ids)): draw(st.integers(0, 3))}
    return PhaseInputs(votes=votes, gm=gm, extra=extra)


def containers(state: GameState) -> dict[int, dict]:
    return {int(k): v for k, v in state.memory["players"].items()}


def check_close(state: GameState, inputs: PhaseInputs, seed: int):
    resolution = CARDS.resolve(state, inputs, seed=seed, now=NOW)
    # Deterministic for (state, inputs, seed), and the state is stored as JSON between phases.
    assert resolution == CARDS.resolve(state, inputs, seed=seed, now=NOW)
    after = resolution.state
    assert GameState.from_json(json.loads(json.dumps(after.to_json()))) == after
    json.dumps([e.to_json() for e in resolution.events])
    json.dumps(resolution.outcome)
    collection = collection_of(after)
    ids = {s.id for s in after.seats}
    before = containers(state)
    for seat in after.seats:
        mine = containers(after)[seat.id]
        for card in mine["hand"] + mine["deck"] + [it["card"] for it in mine["sleeve"]]:
            assert card in collection, card
        assert int(mine["restricted"]) >= 0
        old = state.seat(seat.id)
        if old.status != ACTIVE:
            # Nobody comes back, and the dead never act: their cards stay as they were (save the
            # Aces that vanish when the joker guesses wrong).
            assert seat.status == old.status
            strip = lambda cards: [c for c in cards if c != ACE]  # noqa: E731
            assert strip(mine["hand"]) == strip(before[seat.id]["hand"])
            assert strip(mine["deck"]) == strip(before[seat.id]["deck"])
        if state.phase != "deckbuilding" and seat.status == ACTIVE and not after.over:
            assert mine["hand"], "a living player holds cards"
        if seat.status == "dead" and old.status == ACTIVE:
            assert not mine["hand"] and seat.name in resolution.outcome["dead"]
    for event in resolution.events:
        if event.kind == "play" and not state.seat(event.data["by"]).is_active:
            assert event.data["result"] == "refused" and event.data["reason"] == "not_alive"
        audience = event.audience
        if audience == PUBLIC:
            assert event.kind in PUBLIC_KINDS, event.kind
            if event.kind != "game_over":
                assert "role" not in event.data and "deck" not in event.data and "hand" not in event.data
        elif audience == GM:
            assert event.kind in GM_KINDS, event.kind
        elif audience == faction_audience("mafia"):
            assert event.kind in MAFIA_KINDS, event.kind
        else:
            assert event.kind in SEAT_KINDS, event.kind
            assert audience in {seat_audience(i) for i in ids}
            if event.kind in ("message", "mafia_message"):
                seat_id = int(audience.split(":")[1])
                assert after.seat(seat_id).status == ACTIVE or after.over  # the dead receive no messages
    if state.phase != "deckbuilding":
        sizes = resolution.outcome["hand_sizes"]
        assert sizes == {after.seat(s.id).name: len(containers(after)[s.id]["hand"])
                         for s in state.seats if s.status == ACTIVE}
        assert all(n >= 0 for n in sizes.values())
        assert set(resolution.outcome) >= set(CARDS.outcome_keys)
    if after.over:
        assert after.winner in ("law", "mafia", "maniac", "joker", "none")
        if after.winner != "joker":
            assert after.winner == winner_of([s.faction for s in after.seats if s.status == ACTIVE])
    else:
        assert winner_of([s.faction for s in after.seats if s.status == ACTIVE]) is None
    return resolution


@PROPERTY_SETTINGS
@given(data=st.data())
def test_random_game_stays_consistent_and_ends_when_damage_keeps_coming(data):
    roles, options = data.draw(tables())
    seed = data.draw(st.integers(0, 2**31))
    state, events = CARDS.new_game([(10 + i, f"p{i}", r) for i, r in enumerate(roles)], options=options, seed=seed)
    assert all(s.role not in ("law", "joker_or_traitor") for s in state.seats)
    for step in range(RANDOM_PHASES):
        if state.over:
            break
        state = check_close(state, draw_inputs(data.draw, state), seed + step).state
    for step in range(60):
        if state.over:
            break
        # Every living player takes 3 damage a phase (a GM decision): the game must end.
        inputs = PhaseInputs(gm={"damage": {s.id: 3 for s in state.active()}})
        state = check_close(state, inputs, step).state
    assert state.over
