"""Part 2 (b) of the cards rule set on the site (seed 001_666f92ca90d279a9.txt): the «Класс» list at
signup and the role page's line, the deck page's Engineer picks and the overt roles' deck limits, the
Cultist's payment from the Hand, the Free cards on «My cards», and the GM's options (the new-game form,
his tie-break pick, the decks he builds)."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game, GMAction, Order
from games.rulesets.cards.engine.roles import OVERT_ROLES
from games.rulesets.cards.selectors import overt_role_list, overt_summary
from games.rulesets.cards.services import card_gm_deck_set, card_gm_tie_break_set, card_view
from games.rulesets.cards.views import deck_from_text
from games.rulesets.cards.wording import OVERT_SUMMARIES
from games.services import ActionRefused
from games.services.games import game_create
from games.services.resolution import phase_close
from tests.conftest import make_user
from tests.games.test_cards_services import cards_game, submit, to_day

SHERIFF_DECK = [
    "Пистолет", "Пистолет", "Боевое искусство", "Боевое искусство", "Дробовик", "Дробовик",
    "Камера наблюдения", "Камера наблюдения", "Свидетель", "Свидетель", "Досье", "Досье",
    "Бинокль", "Анонимка", "Осторожность",
]
FOUR_OFF = SHERIFF_DECK[:11] + ["Бункер", "Бункер", "Кофе", "Кофе"]


# --- The «Класс» list ----------------------------------------------------------------------------------
def test_every_overt_role_has_its_one_line():
    """«Каждая Явная роль получает особое игровое преимущество»: the signup list shows each role of the
    engine's registry with its ability, one line each, from the same keys."""
    assert set(OVERT_SUMMARIES) == set(OVERT_ROLES)
    with translation.override("en"):
        rows = overt_role_list()
        assert [r["name"] for r in rows] == sorted(OVERT_ROLES)
        assert all(r["summary"] and "\n" not in r["summary"] for r in rows)
    with translation.override("ru"):
        # Aliases and spelling as written in an application reach the same line; a name of one's own has none.
        assert overt_summary("механик") == overt_summary("Инженер") != ""
        assert overt_summary("Мародёр") == overt_summary("Мародер") != ""
        assert overt_summary("Ёжик") == ""


@pytest.mark.django_db
def test_the_signup_form_lists_the_classes_with_their_abilities(client):
    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=10)
    client.force_login(make_user("Вася"))
    with translation.override("en"):
        page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "cards-overt-list" in page
    for name in ("Крупье", "Гений", "Горец", "Мститель"):
        assert f"<dt>{name}</dt>" in page
    assert "Up to 4 off-colour cards in his deck instead of 2" in page or "Лимит карт не своего цвета" in page


@pytest.mark.django_db
def test_the_role_page_says_what_the_class_does(client):
    game, _gm, users, seats = cards_game(overt={"Вася": "Крупье", "Петя": "Ёжик"})
    client.force_login(users["Вася"])
    page = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert "cards-overt-ability" in page and "Крупье" in page
    assert overt_summary("Крупье") in page
    client.force_login(users["Петя"])
    page = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert "Ёжик" in page and "cards-overt-ability" in page


# --- Deck building -------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_a_croupiers_legal_deck_stands_and_is_dealt(client):
    """The issue's complaint: «Крупье: Лимит карт не своего цвета в колоде - 4, вместо 2» — his deck of four
    off-colour cards is accepted on the deck page and dealt, not replaced by a random one."""
    game, _gm, users, seats = cards_game(hands=False, overt={"Вася": "Крупье"})
    assert submit(game, users["Маша"], "deck", cards=FOUR_OFF)[1].reason == "bad_deck"  # the doctor's limit is 2
    order, confirmation = submit(game, users["Вася"], "deck", cards=FOUR_OFF)
    assert confirmation.accepted
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    view = card_view(game=game, seat=seats["Вася"])
    assert sorted([c.name for c in view.hand] + []) and view.deck_size == 9
    assert not game.events.filter(kind="deck_auto", data__name="Вася").exists()


@pytest.mark.django_db
def test_the_engineer_picks_two_cards_on_the_deck_page(client):
    """«Инженер/Механик: Собирая Колоду, может выбрать из нее две карты. Эти карты гарантированно будут
    среди 6 сданных карт.» The deck page offers the choice; the two cards are in his opening Hand."""
    game, _gm, users, seats = cards_game(hands=False, overt={"Вася": "Механик"})
    client.force_login(users["Вася"])
    page = client.get(reverse("games:deck", args=[game.pk])).content.decode()
    assert 'name="pick1"' in page
    client.force_login(users["Петя"])
    assert 'name="pick1"' not in client.get(reverse("games:deck", args=[game.pk])).content.decode()
    assert submit(game, users["Вася"], "deck", cards=SHERIFF_DECK, picks=["Бинокль", "Кофе"])[1].reason == "bad_picks"
    assert submit(game, users["Вася"], "deck", cards=SHERIFF_DECK,
                  picks=["Бинокль", "Осторожность", "Досье"])[1].reason == "bad_picks"
    client.force_login(users["Вася"])
    from games.rulesets.cards.selectors import game_deckable_names

    names = game_deckable_names(game)
    post = {f"count-{i}": SHERIFF_DECK.count(n) for i, n in enumerate(names)}
    response = client.post(reverse("games:deck", args=[game.pk]),
                           {**post, "submit": "1", "pick1": "Бинокль", "pick2": "Осторожность"})
    assert response.status_code == 302
    row = Order.objects.filter(actor=seats["Вася"], action="deck", valid=True).latest("pk")
    assert row.detail["picks"] == ["Бинокль", "Осторожность"]
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    hand = [c.name for c in card_view(game=game, seat=seats["Вася"]).hand]
    assert len(hand) == 6 and {"Бинокль", "Осторожность"} <= set(hand)


# --- Paying ---------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_cultist_pays_from_his_hand_on_my_cards(client):
    """«Культист: Сбрасывая карты на оплату Цены, может сбросить до двух карт в фазу из Руки вместо Рукава.»
    The play form offers his Hand cards as payment; the payment stands in the ledger in words."""
    game, _gm, users, seats = cards_game(overt={"Вася": "Культист"})
    to_day(game)
    client.force_login(users["Вася"])
    page = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    assert 'name="pay_hand"' in page  # Запрет (Price 1, by day) can be paid from his Hand
    client.force_login(users["Петя"])
    assert 'name="pay_hand"' not in client.get(reverse("games:cards", args=[game.pk])).content.decode()
    client.force_login(users["Вася"])
    response = client.post(reverse("games:card_input", args=[game.pk]), {
        "seat": seats["Вася"].pk, "action": "play", "card": "Запрет", "from": "hand",
        "target": seats["Петя"].pk, "pay_hand": "Кофе"})
    assert response.status_code == 302
    row = Order.objects.filter(actor=seats["Вася"], action="play").latest("pk")
    assert row.valid and row.detail["pay_hand"] == ["Кофе"]
    assert submit(game, users["Петя"], "play", card="Запрет", target=seats["Вася"].pk,
                  pay_hand=["Кофе"], **{"from": "hand"})[1].reason == "no_hand_pay"


@pytest.mark.django_db
def test_the_spendthrifts_priced_card_shows_free_and_costs_nothing(client):
    """«Мот: Его карты с ценой 2 и более являются Свободными»: his Отдел кадров (Price 2) shows Free and
    Price 0 on «My cards» and may be played with an empty Sleeve."""
    game, _gm, users, seats = cards_game(overt={"Вася": "Мот"}, sleeve=None)
    from games.engine.state import GameState

    state = GameState.from_json(game.state)
    players = dict(state.memory["players"])
    players[str(seats["Вася"].pk)] = {**players[str(seats["Вася"].pk)],
                                     "hand": ["Отдел кадров", "Кофе", "Бункер", "Письмо", "Совет", "Запрет"]}
    Game.objects.filter(pk=game.pk).update(state=state.to_json() | {"memory": {**state.memory, "players": players}})
    game.refresh_from_db()
    view = card_view(game=game, seat=seats["Вася"])
    assert view.hand_prices[0] == 0 and view.hand_prices[-1] == 1
    client.force_login(users["Вася"])
    page = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    assert "Free for you" in page or "cards-free" in page
    assert submit(game, users["Вася"], "play", card="Отдел кадров", target=seats["Петя"].pk,
                  **{"from": "hand"})[1].accepted


# --- The GM's options ----------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_new_game_form_takes_the_gms_readings(client):
    gm = make_user("Ведущий")
    client.force_login(gm)
    response = client.post(reverse("games:game_new"), {
        "title": "Карточная", "ruleset": "cards", "size": 10, "phase_hours": 24, "extra_neutral": "random",
        "tie_break": "gm", "measure_weight": "plain", "illegal_deck": "gm"})
    assert response.status_code == 302
    options = Game.objects.get(title="Карточная").options
    assert (options["tie_break"], options["measure_weight"], options["illegal_deck"]) == ("gm", False, "gm")


@pytest.mark.django_db
def test_the_gm_picks_the_tied_leader_when_the_game_says_so():
    """«Приоритет повешения - по алфавиту», the option `tie_break: gm`: the GM's pick, kept and logged;
    refused in a game where the alphabet decides, and to anyone but the GM."""
    game, gm, users, seats = cards_game(options={"tie_break": "gm"})
    with pytest.raises(ActionRefused):
        card_gm_tie_break_set(phase=game.current_phase, gm=gm, seat_pk=seats["Маша"].pk)  # by night
    to_day(game)
    with pytest.raises(ActionRefused):
        card_gm_tie_break_set(phase=game.current_phase, gm=users["Вася"], seat_pk=seats["Маша"].pk)
    card_gm_tie_break_set(phase=game.current_phase, gm=gm, seat_pk=seats["Маша"].pk)
    game.current_phase.refresh_from_db()
    assert game.current_phase.gm_decisions["tie_break"] == seats["Маша"].pk
    assert GMAction.objects.filter(game=game, action="card_tie_break").exists()


@pytest.mark.django_db
def test_the_gm_picks_no_tied_leader_where_the_alphabet_decides():
    plain, plain_gm, _u, plain_seats = cards_game()
    to_day(plain)
    with pytest.raises(ActionRefused):
        card_gm_tie_break_set(phase=plain.current_phase, gm=plain_gm, seat_pk=plain_seats["Маша"].pk)


@pytest.mark.django_db
def test_the_gm_builds_the_deck_of_a_player_without_a_legal_one(client):
    """The option `illegal_deck: gm`: the GM writes a deck on his dashboard, checked with the player's deck
    rules; at the deadline a player with no legal deck of his own gets it and is told in words."""
    game, gm, users, seats = cards_game(hands=False, options={"illegal_deck": "gm"})
    phase = game.current_phase
    problems = card_gm_deck_set(phase=phase, gm=gm, seat=seats["Вася"], cards=SHERIFF_DECK[:-1])
    assert problems and not (phase.gm_decisions or {}).get("decks")
    client.force_login(gm)
    page = client.get(reverse("games:gm_cards", args=[game.pk])).content.decode()
    assert "gm-decks" in page
    text = "\n".join(["Пистолет x2", "Боевое искусство ×2", "Дробовик x2", "Камера наблюдения x2", "Свидетель x2",
                      "Досье x2", "Бинокль", "Анонимка", "Осторожность"])
    assert sorted(deck_from_text(text)) == sorted(SHERIFF_DECK)
    response = client.post(reverse("games:gm_card_effect", args=[game.pk]),
                           {"action": "gm_deck", "seat": seats["Вася"].pk, "cards": text})
    assert response.status_code == 302
    submit(game, users["Вася"], "deck", cards=["Пистолет"] * 3)  # refused: his own deck is not legal
    phase_close(phase_id=phase.pk)
    game.refresh_from_db()
    view = card_view(game=game, seat=seats["Вася"])
    assert sorted([c.name for c in view.hand]) and view.deck_size == 9
    auto = game.events.get(kind="deck_auto", data__name="Вася", audience=f"seat:{seats['Вася'].pk}")
    assert auto.data["by"] == "gm" and auto.data["deck"] == sorted(SHERIFF_DECK)
    from games.wording import event_text

    with translation.override("en"):
        assert "the GM built his deck" in event_text("cards", "deck_auto", auto.data)


def test_the_cultists_report_names_the_hand_cards_that_paid():
    """«может сбросить до двух карт в фазу из Руки»: his letter from the GM says which Hand cards paid."""
    from games.wording import event_text

    data = {"seat": 1, "name": "Вася", "plays": [{"card": "Дробовик", "from": "hand", "target_name": "Петя",
                                                  "result": "done", "reason": None, "paid": [],
                                                  "paid_hand": ["Кофе"]}]}
    with translation.override("en"):
        assert "paid from the Hand with Кофе" in event_text("cards", "phase_report", data)


@pytest.mark.django_db
def test_the_magicians_free_cards_show_on_my_cards(client):
    """«Фокусник: ... нижние две карты в ней становятся Свободными. На карте видно, является ли она
    Свободной.» His marked Hand card shows Free and costs no Price; his page says how many Free cards wait
    at the bottom of his deck."""
    game, _gm, users, seats = cards_game(overt={"Вася": "Фокусник"})
    from games.engine.state import GameState

    state = GameState.from_json(game.state)
    key = str(seats["Вася"].pk)
    players = dict(state.memory["players"])
    players[key] = {**players[key], "hand": ["Запрет", "Кофе", "Бункер", "Письмо", "Совет", "Пистолет"],
                    "free_marks": {"hand": ["Запрет"]}, "free_bottom": 2}
    Game.objects.filter(pk=game.pk).update(state=state.to_json() | {"memory": {**state.memory, "players": players}})
    game.refresh_from_db()
    view = card_view(game=game, seat=seats["Вася"])
    assert view.free_hand == ["Запрет"] and view.hand_prices[0] == 0 and view.free_deck_bottom == 2
    client.force_login(users["Вася"])
    with translation.override("en"):
        page = client.get(reverse("games:cards", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "cards-free-bottom" in page
    # The Free badge with its explanation (worded in the user's own language, whatever the request asks).
    assert 'data-card="Запрет"' in page and '<span class="badge cards-free" title="' in page


@pytest.mark.django_db
def test_the_cultists_two_hand_cards_a_phase_count_over_both_his_plays():
    """«до двух карт в фазу»: with two Hand cards standing for his Hand play, a Sleeve play paid with one
    more Hand card is refused when sent (and the close would refuse it too)."""
    game, _gm, users, seats = cards_game(overt={"Вася": "Культист"}, sleeve={"Вася": ["Дробовик"]})
    from games.engine.state import GameState

    state = GameState.from_json(game.state)
    key = str(seats["Вася"].pk)
    players = dict(state.memory["players"])
    players[key] = {**players[key], "hand": ["Снайперская винтовка", "Кофе", "Бункер", "Письмо", "Совет", "Запрет"]}
    Game.objects.filter(pk=game.pk).update(state=state.to_json() | {"memory": {**state.memory, "players": players}})
    game.refresh_from_db()
    first = submit(game, users["Вася"], "play", card="Снайперская винтовка", target=seats["Петя"].pk,
                   pay_hand=["Кофе", "Бункер"], **{"from": "hand"})[1]
    assert first.accepted
    second = submit(game, users["Вася"], "play", card="Дробовик", target=seats["Петя"].pk,
                    pay_hand=["Письмо"], **{"from": "sleeve"})[1]
    assert second.reason == "hand_pay_limit"
    assert submit(game, users["Вася"], "play", card="Дробовик", target=seats["Петя"].pk,
                  **{"from": "sleeve"})[1].reason == "cannot_pay"  # his Sleeve holds only the card itself
