"""The thread page rendered afresh after a write, from what is kept (games/caching/pagecache.py):
the post list kept under the thread's posts counter and grown by the posts added since, the
thread's row, the session's user and the reader's read mark kept, the kept reads fetched with the
counters. Each test compares the page so made with the same page rendered from nothing (the cache
emptied, a fresh session of the same viewer), for every perspective (anonymous, spectator, player,
mafia player, dead player, GM), after each kind of write: a cached piece never shows a secret to
the wrong viewer nor a stale post."""

import re

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors
from games.caching import pagecache
from games.models import Post, Thread, ThreadReadMark
from games.services.posting import post_submit
from games.services.posts import post_edit, post_set_deleted
from games.services.threads import thread_set_locked
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import user_named

SECRET = "тайник в дупле старого дуба"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def _dead_player(game):
    """Фроло, killed at the close of day 1 (the lifecycle test's day: Кикимора shoots him)."""
    from games.services.resolution import phase_close
    from tests.games.test_lifecycle import _day_one

    _day_one(game)
    phase = game.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    game.refresh_from_db()
    frolo = user_named(game, "Фроло")
    assert not game.seats.get(user=frolo).is_alive
    return frolo


VIEWERS = {
    "anonymous": lambda game: None,
    "spectator": lambda game: make_user("Зритель"),
    "player": lambda game: user_named(game, "Вася"),
    "mafia player": lambda game: user_named(game, "Кикимора"),
    "dead player": _dead_player,
    "gm": lambda game: game.gm,
}


def _post(game, thread):
    post_submit(thread=thread, author=user_named(game, "Эсмеральда"), body="Свежий пост")


def _two_posts(game, thread):
    post_submit(thread=thread, author=user_named(game, "Эсмеральда"), body="Свежий пост")
    post_submit(thread=thread, author=user_named(game, "Маленький Джон"), body="И ещё один")


def _vote(game, thread):
    from games.services.votes import vote_button_text

    post_submit(thread=thread, author=user_named(game, "Красная Шапочка"), body=vote_button_text("Негодяй", game.ruleset))


def _edit(game, thread):
    post = Post.objects.get(thread=thread, body="[b]Пост 0[/b]")
    post_edit(post=post, editor=post.author, body="[b]Исправленный пост[/b]")


def _edit_declared(game, thread):
    # An edit whose writes are declared as the thread's (pagecache.writing): the posts counter
    # alone says the kept post list is out of date.
    post = Post.objects.get(thread=thread, body="[b]Пост 2[/b]")
    with pagecache.writing(thread=thread.pk):
        post_edit(post=post, editor=post.author, body="[b]Третий, исправленный[/b]")


def _hide(game, thread):
    post = Post.objects.get(thread=thread, body="[b]Пост 1[/b]")
    post_set_deleted(post=post, moderator=game.gm, deleted=True, reason="флуд")


def _rename(game, thread):
    kiki = user_named(game, "Кикимора")
    type(kiki).objects.filter(pk=kiki.pk).update(display_name="Кикимора Болотная")


def _private(game, thread):
    post_submit(thread=thread, author=user_named(game, "Красная Шапочка"),
                body=f'Всем привет. [private="Кикимору"]{SECRET}[/private]')


def _lock(game, thread):
    thread_set_locked(thread=thread, moderator=game.gm, locked=True)


def _lock_behind_the_sites_back(game, thread):
    # A write no service declared (a script, the admin): the site counter.
    Thread.objects.filter(pk=thread.pk).update(is_locked=True)


def _moderator(game, thread):
    group, _ = Group.objects.get_or_create(name="Moderators")
    group.user_set.add(user_named(game, "Вася"))


WRITES = {
    "a post": _post,
    "two posts": _two_posts,
    "a vote": _vote,
    "an edit": _edit,
    "an edit declared as the thread's": _edit_declared,
    "a hidden post": _hide,
    "a rename": _rename,
    "a private message": _private,
    "a lock": _lock,
    "a lock nobody declared": _lock_behind_the_sites_back,
    "a new moderator": _moderator,
}


def _get(client, thread, **params) -> str:
    response = client.get(reverse("games:thread", args=[thread.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def _normalised(html: str) -> str:
    # The CSRF tokens are masked afresh by every render.
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', r"\1T", html)


def _from_nothing(user, thread, **params) -> str:
    """The page as rendered with nothing kept: the cache emptied, a new session."""
    cache.clear()
    return _get(client_for(user), thread, **params)


def _post_li(html: str, body_text: str) -> str:
    found = [li for li in html.split("<li class=\"post") if body_text in li]
    return found[0] if found else ""


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("viewer", VIEWERS)
def test_after_each_write_the_page_from_what_is_kept_is_the_page_rendered_from_nothing(
        started, thread, viewer, write, django_capture_on_commit_callbacks):
    user = VIEWERS[viewer](started)
    client = client_for(user)
    for _ in range(3):  # the CSRF cookie, then the frame and the post list kept, then a kept page
        _get(client, thread, page="last")
    with django_capture_on_commit_callbacks(execute=True):
        WRITES[write](started, thread)
    kept = _get(client, thread, page="last")
    if user is not None:
        user.refresh_from_db()
    assert _normalised(kept) == _normalised(_from_nothing(user, thread, page="last"))
    # And what the writes must show, to whom.
    if write in ("a post", "two posts"):
        assert "Свежий пост" in kept
    if write == "an edit":
        assert "Исправленный пост" in kept and "Пост 0" not in kept
    if write == "an edit declared as the thread's":
        assert "Третий, исправленный" in kept and "Пост 2" not in kept
    if write == "a hidden post":
        assert ("Пост 1" in kept) == (viewer == "gm")
    if write == "a rename":
        assert "Кикимора Болотная" in kept
    if write == "a private message":
        li = _post_li(kept, "Всем привет")
        assert li and (SECRET in li) == (viewer in ("mafia player", "gm"))
    if write.startswith("a lock") and viewer != "gm":  # the GM still posts in his locked thread
        assert 'class="post-form"' not in kept


@pytest.mark.parametrize("viewer", ["player", "gm", "anonymous"])
def test_after_a_post_only_the_new_post_is_read_and_the_list_is_the_one_rendered_whole(
        started, thread, viewer, monkeypatch):
    """The posts counter: a new post leaves the kept post list standing; the page reads the posts
    added since it, not the page's all."""
    user = VIEWERS[viewer](started)
    client = client_for(user)
    for _ in range(2):
        _get(client, thread, page="last")
    read = []
    real = selectors.thread_posts

    def recording(*, user, thread, low, high):
        read.append((low, high))
        return real(user=user, thread=thread, low=low, high=high)

    monkeypatch.setattr(selectors, "thread_posts", recording)
    last = Thread.objects.get(pk=thread.pk).post_count
    post_submit(thread=thread, author=user_named(started, "Эсмеральда"), body="Свежий пост")
    kept = _get(client, thread, page="last")
    assert read == [(last, last + 1)]
    read.clear()
    assert _normalised(kept) == _normalised(_from_nothing(user, thread, page="last"))
    assert read == [(0, last + 1)]


def test_an_edit_reads_the_page_s_posts_again(started, thread, monkeypatch):
    client = client_for(user_named(started, "Вася"))
    for _ in range(2):
        _get(client, thread, page="last")
    read = []
    real = selectors.thread_posts
    monkeypatch.setattr(selectors, "thread_posts", lambda **kw: read.append((kw["low"], kw["high"])) or real(**kw))
    _edit(started, thread)
    assert "Исправленный пост" in _get(client, thread, page="last")
    assert read == [(0, Thread.objects.get(pk=thread.pk).post_count)]


def test_a_page_after_a_post_on_another_page_reads_only_the_post_count(started, thread, settings,
                                                                      django_capture_on_commit_callbacks):
    """After a post the reader's page (its frame, its post list, the thread's row, his user, his
    read mark, the game's reads) is put together from the cache: one query, the post count."""
    settings.MAFIA_POSTS_PER_PAGE = Thread.objects.get(pk=thread.pk).post_count  # page 1 full
    vasya = user_named(started, "Вася")
    client = client_for(vasya)
    for _ in range(3):
        _get(client, thread, page=1)
    with django_capture_on_commit_callbacks(execute=True):
        post_submit(thread=thread, author=vasya, body="На вторую страницу")
    with CaptureQueriesContext(connection) as queries:
        html = _get(client, thread, page=1)
    sqls = [q["sql"] for q in queries.captured_queries]
    assert len(sqls) == 1 and "post_count" in sqls[0], sqls
    assert 'rel="next"' in html and "На вторую страницу" not in html
    assert _normalised(html) == _normalised(_from_nothing(vasya, thread, page=1))


def test_a_read_mark_moved_by_a_write_nobody_declared_is_read_again(started, thread):
    """The kept read mark: the page marks the thread read up to its last post; a read mark moved
    back elsewhere (the admin, a script) moves every reader's marks counter, so the next page
    reads it again and marks the thread read again."""
    vasya = user_named(started, "Вася")
    client = client_for(vasya)
    for _ in range(2):
        _get(client, thread, page="last")
    last = Thread.objects.get(pk=thread.pk).post_count
    mark = ThreadReadMark.objects.filter(user=vasya, thread=thread)
    assert mark.get().last_read_number == last
    mark.update(last_read_number=1)
    pagecache.posted(thread=thread.pk)  # the next view is rendered, not the kept page
    _get(client, thread, page="last")
    assert mark.get().last_read_number == last


def test_the_read_mark_follows_the_posts(started, thread, django_capture_on_commit_callbacks):
    vasya = user_named(started, "Вася")
    client = client_for(vasya)
    for index in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            post_submit(thread=thread, author=user_named(started, "Эсмеральда"), body=f"Пост номер {index}")
        _get(client, thread, page="last")
        assert (ThreadReadMark.objects.get(user=vasya, thread=thread).last_read_number
                == Thread.objects.get(pk=thread.pk).post_count)


def test_a_password_changed_elsewhere_logs_the_kept_user_out(started, thread):
    vasya = user_named(started, "Вася")
    client = client_for(vasya)
    for _ in range(3):
        _get(client, thread, page="last")
    vasya.set_password("совсем-другой-пароль-2026")
    vasya.save()
    post_submit(thread=thread, author=user_named(started, "Эсмеральда"), body="Свежий пост")
    html = _get(client, thread, page="last")
    assert 'class="me">Вася<' not in html and 'class="post-form"' not in html


def test_a_kept_user_is_never_another_sessions(started, thread):
    vasya, kiki = user_named(started, "Вася"), user_named(started, "Кикимора")
    clients = {vasya: client_for(vasya), kiki: client_for(kiki)}
    for _ in range(2):
        for client in clients.values():
            _get(client, thread, page="last")
    post_submit(thread=thread, author=user_named(started, "Эсмеральда"), body="Свежий пост")
    for user, client in clients.items():
        assert f'class="me">{user.display_name}<' in _get(client, thread, page="last")


def test_a_new_post_moves_the_thread_and_not_its_posts(started, thread, django_capture_on_commit_callbacks):
    keys = [pagecache.thread_key(thread.pk), pagecache.posts_key(thread.pk), pagecache.SITE_KEY]
    before = pagecache.generations(keys)
    with django_capture_on_commit_callbacks(execute=True):
        post_submit(thread=thread, author=user_named(started, "Вася"), body="Просто слово")
    after = pagecache.generations(keys)
    assert {key for key in keys if after[key] != before[key]} == {pagecache.thread_key(thread.pk)}
    with django_capture_on_commit_callbacks(execute=True):
        _edit(started, thread)
    again = pagecache.generations(keys)
    # An edit (post_edit declares nothing: the site's counter, which every post list's key holds too).
    assert again[pagecache.SITE_KEY] != after[pagecache.SITE_KEY] or (
        again[pagecache.posts_key(thread.pk)] != after[pagecache.posts_key(thread.pk)])
    with django_capture_on_commit_callbacks(execute=True):
        _private(started, thread)  # a post with a [private] message: its message row moves the posts counter
    assert pagecache.generations(keys)[pagecache.posts_key(thread.pk)] != again[pagecache.posts_key(thread.pk)]


def test_the_live_count_box_follows_a_rename(started, thread, django_capture_on_commit_callbacks):
    """The vote-count box (games/views/votes.py) is kept by the ledger's version: a player renamed
    meanwhile must not keep his old name there, neither in the thread page nor in the fragment the
    page polls."""
    from games.services.votes import vote_button_text

    with django_capture_on_commit_callbacks(execute=True):
        post_submit(thread=thread, author=user_named(started, "Вася"), body=vote_button_text("Кикимора", started.ruleset))
    url = reverse("games:votes_live", args=[started.pk])
    viewers = [client_for(None), client_for(user_named(started, "Фроло"))]
    for client in viewers:
        assert "Кикимора" in client.get(url).content.decode()
        _get(client, thread, page="last")
    _rename(started, thread)
    for client in viewers:
        assert "Кикимора Болотная" in client.get(url).content.decode()
        box = re.search(r'id="vote-count".*?</section>', _get(client, thread, page="last"), re.S).group(0)
        assert "Кикимора Болотная" in box
