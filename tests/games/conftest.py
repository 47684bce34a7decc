"""Fixtures of the game tests: a forum game with seven players, before and after the deal; a clear
cache and a count of the thread page's full renders for the tests of its caches."""

import pytest
from django.core.cache import cache

from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.views import forum
from tests.conftest import make_user

ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]
NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"]


@pytest.fixture
def forum_game(db):
    gm = make_user("Ведущий")
    game = game_create(title="Форумная", gm=gm, size=7)
    users = [make_user(name) for name in NAMES]
    for user in users:
        game_signup(game=game, user=user)
    return game


@pytest.fixture
def started(forum_game):
    game_start(game=forum_game, by=forum_game.gm, seed=5, roles_in_seat_order=ROLES)
    forum_game.refresh_from_db()
    return forum_game


@pytest.fixture
def thread(started):
    """The started game's thread with three posts (Вася, Кикимора, Негодяй: «Пост 0..2»), for the
    tests of the thread page and its caches."""
    for index, name in enumerate(["Вася", "Кикимора", "Негодяй"]):
        author = started.seats.select_related("user").get(user__display_name=name).user
        post_submit(thread=started.game_thread, author=author, body=f"[b]Пост {index}[/b]")
    return started.game_thread


@pytest.fixture
def fresh_cache():
    """An empty cache for the test (what a page cache kept for one test's ids must not answer another's)."""
    cache.clear()


@pytest.fixture
def contexts(monkeypatch):
    """How many times the thread page's (or an htmx reply's region's) full context was made: one
    per full render, none when it came from its kept frame (tests/games/test_thread_frame.py,
    test_reply_frame.py)."""
    calls = []
    real = forum._thread_context

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(forum, "_thread_context", counting)
    return calls
