"""A whole 10-player `cards` game through the web pages only (issue 9, «A GM can run a whole
10-player `cards` game on the site, from applications and deck building to a winner»): every step
is a request a browser would send — the new-game form, the applications with «Класс» and
«Внешность», the start, the deck pages, the card forms at night, the Veche by the vote buttons'
texts in posts, the GM's card dashboard and its close button — until the game page names the
winner. (tests/games/test_cards_game.py plays the same through the services; the browser test
tests/browser/test_cards_flow.py clicks through one night.)"""

from __future__ import annotations

import html
import random
import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from games.rulesets.cards.engine import CARDS, collection_of, starter_deck
from games.engine.state import GameState
from games.models import Game, Order, Seat
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

NAMES = ["Вася", "Петя", "Маша", "Глаша", "Паша", "Даша", "Саша", "Миша", "Гоша", "Люба"]
CLASSES = ["Патрульный", "Богач", "Качок", "Параноик", "Гадалка", "Боец", "Наркоман", "Секретарша", "Охранник",
           "Звездочёт"]


def state_of(game: Game) -> GameState:
    game.refresh_from_db()
    return GameState.from_json(game.state)


def page(client: Client, name: str, game: Game) -> str:
    response = client.get(reverse(name, args=[game.pk]))
    assert response.status_code == 200, name
    return response.content.decode()


def test_a_gm_runs_a_ten_player_cards_game_from_the_web_pages_to_a_winner():
    gm_user = make_user("Ведущий")
    gm = client_for(gm_user)
    response = gm.post(reverse("games:game_new"), {"title": "Карточная по сети", "ruleset": "cards", "size": 10,
                                                   "phase_hours": 24})
    assert response.status_code == 302
    game = Game.objects.get(title="Карточная по сети")
    users = {name: make_user(name) for name in NAMES}
    clients = {name: client_for(user) for name, user in users.items()}
    for name, overt in zip(NAMES, CLASSES):
        clients[name].post(reverse("games:game_join", args=[game.pk]),
                           {"action": "join", "overt_role": overt, "contacts": f"tg @{name}"})
    # «Каждой явной роли может быть только один представитель»: a second Патрульный is refused.
    late = make_user("Опоздавший")
    client_for(late).post(reverse("games:game_join", args=[game.pk]), {"action": "join", "overt_role": "патрульный"})
    assert not Seat.objects.filter(game=game, user=late).exists()
    assert game.seats.count() == 10

    gm.post(reverse("games:game_start", args=[game.pk]), {"confirm": "yes"})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.current_phase.kind == "deckbuilding"
    assert "tg @Вася" in page(gm, "games:gm_dashboard", game)  # «Внешность», for the GM during the game
    assert "tg @" not in page(clients["Вася"], "games:game", game)
    assert "Звездочёт" in page(Client(), "games:game", game)  # the classes are public from the start

    # Deck building: four players submit a deck on the deck page; the rest are dealt one.
    seats = list(game.seats.select_related("user").order_by("number"))
    collection = collection_of(state_of(game))
    deckable = [n for n in collection.names if collection[n].deckable]
    for index, seat in enumerate(seats[:4]):
        deck = Counter(starter_deck(seat.role, collection, random.Random(index)))
        form = {f"count-{i}": deck.get(name, 0) for i, name in enumerate(deckable)} | {"submit": "1"}
        response = clients[seat.user.display_name].post(reverse("games:deck", args=[game.pk]), form)
        assert response.status_code == 302
    assert Order.objects.filter(phase=game.current_phase, action="deck", valid=True).count() == 4
    gm.post(reverse("games:gm_card_effect", args=[game.pk]), {"action": "close", "confirm": "yes"})
    game.refresh_from_db()
    assert game.current_phase.kind == "night" and game.current_phase.number == 1

    # «В начале первой ночи члены Мафии узнают колоды и Руки друг друга.»
    mafia = [s for s in seats if s.faction == "mafia"]
    assert len(mafia) == 3
    mates_hand = CARDS.player_view(state_of(game), mafia[1].pk)["hand"]
    mafia_page = page(clients[mafia[0].user.display_name], "games:cards", game)
    assert all(card in mafia_page for card in mates_hand)

    for round_number in range(60):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = state_of(game)
        phase = game.current_phase
        alive = [s for s in seats if state.seat(s.pk).is_active]
        living_mafia = [s for s in alive if s.faction == "mafia"]
        if phase.kind == "night":
            for seat in alive:
                hand = CARDS.player_view(state, seat.pk)["hand"]
                enemies = [e for e in alive if (e.faction == "mafia") != (seat.faction == "mafia")]
                for card in hand:
                    spec = collection[card]
                    if spec.price or spec.when == "day":
                        continue
                    if spec.target == "other" and enemies:
                        form = {"action": "play", "card": card, "from": "hand", "target": enemies[0].pk}
                    elif spec.target == "self":
                        form = {"action": "play", "card": card, "from": "hand"}
                    else:
                        continue
                    clients[seat.user.display_name].post(reverse("games:card_input", args=[game.pk]), form)
                    break
        else:
            for seat in alive:
                name = seat.user.display_name
                thread = clients[name].get(game.game_thread.get_absolute_url()).content.decode()
                buttons = [html.unescape(b) for b in re.findall(r'data-insert="([^"]*)"', thread)]
                if seat.faction == "mafia" or not living_mafia:
                    body = next(b for b in buttons if "мир" in b.lower())
                else:
                    target = living_mafia[0].user.display_name
                    body = next(b for b in buttons if b.startswith("[b]Казнить") and target[:3] in b)
                response = clients[name].post(reverse("games:thread_reply", args=[game.game_thread.pk]),
                                              {"body": body, "post": "1"})
                assert response.status_code in (200, 302)
        if round_number >= 20 and living_mafia:  # the GM hurries a long game by hand
            gm.post(reverse("games:gm_card_effect", args=[game.pk]),
                    {"action": "add", "op": "damage", "target": living_mafia[0].pk, "n": 9})
        assert "cards-preview" in page(gm, "games:gm_cards", game) or phase.kind == "day"
        gm.post(reverse("games:gm_card_effect", args=[game.pk]), {"action": "close", "confirm": "yes"})
        phase.refresh_from_db()
        assert phase.closed_at is not None
        if phase.kind == "day":
            assert phase.outcome["votes"], "the Veche is read from the posts"

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "law"
    assert Order.objects.filter(phase__game=game, action="play", valid=True).exists()
    assert Order.objects.filter(phase__game=game, action="measure", source="text").exists()
    public = page(Client(), "games:game", game)
    assert "Закон" in public  # the winner, in Russian
