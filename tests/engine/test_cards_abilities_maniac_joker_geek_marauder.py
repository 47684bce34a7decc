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


STRIKE = "maniac_strike"


def strike(state, **data):
    return {"by": sid(state, "Маша"), "ability": STRIKE,
            **{k: (sid(state, v) if k == "target" else v) for k, v in data.items()}}


def test_maniac_discards_a_sleeve_card_at_night_for_two_damage():
    """«Ночью может сбросить карту из Рукава и нанести 2 урона или получить 3 брони.» — at the
    night's end, with the cards' damage."""
    state = trio(maniac_sleeve=["Тайник"])
    result = close(state, abilities=[strike(state, card="Тайник", mode="damage", target="Петя")])
    assert result.outcome["damage"] == {"Петя": 2}
    assert sleeve(result.state, "Маша") == []
    assert result.outcome["abilities"] == {"Маша": [STRIKE]}
    report = [e for e in events(result, "phase_report") if e.data["name"] == "Маша"][0].data
    assert report["abilities"][0]["target_name"] == "Петя" and report["abilities"][0]["result"] == "done"


def test_maniac_discards_a_sleeve_card_at_night_for_three_armour():
    """«... или получить 3 брони»: the armour counts against the night's damage."""
    state = trio(maniac_sleeve=["Тайник"])
    result = close(state, abilities=[strike(state, card="Тайник", mode="armour")], gm={"damage": {"Маша": 3}})
    assert result.outcome["armour"] == {"Маша": 3}
    assert result.outcome["hands"].get("Маша") is None  # nothing discarded from his Hand


def test_maniac_strike_is_a_night_power_and_needs_its_card_at_the_close():
    """«Ночью может ...»: refused by day; the last one he sent counts; a card spent on a play that
    night is no longer there to discard."""
    state = trio(maniac_sleeve=["Пистолет"])
    maniac = sid(state, "Маша")
    day = close(state).state
    assert CARDS.check_ability(day, maniac, STRIKE, {"card": "Пистолет", "mode": "armour"}) == "wrong_phase"
    assert CARDS.check_ability(state, maniac, STRIKE, {"card": "Пистолет", "mode": "damage",
                                                       "target": maniac}) == "self_target"
    spent = close(state, plays=[{"by": "Маша", "card": "Пистолет", "from": "sleeve", "target": "Петя"}],
                  abilities=[strike(state, card="Тайник", mode="armour"),
                             strike(state, card="Пистолет", mode="armour")])
    assert spent.outcome["abilities"] == {"Маша": [f"{STRIKE}: not_in_sleeve"]}
    assert spent.outcome["armour"] == {}


def test_a_character_the_maniac_damaged_dies_and_he_draws_two_into_the_sleeve():
    """«Если персонаж, по которому Маньяк наносил урон ночью, умер по ее итогам, то Маньяк также
    тянет 2 карты из Колоды в Рукав.»"""
    state = table(player("Вася", "sheriff"), player("Петя", "boss", hand=["Кофе", "Письмо"]),
                  player("Маша", "maniac", hand=["Пистолет", "Кофе"], sleeve=[], deck=["Сделка", "Бинокль", "Запас"]),
                  player("Глаша", "doctor", hand=["Аптечка", "Кофе"]))
    killed = close(state, plays=[{"by": "Маша", "card": "Пистолет", "from": "hand", "target": "Петя"}])
    assert killed.outcome["dead"] == ["Петя"]
    # the Hand replacement comes first («Сделка»), then the kill's two cards into the Sleeve
    assert sleeve(killed.state, "Маша") == ["Бинокль", "Запас"]
    report = [e for e in events(killed, "phase_report") if e.data["name"] == "Маша"][0].data
    assert report["kill_draws"] == [{"victim": "Петя", "cards": ["Бинокль", "Запас"]}]
    # The doctor's armour saves him: no death, no draw.
    saved = close(state, plays=[{"by": "Маша", "card": "Пистолет", "from": "hand", "target": "Петя"},
                                {"by": "Глаша", "card": "Аптечка", "from": "hand", "target": "Петя"}])
    assert saved.outcome["dead"] == [] and sleeve(saved.state, "Маша") == []


def test_the_kill_draw_is_a_nights_rule_and_only_for_the_maniacs_own_damage():
    state = table(player("Вася", "sheriff", hand=["Пистолет", "Кофе"]), player("Петя", "boss", hand=["Кофе"]),
                  player("Маша", "maniac", hand=["Кофе", "Письмо"], sleeve=[], deck=["Сделка", "Бинокль"]))
    other = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Петя"}])
    assert other.outcome["dead"] == ["Петя"] and sleeve(other.state, "Маша") == []


# -- the geek --------------------------------------------------------------------------------------

GEEK = "geek_card"
DECK = ["Кофе", "Письмо", "Совет", "Бинокль", "Анонимка", "Осторожность", "Сделка", "Тайник", "Передышка", "Запас"]


def test_geek_draws_five_cards_at_the_start_of_the_first_night():
    """Гик: «В начале первой ночи набирает в Руку 5 карт, вместо 6.»"""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    data = {"Вася": {"overt": "Гик", "deck": list(DECK)}, "Петя": {"deck": list(DECK)}, "Маша": {"deck": list(DECK)}}
    state, _events = CARDS.new_game(seats, seed=1, seat_data=data)
    assert len(hand(state, "Вася")) == 5 and len(hand(state, "Петя")) == 6


def test_geek_takes_any_card_of_the_collection_into_the_sleeve_once_a_game():
    """Гик: «Один раз за игру в любой момент может получить в Рукав любую карту, на выбор.» At once;
    the card came from the overt role, so «нельзя сбрасывать на оплату Цены»."""
    state = table(player("Вася", "sheriff", overt="Гик", hand=["Дробовик", "Кофе"], sleeve=[]),
                  player("Петя", "boss"), player("Маша", "doctor"))
    geek = sid(state, "Вася")
    assert CARDS.check_ability(state, geek, GEEK, {"card": "Нет такой"}) == "unknown_card"
    assert CARDS.check_ability(state, sid(state, "Петя"), GEEK, {"card": "Кофе"}) == "not_your_ability"
    result = CARDS.act_now(state, geek, GEEK, {"card": "Снайперская винтовка"}, seed=1)
    assert sleeve(result.state, "Вася") == ["Снайперская винтовка"]
    assert CARDS.check_play(result.state, geek, {"card": "Дробовик", "from": "hand",
                                                 "target": sid(state, "Петя")}) == "cannot_pay"
    assert CARDS.check_ability(result.state, geek, GEEK, {"card": "Кофе"}) == "used_up"
    day = close(result.state).state
    assert CARDS.check_ability(day, geek, GEEK, {"card": "Кофе"}) == "used_up"  # once a game, not a phase


# -- the marauder ----------------------------------------------------------------------------------

MARAUDER = "marauder_copy"


def test_marauder_copies_a_dead_characters_sleeve_at_once_once_a_game():
    """Мародер: «Один раз за игру может мгновенно выбрать мертвого персонажа и получить копии всех
    карт из его Рукава себе в Рукав.»"""
    state = table(player("Вася", "sheriff", overt="Мародёр", sleeve=["Кофе"]),
                  player("Петя", "boss", hand=["Кофе"], sleeve=["Бункер", "Тайник"]), player("Маша", "doctor"),
                  player("Глаша", "killer"))
    marauder, petya = sid(state, "Вася"), sid(state, "Петя")
    assert CARDS.check_ability(state, marauder, MARAUDER, {"target": petya}) == "target_not_dead"
    assert MARAUDER not in CARDS.abilities_available(state, marauder)  # nobody is dead yet
    dead = close(state, gm={"damage": {"Петя": 1}}).state
    assert dead.seat(petya).status == "dead"
    assert MARAUDER in CARDS.abilities_available(dead, marauder)
    result = CARDS.act_now(dead, marauder, MARAUDER, {"target": petya}, seed=2)
    assert result.reason is None
    assert sleeve(result.state, "Вася") == ["Кофе", "Бункер", "Тайник"]
    assert sleeve(result.state, "Петя") == ["Бункер", "Тайник"]  # copies: his own Sleeve stays
    copies = result.state.memory["players"][str(marauder)]["sleeve"][1:]
    assert all(item["overt"] for item in copies)  # added by the overt role: they do not pay a Price
    assert CARDS.check_ability(result.state, marauder, MARAUDER, {"target": petya}) == "used_up"


# -- the joker's list, judged at once --------------------------------------------------------------

LIST = "joker_list"


def joker_table():
    return table(player("Шут", "joker", colours=["damage", "recon"]),  # «получает одну карту Туз в рукав»
                 player("Вася", "sheriff", sleeve=["Туз"]), player("Петя", "boss"), player("Маша", "doctor"))


def roles_of(state, **names):
    return {str(sid(state, n)): r for n, r in names.items()}


def test_joker_right_list_wins_at_once():
    """Джокер: «В любой момент может написать ... список соответствия Явных и Тайных ролей всех
    игроков. Если все роли угаданы верно, побеждает моментально.» The game ends there, not at the
    phase's end."""
    state = joker_table()
    joker = sid(state, "Шут")
    result = CARDS.act_now(state, joker, LIST, {"roles": roles_of(state, Вася="sheriff", Петя="boss", Маша="doctor")},
                           seed=1)
    assert result.state.over and result.state.winner == "joker"
    kinds = [e.kind for e in result.events]
    assert "joker_won" in kinds and "game_over" in kinds
    (over,) = [e for e in result.events if e.kind == "game_over"]
    assert [w["name"] for w in over.data["winners"]] == ["Шут"]


def test_joker_wrong_list_leaves_the_game_and_every_ace_vanishes_at_once():
    """«Иначе покидает игру, и все карты Туз исчезают.»"""
    state = joker_table()
    joker = sid(state, "Шут")
    assert CARDS.check_ability(state, joker, LIST, {"roles": roles_of(state, Вася="sheriff")}) == "bad_guess"
    result = CARDS.act_now(state, joker, LIST, {"roles": roles_of(state, Вася="sheriff", Петя="doctor", Маша="boss")},
                           seed=1)
    assert not result.state.over
    assert result.state.seat(joker).status == "left"
    assert sleeve(result.state, "Вася") == [] and sleeve(result.state, "Шут") == []
    (left,) = [e for e in result.events if e.kind == "joker_left"]
    assert left.audience == "public" and left.data["aces_vanished"] == 2
    # The game goes on without him.
    assert CARDS.check_ability(result.state, joker, LIST, {}) == "not_alive"
    assert not close(result.state).state.over
