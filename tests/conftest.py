"""Shared fixtures: users and clients by perspective, a demo game, service guards for CI."""

import os

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from hypothesis import settings as hypothesis_settings

from accounts.models import User
from games.caching import pagecache
from games.models import Game, Thread
from games.services.games import game_create, seat_add
from games.services.threads import thread_create

PASSWORD = "correct-horse-battery-staple"
IN_CI = os.environ.get("CI", "").lower() == "true"

# Hypothesis: a developer's run draws new examples each time (that is how the properties find
# their bugs); CI's run draws the same ones on every clone, so that a landing is judged on the
# change and not on the draw. A property that fails on a developer's machine prints its
# reproduction blob; its case then gets a deterministic regression test of its own.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True, database=None)
hypothesis_settings.register_profile("dev", print_blob=True)
hypothesis_settings.load_profile("ci" if IN_CI else "dev")


@pytest.fixture(autouse=True, scope="session")
def _celery_runs_tasks_in_process():
    """Tasks queued by code under test run in the test process instead of going to a broker
    (where a developer's own worker could pick them up). The real-worker test switches this off."""
    from config.celery import app

    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing():
    """A password hashed with the site's PBKDF2 costs a quarter of a second, by design; the test
    users' passwords need no strength. For the whole session (the function-scoped settings below
    come too late for the module-scoped worlds of tests/security, which create dozens of users)."""
    from django.test import override_settings

    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    yield
    fast.disable()


@pytest.fixture(autouse=True, scope="session")
def _cache_starts_empty():
    """The embedded default's cache is a folder in var/ that outlives a test run: entries keyed by
    ids that the new test database hands out again (a thread's post count for the poll, a phase's
    vote count) must not come from an earlier run. (A Redis database is left alone: it may be
    shared, and clearing it would flush all of it.)"""
    from django.conf import settings
    from django.core.cache import cache

    if settings.CACHES["default"]["BACKEND"] == "config.cache.SharedDiskCache":
        cache.clear()


@pytest.fixture(autouse=True)
def _games_counts_start_afresh():
    """The games list's tab counts are kept until a game's row is written (pagecache.GAMES_KEY);
    a test's rollback writes none, so the next test would read the counts of the games the last
    one rolled back: each test starts them afresh, as a site never rolls back what it committed."""
    pagecache.changed_games()


@pytest.fixture(autouse=True)
def _english_free_defaults(settings, tmp_path):
    # Tests render in the site's default language unless they ask otherwise, and avatars go to a
    # throwaway folder.
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CELERY_TASK_ALWAYS_EAGER = False


def make_user(name: str, *, email: str | None = None, staff: bool = False) -> User:
    email = email or f"{abs(hash(name)) % 10**8}-{len(name)}@example.com"
    user = User.objects.create_user(username=email.split("@")[0], email=email, password=PASSWORD, display_name=name)
    if staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def gm(db):
    return make_user("Ведущий")


@pytest.fixture
def game(gm):
    game = game_create(title="Тестовая игра", gm=gm)
    return game


@pytest.fixture
def town_player(game):
    user = make_user("Вася")
    seat_add(game=game, user=user)
    return user


@pytest.fixture
def mafia_player(game):
    user = make_user("Негодяй")
    seat_add(game=game, user=user)
    return user


@pytest.fixture
def dead_player(game):
    user = make_user("Фроло")
    seat = seat_add(game=game, user=user)
    seat.is_alive = False
    seat.save(update_fields=["is_alive"])
    return user


@pytest.fixture
def running_game(game, town_player, mafia_player, dead_player):
    game.status = Game.Status.RUNNING
    game.save(update_fields=["status"])
    return game


@pytest.fixture
def spectator(db):
    return make_user("Зритель")


@pytest.fixture
def moderator(db):
    return make_user("Модератор", staff=True)


@pytest.fixture
def lobby_thread(spectator) -> Thread:
    thread, _post = thread_create(kind=Thread.Kind.LOBBY, title="Лобби", author=spectator, body="Первый пост")
    return thread


@pytest.fixture
def anonymous_client():
    return Client()


def require_service(name: str, available: bool, why: str) -> None:
    """A test that needs PostgreSQL or Redis fails under CI when the service is missing, and
    skips on a developer machine that runs the embedded defaults."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{name} is required in CI: {why}")
    pytest.skip(f"{name} not configured: {why}")


ARCHIVE_SCENARIO = os.path.join(os.path.dirname(__file__), "scenarios", "forum", "whole_game_for_the_archive.yaml")


class PlayedGame:
    """A game played through the real services from a scenario file (see finished_game)."""

    def __init__(self, game, users: dict, gm):
        self.game, self.users, self.gm = game, users, gm

    def seat(self, name: str):
        return self.game.seats.get(user=self.users[name])


def play_kept(path: str) -> PlayedGame:
    """Play a scenario with `keep` (inside the test's transaction) and return the game."""
    from games import scenarios

    report = scenarios.play(path, keep=True)
    game = Game.objects.get(pk=int(report.game_url.rstrip("/").rsplit("/", 1)[1]))
    users = {name: User.objects.get(username=username) for name, username in report.users.items() if name != "gm"}
    return PlayedGame(game, users, User.objects.get(username=report.users["gm"]))


@pytest.fixture
def finished_game(db) -> PlayedGame:
    """A forum game played to the town's win (tests/scenarios/forum/whole_game_for_the_archive.yaml):
    [private] messages Вася→Маша and Глаша→Паша, a room Вася+Петя+Маша, checks, three days of
    votes. The mafia's team chat and Вася's letter to the GM get a post each, written while the
    game ran (the scenario format has no posts in private threads)."""
    from datetime import timedelta

    from games.models import Post

    played = play_kept(ARCHIVE_SCENARIO)
    game = played.game
    for thread, author, body in (
        (game.private_threads.get(kind=Thread.Kind.FACTION), played.users["Глаша"], "Ночью стреляем в Васю, тайно."),
        (game.private_threads.get(kind=Thread.Kind.GM_CHAT, seat__user=played.users["Вася"]), played.users["Вася"],
         "Ведущий, я проверяю Машу."),
    ):
        number = thread.post_count + 1
        Post.objects.create(thread=thread, number=number, author=author, body=body, html=f"<p>{body}</p>",
                            search_text=body, renderer_version=1, created_at=game.started_at + timedelta(minutes=5))
        Thread.objects.filter(pk=thread.pk).update(post_count=number)
    return played
