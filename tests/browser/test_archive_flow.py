"""In a real browser, as an anonymous visitor: a finished game's archive shows every secret and
the browser's own SHA-256 verifies the role commitment; the replay draws a chart per day."""

import pytest

pytestmark = pytest.mark.browser


def test_archive_and_replay_of_a_finished_game(live_server, browser, page, transactional_db, finished_game):
    game = finished_game.game
    page.goto(f"{live_server.url}/games/{game.pk}/archive/")

    roster = page.inner_text(".archive-roster")
    for role in ("рекрутёр", "реаниматор", "честный житель", "мафиози", "киллер", "жулик"):
        assert role in roster
    private = page.inner_text(".archive-private")
    assert "Я рекрутёр, проверю Машу." in private and "Глаша → Паша" in private and "Голосуем за Сашу." in private
    assert "Проверяю Машу." in page.inner_text(".archive-phases")
    assert page.locator(".archive-gm-log li[data-action='start']").count() == 1
    team_chat = game.private_threads.get(kind="faction").get_absolute_url()
    assert page.locator(f".archive-threads a[href='{team_chat}']").count() == 1

    # The browser hashes the revealed text itself and agrees with the hash published at the start.
    page.wait_for_selector("#commitment-browser-verdict.ok")
    assert page.inner_text("#commitment-browser-digest") == game.commitment
    assert page.inner_text("#commitment-browser-verdict").startswith("✔")

    page.click("nav.breadcrumbs >> a[href$='/replay/']")
    page.wait_for_selector("svg.vote-chart")
    days = game.phases.filter(kind="day").count()
    assert page.locator("svg.vote-chart").count() == days == 3
    assert page.locator("svg.vote-chart g.wagon-series").count() >= days
    legend = [t.strip() for t in page.locator("svg.vote-chart .legend-item text").all_text_contents()]
    assert "Саша — 3" in legend
