"""The thread page's frame (games/caching/pagecache.py, "Layer 1"): after a post in the thread, a
browser session's page is put together from its kept frame and the pieces a post changes (the
post list, the pagination, the poll's marker, the first unread link), without the page's context
or template. Each test checks both sides: the frame was used where it may be, and the page is
exactly what a full render shows, for every viewer; every write the frame shows renders it again."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.caching import pagecache
from games.models import Thread
from games.services.posting import post_submit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import user_named


# A clear cache for each test; `contexts` counts the full renders (tests/games/conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def _get(client, thread, **params) -> str:
    response = client.get(reverse("games:thread", args=[thread.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def _framed(client, thread, contexts, **params) -> str:
    """The page after a post: put together from the frame (no context made)."""
    before = len(contexts)
    html = _get(client, thread, **params)
    assert len(contexts) == before, "the page was rendered whole, not from its frame"
    return html


def _whole(client, thread, contexts, **params) -> str:
    before = len(contexts)
    html = _get(client, thread, **params)
    assert len(contexts) == before + 1, "the page came from a frame after a write the frame shows"
    return html


def _prime(client, thread, **params) -> None:
    """The first view sets the CSRF cookie; the second is rendered with it and keeps its frame."""
    _get(client, thread, **params)
    _get(client, thread, **params)


def _normalised(html: str) -> str:
    # The CSRF tokens are masked afresh by every render.
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', r"\1T", html)


VIEWERS = {
    "anonymous": lambda game: None,
    "spectator": lambda game: make_user("Зритель"),
    "player": lambda game: user_named(game, "Вася"),
    "mafia player": lambda game: user_named(game, "Негодяй"),
    "gm": lambda game: game.gm,
}


@pytest.mark.parametrize("viewer", VIEWERS)
def test_after_a_post_the_page_from_the_frame_is_the_page_rendered_whole(started, thread, contexts, viewer):
    user = VIEWERS[viewer](started)
    client = client_for(user)
    _prime(client, thread, page="last")
    post_submit(thread=thread, author=user_named(started, "Кикимора"), body="Свежий пост")
    framed = _framed(client, thread, contexts, page="last")
    assert "Свежий пост" in framed
    # The same page made whole, for a fresh session of the same viewer.
    whole = _whole(client_for(user), thread, contexts, page="last")
    assert _normalised(framed) == _normalised(whole)


def test_the_pieces_follow_the_posts_pagination_poll_and_first_unread(started, thread, contexts, settings):
    thread.refresh_from_db()
    settings.MAFIA_POSTS_PER_PAGE = thread.post_count  # one page, full
    reader = user_named(started, "Кикимора")
    client = client_for(reader)
    _prime(client, thread, page=1)
    html = _get(client, thread, page=1)
    assert 'class="pagination"' not in html and "thread-poll" in html
    for index in range(2):
        post_submit(thread=thread, author=user_named(started, "Вася"), body=f"Ещё пост {index}")
    html = _framed(client, thread, contexts, page=1)
    assert 'class="pagination"' in html and html.count('rel="next"') == 2  # above and below the posts
    assert 'id="thread-poll"' not in html  # page 1 is no longer the last
    assert reverse("games:thread_unread", args=[thread.pk]) in html  # posts 4 and 5 are unread


def test_a_new_author_appears_in_the_iso_picker(started, thread, contexts):
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread)
    newcomer = user_named(started, "Фроло")
    assert f'name="iso" value="{newcomer.pk}"' not in _get(client, thread)
    post_submit(thread=thread, author=newcomer, body="Я тоже здесь")
    assert f'name="iso" value="{newcomer.pk}"' in _whole(client, thread, contexts)


def test_locking_the_thread_renders_the_page_again(started, thread, contexts):
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread)
    assert 'class="post-form"' in _get(client, thread)
    Thread.objects.filter(pk=thread.pk).update(is_locked=True)
    pagecache.changed(thread=thread.pk)  # as thread_set_locked does
    html = _whole(client, thread, contexts)
    assert 'class="post-form"' not in html


def test_a_vote_renders_the_frame_again(started, thread, contexts, django_capture_on_commit_callbacks):
    from games.services.votes import vote_button_text

    client = client_for(user_named(started, "Кикимора"))
    _prime(client, thread, page="last")
    with django_capture_on_commit_callbacks(execute=True):
        post_submit(thread=thread, author=user_named(started, "Вася"), body=vote_button_text("Фроло", started.ruleset))
    html = _whole(client, thread, contexts, page="last")
    assert "Фроло" in re.search(r'id="vote-count".*?</section>', html, re.S).group(0)


def test_a_rename_renders_the_frame_again(started, thread, contexts):
    vasya = user_named(started, "Вася")
    client = client_for(vasya)
    _prime(client, thread)
    type(vasya).objects.filter(pk=vasya.pk).update(display_name="Василий")
    assert 'class="me">Василий<' in _whole(client, thread, contexts)


def test_a_message_waiting_is_shown_not_a_frame(started, thread, contexts):
    from games.services.votes import vote_button_text

    client = client_for(user_named(started, "Вася"))
    _prime(client, thread, page="last")
    # A vote sent without htmx: the thread page after the redirect shows its confirmation.
    response = client.post(reverse("games:thread_reply", args=[thread.pk]),
                           {"body": vote_button_text("Фроло", started.ruleset), "post": "1"})
    assert response.status_code == 302
    html = _whole(client, thread, contexts, page="last")
    assert 'class="messages"' in html
    assert 'class="messages"' not in _get(client, thread, page="last")  # shown once


def test_letters_and_rooms_are_never_framed(started, contexts):
    from games.models import Seat

    vasya = user_named(started, "Вася")
    letters = Thread.objects.get(kind=Thread.Kind.GM_CHAT, seat=Seat.objects.get(game=started, user=vasya))
    client = client_for(vasya)
    _prime(client, letters)
    post_submit(thread=letters, author=vasya, body="Проверяю Кикимору.")
    _whole(client, letters, contexts)


def test_a_quote_link_is_never_framed(started, thread, contexts):
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread, quote=1)
    post_submit(thread=thread, author=user_named(started, "Кикимора"), body="Свежий пост")
    _whole(client, thread, contexts, quote=1)


def test_two_sessions_of_two_viewers_never_share_a_frame(started, thread, contexts):
    gm_client, player_client = client_for(started.gm), client_for(user_named(started, "Вася"))
    _prime(gm_client, thread)
    _prime(player_client, thread)
    post_submit(thread=thread, author=user_named(started, "Кикимора"), body="Свежий пост")
    assert 'class="mod-tools' in _framed(gm_client, thread, contexts)
    assert 'class="mod-tools' not in _framed(player_client, thread, contexts)
    assert 'class="mod-tools' not in _get(client_for(None), thread)


def test_the_frame_is_not_kept_past_a_scheduled_lock(started, thread, contexts, monkeypatch):
    Thread.objects.filter(pk=thread.pk).update(lock_at=timezone.now() + timedelta(seconds=30))
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread)
    post_submit(thread=thread, author=user_named(started, "Кикимора"), body="Свежий пост")
    later = pagecache.time.time() + 31
    monkeypatch.setattr(pagecache.time, "time", lambda: later)
    _whole(client, thread, contexts)


def test_another_language_is_another_frame(started, thread, contexts):
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread)
    client.post(reverse("accounts:language"), {"language": "en", "next": "/"})
    post_submit(thread=thread, author=user_named(started, "Кикимора"), body="Свежий пост")
    html = _whole(client, thread, contexts)
    assert 'lang="en"' in html
