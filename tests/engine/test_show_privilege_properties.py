"""Random shows with all eleven privileges in play and the carousel on (hypothesis): part 1's
invariants still hold (tests/engine/test_show_properties.py), each privilege in play has exactly one
holder at every stage, the Змеёныш is never a Reptiloid's before his turn, a slave's panel offers only
privilege actions, and money stays conserved: the close's `transfers` when part 2 supplies them, and
the privileges' adjustments of hand-made transfers."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from games.engine.events import GM, PUBLIC, faction_audience, seat_audience
from games.engine.orders import PhaseInputs
from games.engine.state import GameState
from games.rulesets.show.engine import SHOW, deal, winner_of
from games.rulesets.show.engine.coins import BANK, POT, Transfer, hero
from games.rulesets.show.engine.facts import SLAVE
from games.rulesets.show.engine.privilege_keys import HARE, PRIVILEGE_ACTIONS, PRIVILEGES, SNAKELET
from games.rulesets.show.engine.privileges import HARE_FREE, adjust_settlement, adjust_transfers
from games.rulesets.show.engine.ruleset import EVENT_KINDS
from games.rulesets.show.engine.stages import parse_phase
from games.rulesets.show.engine.status import public_status
from tests.engine.show_helpers import NOW
from tests.engine.test_show_properties import (
    MAX_STAGES,
    PROPERTY_SETTINGS,
    PUBLIC_KINDS,
    SECRET_KINDS,
    check_keys,
    random_inputs,
)

REASONS = ("entry_fee", "stage_fee", "coma_fee", "message_fee", "anonymous_fee", "burden", "trial_pass", "bet")


def privilege_inputs(state, base: PhaseInputs, rng: random.Random) -> PhaseInputs:
    """Part 1's random inputs plus random privilege inputs from anyone (the engine must ignore those
    that may not stand)."""
    ids = [s.id for s in state.seats]
    targets = [*ids, 99]
    extra = dict(base.extra)
    for key in ("stun", "exclude", "extra_votes", "steal"):
        extra[key] = {h: rng.choice([*targets, "enslave", "spare"] if key == "extra_votes" else targets)
                      for h in ids if rng.random() < 0.3}
    count = int(state.memory.get("knowledge_count", 0))
    extra["intercept"] = {h: {"number": rng.randint(0, count + 1), rng.choice(["receiver", "about"]): rng.choice(targets)}
                          for h in ids if rng.random() < 0.3}
    return PhaseInputs(votes=base.votes, orders=base.orders, extra=extra)


def at_once(state, rng: random.Random):
    """The at-once buttons (/mole, the stun, the Хакер's guess) tried by random heroes; a refused one
    changes nothing."""
    events = []
    for hero_id in [s.id for s in state.seats]:
        if rng.random() < 0.1:
            target = rng.choice([s.id for s in state.seats])
            after, got = SHOW.mole(state, hero_id, target)
            assert (after is state) == (not got)
            state, events = after, [*events, *got]
        kind, _n = parse_phase(state.phase)
        if kind == "night" and rng.random() < 0.2:
            after, got = SHOW.stun(state, hero_id, rng.choice([s.id for s in state.seats]))
            state, events = after, [*events, *got]
        if rng.random() < 0.2:  # the Хакер's guess, answered at once
            count = int(state.memory.get("knowledge_count", 0))
            guess = {"number": rng.randint(0, count + 1),
                     rng.choice(["receiver", "about"]): rng.choice([s.id for s in state.seats])}
            after, got = SHOW.intercept(state, hero_id, guess)
            assert (after is state) == (not got)
            state, events = after, [*events, *got]
    return state, events


@st.composite
def privileged_shows(draw):
    size = draw(st.sampled_from([5, 6, 8, 10]))
    seed = draw(st.integers(0, 10**6))
    names = [f"Герой{i}" for i in range(size)]
    roles = deal(names, seed)
    options = {"privileges": list(PRIVILEGES), "carousel": True,
               "reptiloid_disagree": draw(st.sampled_from(["nobody", "lot"]))}
    state, _events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(zip(names, roles), 1)],
                                   options=options, seed=seed)
    return state, seed, random.Random(draw(st.integers(0, 2**32)))


def check_transfers(transfers) -> None:
    """Every movement is a positive whole number between two accounts: the sum of all accounts
    cannot change."""
    net: dict[str, int] = {}
    for t in transfers:
        t = t if isinstance(t, Transfer) else Transfer.from_dict(t)
        assert isinstance(t.amount, int) and t.amount > 0 and t.debit != t.credit
        net[t.debit] = net.get(t.debit, 0) - t.amount
        net[t.credit] = net.get(t.credit, 0) + t.amount
    assert sum(net.values()) == 0


@PROPERTY_SETTINGS
@given(privileged_shows())
def test_random_shows_with_every_privilege_keep_the_invariants(show):
    state, seed, rng = show
    audiences = {PUBLIC, GM, faction_audience("reptiloids")} | {seat_audience(s.id) for s in state.seats}
    slaves: set[int] = set()
    for _stage in range(MAX_STAGES):
        if state.over:
            break
        state, now_events = at_once(state, rng)
        inputs = privilege_inputs(state, random_inputs(state, rng), rng)
        result = SHOW.resolve(state, inputs, seed=seed, now=NOW)
        assert SHOW.resolve(state, inputs, seed=seed, now=NOW) == result  # the same seed, the same close
        new = result.state
        now_slaves = {s.id for s in new.seats if s.status == SLAVE}
        assert slaves <= now_slaves, "nobody comes back from slavery"
        for event in [*now_events, *result.events]:
            assert event.kind in EVENT_KINDS and event.kind in PUBLIC_KINDS | SECRET_KINDS, event.kind
            assert event.audience in audiences
            if event.kind in SECRET_KINDS:
                assert event.audience != PUBLIC, event.kind
            if event.kind == "night_choices":
                assert not {new.by_name(n).id for n in event.data["choices"]} & slaves
        # each privilege in play has one holder; the carousel moves them, never copies or loses them
        held = [p for ps in new.memory["privileges"].values() for p in ps]
        assert sorted(held) == sorted(PRIVILEGES)
        snakelet = next(int(k) for k, ps in new.memory["privileges"].items() if SNAKELET in ps)
        if new.memory["priv"].get("turned") is None:
            assert new.seat(snakelet).role != "reptiloid"
        for slave in now_slaves:
            assert set(SHOW.allowed_actions(new, slave)) <= set(PRIVILEGE_ACTIONS)
            assert slave not in SHOW.voters(new)
        check_keys(new)
        if "transfers" in result.outcome:  # part 2's money, once merged
            check_transfers(result.outcome["transfers"])
            check_transfers(adjust_transfers(new, [Transfer.from_dict(t) for t in result.outcome["transfers"]]))
        assert GameState.from_json(json.loads(json.dumps(new.to_json()))) == new
        if not new.over:
            assert winner_of(new) is None
            for row in public_status(new)["heroes"]:
                assert row["role"] is None or new.by_name(row["name"]).id in new.memory["revealed"]
        slaves, state = now_slaves, new
    if state.over:
        assert state.winner in {"masons", "reptiloids", "demon", "none"} and winner_of(state) == state.winner


@PROPERTY_SETTINGS
@given(privileged_shows(), st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11), st.integers(1, 500),
                                              st.sampled_from(REASONS)), max_size=30))
def test_privileges_adjust_money_without_creating_coins(show, raw):
    """Hand-made part 2 records through the adjustments: still whole movements between two accounts;
    the Заяц's fees and burdens are gone; a settlement empties exactly what the bank held."""
    state, _seed, _rng = show
    accounts = [hero(s.id) for s in state.seats] + [BANK, POT]
    transfers = [Transfer(accounts[a % len(accounts)], accounts[b % len(accounts)], n, r)
                 for a, b, n, r in raw if a % len(accounts) != b % len(accounts)]
    out = adjust_transfers(state, transfers)
    check_transfers(out)
    hare = next(int(k) for k, ps in state.memory["privileges"].items() if HARE in ps)
    assert not [t for t in out if t.debit == hero(hare) and t.reason in HARE_FREE]
    shares = [Transfer(BANK, hero(s.id), 10 + i, "bank_share") for i, s in enumerate(state.seats[:3])]
    settled = adjust_settlement(state, shares, history=out)
    check_transfers(settled)
    into = sum(t.amount for t in settled if t.credit == BANK)
    assert sum(t.amount for t in settled if t.debit == BANK) == sum(t.amount for t in shares) + into
