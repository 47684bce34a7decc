"""Issue 14, item 15: «A deck refused at the deadline is replaced by a random one ... with only
«bad_deck» as notice: tell the player why and what he got, in words.» His letters to the GM and his
role page list every problem of the deck he sent and the cards of the deck he was dealt."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from games.rulesets.cards.engine import CARDS
from games.engine.state import GameState
from games.models import Thread
from games.rulesets.cards.services import card_input_submit
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def test_refused_deck_is_explained_and_the_dealt_deck_listed_when_the_deck_building_closes():
    gm = make_user("Ведущий")
    game = game_create(title="Колоды", gm=gm, ruleset="cards", size=3)
    users = {name: make_user(name) for name in ("Вася", "Петя", "Маша")}
    for user in users.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=["sheriff", "boss", "doctor"])
    game.refresh_from_db()
    _order, confirmation = card_input_submit(game=game, user=users["Вася"], action="deck",
                                             detail={"cards": ["Пистолет"] * 3 + ["Нож"] * 4})
    assert not confirmation.accepted
    assert phase_close(phase_id=game.current_phase.pk, by=gm)
    seat = game.seats.get(user=users["Вася"])
    state = GameState.from_json(type(game).objects.get(pk=game.pk).state)
    view = CARDS.player_view(state, seat.pk)
    client = client_for(users["Вася"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"  # the letters are written in the site's language
    letters = Thread.objects.get(game=game, kind=Thread.Kind.GM_CHAT, seat=seat)
    for url in (letters.get_absolute_url(), reverse("games:role", args=[game.pk])):
        body = client.get(url).content.decode()
        assert "bad_deck" not in body
        # every problem of his deck, in words, with its numbers
        for words in ("«Пистолет»: 3", "«Нож»: 4", "несвободных карт в колоде должно быть ровно 15, а в этой — 3",
                      "свободных карт в колоде может быть не больше 3, а в этой — 4"):
            assert words in body, (url, words)
        # and what he got: the dealt deck's cards (his opening Hand is drawn from it)
        for card in view["hand"]:
            assert card in body, (url, card)
