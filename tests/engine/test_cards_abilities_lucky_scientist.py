"""The cards rule set, part 2 (c): the overt roles on draws, Hands, damage and armour (seed
001_666f92ca90d279a9.txt, «Явные роли»). One rule case per test; each docstring quotes the seed's
sentence the test enforces; the body plays it through the pure engine."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.events import seat_audience
from games.rulesets.cards.engine.roles import OVERT_ROLES
from tests.engine.test_cards_rules import (
    CARDS,
    DECK,
    FIVE,
    HAND,
    close,
    deck,
    events,
    hand,
    player,
    sid,
    sleeve,
    table,
)

LONG_DECK = ["Кофе", "Письмо", "Совет", "Бинокль", "Анонимка", "Осторожность", "Сделка", "Тайник", "Передышка",
             "Запас", "Нож", "Бункер"]


def opening(overt, cards=None):
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    data = {"Вася": {"overt": overt, "deck": list(cards or LONG_DECK)},
            "Петя": {"deck": list(DECK)}, "Маша": {"deck": list(DECK)}}
    return CARDS.new_game(seats, seed=1, seat_data=data)


# -- Здоровяк ---------------------------------------------------------------------------------------


def test_strongman_draws_one_more_card_at_the_start_of_night_one():
    """Здоровяк: «В начале первой ночи добирает дополнительную 1 карту из Колоды в Руку.»"""
    state, _events = opening("Здоровяк")
    assert state.phase == "night 1"
    assert hand(state, "Вася") == LONG_DECK[:7]
    assert deck(state, "Вася") == LONG_DECK[7:]
    assert len(hand(state, "Петя")) == 6  # everybody else draws six


def test_strongman_draws_seven_when_the_deck_building_closes():
    """Здоровяк: «В начале первой ночи добирает дополнительную 1 карту из Колоды в Руку» — also when the
    deck is built on the site and the deck-building phase closes (the deck shuffled with the seed)."""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    state, _ = CARDS.new_game(seats, seed=1, seat_data={"Вася": {"overt": "Здоровяк"}})
    assert state.phase == "deckbuilding"
    resolution = close(state)  # nobody submits: a legal deck is dealt to each
    after = resolution.state
    assert after.phase == "night 1"
    assert len(hand(after, "Вася")) == 7 and len(hand(after, "Петя")) == 6
    assert len(deck(after, "Вася")) == 15 - 7


# -- Шулер ------------------------------------------------------------------------------------------


def test_card_sharp_draws_one_card_from_his_deck_into_the_sleeve_at_the_start():
    """Шулер: «В начале игры тянет 1 карту из колоды в Рукав» — after the opening Hand, the next card
    of his own deck; it is his deck's card, not one the role gives, so it pays a Price like any."""
    state, _events = opening("Шулер")
    assert hand(state, "Вася") == LONG_DECK[:6]
    assert sleeve(state, "Вася") == [LONG_DECK[6]]
    assert deck(state, "Вася") == LONG_DECK[7:]
    player_ = state.memory["players"][str(sid(state, "Вася"))]
    assert player_["sleeve"] == [{"card": LONG_DECK[6], "overt": False}]
    # It pays the Price of Дробовик (1), which an overt role's card could not.
    state = table(player("Вася", "sheriff", overt="Шулер", deck=list(LONG_DECK), hand=None), *FIVE[1:])
    vasya = sid(state, "Вася")
    play = {"card": "Дробовик", "from": "hand", "target": sid(state, "Петя")}
    state.memory["players"][str(vasya)]["hand"].append("Дробовик")
    assert CARDS.check_play(state, vasya, play) is None


# -- Монах ------------------------------------------------------------------------------------------


def monk_table(monk_hand, monk_deck=("Анонимка", "Тайник", "Запас")):
    return table(player("Вася", "sheriff", overt="Монах", hand=list(monk_hand), deck=list(monk_deck)), *FIVE[1:])


def test_monk_draws_when_the_phase_leaves_him_one_or_two_cards():
    """Монах: «Если по итогам фазы имеет 1 или 2 карты в Руке, тянет карту из Колоды в Руку.» Two
    damage leave him one card: he draws one, the top of his deck."""
    state = table(player("Вася", "sheriff", overt="Монах", hand=["Совет", "Свидетель", "Кофе"],
                         deck=["Анонимка", "Тайник"]),
                  player("Петя", "boss", hand=["Боевое искусство", *HAND]), *FIVE[2:])
    resolution = close(state, plays=[{"by": "Петя", "card": "Боевое искусство", "from": "hand", "target": "Вася"}])
    assert resolution.outcome["damage"] == {"Вася": 2}
    assert hand(resolution.state, "Вася") == ["Кофе", "Анонимка"]
    (report,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(sid(state, "Вася"))]
    assert report.data["low_hand_draw"] == "Анонимка"


def test_monk_counts_his_hand_after_the_replacements_and_draws_only_once():
    """Монах: «Если по итогам фазы имеет 1 или 2 карты в Руке, тянет карту» — counted at the very end
    of the phase, after the replacements: two cards, one played and replaced, is still two, so he
    draws one; then he holds three, and no more is drawn."""
    state = monk_table(["Бункер", "Кофе"])
    after = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}]).state
    assert hand(after, "Вася") == ["Кофе", "Анонимка", "Тайник"]


def test_monk_with_three_or_more_cards_draws_nothing():
    """Монах: only «1 или 2 карты в Руке».»"""
    state = monk_table(["Совет", "Свидетель", "Кофе"])
    after = close(state).state
    assert hand(after, "Вася") == ["Совет", "Свидетель", "Кофе"]


def test_monk_at_zero_cards_dies_and_draws_nothing():
    """«Если у персонажа по итогам фазы становится 0 карт в Руке, то он умирает» — 0 is not «1 или 2»,
    so the Monk's draw never saves an emptied Hand."""
    state = monk_table(["Совет", "Свидетель"])
    resolution = close(state, plays=[{"by": "Петя", "card": "Пистолет", "from": "hand", "target": "Вася"}])
    assert resolution.outcome["dead"] == ["Вася"]
    assert hand(resolution.state, "Вася") == []


def test_monk_draws_mulligan_from_an_empty_deck():
    """Монах «тянет карту из Колоды»; «Пока не собрал, любые эффекты, требующие вытянуть карту из
    колоды, вытягивают вместо этого карту "Маллиган"»."""
    state = monk_table(["Совет"], monk_deck=())
    after = close(state).state
    assert hand(after, "Вася") == ["Совет", "Маллиган"]


# -- Экстрасенс -------------------------------------------------------------------------------------


def test_psychic_sees_the_top_three_cards_of_his_deck_and_nobody_else_does():
    """Экстрасенс: «Всегда видит верхние 3 карты в своей Колоде» — in his view of his cards and in
    the containers he is told at the end of every phase; nobody else's view has them."""
    state = table(player("Вася", "sheriff", overt="Экстрасенс", deck=list(LONG_DECK)), *FIVE[1:])
    vasya, petya = sid(state, "Вася"), sid(state, "Петя")
    assert CARDS.player_view(state, vasya)["deck_top"] == LONG_DECK[:3]
    assert CARDS.deck_top_seen(state, vasya) == LONG_DECK[:3]
    assert "deck_top" not in CARDS.player_view(state, petya) and CARDS.deck_top_seen(state, petya) == []
    # He plays a Hand card: the replacement is drawn, and the top he sees moves on.
    resolution = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}])
    assert CARDS.deck_top_seen(resolution.state, vasya) == LONG_DECK[1:4]
    containers = [e for e in events(resolution, "containers") if "deck_top" in e.data]
    assert [e.audience for e in containers] == [seat_audience(vasya)]
    assert containers[0].data["deck_top"] == LONG_DECK[1:4]


def test_psychic_sees_fewer_when_his_deck_is_short():
    """Экстрасенс «видит верхние 3 карты» — of a deck of two, the two."""
    state = table(player("Вася", "sheriff", overt="Экстрасенс", deck=["Нож", "Кофе"]), *FIVE[1:])
    assert CARDS.deck_top_seen(state, sid(state, "Вася")) == ["Нож", "Кофе"]


# -- Банкир -----------------------------------------------------------------------------------------

# A legal deck for the sheriff and the boss alike (Разведка and Neutral): 15 non-free cards.
REBUILT = ["Камера наблюдения", "Камера наблюдения", "Бинокль", "Бинокль", "Досье", "Досье", "Свидетель",
           "Свидетель", "Аутопсия", "Аутопсия", "Сделка", "Сделка", "Анонимка", "Анонимка", "Осторожность"]


def test_banker_draws_one_card_of_his_rebuilt_deck_into_the_sleeve_in_that_phase():
    """Банкир: «Каждый раз, как пересобирает Колоду взамен закончившейся, в эту же фазу тянет одну
    карту из нее в Рукав.» The rebuilt deck is shuffled with the seed; its top card goes to his
    Sleeve at this close; every other player's rebuild gives nothing of the kind."""
    state = table(player("Вася", "sheriff", overt="Банкир", deck=[]), player("Петя", "boss", deck=[]), *FIVE[2:])
    deck_only = list(REBUILT)
    resolution = close(state, rebuilds={sid(state, "Вася"): list(deck_only), sid(state, "Петя"): list(deck_only)})
    after = resolution.state
    assert len(sleeve(after, "Вася")) == 1 and sleeve(after, "Петя") == []
    assert Counter(sleeve(after, "Вася") + deck(after, "Вася")) == Counter(deck_only)
    assert len(deck(after, "Петя")) == 15
    (report,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(sid(state, "Вася"))]
    assert report.data["rebuild_draw"] == sleeve(after, "Вася")


def test_banker_draws_before_the_hand_is_replaced():
    """Банкир «в эту же фазу тянет одну карту из нее в Рукав»: the card is drawn as the rebuild is
    applied, so the Hand's replacement of this phase is the next card of the new deck."""
    state = table(player("Вася", "sheriff", overt="Банкир", deck=[]), *FIVE[1:])
    deck_only = list(REBUILT)
    resolution = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}],
                       rebuilds={sid(state, "Вася"): list(deck_only)})
    after = resolution.state
    gm_deck = [e for e in resolution.events if e.kind == "deck_rebuilt"][0].data["deck"]
    assert sleeve(after, "Вася") == [gm_deck[0]]
    assert hand(after, "Вася")[-1] == gm_deck[1]


# -- Горец ------------------------------------------------------------------------------------------


def highlander_table():
    return table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "doctor"),
                 player("Глаша", "judge", overt="Горец"), player("Паша", "killer"))


THREE_SHOTS = [{"by": n, "card": "Пистолет", "from": "hand", "target": "Глаша"} for n in ("Вася", "Петя", "Маша")]


def test_highlander_takes_at_most_six_damage_a_night_from_others_cards():
    """Горец: «В одну ночь не может получить более чем 6 урона от чужих карт.» Three pistols (9): he
    takes 6 and discards six cards — his whole Hand of six."""
    state = highlander_table()
    resolution = close(state, plays=THREE_SHOTS)
    assert resolution.outcome["damage"]["Глаша"] == 6
    assert resolution.outcome["dead"] == ["Глаша"]
    (report,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(sid(state, "Глаша"))]
    assert report.data["damage_capped"] == 3


def test_highlanders_cap_comes_before_armour():
    """Горец «не может получить более чем 6 урона»; «Каждая единица брони предотвращает один сброс
    карты из-за урона»: the armour acts on the discards of the damage received, so 9 damage capped
    at 6 with Бункер's 2 armour is 4 discards — the played Бункер not replaced, then three cards."""
    state = highlander_table()
    resolution = close(state, plays=[*THREE_SHOTS, {"by": "Глаша", "card": "Бункер", "from": "hand"}])
    assert resolution.outcome["damage"]["Глаша"] == 6 and resolution.outcome["armour"]["Глаша"] == 2
    assert hand(resolution.state, "Глаша") == ["Камера наблюдения", "Кофе"]
    assert resolution.outcome["dead"] == []


def test_highlanders_own_card_is_not_capped():
    """Горец: the cap is on damage «от чужих карт»: Граната's blast on himself (1) adds to the capped 6."""
    state = highlander_table()
    state.memory["players"][str(sid(state, "Глаша"))]["hand"] = ["Граната", "Совет", "Свидетель", "Кофе", "Бункер",
                                                                 "Нож", "Письмо", "Бинокль"]
    resolution = close(state, plays=[*THREE_SHOTS, {"by": "Глаша", "card": "Граната", "from": "hand",
                                                    "target": "Паша"}])
    assert resolution.outcome["damage"]["Глаша"] == 7


def test_highlander_is_not_capped_by_day():
    """Горец: «В одну ночь» — by day the cap does not hold (here the GM's 8 damage by day)."""
    state = highlander_table()
    day = close(state).state
    resolution = close(day, gm={"damage": {"Глаша": 8}})
    assert resolution.outcome["damage"]["Глаша"] == 8
    night = close(highlander_table(), gm={"damage": {"Глаша": 8}})
    assert night.outcome["damage"]["Глаша"] == 6  # the GM's damage counts «as if a card had done it»


# -- Лентяй -----------------------------------------------------------------------------------------


def lazy_table():
    return table(player("Вася", "sheriff", overt="Лентяй"), player("Петя", "boss", sleeve=["Наручники"]), *FIVE[2:])


def test_idler_who_plays_no_card_at_night_gets_three_armour():
    """Лентяй: «Если не играет карт ночью, получает 3 брони.» Four damage leave one discard."""
    state = lazy_table()
    resolution = close(state, plays=[{"by": "Петя", "card": "Пистолет", "from": "hand", "target": "Вася"}],
                       gm={"damage": {"Вася": 1}})
    assert resolution.outcome["armour"] == {"Вася": 3} and resolution.outcome["damage"] == {"Вася": 4}
    assert hand(resolution.state, "Вася") == HAND[1:]


def test_idler_who_plays_a_card_gets_no_armour():
    """Лентяй: only «Если не играет карт ночью»: a played card (blocked or not) costs the armour."""
    state = lazy_table()
    played = close(state, plays=[{"by": "Вася", "card": "Совет", "from": "hand", "target": "Петя"}])
    assert "Вася" not in played.outcome["armour"]
    blocked = close(state, plays=[{"by": "Вася", "card": "Совет", "from": "hand", "target": "Петя"},
                                  {"by": "Петя", "card": "Наручники", "from": "sleeve", "target": "Вася"}],
                    )
    assert "Вася" not in blocked.outcome["armour"]


def test_idler_keeps_the_armour_when_his_play_is_refused_or_he_discards():
    """Лентяй: a refused play is no play; the night's two-card discard is «вместо того, чтобы играть
    карты» — not playing — so the 3 armour stands."""
    state = lazy_table()
    refused = close(state, plays=[{"by": "Вася", "card": "Снайперская винтовка", "from": "hand", "target": "Петя"}])
    assert refused.outcome["armour"] == {"Вася": 3}
    discarded = close(state, discards={"Вася": ["Совет", "Кофе"]})
    assert discarded.outcome["armour"] == {"Вася": 3}


def test_idler_gets_no_armour_by_day():
    """Лентяй: «ночью» only."""
    day = close(lazy_table()).state
    assert close(day).outcome["armour"] == {}


# -- Воин -------------------------------------------------------------------------------------------


def warrior_table(**kw):
    return table(player("Вася", "sheriff", overt="Воин", **kw), player("Петя", "boss", sleeve=["Нож"]), *FIVE[2:])


def test_warrior_moves_his_first_two_damage_discards_to_the_sleeve():
    """Воин: «Первые две карты за игру, которые сбрасывает из Руки из-за урона, вместо этого переносит
    в Рукав.» Three damage: the first two cards of his Hand go to his Sleeve, the third is discarded."""
    state = warrior_table()
    resolution = close(state, plays=[{"by": "Петя", "card": "Пистолет", "from": "hand", "target": "Вася"}])
    after = resolution.state
    assert hand(after, "Вася") == HAND[3:]
    assert sleeve(after, "Вася") == ["Пистолет", "Бункер"]
    assert after.memory["players"][str(sid(after, "Вася"))]["graveyard"] == ["Совет"]
    (report,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(sid(state, "Вася"))]
    assert report.data["to_sleeve"] == ["Пистолет", "Бункер"] and report.data["discarded"] == ["Совет"]


def test_warrior_saves_only_two_cards_a_game():
    """Воин: «Первые две карты за игру» — one saved on night 1, one more on night 2, then none."""
    state = warrior_table(deck=[])
    night1 = close(state, plays=[{"by": "Петя", "card": "Нож", "from": "sleeve", "target": "Вася"}],
                   ).state
    assert sleeve(night1, "Вася") == ["Пистолет"]
    day1 = close(night1).state
    night2 = close(day1, plays=[{"by": "Петя", "card": "Пистолет", "from": "hand", "target": "Вася"}]).state
    # Night 1's Нож: Пистолет saved, no replacement. Night 2's Пистолет (3): Бункер saved, Совет and
    # Свидетель discarded.
    assert sleeve(night2, "Вася") == ["Пистолет", "Бункер"]
    assert hand(night2, "Вася") == HAND[4:]
    assert night2.memory["players"][str(sid(night2, "Вася"))]["graveyard"] == ["Совет", "Свидетель"]


def test_warrior_replacements_not_drawn_are_not_discards():
    """«Если он играет карты из Руки в эту фазу, то вместо сброса карт он просто не добирает новых»:
    that is no discard from the Hand, so the Воин's two are not spent on it."""
    state = warrior_table()
    after = close(state, plays=[{"by": "Вася", "card": "Совет", "from": "hand", "target": "Петя"},
                                {"by": "Петя", "card": "Нож", "from": "sleeve", "target": "Вася"}]).state
    assert sleeve(after, "Вася") == []
    assert after.memory["players"][str(sid(after, "Вася"))].get("to_sleeve", 0) == 0


def test_warrior_executed_moves_two_of_the_six():
    """Воин under the Veche's execution («получает 6 урона, если была выбрана казнь»): two cards go to
    his Sleeve, four are discarded; with seven in Hand he keeps one and lives."""
    state = warrior_table(hand=HAND + ["Нож"])
    day = close(state).state
    votes = {n: "Вася" for n in ("Петя", "Маша", "Глаша", "Паша")}
    resolution = close(day, votes=votes, measures={n: "execution" for n in votes})
    assert resolution.outcome["executed"] == ["Вася"]
    assert sleeve(resolution.state, "Вася") == ["Пистолет", "Бункер"]
    assert hand(resolution.state, "Вася") == ["Нож"]
    assert resolution.outcome["dead"] == []


def test_warrior_whose_hand_empties_dies_though_the_cards_went_to_the_sleeve():
    """«Если у персонажа по итогам фазы становится 0 карт в Руке, то он умирает» — the Воин's cards
    leave the Hand all the same («переносит в Рукав»)."""
    state = warrior_table(hand=["Совет", "Кофе"])
    resolution = close(state, plays=[{"by": "Петя", "card": "Пистолет", "from": "hand", "target": "Вася"}])
    assert resolution.outcome["dead"] == ["Вася"]
    assert sleeve(resolution.state, "Вася") == ["Совет", "Кофе"]


# -- the registry -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Здоровяк", "Шулер", "Монах", "Экстрасенс", "Банкир", "Горец", "Лентяй", "Воин"])
def test_these_overt_roles_are_marked_implemented(name):
    """«Каждая Явная роль получает особое игровое преимущество» — these eight are in the engine."""
    assert OVERT_ROLES[name].implemented


# -- Везунчик (at once) -----------------------------------------------------------------------------


def lucky_table():
    return table(player("Вася", "sheriff", overt="Везунчик", deck=list(LONG_DECK)), *FIVE[1:])


def test_lucky_sends_back_his_six_reshuffles_and_draws_six_again_at_once():
    """Везунчик: «В первую ночь может до двух раз отменить пришедшие ему 6 карт, перемешать колоду, и
    набрать 6 карт снова» — at once: his Hand goes back into his deck, the deck is shuffled with the
    seed, and he draws six; the same seed gives the same Hand."""
    state = lucky_table()
    vasya = sid(state, "Вася")
    before = hand(state, "Вася") + deck(state, "Вася")
    acted = CARDS.act_now(state, vasya, "lucky_redraw", {}, seed=5)
    assert acted.reason is None
    after = acted.state
    assert len(hand(after, "Вася")) == 6
    assert Counter(hand(after, "Вася") + deck(after, "Вася")) == Counter(before)
    assert acted.result["returned"] == HAND and acted.result["hand"] == hand(after, "Вася")
    assert acted.result["left"] == 1
    again = CARDS.act_now(state, vasya, "lucky_redraw", {}, seed=5)
    assert hand(again.state, "Вася") == hand(after, "Вася") and deck(again.state, "Вася") == deck(after, "Вася")
    other = CARDS.act_now(state, vasya, "lucky_redraw", {}, seed=6)
    assert (hand(other.state, "Вася"), deck(other.state, "Вася")) != (hand(after, "Вася"), deck(after, "Вася"))
    # The player is told, and the GM's log says it acted at once.
    assert {e.audience for e in acted.events if e.kind == "ability"} == {seat_audience(vasya), "gm"}
    assert all(e.data["at_once"] for e in acted.events if e.kind == "ability")


def test_lucky_redraws_at_most_twice():
    """Везунчик: «до двух раз» — the third is refused and changes nothing."""
    state = lucky_table()
    vasya = sid(state, "Вася")
    for seed in (1, 2):
        acted = CARDS.act_now(state, vasya, "lucky_redraw", {}, seed=seed)
        assert acted.reason is None
        state = acted.state
    third = CARDS.act_now(state, vasya, "lucky_redraw", {}, seed=3)
    assert third.reason == "used_up" and third.state is state and third.events == ()
    assert "lucky_redraw" not in CARDS.abilities_available(state, vasya)


def test_lucky_redraws_only_on_the_first_night():
    """Везунчик: «В первую ночь» — by day 1 and on night 2 it is refused; nobody else has it."""
    state = lucky_table()
    vasya = sid(state, "Вася")
    assert "lucky_redraw" in CARDS.abilities_available(state, vasya)
    assert "lucky_redraw" not in CARDS.abilities_available(state, sid(state, "Петя"))
    assert CARDS.check_ability(state, sid(state, "Петя"), "lucky_redraw", {}) == "not_your_ability"
    day = close(state).state
    assert CARDS.check_ability(day, vasya, "lucky_redraw", {}) == "wrong_phase"
    night2 = close(day).state
    assert CARDS.check_ability(night2, vasya, "lucky_redraw", {}) == "first_night_only"
    assert "lucky_redraw" not in CARDS.abilities_available(night2, vasya)


def test_lucky_redraw_leaves_a_stale_play_refused_at_the_close():
    """«Заявки на игру карт можно менять сколько угодно, вплоть до наступления дедлайна» — a play of a
    card that the redraw took out of his Hand no longer stands: the close refuses it."""
    state = lucky_table()
    vasya = sid(state, "Вася")
    after = CARDS.act_now(state, vasya, "lucky_redraw", {}, seed=5).state
    gone = next(c for c in HAND if c not in hand(after, "Вася") and c in ("Бункер", "Кофе", "Совет"))
    target = {"Совет": "Петя"}.get(gone)
    resolution = close(after, plays=[{"by": "Вася", "card": gone, "from": "hand",
                                      **({"target": target} if target else {})}])
    play = [e for e in resolution.events if e.kind == "play"][0].data
    assert play["result"] == "refused" and play["reason"] == "not_in_hand"
    assert resolution.outcome["abilities"] == {"Вася": ["lucky_redraw"]}


# -- Учёный (at the close) --------------------------------------------------------------------------


def scientist_table(**kw):
    return table(player("Вася", "sheriff", overt="Учёный", deck=list(LONG_DECK), **kw),
                 player("Петя", "boss", sleeve=["Нож"]), *FIVE[2:])


def test_scientist_discards_two_and_redraws_even_while_playing():
    """Учёный: «Раз за игру, ночью может сбросить две карты из руки, добирая на замену, даже если
    играет какие-нибудь карты.» He plays Бункер and discards Совет and Кофе: three replacements."""
    state = scientist_table()
    resolution = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}],
                       abilities=[{"by": sid(state, "Вася"), "ability": "scientist_discard",
                                   "cards": ["Совет", "Кофе"]}])
    after = resolution.state
    assert hand(after, "Вася") == ["Пистолет", "Свидетель", "Камера наблюдения", *LONG_DECK[:3]]
    assert resolution.outcome["armour"] == {"Вася": 2}
    assert resolution.outcome["abilities"] == {"Вася": ["scientist_discard"]}
    (report,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(sid(state, "Вася"))]
    assert report.data["abilities"] == [{"ability": "scientist_discard", "result": "done", "reason": None,
                                         "cards": ["Совет", "Кофе"]}]


def test_the_ordinary_night_discard_still_excludes_playing():
    """«Ночью, вместо того, чтобы играть карты, можно сбросить две карты из Руки» — for everybody else
    (and for the Учёный's ordinary discard) a play and the discard never stand together."""
    state = scientist_table()
    resolution = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}],
                       discards={"Вася": ["Совет", "Кофе"]})
    assert "Совет" in hand(resolution.state, "Вася")
    discard = [e for e in resolution.events if e.kind == "discard"][0].data
    assert discard["result"] == "refused" and discard["reason"] == "played_instead"


def test_scientist_discards_once_a_game_and_only_at_night():
    """Учёный: «Раз за игру, ночью»."""
    state = scientist_table()
    vasya = sid(state, "Вася")
    use = [{"by": vasya, "ability": "scientist_discard", "cards": ["Совет", "Кофе"]}]
    night1 = close(state, abilities=use).state
    assert CARDS.check_ability(night1, vasya, "scientist_discard", {"cards": ["Пистолет", "Бункер"]}) == "wrong_phase"
    night2 = close(night1).state
    assert CARDS.check_ability(night2, vasya, "scientist_discard", {"cards": ["Пистолет", "Бункер"]}) == "used_up"
    again = close(night2, abilities=[{"by": vasya, "ability": "scientist_discard", "cards": ["Пистолет", "Бункер"]}])
    assert "Пистолет" in hand(again.state, "Вася")
    assert again.outcome["abilities"] == {"Вася": ["scientist_discard: used_up"]}


def test_scientist_cannot_discard_the_card_he_plays_from_the_hand():
    """The Hand card he plays has left his Hand when the discard is taken: naming it refuses the
    discard (`discard_not_in_hand`), and the play stands."""
    state = scientist_table()
    resolution = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}],
                       abilities=[{"by": sid(state, "Вася"), "ability": "scientist_discard",
                                   "cards": ["Бункер", "Кофе"]}])
    assert resolution.outcome["abilities"] == {"Вася": ["scientist_discard: discard_not_in_hand"]}
    assert "Кофе" in hand(resolution.state, "Вася") and resolution.outcome["armour"] == {"Вася": 2}
    # and the use is not spent
    assert CARDS.check_ability(close(resolution.state).state, sid(state, "Вася"), "scientist_discard",
                               {"cards": ["Кофе", "Свидетель"]}) is None


def test_scientists_replacements_are_cancelled_first_by_damage():
    """«Если он играет карты из Руки в эту фазу, то вместо сброса карт он просто не добирает новых»:
    his two discarded cards count as already discarded, so Петя's Нож (1) takes one replacement."""
    state = scientist_table()
    resolution = close(state, plays=[{"by": "Петя", "card": "Нож", "from": "sleeve", "target": "Вася"}],
                       abilities=[{"by": sid(state, "Вася"), "ability": "scientist_discard",
                                   "cards": ["Совет", "Кофе"]}])
    assert hand(resolution.state, "Вася") == ["Пистолет", "Бункер", "Свидетель", "Камера наблюдения", LONG_DECK[0]]


def test_scientist_may_add_his_discard_to_the_ordinary_one():
    """Учёный's discard is his own («даже если играет»), beside the ordinary one («Ночью, вместо того,
    чтобы играть карты, можно сбросить две карты из Руки»): on a night he plays nothing he may make
    both, four cards, each replaced."""
    state = scientist_table()
    resolution = close(state, discards={"Вася": ["Пистолет", "Бункер"]},
                       abilities=[{"by": sid(state, "Вася"), "ability": "scientist_discard",
                                   "cards": ["Совет", "Кофе"]}])
    assert hand(resolution.state, "Вася") == ["Свидетель", "Камера наблюдения", *LONG_DECK[:4]]
    assert resolution.outcome["abilities"] == {"Вася": ["scientist_discard"]}
