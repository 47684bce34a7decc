"""The GM's set-up of a game (issues 6 and 9): how the players may talk (the communication form on
the game page), the card collection of a cards game (edited before the start, frozen at it, shown
on the game's rules page), and the applications' contacts («Внешность»), read by the GMs only,
before and after the start. Also the two cards inputs with forms of their own: the Joker's list
and the card the Maniac keeps in prison."""

from __future__ import annotations

import pytest
import yaml
from django.urls import reverse

from games.rulesets.cards.engine import CARDS
from games.rulesets.cards.engine.collection import DEFAULT_COLLECTION_PATH
from games.engine.state import GameState
from games.models import Game, GMAction, Order, Thread
from games.services import ActionRefused
from games.rulesets.cards.services import game_set_collection
from games.services.games import game_create, game_set_communication
from games.services.lifecycle import game_signup, game_start
from games.selectors.communication import anonymous_rules, communication_of, private_mode, rooms_enabled
from tests.conftest import client_for, make_user
from tests.games.test_cards_pages import EN, deckbuilding, night, text_of  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def signups(ruleset: str = "forum", size: int = 7, **options) -> tuple[Game, object, list]:
    gm = make_user("Ведущий")
    game = game_create(title="Настройки", gm=gm, ruleset=ruleset, size=size, options=options or None)
    players = [make_user(f"Игрок{i}") for i in range(size)]
    for i, user in enumerate(players):
        game_signup(game=game, user=user, overt_role=f"Класс{i}" if ruleset == "cards" else "",
                    contacts=f"tg @secret{i}" if ruleset == "cards" else "")
    return game, gm, players


def post_communication(client, game, **fields):
    data = {"private_messages": "anyone", "anonymous_limit": "0", **fields}
    return client.post(reverse("games:communication", args=[game.pk]), data, **EN)


# --- Communication ---------------------------------------------------------------------------------
def test_communication_defaults_follow_the_rule_set():
    forum, _gm, _p = signups("forum")
    assert communication_of(forum) == {"private_messages": "anyone", "rooms": False, "team_chat": True,
                                       "anonymous_limit": 5, "anonymous_approval": False, "night_silence": False}
    club = game_create(title="Клуб", gm=make_user("Третий"), ruleset="club", size=12)
    assert communication_of(club)["night_silence"] is True  # «Ночью строго запрещено ... издавать звуки»
    cards = game_create(title="Карты", gm=make_user("Другой"), ruleset="cards", size=10)
    assert communication_of(cards)["rooms"] is True and communication_of(cards)["team_chat"] is False


def test_the_gm_sets_private_messages_rooms_and_anonymous_messages_from_the_game_page():
    game, gm, _players = signups("forum")
    response = post_communication(client_for(gm), game, private_messages="neighbours", rooms="on",
                                  anonymous_limit="2", anonymous_approval="on")
    assert response.status_code == 302
    game.refresh_from_db()
    assert private_mode(game) == "neighbours" and rooms_enabled(game)
    assert anonymous_rules(game) == {"limit": 2, "approval": True}
    assert GMAction.objects.filter(game=game, action="communication").exists()
    page = text_of(client_for(gm).get(game.get_absolute_url(), **EN))
    assert 'id="communication"' in page and 'value="neighbours" selected' in page


def test_the_gm_switches_anonymous_messages_off_with_a_zero_limit():
    game, gm, _players = signups("forum")
    post_communication(client_for(gm), game, anonymous_limit="0")
    game.refresh_from_db()
    assert anonymous_rules(game) is None


@pytest.mark.parametrize("fields", [{"private_messages": "everyone"}, {"anonymous_limit": "-1"},
                                    {"anonymous_limit": "51"}, {"anonymous_limit": "много"}])
def test_a_forged_communication_form_is_refused_and_changes_nothing(fields):
    game, gm, _players = signups("forum")
    before = dict(game.options)
    response = post_communication(client_for(gm), game, **fields)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.options == before
    assert not GMAction.objects.filter(game=game, action="communication").exists()


@pytest.mark.parametrize("who", ["player", "spectator", "anonymous", "other_gm"])
def test_only_the_games_gm_sets_its_communication(who):
    game, gm, players = signups("forum")
    user = {"player": players[0], "spectator": make_user("Зритель"), "anonymous": None,
            "other_gm": make_user("Чужой ведущий")}[who]
    response = post_communication(client_for(user), game, private_messages="off")
    assert response.status_code in (302, 404)
    if user is None:
        assert "/accounts/login/" in response["Location"]
    game.refresh_from_db()
    assert private_mode(game) == "anyone"
    page = text_of(client_for(user).get(game.get_absolute_url(), **EN))
    assert 'id="communication"' not in page


def test_the_team_chat_is_set_before_the_start_only():
    game, gm, _players = signups("forum")
    game_set_communication(game=game, by=gm, private_messages="anyone", rooms=False, team_chat=False,
                           anonymous_limit=5, anonymous_approval=False)
    game_start(game=game, by=gm, seed=1)
    game.refresh_from_db()
    assert not game.private_threads.filter(kind=Thread.Kind.FACTION).exists()
    with pytest.raises(ActionRefused) as refused:
        game_set_communication(game=game, by=gm, private_messages="anyone", rooms=False, team_chat=True,
                               anonymous_limit=5, anonymous_approval=False)
    assert refused.value.code == "team_chat_started"
    # The rest may still change while the game runs.
    game_set_communication(game=game, by=gm, private_messages="off", rooms=False, team_chat=False,
                           anonymous_limit=5, anonymous_approval=False)
    game.refresh_from_db()
    assert private_mode(game) == "off"


# --- The card collection ---------------------------------------------------------------------------
def edited_collection_text(price: int = 1) -> str:
    data = yaml.safe_load(DEFAULT_COLLECTION_PATH.read_text(encoding="utf-8"))
    bunker = next(c for c in data["cards"] if c["name"] == "Бункер")
    bunker["price"] = price
    bunker["text"] = "Бункер нашей игры: 2 брони за одну карту из Рукава."
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def test_the_gm_edits_the_collection_before_the_start_and_it_is_frozen_at_the_start():
    """«A game's collection is frozen at its start; the GM may edit it ... before that.»"""
    game, gm, _players = signups("cards", size=10)
    client = client_for(gm)
    url = reverse("games:cards_collection", args=[game.pk])
    page = client.get(url, **EN)
    assert page.status_code == 200 and "Бункер" in text_of(page) and "<textarea" in text_of(page)
    response = client.post(url, {"text": edited_collection_text(), "action": "save"}, **EN)
    assert response.status_code == 302
    game.refresh_from_db()
    bunker = next(c for c in game.options["collection"]["cards"] if c["name"] == "Бункер")
    assert bunker["price"] == 1
    rules = text_of(client_for(None).get(reverse("games:game_cards_rules", args=[game.pk]), **EN))
    assert "Бункер нашей игры" in rules
    game_start(game=game, by=gm, seed=5)
    game.refresh_from_db()
    from games.rulesets.cards.engine import collection_of

    assert collection_of(GameState.from_json(game.state))["Бункер"].price == 1
    # Frozen: the editor is read-only and a save is refused.
    assert "readonly" in text_of(client.get(url, **EN))
    response = client.post(url, {"text": edited_collection_text(2), "action": "save"}, **EN)
    assert response.status_code == 400
    assert collection_of(GameState.from_json(Game.objects.get(pk=game.pk).state))["Бункер"].price == 1


@pytest.mark.parametrize("text,problem", [
    ("cards: [", "YAML"),
    ("version: 1\ncards:\n  - name: Пистолет\n    colour: purple\n", "colour"),
    ("version: 1\ncards: []\n", "cards"),
])
def test_a_broken_collection_is_refused_naming_the_problem_and_nothing_changes(text, problem):
    game, gm, _players = signups("cards", size=10)
    response = client_for(gm).post(reverse("games:cards_collection", args=[game.pk]), {"text": text, "action": "save"},
                                   **EN)
    assert response.status_code == 400
    body = text_of(response)
    assert "collection-problems" in body
    assert problem.lower() in body.lower()
    game.refresh_from_db()
    assert "collection" not in game.options


def test_the_gm_goes_back_to_the_shipped_collection():
    game, gm, _players = signups("cards", size=10)
    game_set_collection(game=game, by=gm, text=edited_collection_text())
    client_for(gm).post(reverse("games:cards_collection", args=[game.pk]), {"text": "", "action": "reset", "confirm": "yes"}, **EN)
    game.refresh_from_db()
    assert "collection" not in game.options


@pytest.mark.parametrize("who", ["player", "spectator", "anonymous", "other_gm"])
def test_only_the_games_gm_opens_the_collection_editor(who):
    game, gm, players = signups("cards", size=10)
    user = {"player": players[0], "spectator": make_user("Зритель"), "anonymous": None,
            "other_gm": make_user("Чужой ведущий")}[who]
    url = reverse("games:cards_collection", args=[game.pk])
    client = client_for(user)
    assert client.get(url).status_code in (302, 404)
    assert client.post(url, {"text": edited_collection_text()}).status_code in (302, 404)
    game.refresh_from_db()
    assert "collection" not in game.options


def test_a_forum_game_has_no_collection():
    game, gm, _players = signups("forum")
    assert client_for(gm).get(reverse("games:cards_collection", args=[game.pk])).status_code == 404
    with pytest.raises(ActionRefused):
        game_set_collection(game=game, by=gm, text=edited_collection_text())


# --- «Внешность»: the GMs read the contacts, before and after the start ----------------------------
@pytest.mark.parametrize("started", [False, True])
def test_the_contacts_are_read_by_the_gm_only(started):
    """«В поле "Внешность" пишете ваши идентификаторы во всех сторонних мессенджерах»: the GM needs
    them to set rooms up in a messenger, during the game too; nobody else sees them."""
    game, gm, players = signups("cards", size=10)
    if started:
        game_start(game=game, by=gm, seed=5)
    assert "@secret3" in text_of(client_for(gm).get(game.get_absolute_url(), **EN))
    if started:
        assert "@secret3" in text_of(client_for(gm).get(reverse("games:gm_dashboard", args=[game.pk]), **EN))
    for user in (players[0], make_user("Зритель"), None):
        assert "@secret" not in text_of(client_for(user).get(game.get_absolute_url(), **EN))


# --- The Joker's list and the Maniac's kept card ---------------------------------------------------
def test_the_joker_hands_in_his_list_from_the_cards_page(db):
    """«В любой момент может написать в личной комнате список соответствия Явных и Тайных ролей всех
    игроков. Если все роли угаданы верно, побеждает моментально.»"""
    from tests.games.test_cards_pages import _cards_game

    gm = make_user("Ведущий")
    game, users = _cards_game("Джокер", gm, [("Джокер", "joker"), ("Вася", "sheriff"), ("Негодяй", "boss"),
                                              ("Петя", "doctor")])
    from games.services.resolution import phase_close

    assert phase_close(phase_id=game.current_phase_id, by=gm)
    game.refresh_from_db()
    client = client_for(users["Джокер"])
    page = text_of(client.get(reverse("games:cards", args=[game.pk]), **EN))
    assert 'id="joker-guess"' in page
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    guess = {f"role_{seats['Вася'].pk}": "sheriff", f"role_{seats['Негодяй'].pk}": "boss",
             f"role_{seats['Петя'].pk}": "doctor"}
    url = reverse("games:card_ability", args=[game.pk])
    # Without the confirmation nothing is stored.
    client.post(url, {"ability": "joker_list", **guess}, **EN)
    assert not Order.objects.filter(action="ability").exists()
    # Judged at once (issue 17): «побеждает моментально», not at the phase's end.
    client.post(url, {"ability": "joker_list", "confirm": "on", **guess}, **EN)
    assert Order.objects.get(action="ability", valid=True).detail["roles"] == {
        str(seats[n].pk): r for n, r in (("Вася", "sheriff"), ("Негодяй", "boss"), ("Петя", "doctor"))}
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "joker"
    # Nobody else gets the form.
    assert 'id="joker-guess"' not in text_of(client_for(users["Вася"]).get(reverse("games:cards", args=[game.pk])))


def test_the_maniac_chooses_the_card_he_keeps_in_prison(night):
    """«Если же была выбрана тюрьма, он теряет карты из рукава, кроме Тузов и полученных от Явной
    роли (Маньяк сохраняет ещё одну карту на выбор)»."""
    from games.services.resolution import phase_close

    world = night
    assert phase_close(phase_id=world.phase().pk, by=world.gm)  # to day 1
    maniac = world.seat("Маньяк")
    client = world.client("Маньяк")
    page = text_of(client.get(reverse("games:cards", args=[world.game.pk])))
    assert 'id="prison-keep"' in page
    state = world.state()
    sleeve = [item["card"] for item in state.memory["players"][str(maniac.pk)]["sleeve"] if not item.get("overt")]
    client.post(reverse("games:card_input", args=[world.game.pk]), {"action": "prison_keep", "card": sleeve[-1]})
    assert Order.objects.get(actor=maniac, action="prison_keep", valid=True).detail == {"card": sleeve[-1]}
    client.post(reverse("games:card_input", args=[world.game.pk]), {"action": "prison_keep", "card": "Нет такой"})
    refused = Order.objects.filter(actor=maniac, action="prison_keep", valid=False)
    assert refused.count() == 1
    assert CARDS.key == "cards"
    assert 'id="prison-keep"' not in text_of(world.client("Вася").get(reverse("games:cards", args=[world.game.pk])))
