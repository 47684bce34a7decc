"""The panel's offers are the engine's rule (issue 28, item 3; docs/rulesets/show.md, "The panel's
offers"): over random shows with every privilege, the carousel, bets and alliances, at every stage
and for every hero, every choice the menu offers the engine accepts, and every choice the engine
accepts (among the heroes, a stale id, the ballot words, none, the Хакер's guesses) is on the menu."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings

from games.engine.orders import PhaseInputs
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.menu import ACTIONS, GUESS_FIELDS, WORDS, pairs
from tests.engine.show_helpers import NOW
from tests.engine.test_show_privilege_properties import at_once, privilege_inputs, privileged_shows
from tests.engine.test_show_properties import MAX_STAGES, random_inputs

# Every hero, every action and every candidate at every stage: fewer shows than the other properties.
MENU_SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def with_part_two(state, inputs: PhaseInputs, rng: random.Random) -> PhaseInputs:
    """Random sympathies, raises and bets on top (so the «Выбор Союзника» stage has menus)."""
    ids = [s.id for s in state.seats]
    extra = dict(inputs.extra)
    extra["sympathies"] = {h: rng.choice([*ids, 99]) for h in ids if rng.random() < 0.6}
    extra["raise"] = [h for h in ids if rng.random() < 0.3]
    extra["bets"] = {h: rng.choice(ids) for h in ids if rng.random() < 0.3}
    extra["ally_picks"] = {h: rng.choice(ids) for h in ids if rng.random() < 0.5}
    return PhaseInputs(votes=inputs.votes, orders=inputs.orders, extra=extra)


def every_choice(state) -> list:
    """More than any menu offers: the heroes, an id nobody holds, words, none, guesses of any number."""
    seats = [s.id for s in state.seats]
    count = int(state.memory.get("knowledge_count", 0))
    guesses = [(n, f, s) for n in range(count + 2) for f in GUESS_FIELDS for s in [*seats, 99]]
    return [*seats, 99, *WORDS, "peace", None, *guesses]


def check_menus(state, inputs: PhaseInputs, fakes_used: int) -> None:
    choices = every_choice(state)
    for seat in state.seats:
        offers = SHOW.menu(state, seat.id, inputs, fakes_used=fakes_used)
        offered = pairs(offers)
        for action, choice in offered:
            assert SHOW.check_input(state, seat.id, action, choice, inputs, fakes_used=fakes_used) is None, \
                (state.phase, seat.id, action, choice)
        for action in ACTIONS:
            for choice in choices:
                if SHOW.check_input(state, seat.id, action, choice, inputs, fakes_used=fakes_used) is None:
                    assert (action, choice) in offered, (state.phase, seat.id, action, choice)
        # a slave is offered no free hero's choice (a Talent's vote and his privileges' actions only)
        if not seat.is_active:
            assert not set(offers) & {"request_opinion", "suspect", "save", "relieve", "enslave", "spare",
                                      "question", "public_key", "extra_knowledge", "use_knowledge", "lull",
                                      "exclude"}


@MENU_SETTINGS
@given(privileged_shows())
def test_every_offer_is_accepted_and_every_accepted_choice_is_offered(show):
    state, seed, rng = show
    for _stage in range(MAX_STAGES):
        if state.over:
            break
        state, _events = at_once(state, rng)
        inputs = with_part_two(state, privilege_inputs(state, random_inputs(state, rng), rng), rng)
        check_menus(state, inputs if rng.random() < 0.7 else PhaseInputs(), rng.randint(0, 6))
        state = SHOW.resolve(state, inputs, seed=seed, now=NOW).state


def test_the_saviours_spent_public_key_and_himself_are_not_offered():
    """«Спаситель один раз за Шоу может ночью добавить о ком-то один публичный Ключ»: once spent, the
    public key's select is gone from his night form; a Mason is never offered himself to suspect,
    and a slave is never offered to suspect, save or enslave (relief takes slaves only)."""
    from dataclasses import replace

    from tests.engine.show_helpers import day1, enslaved, sid

    state = replace(enslaved(day1(), "Вера"), phase="night 1")
    zhora, anya, vera = sid(state, "Жора"), sid(state, "Аня"), sid(state, "Вера")
    menu = SHOW.menu(state, zhora)
    assert "public_key" in menu and vera not in menu["save"] and menu["relieve"] == (vera,)
    assert anya not in SHOW.menu(state, anya)["suspect"] and vera not in SHOW.menu(state, anya)["suspect"]
    spent = replace(state, memory={**state.memory, "saviour": {**state.memory["saviour"], "key_used": True}})
    assert "public_key" not in SHOW.menu(spent, zhora)
    assert SHOW.check_input(spent, zhora, "public_key", anya) == "key_used"
