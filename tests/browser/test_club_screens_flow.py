"""Club screens on a phone (issue 14, item 14), in a real Chromium 390 px wide: the live count of a
plurality vote names the leaders and the order of voting, with no majority and no L-n; the rating
after the game shows Russian role names and keeps «Итого» on the screen (stacked rows, no sideways
scroll). Screenshots go to $PHONE_SHOTS_DIR (default /tmp/phone-shots)."""

import os
from datetime import timedelta

import pytest

from games.models import Game
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.browser.conftest import PHONE, phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Игорь", "Кира", "Лев", "Мила"]
ROLES = ["civilian", "don", "commissar", "civilian", "mafioso", "doctor", "putana", "civilian", "maniac",
         "mafioso", "civilian", "civilian"]
# The element's box against the viewport, and the page's own width.
BOX = """(selector) => {
  const el = document.querySelector(selector); if (!el) return null;
  const r = el.getBoundingClientRect();
  return {left: r.left, right: r.right, width: r.width, page: document.scrollingElement.scrollWidth,
          vw: document.documentElement.clientWidth};
}"""


def _shot(page, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def _close(game: Game) -> None:
    game.refresh_from_db()
    phase = game.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    game.refresh_from_db()


def test_club_count_and_rating_read_as_club_when_390px_wide(live_server, browser, transactional_db):
    gm = make_user("Судья")
    game = game_create(title="Клуб на телефоне", gm=gm, ruleset="club", size=12)
    users = {name: make_user(name) for name in NAMES}
    for user in users.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    _close(game)  # night 0 → day 1
    for voter, target in [("Анна", "Бориса"), ("Вера", "Бориса"), ("Глеб", "Дину")]:
        post_submit(thread=game.game_thread, author=users[voter], body=f"Голосую за [b]{target}[/b]",
                    now=game.current_phase.opened_at + timedelta(minutes=1))

    page = phone_page(browser, live_server.url, users["Мила"])
    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
    count = page.locator("#vote-count .vote-count")
    count.wait_for()
    text = count.inner_text()
    _shot(page, "club-count-390")
    assert "Большинство" not in text and "L-" not in text
    assert "Больше всего голосов: Борис (2 голоса)" in text
    assert "Порядок голосования: 2. Борис, 3. Вера" in text
    box = page.evaluate(BOX, "#vote-count")
    assert box["left"] >= 0 and box["right"] <= PHONE["width"] and box["page"] <= PHONE["width"]

    # The blacks forfeit; the rating opens.
    game.refresh_from_db()
    phase = game.current_phase
    phase.gm_decisions = {**(phase.gm_decisions or {}), "forfeit": "black"}
    phase.save(update_fields=["gm_decisions"])
    _close(game)
    assert game.status == Game.Status.FINISHED
    page.goto(f"{live_server.url}/games/{game.pk}/rating/")
    page.wait_for_selector(".rating-table")
    _shot(page, "club-rating-390")
    table = page.inner_text(".rating-table")
    assert "путана" in table and "комиссар" in table and "мирный" in table
    assert "civilian" not in table and "putana" not in table and "commissar" not in table
    total = page.locator(".rating-table td.rating-total").first
    label = total.evaluate("(td) => getComputedStyle(td, '::before').content")
    assert total.is_visible() and "Итого" in label
    box = page.evaluate(BOX, ".rating-table td.rating-total")
    assert box["right"] <= PHONE["width"] and box["page"] <= PHONE["width"]
    page.context.close()
