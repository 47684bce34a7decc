"""The GM's moderation tools in a real browser: point of view, replacement, modkill, rollback,
and a player's V/LA."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser
ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]
NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"]


def test_gm_moderates_a_running_game_in_the_browser(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    game = game_create(title="Модерация", gm=gm, size=7)
    players = {name: make_user(name) for name in NAMES}
    for user in players.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=2, roles_in_seat_order=ROLES)
    game = Game.objects.get(pk=game.pk)
    post_submit(thread=game.game_thread, author=players["Вася"], body="[b]В тюрьму Негодяя[/b]")
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    make_user("Запасной")

    page = logged_in_page(browser, live_server.url, gm)
    dashboard = f"{live_server.url}/games/{game.pk}/gm/"
    page.goto(dashboard)

    # Point of view: the mafioso's role page, as he sees it.
    page.click(f"a[href$='?pov={seats['Кикимора'].pk}']:has-text('глазами игрока')")
    page.wait_for_selector(".pov-banner")
    assert "мафиози" in page.inner_text(".role-card") and "Эсмеральда" in page.inner_text(".role-card")

    # Replacement.
    page.goto(dashboard)
    form = page.locator("form:has(button[value=replace])")
    form.locator("select[name=seat]").select_option(label="Маленький Джон")
    form.locator("input[name=name]").fill("Запасной")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))  # games/confirm.py
    form.locator("button[value=replace]").click()
    page.wait_for_selector("text=Запасной")
    assert "Маленький Джон" in asked[0] and "Запасной" in asked[0]  # the question names who and whom
    newcomer = logged_in_page(browser, live_server.url, game.seats.get(pk=seats["Маленький Джон"].pk).user)
    newcomer.goto(f"{live_server.url}/games/{game.pk}/role/")
    assert "честный житель" in newcomer.inner_text(".role-card")
    assert "Запасной" in newcomer.inner_text(".role-card")
    newcomer.context.close()

    # Modkill with a reason, then close the day, then roll the results back.
    page.goto(dashboard)
    form = page.locator("form:has(button[value=modkill])")
    form.locator("select[name=seat]").select_option(label="Фроло")
    form.locator("input[name=reason]").fill("пропал на три дня")
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    form.locator("button[value=modkill]").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}?page=last")
    assert "пропал на три дня" in page.inner_text("ol.posts")

    page.goto(dashboard)
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    page.click("button[value=close]")
    page.wait_for_selector("text=День 2")
    page.locator("form:has(button[value=rollback]) input[name=reason]").fill("перепутал приказы")
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    page.click("button[value=rollback]")
    page.wait_for_load_state()
    game.refresh_from_db()
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 1) and game.current_phase.is_open
    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}?page=last")
    assert "перепутал приказы" in page.inner_text("ol.posts")

    # A player marks V/LA; the roster shows it.
    player = logged_in_page(browser, live_server.url, players["Вася"])
    player.goto(f"{live_server.url}/me/absences/")
    start = timezone.localdate() + timedelta(days=1)
    player.fill("#starts_on", start.isoformat())
    player.fill("#ends_on", (start + timedelta(days=2)).isoformat())
    player.fill("#note", "дача")
    player.click("main form:has(#starts_on) button[type=submit]")
    player.wait_for_selector("text=дача")
    player.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert "V/LA" in player.inner_text(".seats")
    player.context.close()
    page.context.close()
