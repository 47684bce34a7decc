"""Issue 17, helper A: the abilities' registry (at once and at the phase's end) and the abilities of
the maniac, the geek, the marauder and the joker's list, through the pure engine. Each rule test
quotes the seed's sentence (001_666f92ca90d279a9.txt) it implements."""

from __future__ import annotations

from tests.engine.test_cards_rules import CARDS, close, events, hand, player, sid, sleeve, table

SWAP = "maniac_swap"


def trio(maniac_hand=None, maniac_sleeve=None, **kw):
    return table(
        player("Вася", "sheriff"),
        player("Петя", "boss"),
        player("Маша", "maniac", hand=maniac_hand or ["Пистолет", "Кофе", "Письмо", "Совет"],
               sleeve=maniac_sleeve if maniac_sleeve is not None else ["Бункер", "Тайник"]),
        **kw,
    )


# -- the registry ----------------------------------------------------------------------------------


def test_an_ability_is_only_its_holders_and_only_while_he_lives():
    state = trio()
    assert CARDS.check_ability(state, sid(state, "Вася"), SWAP, {"card": "Кофе", "sleeve_card": "Бункер"}) \
        == "not_your_ability"
    assert CARDS.check_ability(state, sid(state, "Маша"), "no_such", {}) == "no_such_ability"
    assert SWAP in CARDS.abilities_available(state, sid(state, "Маша"))
    assert SWAP not in CARDS.abilities_available(state, sid(state, "Вася"))


def test_a_refused_at_once_ability_changes_nothing():
    state = trio()
    result = CARDS.act_now(state, sid(state, "Маша"), SWAP, {"card": "Нож", "sleeve_card": "Бункер"}, seed=3)
    assert result.reason == "not_in_hand"
    assert result.state is state and result.events == ()


def test_act_now_is_deterministic_and_leaves_the_old_state_alone():
    state = trio()
    data = {"card": "Пистолет", "sleeve_card": "Бункер"}
    first = CARDS.act_now(state, sid(state, "Маша"), SWAP, data, seed=5)
    second = CARDS.act_now(state, sid(state, "Маша"), SWAP, data, seed=5)
    assert first.state.to_json() == second.state.to_json()
    assert hand(state, "Маша")[0] == "Пистолет"  # the old state is untouched


# -- the maniac ------------------------------------------------------------------------------------


def test_maniac_swaps_a_hand_card_and_a_sleeve_card_at_once():
    """«Маньяк ... Может в любой момент мгновенно поменять местами карту из Руки и карту из Рукава»:
    the swap acts there and then (not at the phase's end), the Sleeve card taking the Hand card's
    place in the Hand order; the GM's log says it acted at once, the maniac is told his containers."""
    state = trio()
    maniac = sid(state, "Маша")
    result = CARDS.act_now(state, maniac, SWAP, {"card": "Пистолет", "sleeve_card": "Бункер"}, seed=1)
    assert result.reason is None
    assert hand(result.state, "Маша") == ["Бункер", "Кофе", "Письмо", "Совет"]
    assert sleeve(result.state, "Маша") == ["Пистолет", "Тайник"]
    told = [e for e in result.events if e.kind == "ability" and e.audience == f"seat:{maniac}"]
    logged = [e for e in result.events if e.kind == "ability" and e.audience == "gm"]
    assert told and logged and logged[0].data["at_once"] is True
    assert told[0].data["hand"] == ["Бункер", "Кофе", "Письмо", "Совет"]
    # The swapped card is played from the Sleeve in the same phase; the close shows the whole phase.
    after = close(result.state, plays=[{"by": "Маша", "card": "Пистолет", "from": "sleeve", "target": "Петя"}])
    assert after.outcome["damage"] == {"Петя": 3}
    assert after.outcome["hands"]["Маша"] == ["Бункер", "Кофе", "Письмо", "Совет"]
    assert after.outcome["abilities"] == {"Маша": [SWAP]}


def test_maniac_swap_is_refused_for_a_card_he_does_not_hold_and_by_the_dead():
    state = trio(maniac_sleeve=[])
    maniac = sid(state, "Маша")
    assert CARDS.check_ability(state, maniac, SWAP, {"card": "Кофе", "sleeve_card": "Бункер"}) == "not_in_sleeve"
    assert SWAP not in CARDS.abilities_available(state, maniac)  # nothing to swap: not offered
    dead = close(trio(), gm={"damage": {"Маша": 9}}).state
    assert CARDS.check_ability(dead, sid(dead, "Маша"), SWAP, {"card": "Кофе", "sleeve_card": "Бункер"}) \
        == "not_alive"
    assert events(close(dead), "ability") == []
