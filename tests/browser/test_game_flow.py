"""A whole forum turn in a real browser: a GM creates a 7-player game, players sign up, roles are
dealt, votes and orders are sent, the deadline passes, results are published, and each player
sees only his own secrets."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Phase
from games.tasks import sweep_deadlines
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser
NAMES = ["Вася", "Кикимора", "Маленький Джон", "Красная Шапочка", "Эсмеральда", "Фроло", "Негодяй"]


def _page_for(browser, live_server, user):
    return logged_in_page(browser, live_server.url, user)


def test_a_gm_runs_a_forum_turn_in_the_browser(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    players = {name: make_user(name) for name in NAMES}

    page = _page_for(browser, live_server, gm)
    page.goto(f"{live_server.url}/games/new/")
    page.fill("input[name=title]", "Браузерная партия")
    page.fill("input[name=size]", "7")
    page.fill("input[name=roles]", "рекрутёр, реаниматор, мафиози, киллер, жулик, честный житель, честный житель")
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Идёт набор")
    game = Game.objects.get(title="Браузерная партия")
    game_url = f"{live_server.url}{game.get_absolute_url()}"

    for name, user in players.items():
        player_page = _page_for(browser, live_server, user)
        player_page.goto(game_url)
        player_page.click("button[value=join]")
        player_page.wait_for_selector("button[value=withdraw]")
        player_page.context.close()

    page.goto(game_url)
    page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    page.click("text=Закрыть набор и раздать роли")
    page.wait_for_selector("text=Идёт игра")
    game.refresh_from_db()
    roles = {seat.user.display_name: seat.role for seat in game.seats.select_related("user")}
    by_role = {}
    for name, role in roles.items():
        by_role.setdefault(role, []).append(name)
    recruiter, killer, mafioso = by_role["recruiter"][0], by_role["killer"][0], by_role["mafioso"][0]
    victim = by_role["citizen"][0]

    # Everybody but the killer votes for the killer; the recruiter checks the mafioso; the killer shoots.
    for name in NAMES:
        if name == killer:
            continue
        player_page = _page_for(browser, live_server, players[name])
        player_page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
        player_page.click(f".vote-button button:has-text('{killer}')")
        player_page.click("button[name=post]")
        player_page.wait_for_selector(".vote-confirmation.ok")
        player_page.context.close()

    recruiter_page = _page_for(browser, live_server, players[recruiter])
    recruiter_page.goto(f"{live_server.url}/games/{game.pk}/role/")
    assert "рекрутёр" in recruiter_page.inner_text(".role-card")
    recruiter_page.fill("#order-text", f"Проверяю {mafioso}")
    recruiter_page.click("form:has(#order-text) button")
    recruiter_page.wait_for_selector("text=Приказ принят")

    killer_page = _page_for(browser, live_server, players[killer])
    killer_page.goto(f"{live_server.url}/games/{game.pk}/role/")
    killer_page.select_option("#order-action", "shoot")
    killer_page.select_option("#order-target", label=victim)
    killer_page.click("form:has(#order-action) button")
    killer_page.wait_for_selector("text=Приказ принят")

    # The GM's dry run shows what the close will do.
    page.goto(f"{live_server.url}/games/{game.pk}/gm/")
    preview = page.inner_text(".preview")
    assert killer in preview and victim in preview

    # The deadline passes; the beat sweep closes the day.
    Phase.objects.filter(pk=game.current_phase_id).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert sweep_deadlines() == 1

    thread_page = _page_for(browser, live_server, players[victim])
    thread_page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}?page=last")
    results = thread_page.inner_text("ol.posts")
    assert "Итоги: день 1" in results and killer in results and victim in results

    recruiter_page.goto(f"{live_server.url}/games/{game.pk}/role/")
    assert f"Проверка: {mafioso}" in recruiter_page.inner_text("body")
    for name in NAMES:
        if name == recruiter:
            continue
        other = _page_for(browser, live_server, players[name])
        other.goto(f"{live_server.url}/games/{game.pk}/role/")
        assert f"Проверка: {mafioso}" not in other.inner_text("body"), name
        other.context.close()
    for context_page in (page, recruiter_page, killer_page, thread_page):
        context_page.context.close()
