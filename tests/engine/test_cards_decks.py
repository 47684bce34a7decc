"""Deck rules of the `cards` rule set (seed 001_666f92ca90d279a9.txt): validate_deck returns every
refusal with its reason code and the cards involved, one test per refusal.

«Требования к колоде: 15 несвободных карт, 0-3 свободных карт. Не больше 2 копий одной карты. Карт
цветов, не соответствующих роли и не нейтральных, можно взять не более 2 в сумме.»"""

from __future__ import annotations

from games.rulesets.cards.engine import default_collection, validate_deck

COLLECTION = default_collection()

# The sheriff (Урон, Разведка): 15 non-free cards of his colours and Neutral, two copies at most.
SHERIFF_DECK = [
    "Пистолет", "Пистолет", "Боевое искусство", "Боевое искусство", "Дробовик", "Дробовик",
    "Камера наблюдения", "Камера наблюдения", "Свидетель", "Свидетель", "Досье", "Досье",
    "Бинокль", "Анонимка", "Осторожность",
]


def codes(refusals):
    return [r.code for r in refusals]


def check(deck, role="sheriff", **kw):
    return validate_deck(deck, role=role, collection=COLLECTION, **kw)


def only(refusals, code):
    (refusal,) = [r for r in refusals if r.code == code]
    return refusal


def test_legal_deck_has_no_refusal():
    assert check(SHERIFF_DECK) == []
    assert check(SHERIFF_DECK + ["Нож", "Прослушка", "Запас"]) == []  # «0-3 свободных карт»


def test_deck_needs_fifteen_non_free_cards():
    """«15 несвободных карт»"""
    refusal = only(check(SHERIFF_DECK[:-1]), "non_free_count")
    assert refusal.detail == {"count": 14, "needed": 15}
    assert only(check(SHERIFF_DECK + ["Бинокль"]), "non_free_count").detail["count"] == 16


def test_deck_refuses_a_fourth_free_card():
    """«0-3 свободных карт»"""
    refusal = only(check(SHERIFF_DECK + ["Нож", "Нож", "Прослушка", "Запас"]), "too_many_free")
    assert refusal.detail == {"count": 4, "max": 3}
    assert set(refusal.cards) == {"Нож", "Прослушка", "Запас"}


def test_deck_refuses_a_third_copy_naming_the_card():
    """«Не больше 2 копий одной карты.»"""
    deck = SHERIFF_DECK[:-1] + ["Пистолет"]
    refusal = only(check(deck), "too_many_copies")
    assert refusal.cards == ("Пистолет",) and refusal.detail == {"count": 3, "max": 2}


def test_deck_allows_two_off_colour_cards_and_refuses_a_third():
    """«Карт цветов, не соответствующих роли и не нейтральных, можно взять не более 2 в сумме.»"""
    two = SHERIFF_DECK[:-2] + ["Бункер", "Наручники"]
    assert check(two) == []
    three = SHERIFF_DECK[:-3] + ["Бункер", "Наручники", "Кофе"]
    refusal = only(check(three), "off_colour")
    assert set(refusal.cards) == {"Бункер", "Наручники", "Кофе"} and refusal.detail == {"count": 3, "max": 2}


def test_neutral_cards_are_always_allowed():
    """«Карт цветов, не соответствующих роли и не нейтральных, можно взять не более 2 в сумме.»
    Neutral cards do not count against the two."""
    deck = SHERIFF_DECK[:-4] + ["Анонимка", "Осторожность", "Передышка", "Сделка"]
    assert check(deck) == []


def test_policeman_takes_no_card_outside_his_colours_but_neutral():
    """«Полицейский: Урон, Защита, Контроль, нельзя брать карты других цветов, кроме Нейтральных.»"""
    deck = ["Пистолет", "Пистолет", "Дробовик", "Дробовик", "Бункер", "Бункер", "Аптечка", "Аптечка",
            "Наручники", "Наручники", "Подмена", "Подмена", "Анонимка", "Осторожность", "Сделка"]
    assert check(deck, role="policeman") == []
    refusal = only(check(deck[:-1] + ["Свидетель"], role="policeman"), "colour_forbidden")
    assert refusal.cards == ("Свидетель",)


def test_detective_takes_no_card_outside_his_colours_but_neutral():
    """«Сыщик: Разведка, Саботаж, Поддержка, нельзя брать карты других цветов, кроме Нейтральных.»"""
    deck = ["Свидетель", "Свидетель", "Досье", "Досье", "Карманник", "Карманник", "Поджог", "Поджог",
            "Кофе", "Кофе", "Совет", "Совет", "Анонимка", "Осторожность", "Сделка"]
    assert check(deck, role="detective") == []
    assert codes(check(deck[:-1] + ["Пистолет"], role="detective")) == ["colour_forbidden"]


def test_traitor_takes_at_most_three_cards_of_one_colour():
    """«Предатель: ... Не может брать в колоду более трёх карт одного цвета.»"""
    deck = ["Пистолет", "Пистолет", "Дробовик", "Свидетель", "Свидетель", "Досье", "Бункер", "Бункер",
            "Аптечка", "Карманник", "Карманник", "Поджог", "Наручники", "Кофе", "Анонимка"]
    assert check(deck, role="traitor") == []
    heavy = deck[:-1] + ["Боевое искусство"]
    refusal = only(check(heavy, role="traitor"), "per_colour")
    assert refusal.detail == {"colour": "damage", "count": 4, "max": 3}
    assert set(refusal.cards) == {"Пистолет", "Дробовик", "Боевое искусство"}


def test_hero_takes_at_most_four_of_a_colour_and_no_damage():
    """«Герой: ... Не может брать в колоду более четырёх карт одного цвета. Не может брать карты Урона.»"""
    deck = ["Свидетель", "Свидетель", "Досье", "Досье", "Бункер", "Бункер", "Аптечка", "Аптечка",
            "Карманник", "Карманник", "Наручники", "Наручники", "Кофе", "Кофе", "Анонимка"]
    assert check(deck, role="hero") == []
    refusals = check(deck[:-1] + ["Пистолет"], role="hero")
    assert only(refusals, "colour_forbidden").cards == ("Пистолет",)
    five = deck[:-1] + ["Бинокль"]
    assert only(check(five, role="hero"), "per_colour").detail == {"colour": "recon", "count": 5, "max": 4}


def test_maniac_may_take_every_colour():
    """«Маньяк: Урон, Разведка, Защита, Саботаж, Контроль, Поддержка.»"""
    deck = ["Пистолет", "Пистолет", "Свидетель", "Свидетель", "Бункер", "Бункер", "Карманник", "Карманник",
            "Наручники", "Наручники", "Кофе", "Кофе", "Совет", "Совет", "Анонимка"]
    assert check(deck, role="maniac") == []


def test_joker_must_choose_two_colours_and_keeps_to_them():
    """«Джокер: Выбирает два любых цвета в начале игры.»"""
    assert codes(check(SHERIFF_DECK, role="joker")) == ["colours_missing"]
    assert check(SHERIFF_DECK, role="joker", colours=["damage", "recon"]) == []
    assert codes(check(SHERIFF_DECK, role="joker", colours=["damage", "neutral"])) == ["colours_invalid"]
    assert codes(check(SHERIFF_DECK, role="joker", colours=["damage", "damage"])) == ["colours_invalid"]
    assert "off_colour" in codes(check(SHERIFF_DECK, role="joker", colours=["defence", "control"]))
    assert codes(check(SHERIFF_DECK, colours=["damage", "recon"])) == ["colours_unexpected"]


def test_unknown_and_undeckable_cards_are_named():
    refusals = check(SHERIFF_DECK[:-2] + ["Лазер", "Маллиган"])
    assert only(refusals, "unknown_card").cards == ("Лазер",)
    assert only(refusals, "not_deckable").cards == ("Маллиган",)


def test_every_refusal_is_returned_together():
    deck = ["Пистолет"] * 3 + ["Лазер"] + ["Нож"] * 4 + ["Бункер", "Наручники", "Кофе"]
    assert set(codes(check(deck))) == {"unknown_card", "too_many_copies", "non_free_count", "too_many_free",
                                       "off_colour"}


def test_a_deck_that_is_not_a_list_is_refused():
    assert codes(check("Пистолет")) == ["not_a_list"]
    assert codes(check([1, 2])) == ["not_a_list"]


def test_refusal_is_json_able_for_the_site():
    refusal = check(SHERIFF_DECK[:-1] + ["Пистолет"])[0]
    assert refusal.to_json() == {"code": "too_many_copies", "cards": ["Пистолет"], "detail": {"count": 3, "max": 2}}
