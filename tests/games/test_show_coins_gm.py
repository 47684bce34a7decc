"""The GM's dashboard card of a show's coins (issue 19, part 2): the show's bank, its winners' pot,
the Demon's escrow and each hero's net in the show so far, shown in the «gm.decisions» place to the
GMs only (games.permissions.can_see_show_books): a hero, a spectator and an anonymous visitor see
none of it, on the dashboard or anywhere else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games.rulesets.show.coins.selectors import gm_books
from tests.conftest import client_for, make_user
from tests.games.test_show_coins import _kept

pytestmark = pytest.mark.django_db

# Night 1 of this file: ten bets of 25 into the pot, Вера's 20 to the Demon (Кира) held in escrow.
FILE = "coins-demon-escrow-returned.yaml"
NETS = {"Аня": -25, "Боря": -25, "Вера": -45, "Жора": -25, "Зина": -25, "Кира": -25}  # the file's night 1 `balances`


@pytest.fixture
def show(tmp_path):
    return _kept(tmp_path, FILE, 6)  # the first morning is over: day 2 runs


def test_the_gm_sees_the_bank_the_pot_the_escrows_and_each_heros_net(show):
    game, _users, _seats = show
    books = gm_books(game=game, user=game.gm)
    assert (books["bank"], books["pot"]) == (0, 150)
    assert books["escrows"] == [{"name": "Кира", "balance": 20}]
    assert {row["name"]: row["net"] for row in books["nets"]} == NETS
    page = client_for(game.gm).get(reverse("games:gm_dashboard", args=[game.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert f'id="show-books-{game.pk}"' in body
    assert 'data-pot="150"' in body and 'data-escrow="Кира:20"' in body and 'data-net="Вера:-45"' in body


def test_a_hero_does_not_see_the_books(show):
    game, users, _seats = show
    hero = users["Вера"]
    assert gm_books(game=game, user=hero) is None
    assert client_for(hero).get(reverse("games:gm_dashboard", args=[game.pk])).status_code in (403, 404)
    for url in (game.get_absolute_url(), reverse("games:role", args=[game.pk])):
        body = client_for(hero).get(url).content.decode()
        assert "show-books-" not in body and "data-escrow=" not in body


def test_a_spectator_does_not_see_the_books(show):
    game, _users, _seats = show
    spectator = make_user("Зритель")
    assert gm_books(game=game, user=spectator) is None
    assert client_for(spectator).get(reverse("games:gm_dashboard", args=[game.pk])).status_code in (403, 404)
    assert "show-books-" not in client_for(spectator).get(game.get_absolute_url()).content.decode()


def test_an_anonymous_visitor_does_not_see_the_books(show):
    game, _users, _seats = show
    assert gm_books(game=game, user=AnonymousUser()) is None
    response = client_for(None).get(reverse("games:gm_dashboard", args=[game.pk]))
    assert response.status_code in (302, 403, 404)
    assert "show-books-" not in response.content.decode()
    assert "show-books-" not in client_for(None).get(game.get_absolute_url()).content.decode()
