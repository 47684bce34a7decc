"""The live-update poll of a thread's last page (games/views/live.py): 204 when nothing is new, a
translated "N new posts — show" link otherwise, secrecy of private threads, no SQL query for a
public thread with a warm cache, and the poll element on the last page only."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

# Imported as the WSGI handler imports it at start-up (its login signal receiver then listens).
from accounts.middleware import PREFS_SESSION_KEY
from games.caching import live
from games.models import Thread
from games.services.posting import post_submit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import user_named


@pytest.fixture(autouse=True)
def _clean_thread_states():
    # Thread numbers are reused between tests on SQLite; the cache and the per-process memory
    # of thread states must not carry one test's counts into the next.
    cache.clear()
    live.forget_all()
    yield
    cache.clear()
    live.forget_all()


def poll_url(thread, after) -> str:
    return f"{reverse('games:thread_poll', args=[thread.pk])}?after={after}"


def add_posts(thread, author, count, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for index in range(count):
            post_submit(thread=thread, author=author, body=f"Новый пост номер {index}")
    thread.refresh_from_db()


def test_poll_answers_204_when_nothing_is_new(lobby_thread, spectator):
    response = client_for(spectator).get(poll_url(lobby_thread, lobby_thread.post_count))
    assert response.status_code == 204 and response.content == b""
    assert "no-store" in response["Cache-Control"]
    assert Client().get(poll_url(lobby_thread, lobby_thread.post_count + 5)).status_code == 204


def test_poll_counts_new_posts_and_links_the_first(lobby_thread, spectator, django_capture_on_commit_callbacks):
    seen = lobby_thread.post_count
    client = client_for(spectator)
    assert client.get(poll_url(lobby_thread, seen)).status_code == 204  # warms the cache
    add_posts(lobby_thread, make_user("Кикимора"), 2, django_capture_on_commit_callbacks)
    response = client.get(poll_url(lobby_thread, seen))
    content = response.content.decode()
    assert response.status_code == 200
    assert "2 новых сообщения — показать" in content
    assert f'href="{reverse("games:post", args=[lobby_thread.pk, seen + 1])}"' in content
    assert 'data-new-posts="2"' in content
    # The link leads to the first new post.
    target = client.get(reverse("games:post", args=[lobby_thread.pk, seen + 1]))
    assert target.status_code == 302 and target["Location"].endswith(f"#p{seen + 1}")


@pytest.mark.parametrize("count, russian, english", [
    (1, "1 новое сообщение — показать", "1 new post — show"),
    (3, "3 новых сообщения — показать", "3 new posts — show"),
    (5, "5 новых сообщений — показать", "5 new posts — show"),
])
def test_poll_speaks_russian_by_default_and_english_when_chosen(lobby_thread, spectator, count, russian, english,
                                                               django_capture_on_commit_callbacks):
    seen = lobby_thread.post_count
    add_posts(lobby_thread, make_user("Кикимора"), count, django_capture_on_commit_callbacks)
    url = poll_url(lobby_thread, seen)
    assert russian in Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").get(url).content.decode()
    by_cookie = Client()
    by_cookie.cookies["django_language"] = "en"
    assert english in by_cookie.get(url).content.decode()
    # The profile's language, with no cookie: read from the session only when there is text.
    spectator.language = "en"
    spectator.save(update_fields=["language"])
    response = client_for(spectator).get(url)
    assert english in response.content.decode() and response["Content-Language"] == "en"


def test_poll_is_404_for_a_missing_thread_and_a_bad_number_is_refused(lobby_thread, spectator):
    client = client_for(spectator)
    assert client.get(reverse("games:thread_poll", args=[999_999]) + "?after=1").status_code == 404
    for bad in ("", "?after=", "?after=abc", "?after=-3"):
        response = client.get(reverse("games:thread_poll", args=[lobby_thread.pk]) + bad)
        assert response.status_code == 400
        assert "Укажите номер сообщения" in response.content.decode()


def test_poll_is_404_for_a_team_chat_one_may_not_read(started):
    chat = Thread.objects.get(game=started, kind=Thread.Kind.FACTION)
    url = poll_url(chat, 0)
    for user in (None, make_user("Зритель"), user_named(started, "Вася"), user_named(started, "Негодяй")):
        assert client_for(user).get(url).status_code == 404
    # A warm cache changes nothing: the kind sends every private poll to games.permissions.
    assert client_for(user_named(started, "Кикимора")).get(url).status_code == 204
    assert client_for(make_user("Зритель 2")).get(url).status_code == 404


def test_poll_of_a_team_chat_works_for_its_members_and_the_gm(started, django_capture_on_commit_callbacks):
    chat = Thread.objects.get(game=started, kind=Thread.Kind.FACTION)
    seen = chat.post_count
    add_posts(chat, user_named(started, "Кикимора"), 1, django_capture_on_commit_callbacks)
    for user in (user_named(started, "Кикимора"), user_named(started, "Эсмеральда"), started.gm):
        response = client_for(user).get(poll_url(chat, seen))
        assert response.status_code == 200 and "1 новое сообщение" in response.content.decode()
        assert client_for(user).get(poll_url(chat, chat.post_count)).status_code == 204


def test_poll_of_a_public_thread_costs_no_query_with_a_warm_cache(started, django_assert_num_queries,
                                                                 django_capture_on_commit_callbacks):
    thread = started.game_thread
    thread.refresh_from_db()
    player = client_for(user_named(started, "Вася"))
    url = poll_url(thread, thread.post_count)
    assert player.get(url).status_code == 204  # fills the cache: one query
    live.forget_all()  # the shared cache alone must be enough
    with django_assert_num_queries(0):
        assert player.get(url).status_code == 204
    # A new post refreshes the cache when it commits: still no query, and the new count.
    add_posts(thread, user_named(started, "Вася"), 1, django_capture_on_commit_callbacks)
    live.forget_all()
    with django_assert_num_queries(0):
        assert live.thread_state(thread.pk) == (Thread.Kind.GAME, thread.post_count)
        assert player.get(poll_url(thread, thread.post_count)).status_code == 204


def test_poll_with_news_costs_no_query_with_cached_sessions(started, settings, django_assert_num_queries,
                                                           django_capture_on_commit_callbacks):
    # Production (REDIS_URL) keeps sessions in the cache; then even the answer with text, which
    # reads the session for the reader's language, runs no query.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    thread = started.game_thread
    thread.refresh_from_db()
    seen = thread.post_count
    add_posts(thread, user_named(started, "Негодяй"), 2, django_capture_on_commit_callbacks)
    player = client_for(user_named(started, "Вася"))
    assert player.get(poll_url(thread, seen)).status_code == 200  # warm-up
    with django_assert_num_queries(0):
        response = player.get(poll_url(thread, seen))
    assert "2 новых сообщения" in response.content.decode()
    assert "bell" not in response.content.decode()  # a bare fragment: no page, no context processors


def _posts(thread, count):
    author = make_user("Автор")
    for index in range(count):
        post_submit(thread=thread, author=author, body=f"Пост {index}")
    thread.refresh_from_db()


def test_thread_page_has_the_poll_element_on_its_last_page_only(lobby_thread, spectator, settings):
    settings.MAFIA_POSTS_PER_PAGE = 2
    _posts(lobby_thread, 4)  # 5 posts: pages 1, 2, 3
    client = client_for(spectator)
    url = lobby_thread.get_absolute_url()
    last = client.get(url + "?page=last").content.decode()
    assert 'id="thread-poll"' in last
    assert f'hx-get="{poll_url(lobby_thread, 5)}"' in last and 'hx-trigger="every 15s"' in last
    assert 'data-after="5"' in last
    for page in ("1", "2"):
        assert 'id="thread-poll"' not in client.get(url + f"?page={page}").content.decode()
    author_id = lobby_thread.posts.last().author_id
    assert 'id="thread-poll"' not in client.get(url + f"?iso={author_id}").content.decode()
    # Anonymous readers of the last page get it too.
    assert 'id="thread-poll"' in Client().get(url + "?page=3").content.decode()


def test_thread_page_poll_element_moves_on_after_ones_own_reply(lobby_thread, spectator):
    client = client_for(spectator)
    response = client.post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "Мой ответ", "post": "1"},
                           HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region")
    lobby_thread.refresh_from_db()
    assert f'hx-get="{poll_url(lobby_thread, lobby_thread.post_count)}"' in response.content.decode()


def test_preferences_come_from_the_session_without_loading_the_user(db, django_assert_num_queries, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    user = make_user("Вася")
    user.language, user.time_zone = "en", "Asia/Vladivostok"
    user.save(update_fields=["language", "time_zone"])
    client = client_for(user)
    assert client.session[PREFS_SESSION_KEY] == ["en", "Asia/Vladivostok"]
    with django_assert_num_queries(0):
        response = client.get("/healthz/")
    assert response.content == b"ok" and response["Content-Language"] == "en"
    # The language switch and the profile keep the session's copy up to date.
    client.post(reverse("accounts:language"), {"language": "ru", "next": "/"})
    assert client.session[PREFS_SESSION_KEY][0] == "ru"


def _count_queries(client, url) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.caching import pagecache

    client.get(url)  # warm-up: read mark, caches
    client.get(url)  # and the read mark the first view moved, kept (games/caching/pagecache.py)
    pagecache.changed()  # count a page rendered afresh, not one served from the page cache
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_thread_page_queries_do_not_grow_with_the_page_size(started, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    thread = started.game_thread
    players = [user_named(started, name) for name in ("Вася", "Негодяй", "Кикимора", "Фроло")]
    for index in range(60):
        post_submit(thread=thread, author=players[index % len(players)], body=f"[b]Пост[/b] {index}")
    player = client_for(players[0])
    url = thread.get_absolute_url() + "?page=last"
    settings.MAFIA_POSTS_PER_PAGE = 10
    small = _count_queries(player, url)
    settings.MAFIA_POSTS_PER_PAGE = 50
    large = _count_queries(player, url)
    assert small == large and large <= 12


def _iso_picker(content: str) -> str:
    start = content.index('<div class="iso-authors">')
    return content[start:content.index("</div>", start)]


def test_iso_picker_follows_new_authors_and_renames(lobby_thread, spectator, settings):
    settings.MAFIA_POSTS_PER_PAGE = 1  # the new posts are not on the first page: only the picker names them
    client = client_for(spectator)
    url = lobby_thread.get_absolute_url() + "?page=1"
    assert "Новичок" not in _iso_picker(client.get(url).content.decode())
    newcomer = make_user("Новичок")
    post_submit(thread=lobby_thread, author=newcomer, body="Привет")
    assert "Новичок" in _iso_picker(client.get(url).content.decode())
    newcomer.display_name = "Старожил"
    newcomer.save()
    picker = _iso_picker(client.get(url).content.decode())
    assert f'value="{newcomer.pk}"' in picker and "Старожил" in picker and "Новичок" not in picker
