"""The thread page cache (games/pagecache.py): a repeat costs no query, and every change, every
viewer and every language gets its own, correct page. Each test views a page first (filling the
caches) and then checks that what follows is not a stale or someone else's copy."""

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import pagecache
from games.models import Post
from games.services.posts import post_create, post_edit, post_set_deleted
from tests.conftest import client_for
from tests.games.test_lifecycle import seat_named, user_named

SECRET = "явка под мостом в полночь"


def _page(client, thread, **params) -> str:
    response = client.get(reverse("games:thread", args=[thread.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def _post_li(html: str, number: int) -> str:
    match = re.search(rf'<li class="post[^"]*" id="p{number}".*?</li>', html, re.S)
    assert match, f"post #{number} is not on the page"
    return match.group(0)


def _vote_count(html: str) -> str:
    return re.search(r'<section class="card" id="vote-count".*?</section>', html, re.S).group(0)


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The vote count's own cache is keyed by phase id, which SQLite reuses from test to test.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def thread(started):
    for index, name in enumerate(["Вася", "Кикимора", "Негодяй"]):
        post_create(thread=started.game_thread, author=user_named(started, name), body=f"[b]Пост {index}[/b]")
    return started.game_thread


# --- Repeats ---------------------------------------------------------------------------------------
def test_reloading_the_same_page_runs_no_query_with_cached_sessions(started, thread, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    client = client_for(user_named(started, "Вася"))
    first = _page(client, thread, page="last")  # sets the CSRF cookie
    second = _page(client, thread, page="last")  # rendered (a CSRF cookie now), and kept
    with CaptureQueriesContext(connection) as captured:
        third = _page(client, thread, page="last")
    assert len(captured.captured_queries) == 0
    assert third == second
    assert "Пост 2" in first and "Пост 2" in third


def test_a_write_to_the_database_renders_the_page_again(started, thread, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    client = client_for(user_named(started, "Вася"))
    _page(client, thread)
    _page(client, thread)
    post = thread.posts.get(number=thread.post_count)
    # Not through a service: a direct write still invalidates (the SQL watcher sees it).
    Post.objects.filter(pk=post.pk).update(html="<p>переписано напрямую</p>")
    with CaptureQueriesContext(connection) as captured:
        html = _page(client, thread)
    assert "переписано напрямую" in html
    assert len(captured.captured_queries) > 0


def test_the_page_is_not_kept_past_its_clock(started, thread, monkeypatch):
    client = client_for(user_named(started, "Вася"))
    _page(client, thread)
    _page(client, thread)
    key = pagecache.page_key(_request_like(client, thread))
    assert pagecache.page_get(key) is not None
    later = pagecache.time.time() + pagecache.PAGE_SECONDS + 1
    monkeypatch.setattr(pagecache.time, "time", lambda: later)
    assert pagecache.page_get(key) is None


def _request_like(client, thread):
    """A request as the view sees it (session loaded, CSRF cookie read, language active)."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import RequestFactory

    request = RequestFactory().get(reverse("games:thread", args=[thread.pk]))
    request.COOKIES.update({name: morsel.value for name, morsel in client.cookies.items()})
    request.session = SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    request.META["CSRF_COOKIE"] = request.COOKIES[settings.CSRF_COOKIE_NAME]
    request.htmx = None
    return request


# --- Changes ---------------------------------------------------------------------------------------
def test_new_post_shows_at_once(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    _page(client, thread, page="last")
    _page(client, thread, page="last")
    post_create(thread=thread, author=user_named(started, "Вася"), body="Свежий пост")
    assert "Свежий пост" in _page(client, thread, page="last")


def test_edit_shows_at_once(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    post = post_create(thread=thread, author=user_named(started, "Вася"), body="Было так")
    assert "Было так" in _page(client, thread)
    _page(client, thread)
    post_edit(post=post, editor=user_named(started, "Вася"), body="Стало иначе")
    html = _page(client, thread)
    assert "Стало иначе" in html and "Было так" not in html


def test_hiding_a_post_hides_its_text_from_players_and_keeps_it_for_the_gm(started, thread):
    player, gm = client_for(user_named(started, "Кикимора")), client_for(started.gm)
    post = post_create(thread=thread, author=user_named(started, "Вася"), body="Лишнее слово")
    for client in (player, gm, player, gm):
        assert "Лишнее слово" in _page(client, thread)
    post_set_deleted(post=post, moderator=started.gm, deleted=True, reason="флуд")
    hidden = _post_li(_page(player, thread), post.number)
    assert "Лишнее слово" not in hidden and "deleted-note" in hidden
    for_gm = _post_li(_page(gm, thread), post.number)
    assert "Лишнее слово" in for_gm and 'value="restore"' in for_gm


def test_a_gm_vote_correction_changes_the_count_on_the_page(started, thread, django_capture_on_commit_callbacks):
    from games.services.votes import vote_button_text, vote_correct

    client = client_for(user_named(started, "Кикимора"))
    post = post_create(thread=thread, author=user_named(started, "Вася"),
                       body=vote_button_text("Негодяй", started.ruleset))
    before = _vote_count(_page(client, thread, page="last"))
    _page(client, thread, page="last")
    assert "Негодяй" in re.findall(r"wagon-target\">(.*?)<", before)
    with django_capture_on_commit_callbacks(execute=True):  # the count's own version moves on commit
        vote_correct(post=post, gm=started.gm, kind="vote", target=seat_named(started, "Маленький Джон"), note="опечатка")
    after = _vote_count(_page(client, thread, page="last"))
    assert re.findall(r"wagon-target\">(.*?)<", after) == ["Маленький Джон"]


def test_switching_the_language_renders_the_page_in_the_new_one(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    russian = _page(client, thread)
    _page(client, thread)
    assert 'lang="ru"' in russian and "Цитировать" in russian
    client.post(reverse("accounts:language"), {"language": "en", "next": "/"})
    english = _page(client, thread)
    assert 'lang="en"' in english and ">Quote<" in english and "Цитировать" not in english


# --- Viewers ---------------------------------------------------------------------------------------
def test_gm_player_and_anonymous_each_get_their_own_variant(started, thread):
    gm, player, anonymous = client_for(started.gm), client_for(user_named(started, "Кикимора")), client_for(None)
    for _ in range(2):  # the second round is served from the caches
        for_gm, for_player, for_anonymous = _page(gm, thread), _page(player, thread), _page(anonymous, thread)
        assert 'value="delete"' in for_gm and "mod-tools" in for_gm
        assert 'value="delete"' not in for_player and "mod-tools" not in for_player
        assert "quote-button" in for_player and 'name="body"' in for_player
        assert "quote-button" not in for_anonymous and "/report/" not in for_anonymous
        assert "/report/" in for_player


def test_own_post_links_are_never_served_to_another_player(started, thread):
    vasya, kiki = user_named(started, "Вася"), user_named(started, "Кикимора")
    post = post_create(thread=thread, author=vasya, body="Мой пост")
    own, other = client_for(vasya), client_for(kiki)
    edit_url, report_url = reverse("games:post_edit", args=[post.pk]), reverse("games:post_report", args=[post.pk])
    for _ in range(2):
        mine = _post_li(_page(own, thread), post.number)
        theirs = _post_li(_page(other, thread), post.number)
        assert edit_url in mine and report_url not in mine
        assert edit_url not in theirs and report_url in theirs


def test_edit_link_goes_when_the_window_closes(started, thread):
    from datetime import timedelta

    from django.utils import timezone

    vasya = user_named(started, "Вася")
    post = post_create(thread=thread, author=vasya, body="Мой пост")
    client = client_for(vasya)
    edit_url = reverse("games:post_edit", args=[post.pk])
    assert edit_url in _page(client, thread)
    # The list is cached; the link is decided per request from the post's time.
    Post.objects.filter(pk=post.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert edit_url not in _page(client, thread)


def test_private_text_is_never_served_to_anyone_but_recipient_sender_and_gm(started, thread):
    """001: «приватные сообщения ... видят только получатель, отправитель и ведущий». The
    recipient views the page first, so that a post list holding the text is cached; every
    other viewer (a player of the same class, a spectator, the anonymous) comes after."""
    from tests.conftest import make_user

    post = post_create(thread=thread, author=user_named(started, "Вася"),
                       body=f'Всем привет. [private="Кикимору"]{SECRET}[/private]')
    recipient, sender, gm = (client_for(user_named(started, "Кикимора")), client_for(user_named(started, "Вася")),
                             client_for(started.gm))
    for client in (recipient, recipient, sender, gm):
        assert SECRET in _post_li(_page(client, thread, page="last"), post.number)
    others = [client_for(user_named(started, name)) for name in ("Негодяй", "Фроло", "Эсмеральда")]
    others += [client_for(make_user("Зритель")), client_for(None)]
    for client in others * 2:
        li = _post_li(_page(client, thread, page="last"), post.number)
        assert SECRET not in li
        assert "bb-private" in li  # the message and its recipient still show
    assert SECRET in _page(recipient, thread, page="last")


# --- The SQL watcher -------------------------------------------------------------------------------
@pytest.mark.parametrize(("sql", "expected"), [
    ('SELECT "games_post"."id" FROM "games_post"', (False, False)),
    ('INSERT INTO "games_post" ("thread_id") VALUES (%s)', (True, True)),
    ('UPDATE "games_game" SET "current_phase_id" = %s WHERE "games_game"."id" = %s', (True, False)),
    ('DELETE FROM "games_privatemessage" WHERE "id" IN (%s)', (True, True)),
    ('UPDATE "games_threadreadmark" SET "last_read_number" = %s WHERE x', (False, False)),
    ('DELETE FROM "django_session" WHERE "session_key" = %s', (False, False)),
    ('UPDATE "accounts_user" SET "last_login" = %s WHERE "accounts_user"."id" = %s', (True, False)),
    ('UPDATE "accounts_user" SET "display_name" = %s WHERE "accounts_user"."id" = %s', (True, True)),
    ('  update "games_seat" set "is_alive" = false', (True, False)),
])
def test_watcher_sorts_statements(sql, expected):
    assert pagecache._classify(sql) == expected


def test_every_connection_is_watched(db):
    assert any(getattr(wrapper, "pagecache", False) for wrapper in connection.execute_wrappers)
    before = pagecache.generation(pagecache.SITE_KEY)
    from games.models import Thread

    Thread.objects.filter(pk=-1).update(title="x")
    assert pagecache.generation(pagecache.SITE_KEY) > before
