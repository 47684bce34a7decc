"""The cards rule set (seed 001_666f92ca90d279a9.txt), one rule case per test: the docstring quotes
the sentence of the seed the test enforces, the body plays it through the pure engine."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from games.engine.events import GM, PUBLIC, faction_audience, seat_audience, visible_to
from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets import get_ruleset
from games.rulesets.cards.engine import parse_measure
from games.rulesets.cards.engine.roles import LAW_ROLES, winner_of
from games.rulesets.cards.engine.ruleset import CardsRuleset
from games.engine.state import GameState

CARDS = get_ruleset("cards")
NOW = datetime(2024, 3, 1, 20, 0, tzinfo=UTC)
DECK = ["Кофе", "Письмо", "Совет", "Бинокль", "Анонимка", "Осторожность", "Сделка", "Тайник", "Передышка", "Запас"]
HAND = ["Пистолет", "Бункер", "Совет", "Свидетель", "Камера наблюдения", "Кофе"]


def player(name, secret, **kw):
    return {"name": name, "secret": secret, **kw}


def table(*players, options=None, seed=1, cards=None):
    """A game from player specs as in a scenario file: secret role, and optionally overt, deck,
    hand, sleeve. Everyone not given a hand gets HAND and a deck of DECK."""
    seats = [(i, p["name"], p["secret"]) for i, p in enumerate(players, 1)]
    data = {}
    for p in players:
        spec = {k: p[k] for k in ("overt", "deck", "hand", "sleeve", "colours") if k in p}
        spec.setdefault("hand", list(HAND))
        spec.setdefault("deck", list(DECK))
        data[p["name"]] = spec
    state, events = CARDS.new_game(seats, options=options, seed=seed, seat_data=data)
    return state


FIVE = (
    player("Вася", "sheriff"),
    player("Петя", "boss"),
    player("Маша", "doctor"),
    player("Глаша", "judge"),
    player("Паша", "killer"),
)


def sid(state, name):
    return state.by_name(name).id


def close(state, *, plays=(), votes=None, measures=None, gm=None, discards=None, reorders=None, seed=0,
          ruleset=CARDS, **extra):
    """Resolve the phase with inputs written with names."""
    items = []
    for p in plays:
        p = dict(p)
        p["by"] = sid(state, p["by"])
        for key in ("target", "target2"):
            if p.get(key) is not None:
                p[key] = sid(state, p[key])
        items.append(p)
    ext = {"plays": items, **extra}
    if measures:
        ext["measures"] = {sid(state, k): v for k, v in measures.items()}
    if discards:
        ext["discards"] = {sid(state, k): v for k, v in discards.items()}
    if reorders:
        ext["reorders"] = {sid(state, k): v for k, v in reorders.items()}
    vote_ids = {}
    for voter, target in (votes or {}).items():
        vote_ids[sid(state, voter)] = target if target in (None, "peace") else sid(state, target)
    gm_ids = {}
    for key, value in (gm or {}).items():
        gm_ids[key] = {sid(state, n): v for n, v in value.items()} if key in ("damage", "armour") else value
    return ruleset.resolve(state, PhaseInputs(votes=vote_ids, gm=gm_ids, extra=ext), seed=seed, now=NOW)


def hand(state, name):
    return state.memory["players"][str(sid(state, name))]["hand"]


def sleeve(state, name):
    return [it["card"] for it in state.memory["players"][str(sid(state, name))]["sleeve"]]


def deck(state, name):
    return state.memory["players"][str(sid(state, name))]["deck"]


def events(resolution, kind):
    return [e for e in resolution.events if e.kind == kind]


def play_of(resolution, by, card):
    (event,) = [e for e in events(resolution, "play") if e.data["by_name"] == by and e.data["card"] == card]
    return event.data


def to_day(state):
    return close(state).state


# -- roles and setup --------------------------------------------------------------------------------


def test_default_table_is_three_mafia_and_law_for_ten():
    """«Игра рассчитана на 10 человек ... В игре всегда 3 мафии» — the rest are law members."""
    roles = CARDS.default_roles(10)
    assert sorted(roles) == sorted(["boss", "advisor", "killer"] + ["law"] * 7)


@pytest.mark.parametrize("size,neutrals", [
    (10, []), (11, ["maniac"]), (12, ["maniac"]), (13, ["maniac", "joker_or_traitor"]),
    (14, ["maniac", "joker_or_traitor"]), (15, ["maniac", "joker", "traitor"]), (16, ["maniac", "joker", "traitor"]),
])
def test_neutrals_join_by_table_size(size, neutrals):
    """«маньяк появляется, если участников не менее 11. С 13 игроков добавляются дополнительные роли -
    Джокер или Предатель, на 15-16 они есть оба.»"""
    roles = CARDS.default_roles(size)
    assert sorted(r for r in roles if r not in ("boss", "advisor", "killer", "law")) == sorted(neutrals)
    assert roles.count("law") == size - 3 - len(neutrals)


def test_law_roles_are_drawn_independently_with_the_games_seed():
    """«Каждый законник получает одну из следующих ролей, случайным образом ... Роли законников полностью
    случайны и независимы - какой-то роли может быть несколько представителей, а какой-то может не быть.»"""
    seats = [(i, f"p{i}", r) for i, r in enumerate(CARDS.default_roles(10), 1)]
    dealt = {}
    for seed in range(40):
        state, _ = CARDS.new_game(seats, seed=seed)
        law = tuple(s.role for s in state.seats if s.faction == "law")
        assert len(law) == 7 and all(r in LAW_ROLES for r in law)
        dealt[seed] = law
        again, _ = CARDS.new_game(seats, seed=seed)
        assert tuple(s.role for s in again.seats if s.faction == "law") == law
    assert len(set(dealt.values())) > 30
    assert any(len(set(law)) < 7 for law in dealt.values())  # a role held twice happens


def test_joker_or_traitor_follows_the_option_and_the_hero_replaces_a_law_member():
    """«Джокер или Предатель» and «Герой может как быть в игре, так и не быть, и если есть, заменяет
    одного представителя Закона.»"""
    seats = [(i, f"p{i}", r) for i, r in enumerate(CARDS.default_roles(13), 1)]
    for extra in ("joker", "traitor"):
        state, _ = CARDS.new_game(seats, seed=3, options={"extra_neutral": extra})
        assert [s.role for s in state.seats].count(extra) == 1
    flips = {CARDS.new_game(seats, seed=s)[0].seats for s in range(20)}
    kinds = {next(x.role for x in seats_ if x.role in ("joker", "traitor")) for seats_ in flips}
    assert kinds == {"joker", "traitor"}
    state, _ = CARDS.new_game(seats, seed=3, options={"hero": True})
    roles = [s.role for s in state.seats]
    assert roles.count("hero") == 1 and sum(r in LAW_ROLES for r in roles) == 7  # 8 law seats, one the hero
    with pytest.raises(ValueError):
        CARDS.new_game(seats, options={"extra_neutral": "dragon"})


def test_secret_role_is_told_to_its_holder_only():
    """«Тайные роли раздаются случайно, и о них знаете только вы.»"""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    _state, evs = CARDS.new_game(seats)
    roles = [e for e in evs if e.kind == "role"]
    assert [e.audience for e in roles] == [seat_audience(1), seat_audience(2), seat_audience(3)]
    assert roles[0].data["colours"] == ["damage", "recon"]
    for event in evs:
        if event.audience == PUBLIC:
            assert not {"sheriff", "boss", "doctor"} & set(json.dumps(event.data).replace('"', " ").split())


def test_overt_role_has_one_holder_per_game():
    """«Каждой явной роли может быть только один представитель.»"""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    with pytest.raises(ValueError, match="(?i)здоровяк"):
        CARDS.new_game(seats, seat_data={"Вася": {"overt": "Здоровяк"}, "Маша": {"overt": "здоровяк"}})
    with pytest.raises(ValueError):
        CARDS.new_game(seats, seat_data={"Вася": {"overt": "Учёный"}, "Маша": {"overt": "Ученый"}})
    state, evs = CARDS.new_game(seats, seat_data={"Вася": {"overt": "Здоровяк"}, "Маша": {"overt": "Дегустатор"}})
    (started,) = [e for e in evs if e.kind == "game_started"]
    assert started.audience == PUBLIC  # the overt roles are public: «"явные" (="дневные")»
    assert [p["overt"] for p in started.data["players"]] == ["Здоровяк", "", "Дегустатор"]


def test_custom_overt_role_has_no_ability():
    """«Можете сами вписать любое другое незанятое наименование роли ... В таком случае - не обладает
    дополнительными способностями.»"""
    state = table(player("Вася", "sheriff", overt="Дегустатор", sleeve=[]), *FIVE[1:])
    assert sleeve(state, "Вася") == []
    assert CARDS.vote_weight(state, sid(state, "Вася")) == 1


def test_overt_role_puts_its_card_in_the_sleeve():
    """«Патрульный: В начале игры получает 1 карту "Свидетель" в Рукав.»; FORMAT.md: a scenario's
    `sleeve` is added to what the overt role puts there."""
    state = table(player("Вася", "sheriff", overt="Патрульный", sleeve=["Нож"]), *FIVE[1:])
    assert sleeve(state, "Вася") == ["Свидетель", "Нож"]
    items = state.memory["players"][str(sid(state, "Вася"))]["sleeve"]
    assert [it["overt"] for it in items] == [True, False]


def test_joker_and_hero_start_with_their_sleeve_cards():
    """«Джокер: В начале игры получает одну карту Туз в рукав.» «Герой: В начале игры имеет карту Оракул
    в рукаве.»"""
    state = table(player("Вася", "joker"), player("Петя", "hero"), *FIVE[2:4])
    assert sleeve(state, "Вася") == ["Туз"] and sleeve(state, "Петя") == ["Оракул"]


def test_mafia_know_each_other_and_the_traitor_is_not_told():
    """«После получения ролей члены Мафии узнают личности друг друга.» The traitor is not one of the
    three («Мафия: Состоит из ровно трёх персонажей»)."""
    seats = [(1, "А", "boss"), (2, "Б", "advisor"), (3, "В", "killer"), (4, "Г", "traitor"), (5, "Д", "sheriff")]
    state, evs = CARDS.new_game(seats)
    (team,) = [e for e in evs if e.kind == "team"]
    assert team.audience == faction_audience("mafia")
    assert [m["name"] for m in team.data["members"]] == ["А", "Б", "В"]
    assert state.by_name("Г").faction == "traitor"
    assert not visible_to(team, seat_id=4, faction="traitor", is_gm=False, game_over=False)


def test_mafia_see_each_others_decks_and_hands_at_the_start_of_night_one():
    """«В начале первой ночи члены Мафии узнают колоды и Руки друг друга.»"""
    seats = [(1, "А", "boss"), (2, "Б", "advisor"), (3, "В", "killer"), (4, "Г", "sheriff"), (5, "Д", "judge")]
    state, _ = CARDS.new_game(seats, seed=5)
    assert state.phase == "deckbuilding"
    resolution = CARDS.resolve(state, PhaseInputs(), seed=5, now=NOW)
    (decks,) = events(resolution, "mafia_decks")
    assert decks.audience == faction_audience("mafia")
    members = {m["name"]: m for m in decks.data["members"]}
    assert set(members) == {"А", "Б", "В"}
    assert members["А"]["hand"] == hand(resolution.state, "А")
    assert sorted(members["А"]["deck"]) == sorted(deck(resolution.state, "А"))


def test_a_table_needs_known_roles_and_single_mafia_roles():
    with pytest.raises(ValueError):
        CARDS.new_game([(1, "А", "boss"), (2, "Б", "wizard"), (3, "В", "doctor")])
    with pytest.raises(ValueError):
        CARDS.new_game([(1, "А", "boss"), (2, "Б", "boss"), (3, "В", "doctor")])
    with pytest.raises(ValueError):
        CARDS.new_game([(1, "А", "boss"), (2, "Б", "sheriff")])


# -- deck building ----------------------------------------------------------------------------------

SHERIFF_DECK = [
    "Пистолет", "Пистолет", "Боевое искусство", "Боевое искусство", "Дробовик", "Дробовик",
    "Камера наблюдения", "Камера наблюдения", "Свидетель", "Свидетель", "Досье", "Досье",
    "Бинокль", "Анонимка", "Осторожность",
]


def building():
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "joker")]
    state, _ = CARDS.new_game(seats, seed=2)
    return state


def test_deckbuilding_phase_comes_first_and_is_silent():
    """«Также недопустима любая, в том числе публичная, коммуникация до начала первой ночи, пока идет
    сбор колод.» Nobody votes, speaks in turn, or plays while decks are built."""
    state = building()
    assert state.phase == "deckbuilding"
    assert CARDS.voters(state) == () and CARDS.speaking_order(state) == ()
    assert CARDS.allowed_actions(state, 1) == ("deck",)
    assert CARDS.check_play(state, 1, {"card": "Пистолет", "from": "hand", "target": 2}) == "wrong_phase"


def test_built_deck_is_shuffled_with_the_seed_and_six_cards_are_drawn():
    """«После сборки колода перемешивается. ... Как только все выбрали себе колоду каждый игрок набирает
    себе 6 карт из колоды в руку. После этого начинается Ночь.»"""
    state = building()
    inputs = PhaseInputs(extra={"decks": {1: SHERIFF_DECK}})
    first = CARDS.resolve(state, inputs, seed=9, now=NOW)
    assert first == CARDS.resolve(state, inputs, seed=9, now=NOW)
    after = first.state
    assert after.phase == "night 1"
    assert len(hand(after, "Вася")) == 6 and len(deck(after, "Вася")) == 9
    assert sorted(hand(after, "Вася") + deck(after, "Вася")) == sorted(SHERIFF_DECK)
    other = CARDS.resolve(state, inputs, seed=10, now=NOW).state
    assert hand(other, "Вася") + deck(other, "Вася") != hand(after, "Вася") + deck(after, "Вася")
    (sizes,) = events(first, "hand_sizes")
    assert sizes.audience == PUBLIC and [s["size"] for s in sizes.data["sizes"]] == [6, 6, 6]


def test_illegal_deck_is_refused_with_reasons_and_a_legal_one_dealt():
    """The deck rules are kept: a deck that breaks them at the deadline is replaced by a legal one of
    the role's colours (the refusal explained to the player and the GM)."""
    state = building()
    bad = SHERIFF_DECK[:-1] + ["Пистолет"]
    resolution = CARDS.resolve(state, PhaseInputs(extra={"decks": {1: bad, 3: {"cards": SHERIFF_DECK}}}),
                               seed=1, now=NOW)
    refused = [e for e in events(resolution, "deck_refused") if e.audience == seat_audience(1)]
    assert refused[0].data["refusals"][0]["code"] == "too_many_copies"
    joker = [e for e in events(resolution, "deck_refused") if e.audience == seat_audience(3)]
    assert joker[0].data["refusals"][0]["code"] == "colours_missing"
    auto = {e.data["name"] for e in events(resolution, "deck_auto") if e.audience == GM}
    assert auto == {"Вася", "Петя", "Маша"}
    after = resolution.state
    for name in ("Вася", "Петя"):
        role = after.by_name(name).role
        assert CARDS.check_deck(after, sid(after, name), sorted(hand(after, name) + deck(after, name))) == [], role
    joker_colours = after.memory["players"]["3"]["colours"]
    assert len(joker_colours) == 2


def test_joker_builds_with_his_two_colours():
    state = building()
    resolution = CARDS.resolve(state, PhaseInputs(extra={"decks": {3: {"cards": SHERIFF_DECK,
                                                                           "colours": ["damage", "recon"]}}}),
                               seed=1, now=NOW)
    assert not [e for e in events(resolution, "deck_auto") if e.data["name"] == "Маша"]
    assert resolution.state.memory["players"]["3"]["colours"] == ["damage", "recon"]


def test_a_jokers_colours_stand_when_his_deck_is_refused():
    state = building()
    bad = {"cards": SHERIFF_DECK[:-1], "colours": ["defence", "support"]}
    after = CARDS.resolve(state, PhaseInputs(extra={"decks": {3: bad}}), seed=1, now=NOW).state
    assert after.memory["players"]["3"]["colours"] == ["defence", "support"]
    cards = hand(after, "Маша") + deck(after, "Маша")
    assert CARDS.check_deck(after, 3, cards, ["defence", "support"]) == []


def test_player_given_a_deck_skips_deck_building_and_draws_from_its_top():
    """FORMAT.md: «A player given a deck skips deck building; given a hand too, he skips the opening
    draw.»"""
    seats = [(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    given = ["Пистолет", "Бункер", "Совет", "Кофе", "Письмо", "Нож", "Бронежилет", "Запас"]
    state, _ = CARDS.new_game(seats, seat_data={
        "Вася": {"deck": given}, "Петя": {"deck": given, "hand": ["Совет"]}, "Маша": {"deck": [], "hand": ["Кофе"]}})
    assert state.phase == "night 1"
    assert hand(state, "Вася") == given[:6] and deck(state, "Вася") == given[6:]
    assert hand(state, "Петя") == ["Совет"] and deck(state, "Петя") == given


def test_maniac_draws_a_card_into_his_sleeve_after_the_opening_draw():
    """«Маньяк: ... В начале игры тянет 1 карту из Колоды в Рукав»"""
    seats = [(1, "Вася", "maniac"), (2, "Петя", "boss"), (3, "Маша", "doctor")]
    given = ["Пистолет", "Бункер", "Совет", "Кофе", "Письмо", "Нож", "Бронежилет", "Запас"]
    state, _ = CARDS.new_game(seats, seat_data={n: {"deck": given} for n in ("Вася", "Петя", "Маша")})
    assert hand(state, "Вася") == given[:6] and sleeve(state, "Вася") == ["Бронежилет"]
    assert sleeve(state, "Петя") == []


# -- playing ------------------------------------------------------------------------------------------


def test_one_card_from_hand_and_one_from_sleeve_and_the_last_play_counts():
    """«Каждую фазу (День или Ночь) можно сыграть не более одной карты из Руки и не более одной карты из
    Рукава. ... Заявки на игру карт можно менять сколько угодно, вплоть до наступления дедлайна.»"""
    state = table(player("Вася", "sheriff", sleeve=["Нож"]), *FIVE[1:])
    resolution = close(state, plays=[
        {"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Петя"},
        {"by": "Вася", "card": "Совет", "from": "hand", "target": "Маша"},  # replaces the pistol
        {"by": "Вася", "card": "Нож", "from": "sleeve", "target": "Петя"},
    ])
    plays = [e.data for e in events(resolution, "play")]
    assert [(p["card"], p["result"]) for p in plays] == [("Нож", "done"), ("Совет", "done")]
    assert resolution.outcome["damage"] == {"Петя": 1}
    assert "Пистолет" in hand(resolution.state, "Вася")


def test_cards_are_played_at_night_unless_the_card_says_otherwise():
    """«Если на карте не указано обратного, то сыграть ее можно только Ночью.»"""
    state = table(player("Вася", "sheriff", hand=["Пистолет", "Боевое искусство", "Кофе"], sleeve=["Запрет", "Нож"]),
                  *FIVE[1:])
    night = close(state, plays=[{"by": "Вася", "card": "Запрет", "from": "sleeve", "target": "Петя"}])
    assert play_of(night, "Вася", "Запрет")["reason"] == "day_only"
    day = night.state
    assert CARDS.check_play(day, 1, {"card": "Пистолет", "from": "hand", "target": 2}) == "night_only"
    assert CARDS.check_play(day, 1, {"card": "Боевое искусство", "from": "hand", "target": 2}) is None
    resolution = close(day, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Петя"},
                                   {"by": "Вася", "card": "Запрет", "from": "sleeve", "target": "Петя"}])
    assert play_of(resolution, "Вася", "Пистолет")["reason"] == "night_only"
    assert play_of(resolution, "Вася", "Запрет")["result"] == "done"
    assert resolution.outcome["damage"] == {}


@pytest.mark.parametrize("play,reason", [
    ({"card": "Пистолет", "from": "hand", "target": 1}, "self_target"),
    ({"card": "Пистолет", "from": "hand"}, "missing_target"),
    ({"card": "Пистолет", "from": "hand", "target": 99}, "bad_target"),
    ({"card": "Бункер", "from": "hand", "target": 2}, "unexpected_target"),
    ({"card": "Пистолет", "from": "sleeve", "target": 2}, "not_in_sleeve"),
    ({"card": "Нож", "from": "hand", "target": 2}, "not_in_hand"),
    ({"card": "Лазер", "from": "hand", "target": 2}, "unknown_card"),
    ({"card": "Пистолет", "from": "pocket", "target": 2}, "bad_zone"),
])
def test_a_target_is_any_living_character_but_oneself(play, reason):
    """«Некоторые карты требуют выбрать цель. Целью можно выбрать любого живого персонажа, кроме себя.»"""
    state = table(*FIVE)
    assert CARDS.check_play(state, 1, play) == reason
    assert CARDS.check_order(state, Order(1, "play", play.get("target"), detail=play)) == reason


def test_a_dead_character_is_no_target():
    """«Целью можно выбрать любого живого персонажа, кроме себя.» «Мертвые персонажи не участвуют в игре»."""
    state = table(*FIVE)
    dead = close(state, gm={"damage": {"Петя": 6}}).state
    assert dead.by_name("Петя").status == "dead"
    night2 = close(dead).state
    assert night2.phase == "night 2"
    assert CARDS.check_play(night2, 1, {"card": "Пистолет", "from": "hand", "target": 2}) == "target_not_alive"


def test_two_cards_may_be_discarded_at_night_instead_of_playing_and_are_replaced():
    """«Ночью, вместо того, чтобы играть карты, можно сбросить две карты из Руки. Если игрок сыграл или
    сбросил таким образом карту из Руки, то по итогам фазы он берет из колоды карту на замену.»"""
    state = table(*FIVE)
    resolution = close(state, discards={"Вася": ["Пистолет", "Совет"]})
    after = resolution.state
    assert hand(after, "Вася") == ["Бункер", "Свидетель", "Камера наблюдения", "Кофе", "Кофе", "Письмо"]
    assert resolution.outcome["hands"] == {"Вася": hand(after, "Вася")}
    refused = close(state, discards={"Вася": ["Пистолет", "Совет"]},
                    plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}])
    assert "Пистолет" in hand(refused.state, "Вася")  # instead of playing: the play stands, not the discard
    day = after
    assert CARDS.check_order(day, Order(1, "discard", detail={"cards": ["Бункер", "Кофе"]})) == "not_your_action"
    assert CARDS.check_order(state, Order(1, "discard", detail={"cards": ["Бункер"]})) == "discard_count"
    assert CARDS.check_order(state, Order(1, "discard", detail={"cards": ["Нож", "Кофе"]})) == "discard_not_in_hand"


def test_hand_plays_are_replaced_and_sleeve_plays_are_not():
    """«Если игрок сыграл ... карту из Руки, то по итогам фазы он берет из колоды карту на замену. Карты
    из Рукава таким образом не восполняются.»"""
    state = table(player("Вася", "sheriff", sleeve=["Нож"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"},
                                     {"by": "Вася", "card": "Нож", "from": "sleeve", "target": "Петя"}])
    after = resolution.state
    assert hand(after, "Вася") == ["Пистолет", "Совет", "Свидетель", "Камера наблюдения", "Кофе", "Кофе"]
    assert sleeve(after, "Вася") == [] and resolution.outcome["sleeves"] == {"Вася": []}


def test_cards_lost_to_damage_are_not_replaced():
    """«Также не восполняются карты, сброшенные по другим причинам (например, из-за урона).»"""
    state = table(*FIVE)
    after = close(state, gm={"damage": {"Вася": 2}}).state
    assert hand(after, "Вася") == HAND[2:]


def test_effects_take_place_together_at_the_end_of_the_phase():
    """«Эффекты карт вступают в силу одновременно, по окончании фазы, в которую были сыграны.» Вася and
    Петя shoot each other: both shots land, though Петя dies of his."""
    state = table(player("Вася", "sheriff"), player("Петя", "boss", hand=["Пистолет", "Кофе"]), *FIVE[2:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Петя"},
                                     {"by": "Петя", "card": "Пистолет", "from": "hand", "target": "Вася"}])
    assert resolution.outcome["damage"] == {"Вася": 3, "Петя": 3}
    assert resolution.outcome["dead"] == ["Петя"]
    assert len(hand(resolution.state, "Вася")) == 3  # 6 - the pistol (not replaced) - 2 discarded


def test_everybody_learns_hand_sizes_and_only_the_owner_his_sleeve_and_deck():
    """«Количество карт в Руке каждого игрока все узнают в конце каждой фазы. Количество карт в Рукаве и
    колоде знает только владелец.»"""
    state = table(*FIVE)
    resolution = close(state, gm={"damage": {"Маша": 1}})
    (sizes,) = events(resolution, "hand_sizes")
    assert sizes.audience == PUBLIC
    assert {s["name"]: s["size"] for s in sizes.data["sizes"]} == resolution.outcome["hand_sizes"]
    assert resolution.outcome["hand_sizes"]["Маша"] == 5
    containers = events(resolution, "containers")
    assert {e.audience for e in containers} == {seat_audience(i) for i in range(1, 6)}
    mine = next(e for e in containers if e.audience == seat_audience(3))
    assert mine.data["deck_size"] == len(DECK) and mine.data["hand"] == HAND[1:]
    for event in resolution.events:
        if event.audience == PUBLIC:
            assert "deck_size" not in event.data and "sleeve" not in event.data


def test_an_empty_deck_gives_mulligan_until_rebuilt():
    """«Если колода персонажа становится пуста, то персонаж может в любой момент собрать новую колоду из
    коллекции, как набрал бы в начале игры. Пока не собрал, любые эффекты, требующие вытянуть карту из
    колоды, вытягивают вместо этого карту "Маллиган".»"""
    state = table(player("Вася", "sheriff", deck=["Нож"]), *FIVE[1:])
    after = close(state, discards={"Вася": ["Пистолет", "Бункер"]}).state
    assert hand(after, "Вася")[-2:] == ["Нож", "Маллиган"] and deck(after, "Вася") == []
    assert "rebuild" in CARDS.allowed_actions(after, 1)
    rebuilt = close(after, rebuilds={1: SHERIFF_DECK}).state
    assert sorted(deck(rebuilt, "Вася")) == sorted(SHERIFF_DECK)
    assert "rebuild" not in CARDS.allowed_actions(rebuilt, 1)
    refused = close(rebuilt, rebuilds={1: SHERIFF_DECK})
    assert [e.data["reason"] for e in events(refused, "input_ignored")] == ["deck_not_empty"]
    bad = close(after, rebuilds={1: SHERIFF_DECK[:-1]})
    assert deck(bad.state, "Вася") == [] and events(bad, "deck_refused")


def test_price_is_paid_from_the_sleeve_and_overt_cards_do_not_pay():
    """«Карты, добавленные в Рукав этими ролями, нельзя сбрасывать на оплату Цены» — «Богач: ... "Пустышка"
    ... Ее можно сбросить на оплату Цены.» Дробовик costs 1."""
    state = table(player("Вася", "sheriff", overt="Патрульный", hand=["Дробовик", "Кофе"]), *FIVE[1:])
    play = {"card": "Дробовик", "from": "hand", "target": 2}
    assert CARDS.check_play(state, 1, play) == "cannot_pay"
    rich = table(player("Вася", "sheriff", overt="Богач", hand=["Дробовик", "Кофе"]), *FIVE[1:])
    assert CARDS.check_play(rich, 1, play) is None
    paid = close(rich, plays=[{"by": "Вася", **play, "target": "Петя"}])
    assert play_of(paid, "Вася", "Дробовик")["paid"] == ["Пустышка"] and sleeve(paid.state, "Вася") == []
    assert paid.outcome["damage"] == {"Петя": 4}
    named = table(player("Вася", "sheriff", hand=["Дробовик"], sleeve=["Нож", "Кофе"]), *FIVE[1:])
    chosen = close(named, plays=[{"by": "Вася", **play, "target": "Петя", "pay": ["Кофе"]}])
    assert sleeve(chosen.state, "Вася") == ["Нож"]
    assert CARDS.check_play(named, 1, {**play, "pay": ["Бункер"]}) == "bad_payment"


def test_two_prices_are_paid_from_one_sleeve_or_the_hand_play_is_refused():
    state = table(player("Вася", "sheriff", hand=["Дробовик"], sleeve=["Крепость", "Нож", "Кофе"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Дробовик", "from": "hand", "target": "Петя"},
                                     {"by": "Вася", "card": "Крепость", "from": "sleeve"}])
    assert play_of(resolution, "Вася", "Крепость")["result"] == "done"
    assert play_of(resolution, "Вася", "Дробовик")["reason"] == "cannot_pay"


def test_a_block_makes_the_targets_cards_do_nothing():
    state = table(player("Вася", "sheriff"), player("Петя", "boss", hand=["Наручники", "Кофе"]), *FIVE[2:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Маша"},
                                     {"by": "Петя", "card": "Наручники", "from": "hand", "target": "Вася"}])
    assert play_of(resolution, "Вася", "Пистолет")["result"] == "blocked"
    assert resolution.outcome["damage"] == {}
    assert "Пистолет" not in hand(resolution.state, "Вася")  # spent anyway, and replaced


def test_a_bodyguard_takes_the_cards_played_at_his_ward():
    state = table(player("Вася", "sheriff"), player("Петя", "boss", sleeve=["Телохранитель", "Нож"]), *FIVE[2:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Маша"},
                                     {"by": "Петя", "card": "Телохранитель", "from": "sleeve", "target": "Маша"}])
    assert resolution.outcome["damage"] == {"Петя": 3}


def test_a_swap_sends_the_targets_cards_to_the_second_target():
    state = table(player("Вася", "sheriff"), player("Петя", "boss", sleeve=["Подмена", "Нож"]), *FIVE[2:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Маша"},
                                     {"by": "Петя", "card": "Подмена", "from": "sleeve", "target": "Вася",
                                      "target2": "Глаша"}])
    assert resolution.outcome["damage"] == {"Глаша": 3}


def test_theft_and_copy_move_cards_into_the_players_sleeve():
    state = table(player("Вася", "sheriff", hand=["Двойник", "Кофе"], sleeve=["Ограбление", "Нож", "Кофе"]),
                  player("Петя", "boss", sleeve=["Бункер"]), *FIVE[2:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Двойник", "from": "hand", "target": "Петя"},
                                     {"by": "Вася", "card": "Ограбление", "from": "sleeve", "target": "Петя"}])
    after = resolution.state
    assert sleeve(after, "Петя") == ["Бункер"]  # copied, not taken
    stolen = sleeve(after, "Вася")[-2:]
    assert "Бункер" in stolen and len(hand(after, "Петя")) == 5  # one Hand card stolen, not replaced


def test_reveals_go_to_the_player_at_the_end_of_the_phase():
    state = table(player("Вася", "sheriff", sleeve=["Досье", "Нож"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Камера наблюдения", "from": "hand", "target": "Маша"},
                                     {"by": "Вася", "card": "Досье", "from": "sleeve", "target": "Петя"},
                                     {"by": "Паша", "card": "Пистолет", "from": "hand", "target": "Маша"},
                                     {"by": "Глаша", "card": "Совет", "from": "hand", "target": "Маша"}])
    reveals = {e.data["what"]: e for e in events(resolution, "reveal")}
    assert reveals["visitors"].audience == seat_audience(1) and reveals["visitors"].data["value"] == ["Глаша", "Паша"]
    assert reveals["colours"].data["value"] == ["control", "recon"]


def test_card_messages_reach_the_target_without_the_sender_and_never_with_a_link():
    """«Некоторые карты позволяют отправить цели сообщение. В таком случае цель получит его в конце фазы в
    сообщении от мастера. Цель не узнает, кто отправил сообщение. Сообщение не должно содержать ссылок»"""
    state = table(player("Вася", "sheriff", hand=["Письмо", "Кофе"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Письмо", "from": "hand", "target": "Маша",
                                      "message": "Я шериф."}])
    (message,) = [e for e in events(resolution, "message") if e.audience != GM]
    assert message.audience == seat_audience(3) and message.data == {"card": "Письмо", "text": "Я шериф."}
    (gm,) = [e for e in events(resolution, "message") if e.audience == GM]
    assert gm.data["sender_name"] == "Вася" and gm.data["delivered"] is True  # the GM knows who sent it
    play = {"card": "Письмо", "from": "hand", "target": 3, "message": "смотри https://example.org"}
    assert CARDS.check_play(state, 1, play) == "message_link"
    assert CARDS.check_play(state, 1, {**play, "message": "загляни на site.ru"}) == "message_link"


def test_the_dead_receive_no_messages():
    """«Мертвые персонажи не участвуют в игре, не получают сообщений»"""
    state = table(player("Вася", "sheriff", hand=["Письмо", "Кофе"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Письмо", "from": "hand", "target": "Маша",
                                      "message": "Привет"}], gm={"damage": {"Маша": 6}})
    assert resolution.outcome["dead"] == ["Маша"]
    assert not [e for e in resolution.events if e.kind == "message" and e.audience != GM]


def test_cards_are_played_secretly():
    """«Карты играются тайно.» Plays reach the GM and the player's own report, never the public."""
    state = table(*FIVE)
    resolution = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Петя"}])
    assert {e.audience for e in events(resolution, "play")} == {GM}
    (report,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(1)]
    assert report.data["plays"][0]["card"] == "Пистолет" and report.data["plays"][0]["result"] == "done"
    (hurt,) = [e for e in events(resolution, "phase_report") if e.audience == seat_audience(2)]
    assert hurt.data["damage"] == 3 and "plays" not in hurt.data and "Вася" not in str(hurt.data["discarded"])
    for event in resolution.events:
        if event.audience == PUBLIC:
            assert "Пистолет" not in json.dumps(event.data, ensure_ascii=False)


def test_a_discard_effect_is_not_stopped_by_armour():
    state = table(player("Вася", "sheriff", sleeve=["Подножка"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Подножка", "from": "sleeve", "target": "Маша"},
                                     {"by": "Маша", "card": "Бункер", "from": "hand"}])
    assert hand(resolution.state, "Маша") == ["Совет", "Свидетель", "Камера наблюдения", "Кофе", "Кофе"]


def test_a_house_arrest_forbids_targeted_cards_for_its_phases():
    state = table(player("Вася", "sheriff", sleeve=["Домашний арест", "Нож", "Кофе"]), *FIVE[1:])
    after = close(state, plays=[{"by": "Вася", "card": "Домашний арест", "from": "sleeve", "target": "Петя"}]).state
    play = {"card": "Совет", "from": "hand", "target": 1}  # day or night
    assert CARDS.check_play(after, 2, play) == "restricted"
    after = close(after).state
    assert CARDS.check_play(after, 2, play) == "restricted"
    after = close(after).state
    assert CARDS.check_play(after, 2, play) is None


def test_a_reusable_card_stays_where_it_was_played_from():
    state = table(player("Вася", "sheriff", overt="Сплетник"), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Безлимитный тариф", "from": "sleeve", "target": "Маша",
                                      "message": "Не верь Пете"}])
    assert sleeve(resolution.state, "Вася") == ["Безлимитный тариф"]
    assert [e.data["text"] for e in events(resolution, "message") if e.audience == seat_audience(3)] == ["Не верь Пете"]


def test_a_witness_learns_whom_the_target_played_cards_at():
    state = table(*FIVE[:4], player("Паша", "killer", sleeve=["Бронежилет"]))
    resolution = close(state, plays=[{"by": "Вася", "card": "Свидетель", "from": "hand", "target": "Паша"},
                                     {"by": "Паша", "card": "Пистолет", "from": "hand", "target": "Маша"},
                                     {"by": "Паша", "card": "Бронежилет", "from": "sleeve"}])  # no target: no visit
    (reveal,) = events(resolution, "reveal")
    assert reveal.audience == seat_audience(1) and reveal.data["value"] == ["Маша"]


def test_gm_resolved_card_is_listed_for_the_gm():
    state = table(player("Вася", "sheriff", hand=["Шантаж", "Кофе"], sleeve=["Нож"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Шантаж", "from": "hand", "target": "Маша",
                                      "message": "Отдай Бункер"}])
    (gm,) = events(resolution, "gm_resolve")
    assert gm.audience == GM and gm.data["card"] == "Шантаж" and gm.data["note"]


def test_gm_applies_primitives_by_hand():
    """FORMAT.md: «GM decisions `gm: {damage: {name: n}, armour: {name: n}}` applied as if a card had done
    it». Beyond those two, `gm.effects` lists any primitive."""
    state = table(*FIVE)
    resolution = close(state, gm={"damage": {"Маша": 3}, "armour": {"Маша": 1}, "effects": [
        {"op": "draw", "target": sid(state, "Вася"), "n": 2, "to": "sleeve"},
        {"op": "give", "target": sid(state, "Петя"), "card": "Туз", "to": "sleeve"},
        {"op": "reveal", "target": sid(state, "Петя"), "what": "role", "viewer": sid(state, "Глаша")},
        {"op": "nonsense", "target": 1},
    ]})
    assert hand(resolution.state, "Маша") == HAND[2:]
    assert sleeve(resolution.state, "Вася") == ["Кофе", "Письмо"] and sleeve(resolution.state, "Петя") == ["Туз"]
    (reveal,) = events(resolution, "reveal")
    assert reveal.audience == seat_audience(4) and reveal.data["value"] == "boss"
    assert [e.data["reason"] for e in events(resolution, "gm_effect_ignored")] == ["unknown_op"]


# -- damage, armour, death --------------------------------------------------------------------------


def test_the_seeds_armour_example():
    """«У Васи 5 карт в руке: Совет, Пистолет, Камера наблюдения, Бункер, Свидетель. Вася играет Бункер и
    получает 2 брони. Также в Васю стреляет Мафия на 4 урона. Итого он должен сбросить 4-2=2 карты. Так как
    он сыграл одну карту, он не добирает вместо нее на замену - он просто теряет Бункер. Второй картой на
    сброс идет Совет, как первая карта в его Руке.»"""
    state = table(player("Вася", "sheriff", hand=["Совет", "Пистолет", "Камера наблюдения", "Бункер", "Свидетель"]),
                  *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}], gm={"damage": {"Вася": 4}})
    assert hand(resolution.state, "Вася") == ["Пистолет", "Камера наблюдения", "Свидетель"]
    assert resolution.outcome["armour"] == {"Вася": 2} and resolution.outcome["damage"] == {"Вася": 4}


def test_damage_discards_in_hand_order_which_the_player_may_change():
    """«Карты из Руки сбрасываются в том порядке, в котором они в ней расположены, и этот порядок игрок
    может поменять в любой момент.»"""
    state = table(*FIVE)
    new_order = ["Кофе", "Совет", "Пистолет", "Бункер", "Свидетель", "Камера наблюдения"]
    resolution = close(state, reorders={"Вася": new_order}, gm={"damage": {"Вася": 2}})
    assert hand(resolution.state, "Вася") == new_order[2:]
    assert CARDS.check_order(state, Order(1, "reorder", detail={"hand": new_order[:-1]})) == "bad_reorder"


def test_each_armour_point_prevents_one_discard():
    """«Каждая единица брони предотвращает один сброс карты из-за урона. Например, если цель получила 3
    урона и 2 брони, она сбросит 1 карту из Руки.»"""
    state = table(*FIVE)
    resolution = close(state, gm={"damage": {"Маша": 3}, "armour": {"Маша": 2}})
    assert hand(resolution.state, "Маша") == HAND[1:]


def test_armour_does_not_carry_over():
    """«Броня не накапливается между фазами.»"""
    state = table(*FIVE)
    night = close(state, plays=[{"by": "Маша", "card": "Бункер", "from": "hand"}])
    day = close(night.state, gm={"damage": {"Маша": 2}})
    assert day.outcome["armour"] == {} and len(hand(day.state, "Маша")) == 4


def test_armour_breach_ignores_the_targets_armour():
    state = table(player("Вася", "sheriff", sleeve=["Пролом"]), *FIVE[1:])
    resolution = close(state, plays=[{"by": "Вася", "card": "Пролом", "from": "sleeve", "target": "Маша"},
                                     {"by": "Маша", "card": "Бункер", "from": "hand"}])
    assert resolution.outcome["armour"] == {} and resolution.outcome["damage"] == {"Маша": 1}


def test_a_player_with_no_cards_in_hand_dies_and_takes_no_further_part():
    """«Если у персонажа по итогам фазы становится 0 карт в Руке, то он умирает. Мертвые персонажи не
    участвуют в игре»"""
    state = table(player("Вася", "sheriff", hand=["Пистолет", "Кофе"]), *FIVE[1:])
    resolution = close(state, gm={"damage": {"Вася": 2}})
    assert resolution.outcome["dead"] == ["Вася"] and "Вася" not in resolution.outcome["alive"]
    (died,) = events(resolution, "died")
    assert died.audience == PUBLIC and "role" not in died.data  # the roles of the dead stay secret
    after = resolution.state
    assert after.by_name("Вася").status == "dead"
    assert CARDS.allowed_actions(after, 1) == () and 1 not in CARDS.voters(after)
    assert CARDS.check_vote(after, 1, 2) == "not_a_voter" and CARDS.check_vote(after, 2, 1) == "bad_target"
    later = close(after, plays=[{"by": "Вася", "card": "Кофе", "from": "hand"}])
    assert play_of(later, "Вася", "Кофе")["reason"] == "not_alive"


def test_a_played_last_card_is_replaced_unless_damage_takes_its_place():
    """«Если он играет карты из Руки в эту фазу, то вместо сброса карт он просто не добирает новых.»"""
    state = table(player("Вася", "sheriff", hand=["Бункер"]), *FIVE[1:])
    alive = close(state, plays=[{"by": "Вася", "card": "Бункер", "from": "hand"}])
    assert hand(alive.state, "Вася") == ["Кофе"] and not alive.outcome["dead"]
    state = table(player("Вася", "sheriff", hand=["Кофе"]), *FIVE[1:])
    state = table(player("Вася", "sheriff", hand=["Пистолет"]), *FIVE[1:])
    dead = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Петя"}],
                 gm={"damage": {"Вася": 1}})
    assert dead.outcome["dead"] == ["Вася"]


def test_the_dead_win_with_their_faction():
    """«Они все еще могут выиграть, если выиграла их фракция.»"""
    state = table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "doctor"))
    resolution = close(state, gm={"damage": {"Петя": 6, "Вася": 6}})
    assert resolution.state.winner == "law"
    (over,) = events(resolution, "game_over")
    assert {w["name"] for w in over.data["winners"]} == {"Вася", "Маша"}


# -- the Veche --------------------------------------------------------------------------------------


def day_table(*players):
    return to_day(table(*players))


def test_veche_leader_is_executed_with_six_damage():
    """«По окончании дня персонаж, набравший больше всего голосов, получает 6 урона, если была выбрана
    казнь.»"""
    state = day_table(*FIVE)
    resolution = close(state, votes={"Вася": "Петя", "Маша": "Петя", "Глаша": "Паша", "Петя": "Вася"},
                       measures={"Вася": "execution", "Маша": "execution", "Петя": "prison"})
    out = resolution.outcome
    assert out["votes"] == {"Вася": "Петя", "Петя": "Вася", "Маша": "Петя", "Глаша": "Паша", "Паша": None}
    assert out["tally"] == {"Петя": 2, "Вася": 1, "Паша": 1}
    assert out["executed"] == ["Петя"] and out["measure"] == "execution" and out["damage"] == {"Петя": 6}
    assert out["dead"] == ["Петя"] and out["peace"] is False


def test_execution_damage_meets_the_days_armour():
    """«По окончании дня персонаж, набравший больше всего голосов, получает 6 урона, если была выбрана
    казнь.» «Каждая единица брони предотвращает один сброс карты из-за урона.» «Если он играет карты
    из Руки в эту фазу, то вместо сброса карт он просто не добирает новых.»"""
    state = day_table(player("Вася", "sheriff"), player("Петя", "boss", hand=HAND + ["Из последних сил"]),
                      *FIVE[2:])
    resolution = close(state, votes={"Вася": "Петя", "Маша": "Петя"}, measures={"Вася": "execution"},
                       plays=[{"by": "Петя", "card": "Из последних сил", "from": "hand"}])
    assert resolution.outcome["executed"] == ["Петя"] and not resolution.outcome["dead"]
    assert len(hand(resolution.state, "Петя")) == 4  # 7 - the card (not replaced) - 2 discarded


def test_a_measure_tie_is_prison():
    """«При равенстве голосов побеждает тюрьма.»"""
    state = day_table(*FIVE)
    tie = close(state, votes={"Вася": "Петя", "Маша": "Петя"},
                measures={"Вася": "execution", "Маша": "prison"})
    assert tie.outcome["imprisoned"] == ["Петя"] and tie.outcome["measure"] == "prison"
    none = close(state, votes={"Вася": "Петя"})
    assert none.outcome["measure"] == "prison"


def test_prison_takes_the_sleeve_but_aces_and_overt_cards_and_forbids_targeted_cards_for_four_phases():
    """«Если же была выбрана тюрьма, он теряет карты из рукава, кроме Тузов и полученных от Явной роли
    ... и в следующие 4 фазы не может играть целевых карт.»"""
    state = day_table(player("Вася", "sheriff"), player("Петя", "boss", overt="Охранник",
                                                        sleeve=["Туз", "Нож", "Бункер"]), *FIVE[2:])
    resolution = close(state, votes={"Вася": "Петя", "Маша": "Петя"})
    after = resolution.state
    assert sleeve(after, "Петя") == ["Камера наблюдения", "Туз"]
    assert resolution.outcome["sleeves"] == {"Петя": ["Камера наблюдения", "Туз"]}
    night = after
    assert CARDS.check_play(night, 2, {"card": "Пистолет", "from": "hand", "target": 1}) == "restricted"
    assert CARDS.check_play(night, 2, {"card": "Бункер", "from": "hand"}) is None  # untargeted: allowed
    (event,) = events(resolution, "imprisoned")
    assert event.audience == PUBLIC and event.data["phases"] == 4


def test_prison_lasts_exactly_four_phases():
    """«...и в следующие 4 фазы не может играть целевых карт.» The four phases after the day of the
    Veche; the fifth allows targeted cards again."""
    state = day_table(player("Вася", "sheriff"), player("Петя", "boss", hand=HAND + ["Боевое искусство"]),
                      *FIVE[2:])
    after = close(state, votes={"Вася": "Петя", "Маша": "Петя"}).state
    play = {"card": "Боевое искусство", "from": "hand", "target": sid(after, "Вася")}  # day or night
    seen = []
    for _ in range(5):
        seen.append(CARDS.check_play(after, sid(after, "Петя"), play))
        after = close(after).state
    assert seen == ["restricted"] * 4 + [None]


def test_an_imprisoned_maniac_keeps_one_more_card_of_his_choice():
    """«(Маньяк сохраняет ещё одну карту на выбор)»"""
    state = day_table(player("Вася", "sheriff"), player("Петя", "maniac", sleeve=["Нож", "Бункер", "Кофе"]),
                      *FIVE[2:])
    chosen = close(state, votes={"Вася": "Петя", "Маша": "Петя"}, prison_keep={sid(state, "Петя"): "Бункер"})
    assert sleeve(chosen.state, "Петя") == ["Бункер"]
    default = close(state, votes={"Вася": "Петя", "Маша": "Петя"})
    assert sleeve(default.state, "Петя") == ["Нож"]


def test_a_strict_majority_for_peace_punishes_nobody():
    """«Если строгое большинство голосов "за мир", то казни и посадки не происходит.»"""
    state = day_table(*FIVE)
    peace = close(state, votes={"Вася": "peace", "Петя": "peace", "Маша": "peace", "Глаша": "Паша"})
    assert peace.outcome["peace"] is True and peace.outcome["executed"] == [] and peace.outcome["imprisoned"] == []
    assert peace.outcome["tally"] == {"Паша": 1, "peace": 3} and peace.outcome["measure"] is None
    half = close(state, votes={"Вася": "peace", "Петя": "peace", "Маша": "Паша", "Глаша": "Паша"},
                 measures={"Маша": "execution"})
    assert half.outcome["peace"] is False and half.outcome["executed"] == ["Паша"]


def test_nothing_happens_when_two_players_are_left():
    """«Также их не происходит, если остались два игрока, независимо от силы голоса.»"""
    state = day_table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "joker"))
    state = state.with_seats([replace(state.by_name("Маша"), status="dead")])
    resolution = close(state, votes={"Вася": "Петя", "Петя": "Петя"}, measures={"Вася": "execution"})
    assert resolution.outcome["peace"] is True and resolution.outcome["executed"] == []


def test_vote_weights_come_from_the_rule_set():
    """Vote strength is the rule set's («Авторитет +1 к силе голоса (голос считается за 2)» comes with
    part 2 through `vote_weight`): a weight of 2 outweighs one vote."""

    class Weighted(CardsRuleset):
        def vote_weight(self, state, seat):
            return 2.0 if state.seat(seat).name == "Глаша" else 1.0

    state = day_table(*FIVE)
    resolution = close(state, votes={"Вася": "Петя", "Глаша": "Паша"}, measures={"Глаша": "execution"},
                       ruleset=Weighted())
    assert resolution.outcome["tally"] == {"Паша": 2, "Петя": 1}
    assert resolution.outcome["executed"] == ["Паша"]
    (result,) = events(resolution, "veche_result")
    assert result.data["measure_tally"] == {"execution": 2, "prison": 0}


def test_the_measure_hook_may_change_the_votes_measure():
    """Part 2's «Политик: Если он становится лидером голосования в первый раз, попадает в тюрьму вместо
    казни» plugs in at `veche_measure`."""

    class Lenient(CardsRuleset):
        def veche_measure(self, state, leader, measure):
            return "prison"

    state = day_table(*FIVE)
    resolution = close(state, votes={"Вася": "Паша", "Маша": "Паша"}, measures={"Вася": "execution"},
                       ruleset=Lenient())
    assert resolution.outcome["imprisoned"] == ["Паша"] and resolution.outcome["measure"] == "prison"


def test_a_tie_for_the_lead_goes_by_overt_role_name_in_alphabetical_order():
    """«Приоритет повешения - по алфавиту.»"""
    state = day_table(player("Вася", "sheriff", overt="Ёжик"), player("Петя", "boss", overt="Банкир"),
                      player("Маша", "doctor", overt="Воин"), *FIVE[3:])
    resolution = close(state, votes={"Вася": "Маша", "Петя": "Вася", "Глаша": "Петя"})
    assert resolution.outcome["imprisoned"] == ["Петя"]  # Банкир < Воин < Ёжик
    (tie,) = events(resolution, "tie_break")
    assert tie.data["name"] == "Петя" and tie.audience == PUBLIC
    two = close(state, votes={"Вася": "Маша", "Глаша": "Вася"})
    assert two.outcome["imprisoned"] == ["Маша"]  # Воин < Ёжик («ё» sorts as «е»)


def test_night_has_no_veche():
    """«Днем каждый персонаж может публично отдать голос за любого персонажа.» «Кроме этого днём
    проводится голосование за меру наказания» — by day only; a night has no Veche."""
    state = table(*FIVE)
    assert CARDS.voters(state) == ()
    resolution = close(state)
    assert resolution.outcome["votes"] == {} and resolution.outcome["measure"] is None
    assert resolution.state.phase == "day 1" and close(resolution.state).state.phase == "night 2"


@pytest.mark.parametrize("text,measure", [
    ("[b]казнь[/b]", "execution"),
    ("[b]Казнить Васю![/b]", "execution"),
    ("Мера — [b]за казнь[/b]", "execution"),
    ("[b]тюрьма[/b]", "prison"),
    ("[b]В тюрьму Петю[/b]", "prison"),
    ("[b]мера: тюрьма[/b]", "prison"),
    ("[b]посадить[/b]", "prison"),
    ("[b]казнь[/b], хотя нет: [b]тюрьма[/b]", "prison"),
    ("казнь", None),
    ("[quote][b]казнь[/b][/quote]", None),
    ("[b]не казнить[/b]", None),
    ("[b]Голосую за Петю[/b]", None),
    ("[quote=Вася][b]тюрьма[/b][/quote] [b]казнь[/b]", "execution"),
    ("[private=\"Вася\"][b]казнь[/b][/private]", None),
])
def test_the_measure_is_read_from_bold_text(text, measure):
    """«Кроме этого днём проводится голосование за меру наказания - казнь или тюрьма.» Read from bold
    text like the vote (docs/rulesets/cards.md: the measure's syntax)."""
    assert parse_measure(text) == measure


def test_peace_is_a_vote_and_a_measure_must_be_known():
    state = day_table(*FIVE)
    assert CARDS.check_vote(state, 1, "peace") is None
    assert CARDS.check_vote(state, 1, 1) is None  # «за любого персонажа»
    assert CARDS.check_measure(state, 1, "execution") is None
    assert CARDS.check_measure(state, 1, "exile") == "bad_target"


# -- the win --------------------------------------------------------------------------------------


@pytest.mark.parametrize("alive,winner", [
    (["law", "law", "joker"], "law"),
    (["mafia", "traitor"], "mafia"),
    (["traitor", "joker", "hero"], "mafia"),
    (["maniac"], "maniac"),
    ([], "none"),
    (["joker"], "none"),
    (["hero"], "none"),
    (["law", "mafia"], None),
    (["law", "maniac"], None),
    (["maniac", "joker"], None),
    (["joker", "hero"], None),
])
def test_who_wins(alive, winner):
    """«Закон побеждает, если мертва вся Мафия, Предатель и Маньяк и жив хоть один представитель Закона.
    Мафия и Предатель побеждают, если мёртв весь Закон и Маньяк и жива хоть одна мафия или предатель.
    Маньяк побеждает, если мертвы все, кроме него самого. ... В случае ситуации "умерли все" не выигрывает
    никто.» and the joker: «Если остался единственным выжившим - проигрывает, как и все.»"""
    assert winner_of(alive) == winner


def test_everybody_dead_is_nobodys_win():
    """«В случае ситуации "умерли все" не выигрывает никто.»"""
    state = table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "doctor"))
    resolution = close(state, gm={"damage": {"Вася": 6, "Петя": 6, "Маша": 6}})
    assert resolution.state.over and resolution.state.winner == "none" and resolution.outcome["winner"] == "none"


def test_the_traitor_wins_with_the_mafia():
    """«Мафия и Предатель побеждают»"""
    state = table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "traitor"))
    resolution = close(state, gm={"damage": {"Вася": 6, "Петя": 6}})
    assert resolution.state.winner == "mafia"
    (over,) = events(resolution, "game_over")
    assert {w["name"] for w in over.data["winners"]} == {"Петя", "Маша"}


def test_the_hero_wins_with_the_law_if_he_lives_to_see_it():
    """«Герой: ... Побеждает при победе Закона, если дожил до неё»"""
    state = table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "hero"))
    resolution = close(state, gm={"damage": {"Петя": 6}})
    (over,) = events(resolution, "game_over")
    assert {w["name"] for w in over.data["winners"]} == {"Вася", "Маша"}


def test_the_joker_wins_at_once_by_naming_every_role():
    """«В любой момент может написать в личной комнате список соответствия Явных и Тайных ролей всех
    игроков. Если все роли угаданы верно, побеждает моментально.»"""
    state = table(player("Вася", "joker"), *FIVE[1:])
    guess = {s.id: s.role for s in state.seats if s.name != "Вася"}
    resolution = close(state, joker_guess={1: guess}, gm={"damage": {"Петя": 6}})
    assert resolution.state.over and resolution.state.winner == "joker"
    assert resolution.outcome["dead"] == []  # the game ended before the phase's effects


def test_a_wrong_joker_leaves_the_game_and_every_ace_vanishes():
    """«Иначе покидает игру, и все карты Туз исчезают.»"""
    state = table(player("Вася", "joker"), player("Петя", "boss", sleeve=["Туз"], hand=["Туз", "Кофе"]), *FIVE[2:])
    guess = {s.id: "sheriff" for s in state.seats if s.name != "Вася"}
    resolution = close(state, joker_guess={1: guess})
    after = resolution.state
    assert after.by_name("Вася").status == "left" and "Вася" not in resolution.outcome["alive"]
    assert sleeve(after, "Петя") == [] and hand(after, "Петя") == ["Кофе"] and sleeve(after, "Вася") == []
    (left,) = events(resolution, "joker_left")
    assert left.audience == PUBLIC and left.data["aces_vanished"] == 3
    assert CARDS.check_order(state, Order(1, "joker_guess", detail={"roles": {2: "boss"}})) == "bad_guess"


def test_a_mafioso_sends_one_message_to_another_recharged_by_a_rebuild():
    """«Один раз каждый мафиози может прислать сообщение другому мафу. Способность перезаряжается при
    пересборе колоды.»"""
    state = table(player("Вася", "boss", deck=["Нож"]), player("Петя", "killer"), *FIVE[2:4])
    first = close(state, mafia_messages={1: {"to": 2, "text": "Бей Машу"}},
                  discards={"Вася": ["Пистолет", "Бункер"]})
    (message,) = events(first, "mafia_message")[:1]
    assert message.audience == seat_audience(2) and message.data["name"] == "Вася"
    after = first.state
    assert "mafia_message" not in CARDS.allowed_actions(after, 1)
    assert CARDS.check_order(after, Order(1, "mafia_message", 2, detail={"text": "x"})) == "not_your_action"
    assert CARDS.check_order(state, Order(1, "mafia_message", 3, detail={"text": "x"})) == "not_mafia"
    rebuilt = close(after, rebuilds={1: {"cards": random.Random(1).sample(
        ["Наручники", "Наручники", "Подмена", "Подмена", "Отдел кадров", "Отдел кадров", "Допрос", "Допрос",
         "Свидетель", "Свидетель", "Досье", "Досье", "Бинокль", "Анонимка", "Осторожность"], 15)}}).state
    assert "mafia_message" in CARDS.allowed_actions(rebuilt, 1)


def test_cards_inputs_come_in_extra_and_orders_are_reported_as_ignored():
    state = table(*FIVE)
    resolution = CARDS.resolve(state, PhaseInputs(orders={1: Order(1, "play", 2, detail={"card": "Пистолет",
                                                                                          "from": "hand"})}),
                               seed=0, now=NOW)
    assert resolution.outcome["damage"] == {}
    assert [e.data["reason"] for e in events(resolution, "input_ignored")] == ["cards_inputs_are_in_extra"]


def test_state_round_trips_through_json_between_phases():
    import json

    state = table(*FIVE)
    after = close(state, plays=[{"by": "Вася", "card": "Пистолет", "from": "hand", "target": "Петя"}]).state
    assert GameState.from_json(json.loads(json.dumps(after.to_json()))) == after


def test_only_the_deck_is_owed_the_plays_are_a_choice():
    """«В начале игры, узнав свою Тайную роль, каждый персонаж составляет себе колоду» — the deck is
    owed (one is dealt at the deadline otherwise); «Каждую фазу (День или Ночь) можно сыграть не
    более одной карты из Руки и не более одной карты из Рукава» — may, not must: nobody owes a play."""
    from games.rulesets.cards.engine import CARDS

    state, _events = CARDS.new_game([(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")], seed=1)
    assert all(CARDS.owed_actions(state, s) == ("deck",) for s in (1, 2, 3))
    built, _ = CARDS.new_game([(1, "Вася", "sheriff"), (2, "Петя", "boss"), (3, "Маша", "doctor")], seed=1,
                              seat_data={i: {"hand": ["Кофе"] * 6, "deck": ["Совет"]} for i in (1, 2, 3)})
    assert "play" in CARDS.allowed_actions(built, 1)
    assert CARDS.owed_actions(built, 1) == ()
