"""The cards Veche's count on a phone (issue 29, item 2), in a real Chromium 390 px wide: the game
thread's live count says what decides the Veche and what the standing votes would do, shows each
vote's weight beside its voter, no «Большинство» nor L-n, and fits the screen."""

from __future__ import annotations

import os

import pytest

from games.services.posting import post_submit
from tests.browser.conftest import PHONE, phone_page
from tests.games.test_cards_services import cards_game, to_day

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
BOX = """(selector) => {
  const el = document.querySelector(selector); if (!el) return null;
  const r = el.getBoundingClientRect();
  return {left: r.left, right: r.right, page: document.scrollingElement.scrollWidth};
}"""


def test_cards_count_reads_as_the_veche_when_390px_wide(live_server, browser, transactional_db):
    game, _gm, users, _seats = cards_game(overt={"Вася": "Авторитет"})
    to_day(game)
    for name, body in [("Вася", "[b]Казнить Петю![/b]"), ("Маша", "[b]В тюрьму Петю[/b]"),
                       ("Глаша", "[b]Голосую за Васю[/b]"), ("Паша", "[b]За мир[/b]")]:
        game.refresh_from_db()
        post_submit(thread=game.game_thread, author=users[name], body=body)
    page = phone_page(browser, live_server.url, users["Маша"])
    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
    count = page.locator("#vote-count .vote-count")
    count.wait_for()
    text = " ".join(count.inner_text().split())
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, "cards-count-390.png"), full_page=True)
    assert "Большинство" not in text and "L-" not in text
    assert "Вече наказывает лидера голосования" in text
    assert "Если бы день закончился сейчас: казнь: Петя (6 урона)" in text
    assert "Вася ×2" in text and "лидер — наказание" in text
    box = page.evaluate(BOX, "#vote-count")
    assert box["left"] >= 0 and box["right"] <= PHONE["width"] and box["page"] <= PHONE["width"]
    page.context.close()
