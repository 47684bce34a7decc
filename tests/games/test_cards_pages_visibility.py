"""Who sees whose cards on the pages of the `cards` rule set, from every perspective: anonymous, a
spectator, a player of each faction (law, mafia, maniac), the dead player, a GM of another game and
the GM. Canary cards named after their owner sit in every Hand and Sleeve (and, after two closes,
in each player's `containers` events); each perspective visits every card page of the game and
the canaries it finds are compared with the ones it may see, both ways.

«Количество карт в Руке каждого игрока все узнают в конце каждой фазы. Количество карт в Рукаве и
колоде знает только владелец.» «Карты играются тайно.»"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.rulesets.cards.engine import CARDS
from games.models import Order
from tests.games.test_cards_pages import (  # noqa: F401  (fixtures)
    PLAYERS,
    canary,
    deckbuilding,
    night,
    night_with_dead,
    text_of,
)

pytestmark = pytest.mark.django_db

PERSPECTIVES = ("anonymous", "spectator", "Вася", "Негодяй", "Маньяк", "Фроло", "other_gm", "gm")
FACTION_OF = {"Вася": "law", "Негодяй": "mafia", "Маньяк": "maniac", "Фроло": "law (dead)"}


def all_canaries() -> set[str]:
    return {canary(kind, name) for name, _role in PLAYERS for kind in ("hand", "sleeve")}


def held_canaries(world, name: str) -> set[str]:
    """The canaries still in this player's Hand or Sleeve."""
    view = CARDS.player_view(world.state(), world.seat(name).pk)
    return {c for c in [*view["hand"], *view["sleeve"]] if c.startswith("КАНАРЕЙКА")}


def card_urls(world) -> list[str]:
    pk = world.game.pk
    seats = [world.seat(name).pk for name, _role in PLAYERS]
    urls = [reverse("games:cards_rules"), world.game.get_absolute_url(), reverse("games:cards", args=[pk]),
            reverse("games:deck", args=[pk]), reverse("games:gm_cards", args=[pk]), reverse("games:role", args=[pk])]
    # a guessed point of view, and another game's seat
    urls += [f"{reverse('games:cards', args=[pk])}?pov={s}" for s in seats]
    urls += [f"{reverse('games:cards', args=[pk])}?pov={world.other_game.seats.first().pk}",
             f"{reverse('games:gm_cards', args=[pk])}?pov={seats[0]}"]
    return urls


def sweep(world, who: str) -> tuple[set[str], dict[str, int]]:
    client = world.client(who)
    found, statuses = set(), {}
    for url in card_urls(world):
        response = client.get(url)
        assert response.status_code < 500, (who, url)
        statuses[url] = response.status_code
        body = text_of(response) if response.status_code == 200 else ""
        found |= {c for c in all_canaries() if c in body.upper()}
    return found, statuses


@pytest.mark.parametrize("who", PERSPECTIVES)
def test_card_pages_show_each_perspective_exactly_its_own_cards(night_with_dead, who):
    world = night_with_dead
    found, statuses = sweep(world, who)
    if who == "gm":
        expected = set().union(*(held_canaries(world, name) for name, _role in PLAYERS))
        assert expected and expected <= found
        return
    if who in FACTION_OF:
        own = {canary("hand", who), canary("sleeve", who)}
        assert held_canaries(world, who) <= found, f"{who} ({FACTION_OF[who]}) does not see his own cards"
        leaked = found - own
    else:
        leaked = found
    assert not leaked, f"{who} sees {sorted(leaked)}"


@pytest.mark.parametrize("who", ["anonymous", "spectator", "other_gm"])
def test_outsiders_get_404_on_every_card_page_of_the_game(night, who):
    pk = night.game.pk
    client = night.client(who)
    for name in ("games:cards", "games:gm_cards"):
        # The GM's card dashboard and a player's cards send an anonymous visitor to log in (issue
        # 29), with no card on the answer.
        expected = 302 if who == "anonymous" else 404
        response = client.get(reverse(name, args=[pk]))
        assert response.status_code == expected, (who, name)
        assert "КАНАРЕЙКА" not in response.content.decode().upper()
    assert client.get(reverse("games:deck", args=[pk])).status_code in (302, 404)
    for name in ("games:card_input", "games:deck_check", "games:gm_card_effect"):
        assert client.post(reverse(name, args=[pk]), {"action": "close", "confirm": "yes"}).status_code in (302, 404)
    assert night.phase().closed_at is None
    assert not Order.objects.exists()


@pytest.mark.parametrize("who", ["Вася", "Негодяй", "Маньяк"])
def test_players_get_404_on_the_gm_card_dashboard(night, who):
    assert night.client(who).get(reverse("games:gm_cards", args=[night.game.pk])).status_code == 404


def test_a_mafioso_does_not_see_a_law_players_hand_through_a_guessed_pov(night):
    """The GM's ?pov= is the GMs' only: a mafioso asking it sees his own cards."""
    url = f"{reverse('games:cards', args=[night.game.pk])}?pov={night.seat('Вася').pk}"
    body = text_of(night.client("Негодяй").get(url)).upper()
    assert canary("hand", "Вася") not in body and canary("hand", "Негодяй") in body
    assert "POV-BANNER" not in body


def test_the_gm_sees_a_players_cards_page_read_only(night):
    url = f"{reverse('games:cards', args=[night.game.pk])}?pov={night.seat('Вася').pk}"
    body = text_of(night.client("gm").get(url))
    assert canary("hand", "Вася") in body.upper() and "pov-banner" in body
    assert 'name="action" value="play"' not in body


def test_card_pages_of_another_rule_set_are_404(running_game, gm, town_player):
    """The forum fixture game has no cards."""
    from tests.conftest import client_for

    for who in (gm, town_player):
        for name in ("games:cards", "games:deck", "games:gm_cards"):
            assert client_for(who).get(reverse(name, args=[running_game.pk])).status_code == 404
