"""A player opens "My desk" from the header, sees what he owes, votes, and the vote drops off."""

import pytest

from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user
from tests.games.conftest import NAMES, ROLES

pytestmark = pytest.mark.browser


def test_the_desk_shows_the_owed_vote_and_order_and_forgets_the_vote_once_cast(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    users = [make_user(name) for name in NAMES]
    game = game_create(title="Партия со столом", gm=gm, size=7)
    for user in users:
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    recruiter, thief = users[0], users[6]  # ROLES: seat 1 is the recruiter, seat 7 the thief

    page = logged_in_page(browser, live_server.url, recruiter)
    page.goto(f"{live_server.url}/")
    page.click(".site-header a[href='/me/']")
    page.wait_for_selector("#desk-duties")
    duties = page.locator("#desk-duties")
    assert duties.locator(".duty-vote").count() == 1 and duties.locator(".duty-order").count() == 1
    assert "Партия со столом" in duties.inner_text()
    # The time left: written by the server, and counted down live in the browser.
    assert duties.locator(".duty-vote .time-left").inner_text().strip()
    page.wait_for_function(
        "document.querySelector('#desk-duties .duty-vote time[data-countdown]').textContent.includes(':')")

    # The vote's link goes to the game thread's last page; vote there in bold.
    page.click("#desk-duties .duty-vote a.button")
    page.wait_for_selector("#reply-body")
    page.fill("#reply-body", f"[b]В тюрьму {thief.display_name}[/b]")
    page.click("button[name=post]")
    page.wait_for_selector(".vote-confirmation.ok")

    page.goto(f"{live_server.url}/me/")
    page.reload()
    duties = page.locator("#desk-duties")
    assert duties.locator(".duty-vote").count() == 0
    assert duties.locator(".duty-order").count() == 1
    page.context.close()
