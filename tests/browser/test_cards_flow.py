"""A cards game in a real browser (issue 9): a player builds his deck on the deck page, where live
validation first shows a refusal and then accepts; he plays a card at night; the GM sees the play
on the card dashboard and closes the phase; the player sees his Hand changed."""

import random
from collections import Counter

import pytest

from games.rulesets.cards.engine import CARDS, default_collection, starter_deck
from games.engine.state import GameState
from games.models import Game, Order
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.resolution import phase_close
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def _hand(game: Game, seat_pk: int) -> list[str]:
    game.refresh_from_db()
    return CARDS.player_view(GameState.from_json(game.state), seat_pk)["hand"]


def test_build_a_deck_play_a_card_and_the_gm_closes_the_night(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    vasya, villain, petya = make_user("Вася"), make_user("Негодяй"), make_user("Петя")
    game = game_create(title="Карты в браузере", gm=gm, ruleset="cards", size=3)
    for user in (vasya, villain, petya):
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=11, roles_in_seat_order=["sheriff", "boss", "doctor"])
    game.refresh_from_db()
    seat = game.seats.get(user=vasya)
    collection = default_collection()

    # Deck building: one copy of Пистолет with the + button is refused (14 non-free cards missing)...
    page = logged_in_page(browser, live_server.url, vasya)
    page.goto(f"{live_server.url}/games/{game.pk}/cards/deck/")
    page.evaluate("window.__noReload = true")
    # The colour filter: one colour shown, the others hidden; "all" brings them back.
    page.click("[data-show-colour='damage']")
    assert page.is_visible("#colour-damage") and page.is_hidden("#colour-recon")
    page.click("[data-show-colour='mine']")
    assert page.is_visible("#colour-neutral") and page.is_hidden("#colour-control")  # a sheriff: Урон, Разведка
    page.click("[data-show-colour='all']")
    assert page.is_visible("#colour-recon")
    page.click("tr[data-card='Пистолет'] button[value$=':1']")
    page.wait_for_selector("tr[data-card='Пистолет'] input[value='1']")
    assert page.locator("#deck-status .cards-refusals li").count() >= 1
    assert "1/15" in page.inner_text("#deck-status")
    # ...then a legal deck typed into the counts is accepted, live, without a reload.
    deck = Counter(starter_deck("sheriff", collection, random.Random(5)))
    page.fill("tr[data-card='Пистолет'] input[type=number]", "0")
    for name, count in deck.items():
        page.fill(f"tr[data-card='{name}'] input[type=number]", str(count))
    page.dispatch_event("tr[data-card='Пистолет'] input[type=number]", "change")
    page.wait_for_selector("#deck-status .cards-deck-ok")
    assert "15/15" in page.inner_text("#deck-status")
    assert page.evaluate("window.__noReload") is True
    page.click("button[name=submit]")
    page.wait_for_selector(".message.success")
    order = Order.objects.get(actor=seat, action="deck", valid=True)
    assert Counter(order.detail["cards"]) == deck

    # The GM ends deck building; night 1 begins with the built deck.
    assert phase_close(phase_id=game.current_phase_id, by=gm)
    before = _hand(game, seat.pk)
    card = next(name for name in before if collection[name].by_night and collection[name].price == 0
                and collection[name].target in ("self", "other"))

    # Вася plays a card from his Hand at night.
    page.goto(f"{live_server.url}/games/{game.pk}/cards/")
    item = page.locator("#hand li", has=page.locator(f"article[data-card='{card}']")).first
    if collection[card].target == "other":
        item.locator("select[name=target]").select_option(label="Негодяй")
    item.locator("button:has-text('Сыграть'), button[type=submit]").first.click()
    page.wait_for_selector(".message.success")
    assert card in page.inner_text("#standing")

    # The GM sees it on the card dashboard and closes the night.
    gm_page = logged_in_page(browser, live_server.url, gm)
    gm_page.goto(f"{live_server.url}/games/{game.pk}/gm/cards/")
    row = gm_page.locator(f"tr[data-seat='{seat.pk}']")
    assert card in row.inner_text()
    assert row.locator(".cards-preview-play").count() == 1
    gm_page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    gm_page.click("#cards-close-now")
    gm_page.wait_for_selector(".message.success")
    game.refresh_from_db()
    assert game.current_phase.kind == "day"

    # Вася's Hand changed: the played card left it and a replacement was drawn.
    after = _hand(game, seat.pk)
    assert after != before
    page.goto(f"{live_server.url}/games/{game.pk}/cards/")
    shown = page.locator("#hand article.cards-card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown == after
    assert "containers" in page.locator("#results li.event").evaluate_all("els => els.map(e => e.className).join(' ')")
    page.context.close()
    gm_page.context.close()
