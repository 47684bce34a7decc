"""Issue 29, item 13, as a class: every page under /games/<pk>/ answers an anonymous visitor of an
existing game with the page itself (it is public) or with the login page and back (it is for some
signed-in users: the GM's, a player's), never with a 404 when the GM or a player has that page —
found in the browser on the cards' own
«Мои карты» (/games/N/cards/), which had no login_first. Every GET route of the site under
/games/<int:pk>/ is asked, in a started game of every rule set that has pages of its own."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.models import Game
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.conftest import client_for, make_user
from tests.games.test_cards_services import cards_game

ANONYMOUS_PREFIX = "games/<int:pk>/"


def _routes(patterns=None, prefix: str = "", namespace: str = ""):
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if namespace and entry.namespace else (entry.namespace or namespace)
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern) and entry.name:
            route = prefix + str(entry.pattern)
            if route.startswith(ANONYMOUS_PREFIX) and route.count("<") == 1:
                yield f"{namespace}:{entry.name}" if namespace else entry.name, route


def _started(ruleset: str):
    if ruleset == "cards":
        return cards_game()[0]
    gm = make_user("Ведущий")
    game = game_create(title="Клуб", gm=gm, ruleset="club", size=8)
    for i in range(8):
        game_signup(game=game, user=make_user(f"Игрок {i}"))
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=["don", "mafioso", "putana", "commissar", "doctor",
                                                                 "maniac", "civilian", "civilian"])
    return Game.objects.get(pk=game.pk)


def test_the_routes_are_found():
    names = {name for name, _route in _routes()}
    assert {"games:gm_dashboard", "games:role", "games:cards", "games:gm_cards", "games:rating"} <= names, names


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", ["cards", "club"])
def test_no_game_page_is_a_404_for_an_anonymous_visitor(ruleset):
    game = _started(ruleset)
    anonymous = client_for(None)
    signed_in = [client_for(game.gm), client_for(game.seats.order_by("pk").first().user)]
    problems = []
    for name, _route in _routes():
        url = reverse(name, args=[game.pk])
        response = anonymous.get(url)
        if response.status_code == 302 and urlsplit(response["Location"]).path == reverse("account_login"):
            assert parse_qs(urlsplit(response["Location"]).query)["next"] == [url], url
            continue
        # A 404 is right when the page is nobody's in this game (another rule set's, an archive
        # before the end); wrong when the GM or a player has it.
        if response.status_code == 404 and any(c.get(url).status_code in (200, 302) for c in signed_in):
            problems.append(f"{name} ({url}): a 404 for an anonymous visitor, a page for the GM or a player")
    assert problems == [], "\n".join(problems)
