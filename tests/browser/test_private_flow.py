"""In a real browser: a [private] message is read by its recipient and the GM only, and the
mafia talk in their team chat that nobody else can open."""

import pytest

from games.models import Game, Thread
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser
ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]
NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"]
SECRET = "проверю Кикимору завтра"


def test_private_message_and_team_chat_in_the_browser(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    game = game_create(title="Тайны", gm=gm, size=7)
    players = {name: make_user(name) for name in NAMES}
    for user in players.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game = Game.objects.get(pk=game.pk)
    thread_url = f"{live_server.url}{game.game_thread.get_absolute_url()}"

    sender = logged_in_page(browser, live_server.url, players["Вася"])
    sender.goto(thread_url)
    sender.fill("#reply-body", f'Доброе утро. [private="Красной Шапочке"]{SECRET}[/private]')
    sender.click("button[name=post]")
    sender.wait_for_selector(".private-text")
    assert SECRET in sender.inner_text("ol.posts")

    for name, sees in [("Красная Шапочка", True), ("Кикимора", False), ("Маленький Джон", False)]:
        page = logged_in_page(browser, live_server.url, players[name])
        page.goto(thread_url)
        text = page.inner_text("ol.posts")
        assert "Личное сообщение для Красной Шапочки" in text
        assert (SECRET in text) is sees, name
        page.context.close()
    gm_page = logged_in_page(browser, live_server.url, gm)
    gm_page.goto(thread_url)
    assert SECRET in gm_page.inner_text("ol.posts")

    # The mafia's team chat, reached from the role page.
    chat = Thread.objects.get(game=game, kind="faction")
    mafia = logged_in_page(browser, live_server.url, players["Кикимора"])
    mafia.goto(f"{live_server.url}/games/{game.pk}/role/")
    mafia.click(f"a[href='{chat.get_absolute_url()}']")
    mafia.fill("#reply-body", "Сегодня стреляем в Васю")
    mafia.click("button[name=post]")
    mafia.wait_for_selector("text=Сегодня стреляем в Васю")
    killer = logged_in_page(browser, live_server.url, players["Эсмеральда"])
    killer.goto(f"{live_server.url}{chat.get_absolute_url()}")
    assert "Сегодня стреляем в Васю" in killer.inner_text("ol.posts")
    response = sender.goto(f"{live_server.url}{chat.get_absolute_url()}")
    assert response.status == 404
    for page in (sender, gm_page, mafia, killer):
        page.context.close()


def test_a_room_is_agreed_opens_and_closes_in_the_browser(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    game = game_create(title="Комнаты", gm=gm, size=7, options={"rooms": True})
    players = {name: make_user(name) for name in NAMES}
    for user in players.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game = Game.objects.get(pk=game.pk)
    thread_url = f"{live_server.url}{game.game_thread.get_absolute_url()}"
    trio = {"Вася": "комната: Фроло, Негодяй", "Фроло": "комната: Вася, Негодяй", "Негодяй": "комната: Васю и Фроло"}
    for name, comment in trio.items():
        page = logged_in_page(browser, live_server.url, players[name])
        page.goto(thread_url)
        page.fill("#reply-body", f"Пишет {name}; [b]В тюрьму Кикимору[/b]")
        page.fill("input[name=comment]", comment)
        page.click("button[name=post]")
        page.wait_for_selector(f"text=Пишет {name}")
        page.context.close()

    gm_page = logged_in_page(browser, live_server.url, gm)
    gm_page.goto(f"{live_server.url}/games/{game.pk}/gm/")
    gm_page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    gm_page.click("button[value=close]")
    gm_page.wait_for_selector("text=День 2")
    room = Thread.objects.get(game=game, kind="room")

    member = logged_in_page(browser, live_server.url, players["Фроло"])
    member.goto(f"{live_server.url}/games/{game.pk}/role/")
    member.click(f"a[href='{room.get_absolute_url()}']")
    member.fill("#reply-body", "Договоримся здесь")
    member.click("button[name=post]")
    member.wait_for_selector("text=Договоримся здесь")
    outsider = logged_in_page(browser, live_server.url, players["Маленький Джон"])
    assert outsider.goto(f"{live_server.url}{room.get_absolute_url()}").status == 404

    gm_page.goto(f"{live_server.url}/games/{game.pk}/gm/")
    gm_page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    gm_page.click("button[value=close]")
    gm_page.wait_for_selector("text=День 3")
    member.goto(f"{live_server.url}{room.get_absolute_url()}")
    assert "Договоримся здесь" in member.inner_text("ol.posts")
    assert member.locator("#reply-body").count() == 0  # read-only now
    for page in (gm_page, member, outsider):
        page.context.close()
