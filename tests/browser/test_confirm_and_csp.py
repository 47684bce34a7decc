"""In a real browser: the GM's destructive buttons ask first, naming what will happen (dismissed:
nothing changes; accepted: done at once, games/confirm.py), on a phone-wide screen; and the main
pages run under the Content-Security-Policy with zero violations while their htmx still works
(docs/security.md, "Headers")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Seat
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from tests.browser.conftest import log_in
from tests.conftest import make_user
from tests.games.test_lifecycle import _day_one

pytestmark = pytest.mark.browser

ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]
NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"]

# Collects what the browser reports: the event, and the console's "Refused to ..." lines.
WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || ""));
});
"""


def _page(browser, base_url: str, user, *, width: int = 1100):
    """A logged-in page (a session made on the server), `width` pixels wide, watching for CSP
    violations; returns the page and the list of console errors about the policy."""
    context = browser.new_context(locale="ru-RU", viewport={"width": width, "height": 844},
                                  is_mobile=width < 500, has_touch=width < 500)
    if user is not None:
        log_in(context, base_url, user)
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    page.set_default_timeout(15000)
    console = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    return page, console


def _started_game(names=NAMES, gm_name="Ведущий"):
    gm = make_user(gm_name)
    game = game_create(title="Подтверждения", gm=gm, size=7)
    for name in names:
        game_signup(game=game, user=make_user(name))
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    return game


def test_gm_buttons_ask_naming_the_action_and_do_nothing_when_dismissed_at_phone_width(
        live_server, browser, transactional_db, tmp_path):
    game = _started_game()
    _day_one(game)
    phase = game.current_phase
    page, console = _page(browser, live_server.url, game.gm, width=390)
    dashboard = f"{live_server.url}{reverse('games:gm_dashboard', args=[game.pk])}"
    page.goto(dashboard)
    page.screenshot(path=str(tmp_path / "gm-dashboard-390.png"), full_page=True)
    close = page.locator("button[name=action][value=close]")
    box = close.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # reachable on a phone

    # "Close now and publish": the question names the day and who would be jailed; dismissed, nothing.
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    close.click()
    assert page.evaluate("document.readyState") == "complete" and page.url == dashboard
    phase.refresh_from_db()
    assert phase.is_open
    assert "День 1" in asked[0] and "Негодяй" in asked[0]

    # Modkill: the question names the player chosen in the form and the reason typed.
    form = page.locator("form:has(button[value=modkill])")
    form.locator("select[name=seat]").select_option(label="Фроло")
    form.locator("input[name=reason]").fill("пропал на три дня")
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    form.locator("button[value=modkill]").click()
    page.evaluate("1")
    assert "Фроло" in asked[1] and "пропал на три дня" in asked[1]
    assert Seat.objects.get(game=game, user__display_name="Фроло").status == "active"

    # Accepted: done with one request, no page of its own.
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    close.click()
    page.wait_for_selector(".message.success")
    phase.refresh_from_db()
    assert not phase.is_open and len(asked) == 3
    assert "confirm-question" not in page.content()
    assert page.evaluate("window.__csp") == [] and console == []


def test_gm_button_asks_on_a_page_of_its_own_when_javascript_is_off(live_server, browser, transactional_db):
    game = _started_game()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(game.gm.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = game.gm.get_session_auth_hash()
    session.save()
    context = browser.new_context(locale="ru-RU", viewport={"width": 390, "height": 844}, java_script_enabled=False)
    context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}{reverse('games:gm_dashboard', args=[game.pk])}")
    page.click("button[name=action][value=close]")
    page.wait_for_selector(".confirm-question")
    assert "День 1" in page.inner_text(".confirm-question")
    game.current_phase.refresh_from_db()
    assert game.current_phase.is_open
    page.click(".confirm-page button[type=submit]")
    page.wait_for_selector(".message.success")
    phase = game.current_phase
    phase.refresh_from_db()
    assert not phase.is_open
    context.close()


def _assert_clean(page, console, where: str):
    page.evaluate("1")
    assert page.evaluate("window.__csp") == [], where
    assert console == [], where


def test_main_pages_run_under_the_csp_with_zero_violations_when_used(
        live_server, browser, transactional_db, settings, finished_game):
    settings.MAFIA_THREAD_POLL_SECONDS = 1
    # (finished_game has its own Вася and the rest: other names here)
    game = _started_game([f"Игрок {n}" for n in "АБВГДЕЖ"], gm_name="Ведущий форума")
    vasya = game.seats.get(user__display_name="Игрок А").user
    page, console = _page(browser, live_server.url, vasya)

    # The thread: preview, then a reply sent by htmx, then another player's post found by the poll.
    response = page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
    policy = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy
    page.evaluate("window.__noReload = true")
    page.fill("#reply-body", "Черновик [i]мысли[/i]")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview em")
    game.game_thread.refresh_from_db()
    page.click("button[name=post]")
    page.wait_for_selector(f"#p{game.game_thread.post_count + 1}")
    assert page.evaluate("window.__noReload") is True
    post_submit(thread=game.game_thread, author=game.seats.get(user__display_name="Игрок Б").user, body="Новости")
    page.wait_for_selector(".thread-poll-bar")
    _assert_clean(page, console, "thread")

    # The role page and the GM's dashboard.
    page.goto(f"{live_server.url}{reverse('games:role', args=[game.pk])}")
    _assert_clean(page, console, "role page")
    gm_page, gm_console = _page(browser, live_server.url, game.gm)
    gm_page.goto(f"{live_server.url}{reverse('games:gm_dashboard', args=[game.pk])}")
    _assert_clean(gm_page, gm_console, "GM dashboard")

    # The cards pages: the deck page's htmx check, the player's cards, the GM's card dashboard.
    from tests.games.test_cards_pages import PLAYERS, _cards_game

    cards_gm = make_user("Ведущий карт")
    cards, users = _cards_game("Карточная", cards_gm, [(f"={n}-к", r) for n, r in PLAYERS])
    player, player_console = _page(browser, live_server.url, users[f"={PLAYERS[0][0]}-к"])
    player.goto(f"{live_server.url}{reverse('games:deck', args=[cards.pk])}")
    status = player.inner_text("#deck-status")
    player.locator("#deck-region input[type=number]").first.fill("1")
    player.locator("#deck-region input[type=number]").first.dispatch_event("change")
    player.wait_for_function("s => document.querySelector('#deck-status').innerText !== s", arg=status)
    player.goto(f"{live_server.url}{reverse('games:cards', args=[cards.pk])}")
    _assert_clean(player, player_console, "cards pages")
    gm_page.goto(f"{live_server.url}{reverse('games:gm_cards', args=[cards.pk])}")
    _assert_clean(gm_page, gm_console, "card dashboard")

    # The commitment page and the archive: the browser's own SHA-256, now from site.js.
    finished = finished_game.game
    anonymous, anonymous_console = _page(browser, live_server.url, None)
    anonymous.goto(f"{live_server.url}{reverse('games:commitment', args=[finished.pk])}")
    anonymous.wait_for_selector("#browser-verdict.ok")
    assert anonymous.inner_text("#browser-digest") == finished.commitment
    anonymous.goto(f"{live_server.url}{reverse('games:archive', args=[finished.pk])}")
    anonymous.wait_for_selector("#commitment-browser-verdict.ok")
    _assert_clean(anonymous, anonymous_console, "commitment and archive")

    # A control: an inline script is refused, and the watch sees it.
    anonymous.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
                       " document.body.appendChild(s); }")
    anonymous.wait_for_function("() => window.__csp.length > 0")
    assert anonymous.evaluate("window.__ran") is None


def test_deadline_event_and_lock_ask_first_in_the_browser_at_phone_width(live_server, browser, transactional_db):
    """Issue 29: «Изменить срок», «Добавить событие» and «Закрыть тему сейчас» ask, naming the new
    time, the event's text and readers, the thread; dismissed, nothing changes; accepted, done."""
    from games.models import GameEvent

    game = _started_game()
    phase = game.current_phase
    old_deadline = phase.deadline_at
    page, _console = _page(browser, live_server.url, game.gm, width=390)
    dashboard = f"{live_server.url}{reverse('games:gm_dashboard', args=[game.pk])}"
    page.goto(dashboard)

    asked = []
    page.fill("input[name=deadline_at]", "2099-01-02T20:00")
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("button[name=action][value=deadline]")
    phase.refresh_from_db()
    assert phase.deadline_at == old_deadline and "2099-01-02T20:00" in asked[-1] and phase.label in asked[-1]
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("button[name=action][value=deadline]")
    page.wait_for_url(dashboard)
    phase.refresh_from_db()
    assert phase.deadline_at.year == 2099

    page.fill("input[name=text]", "Ночью выпал снег")
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("button[name=action][value=event]")
    assert "Ночью выпал снег" in asked[-1] and not GameEvent.objects.filter(game=game, kind="manual").exists()
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("button[name=action][value=event]")
    page.wait_for_url(dashboard)
    assert GameEvent.objects.filter(game=game, kind="manual").count() == 1

    thread = game.game_thread
    page.goto(f"{live_server.url}{thread.get_absolute_url()}")
    page.click("details.mod-tools summary")
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("button[name=action][value=lock]")
    thread.refresh_from_db()
    assert thread.title in asked[-1] and not thread.is_locked
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("button[name=action][value=lock]")
    page.wait_for_load_state("load")
    page.wait_for_selector("button[name=action][value=unlock]", state="attached")
    thread.refresh_from_db()
    assert thread.is_locked
    page.context.close()
