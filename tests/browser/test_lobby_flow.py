"""The lobby of automatic games on a phone (issue 31), in a real Chromium 390 px wide: a user joins
a queued setup in one click, the game starts when his join fills the table, and his role page and
the game's first post (the rules the site follows) read right; nothing is wider than the screen."""

from __future__ import annotations

import os

import pytest

from games.models import AutoSetup, Game
from games.services.autohost import autohost_join, setups_open_games
from tests.browser.conftest import PHONE, phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
WIDTH = "() => document.scrollingElement.scrollWidth"


def test_a_user_joins_from_the_lobby_on_a_phone_and_the_game_starts(live_server, browser, transactional_db):
    setup = AutoSetup.objects.create(title="Автофорум на 7", ruleset="forum", size=7, phase_hours=24)
    setups_open_games()
    game = setup.games.get()
    for name in ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда"]:
        autohost_join(game=game, user=make_user(name))
    last = make_user("Негодяй")
    os.makedirs(SHOTS, exist_ok=True)

    page = phone_page(browser, live_server.url, last)
    page.goto(f"{live_server.url}/lobby/")
    card = page.locator(f'[data-setup="{setup.pk}"]')
    assert "Автофорум на 7" in card.inner_text() and "осталось 1 место" in card.inner_text()
    assert page.evaluate(WIDTH) <= PHONE["width"]
    page.screenshot(path=os.path.join(SHOTS, "lobby-390.png"), full_page=True)
    card.get_by_role("button", name="Присоединиться").click()

    # His join filled the table: the game began and he is on its page.
    page.wait_for_url(f"**{game.get_absolute_url()}")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    body = page.locator("main").inner_text()
    assert "Стол собран, игра началась" in body and "сайт (автоматическая игра)" in body
    assert page.evaluate(WIDTH) <= PHONE["width"]
    page.screenshot(path=os.path.join(SHOTS, "lobby-game-390.png"), full_page=True)

    page.get_by_role("link", name="Моя роль").click()
    role_text = page.locator("main").inner_text()
    seat = game.seats.get(user=last)
    assert seat.role and page.evaluate(WIDTH) <= PHONE["width"]
    assert "Ваша роль" in role_text or "Вы —" in role_text

    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}?page=1")
    first = page.locator("#p1").inner_text()
    assert "Эту игру ведёт сайт: живого ведущего нет." in first and "жребий" in first
    assert page.evaluate(WIDTH) <= PHONE["width"]
    page.screenshot(path=os.path.join(SHOTS, "lobby-thread-390.png"), full_page=True)

    # The setup opened its next game for the next players.
    assert setup.games.filter(status=Game.Status.SIGNUPS).count() == 1
    page.goto(f"{live_server.url}/lobby/")
    assert "осталось 7 мест" in page.locator(f'[data-setup="{setup.pk}"]').inner_text()
    page.context.close()
