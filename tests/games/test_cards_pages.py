"""The pages of the `cards` rule set (issue 9): the collection's rules page, deck building, my
cards, the public Hand sizes and the GM card dashboard — what each shows and what its forms do.

The game is started and closed through the real services; canary cards (one per container, named
after its owner) are put into the frozen state so that each page can be searched for what must
not leak (tests/games/test_cards_pages_visibility.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.rulesets.cards.engine import CARDS, default_collection, starter_deck
from games.engine.state import GameState
from games.models import Game, Order, Phase
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def _english(client, anonymous_client):
    """The pages are read in English: the site takes its language from the language cookie
    (accounts.middleware.choose_language), not from Accept-Language."""
    for each in (client, anonymous_client):
        each.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


# Seat order and secret roles: law (sheriff, doctor, commissioner), mafia (boss, killer), maniac.
PLAYERS = [("Вася", "sheriff"), ("Негодяй", "boss"), ("Маньяк", "maniac"), ("Фроло", "doctor"),
           ("Петя", "commissioner"), ("Киллер", "killer")]


def canary(kind: str, name: str) -> str:
    return f"КАНАРЕЙКА-{kind}-{name}".upper()


@dataclass
class CardsWorld:
    game: Game
    gm: object
    other_gm: object
    other_game: Game
    spectator: object
    users: dict = field(default_factory=dict)

    def seat(self, name: str):
        return self.game.seats.get(user=self.users[name])

    def client(self, who: str | None) -> Client:
        user = {"gm": self.gm, "other_gm": self.other_gm, "spectator": self.spectator, "anonymous": None}.get(
            who, self.users.get(who))
        client = client_for(user)
        client.defaults.update(EN)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        return client

    def state(self) -> GameState:
        self.game.refresh_from_db()
        return GameState.from_json(self.game.state)

    def phase(self) -> Phase:
        self.game.refresh_from_db()
        return self.game.current_phase


def _cards_game(title: str, gm, names_roles, *, seed: int = 7) -> tuple[Game, dict]:
    game = game_create(title=title, gm=gm, ruleset="cards", size=len(names_roles))
    users = {}
    for name, _role in names_roles:
        users[name] = make_user(name) if not name.startswith("=") else make_user(name[1:])
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=seed, roles_in_seat_order=[r for _n, r in names_roles])
    game.refresh_from_db()
    return game, users


@pytest.fixture
def deckbuilding(db) -> CardsWorld:
    """A cards game of six in its deck-building phase, another GM's cards game, a spectator."""
    gm = make_user("Ведущий")
    game, users = _cards_game("Карточная", gm, PLAYERS)
    other_gm = make_user("Чужой ведущий")
    other_game, _other_users = _cards_game("Другая карточная", other_gm, [("Посторонний", "sheriff"),
                                                                          ("Второй", "boss"), ("Третий", "doctor")])
    return CardsWorld(game=game, gm=gm, other_gm=other_gm, other_game=other_game, spectator=make_user("Зритель"),
                      users=users)


def plant_canaries(world: CardsWorld) -> None:
    """Each living player's Hand gets a canary card on top and his Sleeve one more; the cards are
    added to the game's frozen collection (undeckable copies of Бронежилет under another name)."""
    game = world.game
    game.refresh_from_db()
    data = dict(game.state)
    memory = data["memory"]
    cards = memory["collection"]["cards"]
    template = next(c for c in cards if c["name"] == "Бронежилет")
    for name, _role in PLAYERS:
        seat = world.seat(name)
        player = memory["players"][str(seat.pk)]
        for kind in ("hand", "sleeve"):
            card = canary(kind, name)
            # not deckable: the deck page lists the game's deckable cards to everyone building one
            cards.append({**template, "name": card, "text": f"{card} text", "deckable": False})
            if kind == "hand":
                player["hand"].insert(0, card)
            else:
                player["sleeve"].append({"card": card, "overt": False})
    game.state = data
    game.save(update_fields=["state"])


@pytest.fixture
def night(deckbuilding) -> CardsWorld:
    """Night 1: every deck dealt by the engine (nobody built one), canaries planted."""
    world = deckbuilding
    assert phase_close(phase_id=world.phase().pk, by=world.gm)
    plant_canaries(world)
    return world


@pytest.fixture
def night_with_dead(night) -> CardsWorld:
    """Night 2: Фроло died in night 1 (the GM dealt him 30 damage), day 1 passed quietly."""
    world = night
    phase = world.phase()
    phase.gm_decisions = {"damage": {str(world.seat("Фроло").pk): 30}}
    phase.save(update_fields=["gm_decisions"])
    assert phase_close(phase_id=phase.pk, by=world.gm)
    assert phase_close(phase_id=world.phase().pk, by=world.gm)
    assert world.phase().kind == "night"
    assert world.seat("Фроло").status == "dead"
    return world


def legal_deck(role: str) -> list[str]:
    return starter_deck(role, default_collection(), random.Random(3))


def text_of(response) -> str:
    return response.content.decode()


# --- The rules page ------------------------------------------------------------------------------
def test_rules_page_lists_every_card_of_the_default_collection_by_colour(client):
    """«В игре доступна коллекция карт (см. приложение). Каждая карта обладает одним из цветов:
    Урон, Разведка, Защита, Саботаж, Контроль, Поддержка, Нейтральный»"""
    response = client.get(reverse("games:cards_rules"), **EN)
    assert response.status_code == 200
    body = text_of(response)
    collection = default_collection()
    for name in collection.names:
        assert f'data-card="{name}"' in body
        assert collection[name].text.split("\n")[0][:30] in body.replace("&#x27;", "'").replace("&quot;", '"')
    for colour in ("Урон", "Разведка", "Защита", "Саботаж", "Контроль", "Поддержка", "Нейтральный"):
        assert f"<h2>{colour}</h2>" in body
    assert "Бункер" in body and "15 non-free cards" in body and "At most 2 copies" in body


def test_rules_page_explains_the_role_exceptions(client):
    """«Полицейский: ... нельзя брать карты других цветов, кроме Нейтральных» and the Traitor's
    and the Hero's limits per colour."""
    body = text_of(client.get(reverse("games:cards_rules"), **EN))
    assert "no off-colour card" in body
    assert "≤ 3 of one colour" in body and "≤ 4 of one colour" in body
    assert "chooses 2 colours" in body


def test_game_list_and_cards_game_page_link_the_rules(deckbuilding, client):
    rules = reverse("games:cards_rules")
    assert rules in text_of(client.get(reverse("games:games"), **EN))
    assert rules in text_of(client.get(deckbuilding.game.get_absolute_url(), **EN))


# --- Deck building -------------------------------------------------------------------------------
def deck_post(world: CardsWorld, cards: list[str], **extra) -> dict:
    """The deck form's fields for these cards (count-<index> over the deckable cards)."""
    collection = default_collection()
    names = [n for n in collection.names if collection[n].deckable]
    data = {f"count-{i}": str(cards.count(name)) for i, name in enumerate(names)}
    data.update(extra)
    return data


def test_deck_page_shows_the_collection_by_colour_with_the_players_colours(deckbuilding):
    """«В начале игры, узнав свою Тайную роль, каждый персонаж составляет себе колоду из карт,
    перечисленных в коллекции.» The sheriff's colours are Урон and Разведка."""
    response = deckbuilding.client("Вася").get(reverse("games:deck", args=[deckbuilding.game.pk]))
    assert response.status_code == 200
    body = text_of(response)
    assert 'class="card cards-group colour-damage mine"' in body
    assert 'class="card cards-group colour-recon mine"' in body
    assert 'class="card cards-group colour-defence"' in body
    for name in ("Пистолет", "Бункер", "Пустышка"):
        assert f'data-card="{name}"' in body
    assert 'data-card="Маллиган"' not in body  # not deckable
    assert 'name="submit"' in body


def test_deck_check_explains_every_refusal_then_accepts_a_legal_deck(deckbuilding):
    """«Требования к колоде: 15 несвободных карт, 0-3 свободных карт. Не больше 2 копий одной
    карты. Карт цветов, не соответствующих роли и не нейтральных, можно взять не более 2 в сумме.»"""
    client = deckbuilding.client("Вася")
    url = reverse("games:deck_check", args=[deckbuilding.game.pk])
    bad = ["Пистолет"] * 3 + ["Бункер", "Крепость", "Аптечка"]
    body = text_of(client.post(url, deck_post(deckbuilding, bad), HTTP_HX_REQUEST="true"))
    assert 'id="deck-status"' in body and 'id="deck-region"' not in body  # only the status region
    assert "cards-refusals" in body
    assert body.count("<li>", body.index("cards-refusals")) >= 3  # copies, count, off-colour
    assert "6/15" in body and "3/2" in body  # non-free and off-colour counters
    body = text_of(client.post(url, deck_post(deckbuilding, legal_deck("sheriff")), HTTP_HX_REQUEST="true"))
    assert "cards-refusals" not in body and "cards-deck-ok" in body and "15/15" in body
    assert not Order.objects.exists()  # live validation writes nothing


def test_deck_adjust_buttons_work_without_javascript(deckbuilding):
    client = deckbuilding.client("Вася")
    names = [n for n in default_collection().names if default_collection()[n].deckable]
    index = names.index("Пистолет")
    url = reverse("games:deck", args=[deckbuilding.game.pk])
    body = text_of(client.post(url, deck_post(deckbuilding, ["Пистолет"], adjust=f"{index}:1")))
    assert f'name="count-{index}" value="2"' in body
    assert not Order.objects.exists()
    # with htmx, the +/- buttons swap the whole form region
    body = text_of(client.post(reverse("games:deck_check", args=[deckbuilding.game.pk]),
                               deck_post(deckbuilding, ["Пистолет"], adjust=f"{index}:-1"), HTTP_HX_REQUEST="true",
                               HTTP_HX_TARGET="deck-region"))
    assert 'id="deck-region"' in body and f'name="count-{index}" value="0"' in body


def test_deck_submit_refused_rerenders_with_errors_and_stores_nothing_valid(deckbuilding):
    client = deckbuilding.client("Вася")
    response = client.post(reverse("games:deck", args=[deckbuilding.game.pk]),
                           deck_post(deckbuilding, ["Пистолет"], submit="1"))
    assert response.status_code == 400
    assert "cards-refusals" in text_of(response)
    assert not Order.objects.filter(valid=True).exists()


def test_deck_submit_accepted_is_stored_as_the_deck_input(deckbuilding):
    client = deckbuilding.client("Вася")
    deck = legal_deck("sheriff")
    response = client.post(reverse("games:deck", args=[deckbuilding.game.pk]), deck_post(deckbuilding, deck, submit="1"))
    assert response.status_code == 302
    order = Order.objects.get(valid=True)
    assert order.action == "deck" and order.actor == deckbuilding.seat("Вася")
    assert sorted(order.detail["cards"]) == sorted(deck)


def test_joker_chooses_two_colours_on_the_deck_page(db):
    """«Джокер: Выбирает два любых цвета в начале игры.»"""
    gm = make_user("Ведущий")
    game, users = _cards_game("Джокерная", gm, [("Шут", "joker"), ("Босс", "boss"), ("Шериф", "sheriff")])
    client = client_for(users["Шут"])
    body = text_of(client.get(reverse("games:deck", args=[game.pk]), **EN))
    assert 'name="colour1"' in body and 'name="colour2"' in body
    body = text_of(client.post(reverse("games:deck_check", args=[game.pk]), {"colour1": "damage", "colour2": "recon"},
                               HTTP_HX_REQUEST="true", **EN))
    assert "cards-refusals" in body


def test_deck_page_is_the_owners_only(deckbuilding):
    url = reverse("games:deck", args=[deckbuilding.game.pk])
    for who in ("gm", "other_gm", "spectator"):
        assert deckbuilding.client(who).get(url).status_code == 404, who
        assert deckbuilding.client(who).post(reverse("games:deck_check", args=[deckbuilding.game.pk])).status_code == 404
    assert deckbuilding.client("anonymous").get(url).status_code == 302  # to the login page


def test_deck_page_is_read_only_once_the_deck_is_built(night):
    body = text_of(night.client("Вася").get(reverse("games:deck", args=[night.game.pk])))
    assert 'name="submit"' not in body and "cards-deck-closed" in body


# --- My cards ------------------------------------------------------------------------------------
def test_my_cards_shows_hand_in_order_sleeve_and_deck_size(night):
    """«У каждого персонажа есть два контейнера для карт - Рука и Рукав.» «Количество карт в Рукаве
    и колоде знает только владелец.»"""
    seat = night.seat("Вася")
    view = CARDS.player_view(night.state(), seat.pk)
    body = text_of(night.client("Вася").get(reverse("games:cards", args=[night.game.pk])))
    hand_section = body[body.index('id="hand"'):body.index('id="sleeve"')]
    positions = [hand_section.index(f'data-card="{name}"') for name in dict.fromkeys(view["hand"])]
    assert positions == sorted(positions)
    assert canary("hand", "Вася") in hand_section
    assert canary("sleeve", "Вася") in body[body.index('id="sleeve"'):]
    assert f'cards-deck-size">{view["deck_size"]}<' in body
    assert 'name="action" value="play"' in body and 'name="action" value="discard"' in body


def test_my_cards_play_form_asks_what_the_cards_target_rule_asks(night):
    """«Некоторые карты требуют выбрать цель. Целью можно выбрать любого живого персонажа, кроме себя.»"""
    from django.template.loader import render_to_string

    from games.rulesets.cards.selectors import card_info

    collection = default_collection()
    others = [{"pk": 1, "name": "Петя"}, {"pk": 2, "name": "Маша"}]
    context = {"game": night.game, "seat": night.seat("Вася"), "others": others, "dead": [{"pk": 3, "name": "Фроло"}],
               "payable": ["Пустышка"], "zone": "hand"}
    living = {"targets": others, "targets2": others}  # the view offers the engine's valid targets
    own = render_to_string("games/_cards_play_form.html", {**context, "c": card_info(collection["Бункер"])})
    assert 'name="target"' not in own
    one = render_to_string("games/_cards_play_form.html", {**context, "c": {**card_info(collection["Пистолет"]),
                                                                             **living}})
    assert 'name="target"' in one and 'name="target2"' not in one and "Петя" in one and "Фроло" not in one
    two = render_to_string("games/_cards_play_form.html", {**context, "c": {**card_info(collection["Подмена"]),
                                                                             **living}})
    assert 'name="target2"' in two and 'name="pay"' in two
    dead = render_to_string("games/_cards_play_form.html", {**context, "c": {**card_info(collection["Аутопсия"]),
                                                                              "targets": context["dead"]}})
    assert "Фроло" in dead and "Петя" not in dead
    letter = render_to_string("games/_cards_play_form.html", {**context, "c": card_info(collection["Письмо"])})
    assert 'name="message"' in letter


def test_playing_a_card_at_night_shows_it_standing_and_it_can_be_withdrawn(night):
    client = night.client("Вася")
    card = canary("hand", "Вася")  # a copy of Бронежилет: no target
    response = client.post(reverse("games:card_input", args=[night.game.pk]),
                           {"seat": night.seat("Вася").pk, "action": "play", "from": "hand", "card": card}, follow=True)
    assert response.status_code == 200
    order = Order.objects.get(actor=night.seat("Вася"))
    assert order.valid and order.action == "play" and order.detail["card"] == card
    body = text_of(response)
    standing = body[body.index('id="standing"'):body.index('id="hand"')]
    assert card in standing and 'value="withdraw"' in standing
    client.post(reverse("games:card_input", args=[night.game.pk]),
                {"seat": night.seat("Вася").pk, "action": "withdraw", "what": "play", "from": "hand"})
    assert Order.objects.filter(actor=night.seat("Вася"), action="withdraw", valid=True).exists()


def test_discard_two_and_reorder_forms_reach_the_service(night):
    """«Ночью, вместо того, чтобы играть карты, можно сбросить две карты из Руки.» «Карты из Руки
    сбрасываются в том порядке, в котором они в ней расположены, и этот порядок игрок может
    поменять в любой момент.»"""
    seat = night.seat("Петя")
    hand = CARDS.player_view(night.state(), seat.pk)["hand"]
    client = night.client("Петя")
    url = reverse("games:card_input", args=[night.game.pk])
    client.post(url, {"seat": seat.pk, "action": "discard", "cards": hand[:2]})
    discard = Order.objects.get(actor=seat, action="discard")
    assert discard.valid and discard.detail == {"cards": hand[:2]}
    client.post(url, {"seat": seat.pk, "action": "reorder", "move": "0:down"})
    reorder = Order.objects.get(actor=seat, action="reorder")
    assert reorder.valid and reorder.detail["hand"] == [hand[1], hand[0], *hand[2:]]


def test_a_forged_seat_field_is_refused_and_nothing_is_stored(night):
    client = night.client("Вася")
    response = client.post(reverse("games:card_input", args=[night.game.pk]),
                           {"seat": night.seat("Петя").pk, "action": "play", "from": "hand",
                            "card": canary("hand", "Петя")}, follow=True)
    assert "You play only your own cards." in text_of(response)
    assert not Order.objects.exists()


def test_a_card_not_in_the_hand_is_refused_and_stored_as_invalid(night):
    """«Каждую фазу (День или Ночь) можно сыграть не более одной карты из Руки»: only a card that is there."""
    client = night.client("Вася")
    client.post(reverse("games:card_input", args=[night.game.pk]),
                {"seat": night.seat("Вася").pk, "action": "play", "from": "hand", "card": canary("hand", "Петя")})
    assert not Order.objects.filter(valid=True).exists()
    assert Order.objects.filter(valid=False, actor=night.seat("Вася")).exists()


def test_a_target_in_another_game_is_refused(night):
    """«Целью можно выбрать любого живого персонажа, кроме себя» — of this game."""
    state = night.state()
    collection = default_collection()
    seat = night.seat("Вася")
    card = next((c for c in CARDS.player_view(state, seat.pk)["hand"]
                 if collection.get(c) and collection[c].target == "other"), None)
    if card is None:  # give him one: a Пистолет on top of his Hand
        night.game.refresh_from_db()
        data = dict(night.game.state)
        data["memory"]["players"][str(seat.pk)]["hand"].append("Пистолет")
        night.game.state = data
        night.game.save(update_fields=["state"])
        card = "Пистолет"
    foreign = night.other_game.seats.first()
    night.client("Вася").post(reverse("games:card_input", args=[night.game.pk]),
                              {"seat": seat.pk, "action": "play", "from": "hand", "card": card, "target": foreign.pk})
    assert not Order.objects.filter(valid=True).exists()
    assert Order.objects.get(actor=seat).valid is False


def test_a_play_after_the_deadline_is_refused(night):
    """«Заявки на игру карт можно менять сколько угодно, вплоть до наступления дедлайна.»"""
    from datetime import timedelta

    from django.utils import timezone

    phase = night.phase()
    Phase.objects.filter(pk=phase.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    night.client("Вася").post(reverse("games:card_input", args=[night.game.pk]),
                              {"seat": night.seat("Вася").pk, "action": "play", "from": "hand",
                               "card": canary("hand", "Вася")})
    assert not Order.objects.filter(valid=True).exists()


def test_the_dead_player_sees_his_cards_but_cannot_play(night_with_dead):
    """«Мертвые персонажи не участвуют в игре»"""
    world = night_with_dead
    client = world.client("Фроло")
    body = text_of(client.get(reverse("games:cards", args=[world.game.pk])))
    assert "You are out of the game" in body
    assert 'name="action" value="play"' not in body
    client.post(reverse("games:card_input", args=[world.game.pk]),
                {"seat": world.seat("Фроло").pk, "action": "play", "from": "sleeve", "card": canary("sleeve", "Фроло")})
    assert not Order.objects.filter(valid=True).exists()


def test_past_results_are_listed_on_my_cards(night_with_dead):
    """«Количество карт в Руке каждого игрока все узнают в конце каждой фазы.» — and each player his
    own containers and report."""
    body = text_of(night_with_dead.client("Вася").get(reverse("games:cards", args=[night_with_dead.game.pk])))
    results = body[body.index('id="results"'):]
    assert 'class="event containers"' in results and 'class="event phase_report"' in results


# --- Public Hand sizes -----------------------------------------------------------------------------
def test_hand_sizes_are_public_on_the_game_page(night_with_dead, anonymous_client):
    """«Количество карт в Руке каждого игрока все узнают в конце каждой фазы. Количество карт в
    Рукаве и колоде знает только владелец.»"""
    world = night_with_dead
    body = text_of(anonymous_client.get(world.game.get_absolute_url(), **EN))
    section = body[body.index('id="hand-sizes"'):]
    section = section[:section.index("</section>")]
    for name, _role in PLAYERS:
        assert f"<td>{name}</td>" in section
    sizes = CARDS.hand_sizes(world.state())
    assert f"<strong>{sizes[world.seat('Вася').pk]}</strong>" in section
    assert section.count("<th>") >= 4  # the player, night 1, day 1, now
    assert "cards-deck-size" not in body and "Sleeve:" not in section


# --- The GM card dashboard -------------------------------------------------------------------------
def test_gm_dashboard_shows_plays_with_their_preview_and_the_containers(night):
    world = night
    card = canary("hand", "Вася")
    world.client("Вася").post(reverse("games:card_input", args=[world.game.pk]),
                              {"seat": world.seat("Вася").pk, "action": "play", "from": "hand", "card": card})
    body = text_of(world.client("gm").get(reverse("games:gm_cards", args=[world.game.pk])))
    row = body[body.index(f'data-seat="{world.seat("Вася").pk}"'):]
    row = row[:row.index("</tr>")]
    assert card in row and "play" in row
    assert "cards-preview-play" in row  # the automatic effect from the preview
    for name, _role in PLAYERS:
        assert canary("hand", name) in body and canary("sleeve", name) in body
    assert 'id="preview"' in body and 'id="cards-close-now"' in body


def test_gm_effects_are_added_removed_and_the_phase_closes(night):
    world = night
    url = reverse("games:gm_card_effect", args=[world.game.pk])
    gm = world.client("gm")
    target = world.seat("Петя").pk
    gm.post(url, {"action": "add", "op": "message", "target": target, "text": "Тайное слово"})
    gm.post(url, {"action": "add", "op": "damage", "target": target, "n": "2"})
    phase = world.phase()
    assert phase.gm_decisions["effects"][0]["op"] == "message"
    assert phase.gm_decisions["effects"][0]["text"] == "Тайное слово"
    assert phase.gm_decisions["damage"] in ({str(target): 2}, {target: 2})
    body = text_of(gm.get(reverse("games:gm_cards", args=[world.game.pk])))
    assert "Тайное слово" in body
    gm.post(url, {"action": "remove", "index": "0", "confirm": "yes"})
    assert not world.phase().gm_decisions.get("effects")
    closing = world.phase()
    gm.post(url, {"action": "close", "confirm": "yes"})
    closing.refresh_from_db()
    assert closing.closed_at is not None and world.phase().pk != closing.pk


def test_gm_dashboard_effect_forms_refuse_other_gms_and_players(night):
    url = reverse("games:gm_card_effect", args=[night.game.pk])
    for who in ("other_gm", "Вася", "Негодяй", "spectator"):
        assert night.client(who).post(url, {"action": "close"}).status_code == 404, who
    assert night.phase().closed_at is None


def test_gm_dashboard_shows_the_veche_by_day(night):
    world = night
    assert phase_close(phase_id=world.phase().pk, by=world.gm)
    assert world.phase().kind == "day"
    body = text_of(world.client("gm").get(reverse("games:gm_cards", args=[world.game.pk])))
    assert 'id="veche"' in body


def test_gm_dashboard_counts_the_veche_with_weights(night):
    """«Днем каждый персонаж может публично отдать голос за любого персонажа.» The dashboard lists
    every living voter with the weight of his vote (part 1: 1 each)."""
    world = night
    assert phase_close(phase_id=world.phase().pk, by=world.gm)
    body = text_of(world.client("gm").get(reverse("games:gm_cards", args=[world.game.pk])))
    veche = body[body.index('id="veche"'):]
    veche = veche[:veche.index("</section>")]
    for name, _role in PLAYERS:
        assert f"<tr><td>{name}</td><td>—</td><td>1</td>" in veche


def test_cards_resolved_by_the_gm_are_highlighted_on_the_dashboard(night):
    """A card whose effect is `gm` (Шантаж) is listed to the GM to resolve by hand."""
    world = night
    seat = world.seat("Вася")
    world.game.refresh_from_db()
    data = dict(world.game.state)
    data["memory"]["players"][str(seat.pk)]["hand"].append("Шантаж")
    world.game.state = data
    world.game.save(update_fields=["state"])
    world.client("Вася").post(reverse("games:card_input", args=[world.game.pk]), {
        "seat": seat.pk, "action": "play", "from": "hand", "card": "Шантаж", "target": world.seat("Петя").pk,
        "message": "Я знаю твою тайну", "pay": [canary("sleeve", "Вася")]})
    assert Order.objects.get(actor=seat).valid
    body = text_of(world.client("gm").get(reverse("games:gm_cards", args=[world.game.pk])))
    assert 'id="gm-resolve"' in body
    row = body[body.index(f'data-seat="{seat.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "cards-preview-play by-gm" in row and "Шантаж" in row


@pytest.mark.parametrize("who", ["Вася", "Негодяй", "gm"])
def test_card_pages_render_in_russian(night, who):
    client = night.client(who)
    client.defaults.pop("HTTP_ACCEPT_LANGUAGE", None)
    urls = [reverse("games:cards_rules"), night.game.get_absolute_url()]
    urls += [reverse("games:gm_cards", args=[night.game.pk])] if who == "gm" else [
        reverse("games:cards", args=[night.game.pk]), reverse("games:deck", args=[night.game.pk])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert 'lang="ru"' in text_of(response)
