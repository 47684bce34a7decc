"""A real Chromium (Debian's) driven by Playwright, for tests that need a browser."""

import os
import shutil

import pytest

from tests.conftest import IN_CI

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make around
# it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        message = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="ru-RU", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def log_in(context, base_url: str, user) -> None:
    """Give a browser context the session cookie of `user`, a session made on the server as
    Django's login makes it (the first authentication back end, the password hash)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": base_url}])


def logged_in_page(browser, base_url: str, user):
    """A fresh browser context already logged in as `user` (a session made on the server)."""
    context = browser.new_context(locale="ru-RU")
    log_in(context, base_url, user)
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


PHONE = {"width": 390, "height": 844}


def phone_page(browser, base_url: str, user=None, *, javascript: bool = True, width: int = PHONE["width"]):
    """A page in a phone-sized context (390×844 unless `width` says otherwise, touch, a phone's
    pixel ratio), logged in as `user` (or anonymous)."""
    context = browser.new_context(locale="ru-RU", viewport={**PHONE, "width": width}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True, java_script_enabled=javascript)
    if user is not None:
        log_in(context, base_url, user)
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def desktop_page(browser, base_url: str, user=None, *, width: int = 1100, height: int = 900):
    """A page in a desktop-sized context, logged in as `user` (or anonymous): phone_page's twin for
    the walks that seat several people at their own screens."""
    context = browser.new_context(locale="ru-RU", viewport={"width": width, "height": height})
    if user is not None:
        log_in(context, base_url, user)
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


@pytest.fixture
def phone(browser):
    """An anonymous page 390 px wide (phone_page gives a logged-in one)."""
    page = phone_page(browser, "")
    yield page
    page.context.close()


# A display name as long as the site allows, to see that nothing overflows a phone's width.
LONG_NAME = "Безымянный_странник_из_далёкого_королевс"


def small_cards_game(title: str):
    """A three-player cards game, started (sheriff, boss, doctor), for the phone-width tests:
    (game, gm, Вася, Негодяй, the player with the longest name)."""
    from games.models import Game
    from games.services.games import game_create
    from games.services.lifecycle import game_signup, game_start
    from tests.conftest import make_user

    gm = make_user("Ведущий")
    vasya, villain, hood = make_user("Вася"), make_user("Негодяй"), make_user(LONG_NAME)
    game = game_create(title=title, gm=gm, ruleset="cards", size=3)
    for user in (vasya, villain, hood):
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=11, roles_in_seat_order=["sheriff", "boss", "doctor"])
    return Game.objects.get(pk=game.pk), gm, vasya, villain, hood
