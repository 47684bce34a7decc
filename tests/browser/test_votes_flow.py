"""Two players vote in a real browser; each sees the count change without reloading."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Phase
from games.services.games import game_create, seat_add
from games.services.phases import phase_open
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def test_two_players_vote_and_the_count_changes_without_reload(live_server, browser, transactional_db, settings):
    settings.MAFIA_VOTE_POLL_SECONDS = 1
    gm = make_user("Ведущий")
    vasya, villain, hood = make_user("Вася"), make_user("Негодяй"), make_user("Красная Шапочка")
    game = game_create(title="Голосование", gm=gm)
    for user in (vasya, villain, hood):
        seat_add(game=game, user=user)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
    game.refresh_from_db()
    phase_open(game=game, kind=Phase.Kind.DAY, by=gm, deadline_at=timezone.now() + timedelta(hours=1),
               now=timezone.now() - timedelta(minutes=5))
    url = f"{live_server.url}{game.game_thread.get_absolute_url()}"

    pages = []
    for user in (vasya, villain):
        page = logged_in_page(browser, live_server.url, user)
        page.goto(url)
        page.evaluate("window.__noReload = true")
        pages.append(page)
    vasya_page, villain_page = pages
    assert "Пока никто не голосовал" in vasya_page.inner_text("#vote-count")

    # Вася votes with the vote button: it writes the vote in the right grammatical case.
    vasya_page.click(".vote-button button:has-text('Красная Шапочка')")
    assert vasya_page.input_value("#reply-body") == "[b]В тюрьму Красную Шапочку[/b]"
    vasya_page.click("button[name=post]")
    vasya_page.wait_for_selector(".vote-confirmation.ok")
    assert "Голос засчитан: Красная Шапочка" in vasya_page.inner_text(".vote-confirmation")
    vasya_page.wait_for_function("() => document.querySelector('#vote-count').innerText.includes('Красная Шапочка')")

    # Негодяй's page learns of it by itself, then he votes too.
    villain_page.wait_for_function("() => document.querySelector('#vote-count').innerText.includes('Красная Шапочка')")
    villain_page.fill("#reply-body", "Поддержу. [b]В клетку Красную Шапочку![/b]")
    villain_page.click("button[name=post]")
    villain_page.wait_for_selector(".vote-confirmation.ok")
    vasya_page.wait_for_function("() => document.querySelector('#vote-count').innerText.includes('Красная Шапочка 2')")
    text = vasya_page.inner_text("#vote-count")
    assert "Вася" in text and "Негодяй" in text
    for page in pages:
        assert page.evaluate("window.__noReload") is True
        page.context.close()
