"""The preview tells how a vote will be read (issue 14, item 5), in a real Chromium 390 px wide: the
htmx preview shows "read as → X" (or the refusal with its reason) under the text, inside the
screen, and posting then gives the same answer. Screenshots go to /tmp/phone-shots/."""

import os

import pytest

from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.browser.conftest import phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]
NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"]

# Sticks out of the 390 px screen? The element's box against the viewport, and the page's width.
FITS = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.left >= -0.5 && r.right <= document.documentElement.clientWidth + 0.5
    && document.documentElement.scrollWidth <= document.documentElement.clientWidth + 0.5; }"""


def test_preview_shows_how_the_vote_reads_when_a_phone_user_previews(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    game = game_create(title="Предпросмотр", gm=gm, size=7)
    users = [make_user(name) for name in NAMES]
    for user in users:
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    page = phone_page(browser, live_server.url, users[0])
    try:
        page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
        page.evaluate("window.__noReload = true")

        page.fill("#reply-body", "Думаю, это она. [b]В тюрьму Красную Шапочку[/b]")
        page.click("button[name=preview]")
        reading = page.wait_for_selector("#preview .vote-reading.ok")
        assert "Красная Шапочка" in reading.inner_text() and "→" in reading.inner_text()
        assert "В тюрьму Красную Шапочку" in page.inner_text("#preview .preview-body")
        assert page.evaluate(FITS, "#preview .vote-reading")
        os.makedirs(SHOTS, exist_ok=True)
        page.locator("#preview").scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, "thread-preview-vote.png"), full_page=False)

        page.fill("#reply-body", "[b]В тюрьму Пушкина[/b]")
        page.click("button[name=preview]")
        refused = page.wait_for_selector("#preview .vote-reading.error")
        assert refused.inner_text().strip()
        assert page.evaluate(FITS, "#preview .vote-reading")

        page.fill("#reply-body", "Доброе утро.")
        page.click("button[name=preview]")
        page.wait_for_selector("#preview .vote-reading.muted")

        # Posting what the preview read gives the same answer, and the page was never reloaded.
        page.fill("#reply-body", "[b]В тюрьму Красную Шапочку[/b]")
        page.click("button[name=post]")
        page.wait_for_selector(".vote-confirmation.ok")
        assert "Красная Шапочка" in page.inner_text(".vote-confirmation")
        assert page.evaluate("window.__noReload") is True
    finally:
        page.context.close()


def test_letter_order_and_count_button_fit_a_phone_when_shown_at_390px(live_server, browser, transactional_db):
    """The pages this item touches, at 390 px: the letter's order confirmed in the thread, the role
    page's standing order, and the count page's "post this count (as of post #N)" button."""
    from django.urls import reverse

    from games.models import Thread
    from games.services.votes import vote_button_text, vote_correct
    from games.services.posting import post_submit

    gm = make_user("Ведущий")
    game = game_create(title="Письма", gm=gm, size=7)
    users = [make_user(name) for name in NAMES]
    for user in users:
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    vasya = users[0]
    letters = Thread.objects.get(game=game, kind=Thread.Kind.GM_CHAT, seat__user=vasya)
    page = phone_page(browser, live_server.url, vasya)
    try:
        page.goto(f"{live_server.url}{letters.get_absolute_url()}")
        page.fill("#reply-body", "Проверяю Красную Шапочку.")
        page.click("button[name=preview]")
        page.wait_for_selector("#preview .order-reading.ok")
        assert page.evaluate(FITS, "#preview .order-reading")
        page.click("button[name=post]")
        page.wait_for_selector(".order-confirmation.ok")
        assert "Красная Шапочка" in page.inner_text(".order-confirmation")
        page.goto(f"{live_server.url}{reverse('games:role', args=[game.pk])}")
        assert "Красная Шапочка" in page.inner_text("#standing-order")
        assert page.evaluate(FITS, "#standing-order")
        page.locator("#standing-order").scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, "role-standing-order.png"))
    finally:
        page.context.close()

    first = post_submit(thread=game.game_thread, author=vasya, body=vote_button_text("Кикимора"))
    post_submit(thread=game.game_thread, author=users[3], body=vote_button_text("Кикимора"))
    vote_correct(post=first, gm=gm, kind="vote", target=game.seats.get(user=users[5]))
    page = phone_page(browser, live_server.url, gm)
    try:
        page.goto(f"{live_server.url}{reverse('games:votes', args=[game.pk])}?as_of={first.number}")
        button = page.locator("form.post-count-form button")
        assert f"#{first.number}" in button.inner_text()
        assert page.evaluate(FITS, "form.post-count-form button")
        page.screenshot(path=os.path.join(SHOTS, "count-as-of-publish.png"))
    finally:
        page.context.close()
