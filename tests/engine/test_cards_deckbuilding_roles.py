"""Part 2 (b) of the cards rule set (seed 001_666f92ca90d279a9.txt): the overt roles of deck building
and paying (Инженер/Механик, Мот, Крупье, Фокусник, Гений, Культист) and the GM's options for what the
seed leaves open. One rule case per test; the docstring quotes the seed's sentence the test enforces."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.events import GM, seat_audience
from games.engine.orders import PhaseInputs
from games.rulesets.cards.engine import default_collection, validate_deck
from games.rulesets.cards.engine.effects import Table
from games.rulesets.cards.engine.roles import OVERT_ROLES
from tests.engine.test_cards_rules import (
    CARDS,
    FIVE,
    NOW,
    SHERIFF_DECK,
    close,
    deck,
    events,
    hand,
    play_of,
    player,
    sid,
    sleeve,
    table,
)

COLLECTION = default_collection()


def codes(refusals):
    return [r.code for r in refusals]


def check(cards, role="sheriff", overt=None, **kw):
    return validate_deck(cards, role=role, collection=COLLECTION, overt=overt, **kw)


# A sheriff (Урон, Разведка) deck with four off-colour cards (Бункер, Кофе: Защита, Поддержка).
FOUR_OFF = SHERIFF_DECK[:11] + ["Бункер", "Бункер", "Кофе", "Кофе"]
# A traitor's deck with four cards of three colours and three of Control.
TRAITOR_FOURS = ["Пистолет", "Пистолет", "Дробовик", "Дробовик", "Камера наблюдения", "Камера наблюдения",
                 "Свидетель", "Свидетель", "Бункер", "Бункер", "Супергерой", "Супергерой", "Наручники",
                 "Наручники", "Запрет"]


# -- Крупье ------------------------------------------------------------------------------------------


def test_croupier_takes_four_off_colour_cards_instead_of_two():
    """«Крупье: Лимит карт не своего цвета в колоде - 4, вместо 2.»"""
    assert check(FOUR_OFF, overt="Крупье") == []
    assert codes(check(FOUR_OFF)) == ["off_colour"]
    five = FOUR_OFF[:10] + ["Наручники"] + FOUR_OFF[11:]
    refusal = check(five, overt="Крупье")
    assert codes(refusal) == ["off_colour"] and refusal[0].detail == {"count": 5, "max": 4}


def test_croupier_does_not_open_the_policemans_colours():
    """«Лимит карт не своего цвета в колоде - 4, вместо 2»: instead of 2 — the policeman's «нельзя брать
    карты других цветов, кроме Нейтральных» is not a limit of 2 and stays."""
    policeman = ["Пистолет", "Пистолет", "Дробовик", "Дробовик", "Бункер", "Бункер", "Супергерой",
                 "Супергерой", "Наручники", "Наручники", "Запрет", "Запрет", "Анонимка", "Анонимка", "Кофе"]
    assert codes(check(policeman, role="policeman", overt="Крупье")) == ["colour_forbidden"]


def test_croupier_traitor_takes_four_of_each_colour():
    """«Крупье: ... Если является Предателем, может брать до 4 карт каждого цвета.» (the traitor alone:
    «Не может брать в колоду более трёх карт одного цвета»)"""
    assert check(TRAITOR_FOURS, role="traitor", overt="Крупье") == []
    assert set(codes(check(TRAITOR_FOURS, role="traitor"))) == {"per_colour"}
    five = TRAITOR_FOURS[:-1] + ["Нож"]  # a fifth damage card, free
    refusal = check(five, role="traitor", overt="крупье")  # the name as written, any case
    assert "per_colour" in codes(refusal)


def test_croupiers_legal_deck_is_not_replaced_at_the_deadline():
    """The issue's complaint: a Крупье's deck with 4 off-colour cards is legal, so deck building keeps
    it instead of dealing a random one."""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    state, _ = CARDS.new_game(seats, seed=2, seat_data={1: {"overt": "Крупье"}})
    assert CARDS.check_deck(state, 1, FOUR_OFF) == []
    resolution = CARDS.resolve(state, PhaseInputs(extra={"decks": {1: FOUR_OFF}}), seed=1, now=NOW)
    assert not [e for e in events(resolution, "deck_auto") if e.data["name"] == "Вася"]
    after = resolution.state
    assert sorted(hand(after, "Вася") + deck(after, "Вася")) == sorted(FOUR_OFF)


# -- Гений -------------------------------------------------------------------------------------------


def test_genius_builds_twelve_non_free_and_up_to_five_free():
    """«Гений: Его колода должна содержать 12 несвободных карт и до 5 свободных.»"""
    genius = SHERIFF_DECK[:12] + ["Нож", "Нож", "Прослушка", "Прослушка", "Запас"]
    assert check(genius, overt="Гений") == []
    assert check(SHERIFF_DECK[:12], overt="Гений") == []  # «до 5»: none is fine
    refusal = check(SHERIFF_DECK, overt="Гений")
    assert codes(refusal) == ["non_free_count"] and refusal[0].detail == {"count": 15, "needed": 12}
    six = genius + ["Запас"]
    assert codes(check(six, overt="Гений")) == ["too_many_free"]
    assert set(codes(check(genius))) == {"non_free_count", "too_many_free"}


def test_geniuss_random_deck_has_twelve_cards():
    """A Гений with no legal deck at the deadline is dealt one by his own limits (12 non-free)."""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    state, _ = CARDS.new_game(seats, seed=2, seat_data={1: {"overt": "Гений"}})
    after = CARDS.resolve(state, PhaseInputs(), seed=1, now=NOW).state
    cards = hand(after, "Вася") + deck(after, "Вася")
    assert len(cards) == 12 and CARDS.check_deck(after, 1, cards) == []


# -- Мот ---------------------------------------------------------------------------------------------


def test_spendthrift_builds_his_priced_cards_as_free_or_non_free():
    """«Мот: Его карты с ценой 2 и более являются Свободными. (Набирать их можно как несвободные)»: a card
    of Price 2 or more counts as non-free, or as free where the deck has room."""
    with_sniper = SHERIFF_DECK[:13] + ["Снайперская винтовка", "Снайперская винтовка"]
    assert check(with_sniper, overt="Мот") == []  # as non-free, the 15
    extra = SHERIFF_DECK + ["Снайперская винтовка", "Снайперская винтовка", "Нож"]
    assert check(extra, overt="Мот") == []  # two of them as free: 15 non-free and 3 free
    assert codes(check(extra)) == ["non_free_count"]
    over = extra + ["Прослушка"]
    assert codes(check(over, overt="Мот")) == ["too_many_free"]
    short = SHERIFF_DECK[:14] + ["Нож"]
    assert codes(check(short, overt="Мот")) == ["non_free_count"]


def test_spendthrift_plays_a_card_of_price_two_without_paying():
    """«Мот: Его карты с ценой 2 и более являются Свободными»: read as a Free card costs no Price. His
    Снайперская винтовка (Price 2) is played from an empty Sleeve; his Дробовик (Price 1) still costs."""
    state = table(player("Вася", "sheriff", overt="Мот", hand=["Снайперская винтовка", "Дробовик", "Кофе",
                                                                "Кофе", "Бункер", "Совет"]), *FIVE[1:])
    assert CARDS.check_play(state, 1, {"card": "Снайперская винтовка", "from": "hand", "target": 2}) is None
    assert CARDS.check_play(state, 1, {"card": "Дробовик", "from": "hand", "target": 2}) == "cannot_pay"
    plain = table(player("Вася", "sheriff", hand=["Снайперская винтовка", "Кофе", "Кофе", "Бункер", "Совет",
                                                  "Письмо"]), *FIVE[1:])
    assert CARDS.check_play(plain, 1, {"card": "Снайперская винтовка", "from": "hand", "target": 2}) == "cannot_pay"
    resolution = close(state, plays=[{"by": "Вася", "card": "Снайперская винтовка", "from": "hand",
                                      "target": "Петя"}])
    assert play_of(resolution, "Вася", "Снайперская винтовка")["result"] == "done"
    assert play_of(resolution, "Вася", "Снайперская винтовка")["paid"] == []


# -- Фокусник ----------------------------------------------------------------------------------------


def test_magician_after_his_first_rebuild_has_two_free_cards_at_the_bottom():
    """«Фокусник: После первой пересборки Колоды нижние две карты в ней становятся Свободными. На карте
    видно, является ли она Свободной.» His view shows the two Free bottom cards; a second rebuild makes
    no more."""
    state = table(player("Вася", "sheriff", overt="Фокусник", deck=[]), *FIVE[1:])
    assert "free_deck_bottom" not in CARDS.player_view(state, 1)
    rebuilt = close(state, rebuilds={1: SHERIFF_DECK}).state
    assert CARDS.player_view(rebuilt, 1)["free_deck_bottom"] == 2
    other = table(player("Вася", "sheriff", overt="Патрульный", deck=[]), *FIVE[1:])
    assert "free_deck_bottom" not in CARDS.player_view(close(other, rebuilds={1: SHERIFF_DECK}).state, 1)


def test_magicians_free_card_is_drawn_free_and_played_without_its_price():
    """«нижние две карты в ней становятся Свободными»: the marked cards stay Free in his Hand («На карте
    видно, является ли она Свободной») and a Free card is played without paying its Price."""
    memory = {"players": {"1": {"deck": ["Кофе", "Досье", "Дробовик"], "hand": [], "sleeve": [],
                                "graveyard": [], "free_bottom": 2}}}
    tab = Table(memory, COLLECTION)
    assert tab.draw(1, "hand") == "Кофе" and tab.free_marks(1, "hand") == []
    assert tab.draw(1, "hand") == "Досье" and tab.free_marks(1, "hand") == ["Досье"]
    assert tab.free_bottom(1) == 1
    assert tab.view(1)["free_hand"] == ["Досье"] and tab.view(1)["free_deck_bottom"] == 1
    state = table(player("Вася", "sheriff", overt="Фокусник", hand=["Досье", "Дробовик", "Кофе", "Кофе",
                                                                     "Бункер", "Совет"], deck=["Нож"]), *FIVE[1:])
    marked = state.memory | {"players": {**state.memory["players"], "1": {
        **state.memory["players"]["1"], "free_marks": {"hand": ["Досье"]}, "free_bottom": 0}}}
    state = replace(state, memory=marked)
    assert CARDS.check_play(state, 1, {"card": "Досье", "from": "hand", "target": 2}) is None
    assert CARDS.check_play(state, 1, {"card": "Дробовик", "from": "hand", "target": 2}) == "cannot_pay"
    after = close(state, plays=[{"by": "Вася", "card": "Досье", "from": "hand", "target": "Петя"}])
    assert play_of(after, "Вася", "Досье")["result"] == "done"
    assert after.state.memory["players"]["1"]["free_marks"]["hand"] == []


# -- Инженер/Механик ---------------------------------------------------------------------------------


def engineer_game(overt="Инженер"):
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    state, _ = CARDS.new_game(seats, seed=2, seat_data={1: {"overt": overt}})
    return state


@pytest.mark.parametrize("overt", ["Инженер", "Механик", "Инженер/Механик"])
def test_engineers_two_chosen_cards_are_among_the_six_dealt(overt):
    """«Инженер/Механик: Собирая Колоду, может выбрать из нее две карты. Эти карты гарантированно будут
    среди 6 сданных карт.» Whatever the shuffle, the two chosen cards are in his opening Hand."""
    state = engineer_game(overt)
    picks = ["Бинокль", "Осторожность"]  # one copy each in the deck
    for seed in range(6):
        after = CARDS.resolve(state, PhaseInputs(extra={"decks": {1: {"cards": SHERIFF_DECK, "picks": picks}}}),
                              seed=seed, now=NOW).state
        opening = hand(after, "Вася")
        assert len(opening) == 6 and opening[-2:] == picks
        assert sorted(opening + deck(after, "Вася")) == sorted(SHERIFF_DECK)


def test_engineers_choice_is_of_his_deck_and_two_at_most():
    """«может выбрать из нее две карты»: two cards of his deck (copies counted), and only the Engineer."""
    state = engineer_game()
    assert CARDS.check_picks(state, 1, SHERIFF_DECK, ["Пистолет", "Пистолет"]) is None
    assert CARDS.check_picks(state, 1, SHERIFF_DECK, ["Бинокль", "Бинокль"]) == "bad_picks"
    assert CARDS.check_picks(state, 1, SHERIFF_DECK, ["Кофе"]) == "bad_picks"
    assert CARDS.check_picks(state, 1, SHERIFF_DECK, ["Пистолет", "Дробовик", "Досье"]) == "bad_picks"
    assert CARDS.check_picks(state, 2, SHERIFF_DECK, ["Пистолет"]) == "bad_picks"
    assert CARDS.check_picks(state, 2, SHERIFF_DECK, []) is None


# -- Культист ----------------------------------------------------------------------------------------


def cultist_table():
    return table(player("Вася", "sheriff", overt="Культист", hand=["Снайперская винтовка", "Кофе", "Бункер",
                                                                    "Совет", "Письмо", "Бинокль"],
                        sleeve=["Дробовик"], deck=["Нож", "Запас"]), *FIVE[1:])


def test_cultist_pays_the_price_from_his_hand():
    """«Культист: Сбрасывая карты на оплату Цены, может сбросить до двух карт в фазу из Руки вместо
    Рукава.» He names two Hand cards for Снайперская винтовка's Price of 2; they are discarded and not
    replaced («не восполняются карты, сброшенные по другим причинам»), the played card is."""
    state = cultist_table()
    play = {"by": "Вася", "card": "Снайперская винтовка", "from": "hand", "target": "Петя",
            "pay_hand": ["Бункер", "Письмо"], "pay": []}
    assert CARDS.check_play(state, 1, {**play, "target": 2}) is None
    resolution = close(state, plays=[play])
    data = play_of(resolution, "Вася", "Снайперская винтовка")
    assert data["result"] == "done" and data["paid_hand"] == ["Бункер", "Письмо"] and data["paid"] == []
    assert hand(resolution.state, "Вася") == ["Кофе", "Совет", "Бинокль", "Нож"]
    (report,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(1)]
    assert report.data["plays"][0]["paid_hand"] == ["Бункер", "Письмо"]  # told to him
    assert sleeve(resolution.state, "Вася") == ["Дробовик"]


def test_cultist_pays_from_the_hand_by_default_when_the_sleeve_is_short():
    """«может сбросить ... из Руки вместо Рукава»: with no choice named, the Sleeve pays first and the first
    cards of his Hand (the played card excepted) pay the rest."""
    state = cultist_table()
    resolution = close(state, plays=[{"by": "Вася", "card": "Снайперская винтовка", "from": "hand",
                                      "target": "Петя"}])
    data = play_of(resolution, "Вася", "Снайперская винтовка")
    assert data["paid"] == ["Дробовик"] and data["paid_hand"] == ["Кофе"]


def test_cultist_pays_at_most_two_cards_a_phase_from_the_hand():
    """«до двух карт в фазу»: a third Hand card is refused, in one play or across his two plays."""
    state = cultist_table()
    three = {"card": "Снайперская винтовка", "from": "hand", "target": 2, "pay_hand": ["Кофе", "Бункер", "Совет"]}
    assert CARDS.check_play(state, 1, three) == "hand_pay_limit"
    resolution = close(state, plays=[
        {"by": "Вася", "card": "Дробовик", "from": "sleeve", "target": "Петя", "pay_hand": ["Кофе"]},
        {"by": "Вася", "card": "Снайперская винтовка", "from": "hand", "target": "Петя",
         "pay_hand": ["Бункер", "Совет"]},
    ])
    # The Sleeve play is taken first but leaves the Hand play the two Hand cards it names.
    assert play_of(resolution, "Вася", "Дробовик")["reason"] == "hand_pay_limit"
    assert play_of(resolution, "Вася", "Снайперская винтовка")["result"] == "done"


def test_nobody_but_the_cultist_pays_from_the_hand():
    """«Сбрасывая карты на оплату Цены ... из Руки вместо Рукава» is the Культист's: anyone else pays from
    the Sleeve («Цена»)."""
    state = table(player("Вася", "sheriff", hand=["Дробовик", "Кофе", "Бункер", "Совет", "Письмо", "Бинокль"]),
                  *FIVE[1:])
    play = {"card": "Дробовик", "from": "hand", "target": 2, "pay_hand": ["Кофе"]}
    assert CARDS.check_play(state, 1, play) == "no_hand_pay"
    assert CARDS.check_play(state, 1, {**play, "pay_hand": None}) == "cannot_pay"


# -- the GM's options ----------------------------------------------------------------------------------


def tied(options):
    """Петя (Банкир) and Маша (Воин) lead with two votes each."""
    state = table(player("Вася", "sheriff", overt="Ёжик"), player("Петя", "boss", overt="Банкир"),
                  player("Маша", "doctor", overt="Воин"), player("Глаша", "judge", overt="Гадалка"),
                  options=options)
    return close(state).state


TIE_VOTES = {"Вася": "Маша", "Глаша": "Маша", "Маша": "Петя", "Петя": "Петя"}


def test_tie_break_by_overt_role_name_is_the_default():
    """«Приоритет повешения - по алфавиту»: by default, the overt role's name (Банкир before Воин)."""
    resolution = close(tied(None), votes=TIE_VOTES)
    (event,) = events(resolution, "tie_break")
    assert event.data["name"] == "Петя" and event.data["by"] == "overt_alphabet"


def test_tie_break_by_character_name_when_the_gm_chose_it():
    """«Приоритет повешения - по алфавиту», the GM's option `tie_break: name`: the character's name
    (Маша before Петя)."""
    resolution = close(tied({"tie_break": "name"}), votes=TIE_VOTES)
    (event,) = events(resolution, "tie_break")
    assert event.data["name"] == "Маша" and event.data["by"] == "name_alphabet"


def test_tie_break_by_the_gms_pick():
    """«Приоритет повешения - по алфавиту», the GM's option `tie_break: gm`: the GM names one of the tied;
    naming nobody of them falls back to the overt role names, and the GM is told."""
    state = tied({"tie_break": "gm"})
    resolution = close(state, votes=TIE_VOTES, gm={"tie_break": sid(state, "Маша")})
    (event,) = events(resolution, "tie_break")
    assert event.data["name"] == "Маша" and event.data["by"] == "gm"
    fallback = close(state, votes=TIE_VOTES, gm={"tie_break": sid(state, "Вася")})
    (event,) = events(fallback, "tie_break")
    assert event.data["name"] == "Петя" and event.data["by"] == "overt_alphabet"
    assert [e.data["reason"] for e in events(fallback, "gm_effect_ignored")] == ["no_tie_pick"]


def test_vote_strength_weighs_the_measure_unless_the_gm_says_not():
    """«Авторитет +1 к силе голоса (голос считается за 2)» and «При равенстве голосов побеждает тюрьма»:
    by default the strength weighs the measure vote too (Авторитет's execution outweighs one prison);
    with `measure_weight: false` each measure vote counts 1, a tie, so prison."""
    def day(options):
        state = table(player("Вася", "sheriff", overt="Авторитет"), *FIVE[1:], options=options)
        return close(close(state).state, votes={"Вася": "Петя", "Маша": "Петя"},
                     measures={"Вася": "execution", "Маша": "prison"})

    weighed = day(None)
    assert events(weighed, "executed") and events(weighed, "veche_result")[0].data["measure_tally"] == \
        {"execution": 2, "prison": 1}
    plain = day({"measure_weight": False})
    assert events(plain, "imprisoned") and events(plain, "veche_result")[0].data["measure_tally"] == \
        {"execution": 1, "prison": 1}


def test_a_gm_built_deck_replaces_an_illegal_one_when_the_gm_chose_it():
    """The deck rules («Требования к колоде») at the deadline, the GM's option `illegal_deck: gm`: the GM
    builds the deck of a player who has no legal one; the player is told it is the GM's. An illegal GM
    deck, or none, gives a random legal one, and the GM is told why."""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    state, _ = CARDS.new_game(seats, seed=2, options={"illegal_deck": "gm"})
    gm_decks = {1: SHERIFF_DECK, 2: SHERIFF_DECK[:3]}
    resolution = CARDS.resolve(state, PhaseInputs(extra={"decks": {1: SHERIFF_DECK[:-1]}}, gm={"decks": gm_decks}),
                               seed=1, now=NOW)
    auto = {e.data["name"]: e.data for e in events(resolution, "deck_auto") if e.audience == seat_audience(
        resolution.state.by_name(e.data["name"]).id)}
    assert auto["Вася"]["by"] == "gm" and auto["Вася"]["deck"] == sorted(SHERIFF_DECK)
    assert auto["Петя"]["by"] == "random" and auto["Маша"]["by"] == "random"
    notes = {e.data["name"]: e.data["reason"] for e in events(resolution, "gm_effect_ignored") if e.audience == GM}
    assert notes == {"Петя": "bad_gm_deck", "Маша": "no_gm_deck"}
    default = CARDS.resolve(CARDS.new_game(seats, seed=2)[0], PhaseInputs(gm={"decks": gm_decks}), seed=1, now=NOW)
    assert {e.data["by"] for e in events(default, "deck_auto")} == {"random"}


@pytest.mark.parametrize("options", [{"tie_break": "dice"}, {"measure_weight": "yes"}, {"illegal_deck": "wait"}])
def test_new_game_refuses_an_unknown_option_value(options):
    with pytest.raises(ValueError):
        CARDS.new_game([(1, "А", "sheriff"), (2, "Б", "boss"), (3, "В", "doctor")], options=options)


def test_the_b_roles_are_marked_implemented():
    for name in ("Инженер", "Мот", "Крупье", "Фокусник", "Гений", "Культист"):
        assert OVERT_ROLES[name].implemented, name


def test_cultists_sleeve_play_leaves_his_hand_play_its_cards():
    """«может сбросить до двух карт в фазу из Руки»: the Sleeve play is taken first at the close; its Price
    is never paid with the card his Hand play plays, nor with the Hand cards that play pays with."""
    state = table(player("Вася", "sheriff", overt="Культист", hand=["Снайперская винтовка", "Кофе", "Бункер",
                                                                     "Совет", "Письмо", "Бинокль"],
                         sleeve=["Дробовик"], deck=["Нож", "Запас", "Тайник"]), *FIVE[1:])
    resolution = close(state, plays=[
        {"by": "Вася", "card": "Дробовик", "from": "sleeve", "target": "Петя"},
        {"by": "Вася", "card": "Снайперская винтовка", "from": "hand", "target": "Маша", "pay_hand": ["Кофе"]},
    ])
    sleeve_play = play_of(resolution, "Вася", "Дробовик")
    hand_play = play_of(resolution, "Вася", "Снайперская винтовка")
    assert sleeve_play["result"] == "done" and sleeve_play["paid_hand"] == ["Бункер"]
    assert hand_play["result"] == "refused" and hand_play["reason"] in ("cannot_pay", "hand_pay_limit")
    both = close(state, plays=[
        {"by": "Вася", "card": "Дробовик", "from": "sleeve", "target": "Петя"},
        {"by": "Вася", "card": "Снайперская винтовка", "from": "hand", "target": "Маша",
         "pay_hand": ["Кофе", "Бункер"]},
    ])
    assert play_of(both, "Вася", "Дробовик")["reason"] == "cannot_pay"  # the two a phase are the Hand play's
    assert play_of(both, "Вася", "Снайперская винтовка")["result"] == "done", play_of(both, "Вася", "Снайперская винтовка")
