"""Properties of the show rule set over many random shows (hypothesis): a show that ends has one
winner or the documented draw, and one that goes on has none yet; keys agree with the roles and
three public keys are a revealed role; Secret Knowledge is never «не-Масон»; a slave never acts nor
comes back; the same seed gives the same close; the state survives JSON; no secret reaches the
thread."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.events import GM, PUBLIC, faction_audience, seat_audience
from games.engine.orders import Order, PhaseInputs
from games.engine.state import GameState
from games.rulesets.show.engine import SHOW, deal, keys_of, winner_of
from games.rulesets.show.engine.facts import SLAVE
from games.rulesets.show.engine.privilege_keys import PRIVILEGE_ACTIONS
from games.rulesets.show.engine.ruleset import EVENT_KINDS
from games.rulesets.show.engine.stages import parse_phase
from games.rulesets.show.engine.status import public_status
from tests.engine.show_helpers import NOW

MAX_STAGES = 80
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Kinds the thread may see; the others go to one hero, the Reptiloids or the GM only.
PUBLIC_KINDS = {"game_started", "stage", "woke", "coma", "lulled", "greetings", "day_votes", "bench", "no_bench",
                "opinions", "knowledge_received", "judge_removed", "defence", "revote_result", "judge_decision",
                "judge_missed", "enslaved", "public_key", "role_revealed", "relieved", "morning", "questioned",
                "saviour_key", "judge", "no_judge", "insomnia", "game_over",
                # part 2
                "trial_results", "demon_returned", "alliances", "show_results",
                # part 3, the privileges: who was buried by /mole, the Адвокат's list, the Змеёныш's turn
                "buried", "excluded", "snakelet_turned",
                # issue 28: the slaves' daily task is public (answers are posted in the common thread);
                # Судный День is announced to all
                "trial_task", "doomsday"}
SECRET_KINDS = {"role", "innate_keys", "team", "knowledge_won", "knowledge_empty", "secret_key", "secret_key_gm",
                "knowledge_lot", "night_choices", "opinions_gm", "judge_lot",
                # part 2: a hero's bet and ally to him; the bets, pairs and ratings to the GM
                "bet", "bets_gm", "ally", "alliances_gm", "ratings_gm",
                # part 3
                "privileges", "privileges_gm", "mole_role", "buried_gm", "stunned", "stunned_gm", "stun_failed",
                "excluded_gm", "extra_vote_gm", "intercept_result", "intercept_gm", "privilege_stolen",
                "privilege_lost", "theft_failed", "thefts_gm", "snakelet_turned_gm", "genius_judge",
                # issue 28: the tasks still to come are the GM's until a morning gives one
                "trial_queue_gm"}


def random_inputs(state, rng: random.Random) -> PhaseInputs:
    kind, _n = parse_phase(state.phase)
    ids = [s.id for s in state.seats]
    targets = [*ids, 99]  # 99 is nobody: a stale or forged id must be ignored
    votes, orders, posted, requests, knowledge = {}, {}, {}, {}, {}
    for hero in ids:  # slaves try too: the engine must ignore them
        if rng.random() < 0.15:
            continue
        if kind in ("greetings", "defence", "day"):
            posted[hero] = [rng.choice(["greeting", "defence", "opinion"])]
        if kind == "day":
            votes[hero] = rng.choice(targets)
            if rng.random() < 0.3:
                requests[hero] = rng.choice(targets)
        elif kind == "revote":
            votes[hero] = rng.choice(["enslave", "spare", *targets])
        elif kind in ("night", "judge"):
            action = rng.choice(["suspect", "enslave", "save", "relieve", "spare"])
            detail = None
            if rng.random() < 0.3:
                detail = {rng.choice(["question", "public_key", "extra_knowledge"]): rng.choice(targets)}
            orders[hero] = Order(hero, action, rng.choice(targets), detail=detail)
        if rng.random() < 0.3:
            knowledge[hero] = rng.choice(targets)
    ratings = {h: rng.choice([0, 0, 1, -1, 3]) for h in ids}
    return PhaseInputs(votes=votes, orders=orders, extra={"posted": posted, "opinion_requests": requests,
                                                           "knowledge": knowledge, "ratings": ratings,
                                                           "active": [rng.choice(targets)]})


def check_keys(state) -> None:
    memory = state.memory
    for seat in state.seats:
        public = memory["public_keys"].get(str(seat.id), [])
        assert set(public) <= set(keys_of(seat.role)) and len(set(public)) == len(public)
        # «Как только про героя становятся известны все его три Ключа, вскрывается его Роль»
        assert (len(public) == 3) == (seat.id in memory["revealed"])
    for holder, items in memory["secret_keys"].items():
        for item in items:
            about = state.seat(int(item["about"]))
            assert item["key"] in keys_of(about.role) and item["key"] != "not_mason"
            assert int(holder) != about.id


@st.composite
def shows(draw):
    size = draw(st.sampled_from([4, 5, 6, 8, 10]))
    seed = draw(st.integers(0, 10**6))
    options = {"reptiloid_disagree": draw(st.sampled_from(["nobody", "lot"])),
               "save_once": draw(st.sampled_from(["self", "each"])),
               "single_majority": draw(st.sampled_from(["cast", "voters"]))}
    names = [f"Герой{i}" for i in range(size)]
    roles = deal(names, seed)
    state, _events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(zip(names, roles), 1)], options=options)
    return state, seed, draw(st.randoms(use_true_random=False))


@PROPERTY_SETTINGS
@given(shows())
def test_random_shows_keep_the_invariants(show):
    state, seed, rng = show
    slaves: set[int] = set()
    for _stage in range(MAX_STAGES):
        if state.over:
            break
        inputs = random_inputs(state, rng)
        result = SHOW.resolve(state, inputs, seed=seed, now=NOW)
        # the same seed, the same close
        assert SHOW.resolve(state, inputs, seed=seed, now=NOW) == result
        new = result.state
        now_slaves = {s.id for s in new.seats if s.status == SLAVE}
        assert slaves <= now_slaves, "nobody comes back from slavery"
        # no enslaved hero acting: a slave's night choice is never taken
        for event in result.events:
            if event.kind == "night_choices":
                acting = {new.by_name(n).id for n in event.data["choices"]}
                assert not acting & slaves
            assert event.kind in PUBLIC_KINDS | SECRET_KINDS and event.kind in EVENT_KINDS, event.kind
            if event.kind in SECRET_KINDS:
                assert event.audience != PUBLIC
            if event.kind in PUBLIC_KINDS:
                assert event.audience == PUBLIC or event.kind == "judge"
        for slave in slaves:
            # A slave makes no free hero's choice; part 2: a Talent votes in the day vote, and anyone
            # may pick an ally in the «Выбор Союзника» stage; part 3: his privileges' actions (none
            # without privileges).
            talent = slave in SHOW.extra_voters(new)
            allowed = ({"vote"} if talent else set()) | {"pick_ally"} | set(PRIVILEGE_ACTIONS)
            assert set(SHOW.allowed_actions(new, slave)) <= allowed
            if not new.memory.get("privileges"):
                assert not set(SHOW.allowed_actions(new, slave)) & set(PRIVILEGE_ACTIONS)
            assert slave not in SHOW.voters(new) or talent
        slaves = now_slaves
        check_keys(new)
        assert GameState.from_json(json.loads(json.dumps(new.to_json()))) == new  # the site stores it as JSON
        status = public_status(new)
        if not new.over:
            assert winner_of(new) is None, "a show that could end has ended"
            for hero in status["heroes"]:
                assert hero["role"] is None or new.by_name(hero["name"]).id in new.memory["revealed"]
        state = new
    if state.over:
        assert state.winner in {"masons", "reptiloids", "demon", "none"}
        assert winner_of(state) == state.winner


@PROPERTY_SETTINGS
@given(shows())
def test_events_go_only_to_known_audiences(show):
    """Every event kind is listed (the site words each) and reaches the thread, one hero, the
    Reptiloids or the GM; the kinds listed are exactly the ones the engine can emit."""
    state, seed, rng = show
    audiences = {PUBLIC, GM, faction_audience("reptiloids")} | {seat_audience(s.id) for s in state.seats}
    for _stage in range(20):
        if state.over:
            break
        result = SHOW.resolve(state, random_inputs(state, rng), seed=seed, now=NOW)
        assert {e.audience for e in result.events} <= audiences
        state = result.state


def test_every_listed_event_kind_has_its_audience_class():
    assert set(EVENT_KINDS) == PUBLIC_KINDS | SECRET_KINDS
