"""A club game run by a GM in a real browser: the deal, night 0, a day of votes through the vote
button, a foul, a night of orders, the forfeit and the rating."""

import pytest

from games.models import Game, VoteRecord
from games.services.lifecycle import game_signup
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser
NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Игорь", "Кира", "Лев", "Мила"]


def test_a_gm_runs_a_club_game_in_the_browser(live_server, browser, transactional_db):
    gm = make_user("Судья")
    players = {name: make_user(name) for name in NAMES}
    page = logged_in_page(browser, live_server.url, gm)
    page.goto(f"{live_server.url}/games/new/")
    page.fill("input[name=title]", "Клубный вечер")
    page.select_option("select[name=ruleset]", "club")
    page.fill("input[name=size]", "12")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Идёт набор")
    game = Game.objects.get(title="Клубный вечер")
    for user in players.values():
        game_signup(game=game, user=user)
    page.reload()
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    page.click("text=Закрыть набор и раздать роли")
    page.wait_for_selector("text=Идёт игра")
    game.refresh_from_db()
    roles = {s.user.display_name: s.role for s in game.seats.select_related("user")}
    don = next(n for n, r in roles.items() if r == "don")
    black = {n for n, r in roles.items() if r in ("don", "mafioso", "putana")}
    red = [n for n in NAMES if n not in black]

    # Night 0: the blacks see each other; the GM closes it.
    don_page = logged_in_page(browser, live_server.url, players[don])
    don_page.goto(f"{live_server.url}/games/{game.pk}/role/")
    team_text = don_page.inner_text(".role-card")
    assert all(name in team_text for name in black - {don})
    page.goto(f"{live_server.url}/games/{game.pk}/gm/")
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    page.click("button[value=close]")
    page.wait_for_selector("text=День 1")

    # Day 1: four reds vote for the don with the vote button (it writes «Голосую за [b]…[/b]»).
    for name in red[:4]:
        player = logged_in_page(browser, live_server.url, players[name])
        player.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
        player.click(f".vote-button button:has-text('{don}')")
        assert player.input_value("#reply-body").startswith("Голосую за [b]")
        player.click("button[name=post]")
        player.wait_for_selector(".vote-confirmation.ok")
        player.context.close()
    assert VoteRecord.objects.filter(valid=True, is_final=True).count() == 4

    # A foul from the dashboard, then the close: the don is voted out.
    page.goto(f"{live_server.url}/games/{game.pk}/gm/")
    form = page.locator("form:has(button[value=foul])")
    form.locator("select[name=seat]").select_option(label=red[5])
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    form.locator("button[value=foul]").click()
    page.wait_for_load_state()
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    page.click("button[value=close]")
    page.wait_for_selector("text=Ночь 1")
    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}?page=last")
    results = page.inner_text("ol.posts")
    assert don in results and red[5] in results

    # Night 1: the commissar checks a black through the role page's text box.
    commissar = next(n for n, r in roles.items() if r == "commissar")
    target = next(n for n in black if n != don)
    player = logged_in_page(browser, live_server.url, players[commissar])
    player.goto(f"{live_server.url}/games/{game.pk}/role/")
    player.fill("#order-text", f"Проверяю {target}")
    player.click("form:has(#order-text) button")
    player.wait_for_selector("text=Приказ принят")

    # The GM declares a forfeit for the blacks; the rating page opens.
    page.goto(f"{live_server.url}/games/{game.pk}/gm/")
    form = page.locator("form:has(button[value=forfeit])")
    form.locator("select[name=faction]").select_option("black")
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    form.locator("button[value=forfeit]").click()
    page.wait_for_load_state()
    game.refresh_from_db()
    assert game.status == "finished" and game.winner == "red"
    page.goto(f"{live_server.url}/games/{game.pk}/rating/")
    assert "Рейтинг" in page.inner_text("h1")
    player.goto(f"{live_server.url}/games/{game.pk}/rating/")
    player.select_option("#chosen", label=next(n for n in red if n != commissar))
    player.click("form:has(#chosen) button")
    player.wait_for_selector("text=Сохранено")
    for p in (page, don_page, player):
        p.context.close()
