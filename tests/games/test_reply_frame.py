"""The htmx reply's region from its kept frame (issue 30 part 3; games/views/forum.py, _reply_region):
a browser session's next reply answers with the region's frame kept by its last one, the post list
grown by the new post (as the posting service stored it, not read back) and the notice of what the
post did. Each test checks both sides: the frame was used where it may be, and what it gives is what
a full render gives; every write the region shows renders it again; a vote (its own counter, which
the region does not show) does not."""

import re

import pytest
from django.urls import reverse

from games.caching import pagecache
from games.models import Phase, Post
from games.services.posting import post_submit
from tests.conftest import client_for
from tests.games.test_lifecycle import user_named


# A clear cache for each test; `contexts` counts the full renders (tests/games/conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def _reply(client, thread, body: str) -> str:
    response = client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": body, "post": "1"},
                           HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region")
    assert response.status_code == 200 and "HX-Push-Url" in response, response.content[:500]
    return response.content.decode()


def _framed(client, thread, contexts, body) -> str:
    before = len(contexts)
    html = _reply(client, thread, body)
    assert len(contexts) == before, "the region was rendered whole, not from its frame"
    return html


def _whole(client, thread, contexts, body) -> str:
    before = len(contexts)
    html = _reply(client, thread, body)
    assert len(contexts) == before + 1, "the region came from a frame after a write it shows"
    return html


def _prime(client, thread) -> None:
    """The first replies of a session: the worker learns the thread's game, the region's frame is kept."""
    _reply(client, thread, "Первая реплика")
    _reply(client, thread, "Вторая реплика")


POSTS_RE = re.compile(r'<ol class="posts">.*?</ol>', re.S)


def _outside_posts(html: str) -> str:
    """The region but its post list and what names the last post (the poll's marker), the CSRF tokens and the notice."""
    html = POSTS_RE.sub("<ol/>", html)
    html = re.sub(r'after=\d+|data-after="\d+"', "after", html)
    html = re.sub(r'<p class="vote-confirmation[^<]*</p>', "", html)
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', r"\1T", html)


def _post_item(html: str, number: int) -> str:
    match = re.search(rf'<li class="post[^"]*" id="p{number}".*?</li>\s*(?=<li|<!--|$|</ol>)', html, re.S)
    assert match, f"post #{number} is not in the list"
    return match.group(0).replace(" just-posted", "")


@pytest.mark.parametrize("poster", ["Вася", "Негодяй"])
def test_the_next_reply_comes_from_the_frame_and_is_the_region_rendered_whole(started, thread, contexts, settings,
                                                                               poster):
    settings.MAFIA_POSTS_PER_PAGE = 100  # one page: the regions differ only in their posts
    user = user_named(started, poster)
    client = client_for(user)
    _reply(client, thread, "Первая реплика")
    whole = _reply(client, thread, "Вторая реплика")  # rendered whole, its frame kept
    framed = _framed(client, thread, contexts, "Третья реплика")
    assert "Третья реплика" in framed and 'just-posted" id="p' in framed
    assert _outside_posts(framed) == _outside_posts(whole)
    # The new post's <li>, made from what the posting service stored, is the one a page rendered
    # from nothing shows (another session of the same reader, the caches emptied).
    number = Post.objects.filter(thread=thread).order_by("-number").first().number
    from django.core.cache import cache

    cache.clear()
    page = client_for(user).get(reverse("games:thread", args=[thread.pk]), {"page": "last"}).content.decode()
    assert _post_item(framed, number) == _post_item(page, number)
    # And the whole list is the page's, for this reader.
    assert POSTS_RE.search(framed).group(0).replace(" just-posted", "") == POSTS_RE.search(page).group(0)


def test_a_vote_reply_comes_from_the_frame_with_its_confirmation(started, thread, contexts, settings):
    settings.MAFIA_POSTS_PER_PAGE = 100
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread)
    whole = _reply(client, thread, "Ещё думаю")
    # The ledger moves its own counter, which the region (no count box) is not stamped with.
    framed = _framed(client, thread, contexts, "[b]В тюрьму Негодяя[/b]")
    assert 'class="vote-confirmation ok"' in framed
    assert _outside_posts(framed) == _outside_posts(whole)
    # Another's vote meanwhile: the same (one for a third player: a vote for him would ring his bell,
    # whose counter his frames are stamped with).
    post_submit(thread=thread, author=user_named(started, "Кикимора"), body="[b]В тюрьму Негодяя[/b]")
    again = _framed(client, thread, contexts, "[b]В тюрьму Кикимору[/b]")
    assert 'class="vote-confirmation ok"' in again and "Кикимору" in again


def test_writes_the_region_shows_render_it_again(started, thread, contexts):
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread)
    _framed(client, thread, contexts, "Из кадра")
    # A rename (the site's counter: names everywhere).
    user = user_named(started, "Кикимора")
    user.display_name = "Кики"
    user.save(update_fields=["display_name"])
    html = _whole(client, thread, contexts, "После переименования")
    assert "[b]В тюрьму Кики[/b]" in html  # the vote buttons name her anew
    _framed(client, thread, contexts, "Снова из кадра")
    # The day closed (the game's counter): no vote buttons at night.
    from games.services.resolution import phase_close

    phase_close(phase_id=Phase.objects.get(game=started, closed_at__isnull=True).pk, by=started.gm)
    _whole(client, thread, contexts, "После закрытия дня")
    _framed(client, thread, contexts, "И снова из кадра")


def test_another_session_of_the_same_reader_does_not_use_the_frame(started, thread, contexts):
    user = user_named(started, "Вася")
    first = client_for(user)
    _prime(first, thread)
    _framed(first, thread, contexts, "Из кадра")
    second = client_for(user)
    # Its own first replies: rendered whole (the first gets its CSRF cookie, the second keeps its frame).
    _whole(second, thread, contexts, "Из другого браузера")
    _whole(second, thread, contexts, "Из другого браузера, снова")
    _framed(second, thread, contexts, "Из другого браузера, в третий раз")


def test_a_refused_reply_is_rendered_whole_with_its_error(started, thread, contexts):
    client = client_for(user_named(started, "Вася"))
    _prime(client, thread)
    before = len(contexts)
    response = client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": "", "post": "1"},
                           HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region")
    assert response.status_code == 200 and "HX-Push-Url" not in response
    assert 'class="error" role="alert"' in response.content.decode() and len(contexts) == before + 1


def test_a_reply_moves_the_read_mark_in_the_posts_transaction(started, thread):
    from games.models import ThreadReadMark

    user = user_named(started, "Вася")
    client = client_for(user)
    _reply(client, thread, "Читаю до сюда")
    number = Post.objects.filter(thread=thread).order_by("-number").first().number
    assert ThreadReadMark.objects.get(user=user, thread=thread).last_read_number == number


def test_the_reply_moves_only_its_posters_read_marks_counter(started, thread):
    from django.core.cache import cache

    user = user_named(started, "Вася")
    client = client_for(user)
    _reply(client, thread, "Первая")
    marks, everyone = cache.get(pagecache.marks_key(user.pk)), cache.get(pagecache.MARKS_KEY)
    _reply(client, thread, "Вторая")
    assert cache.get(pagecache.marks_key(user.pk)) != marks and cache.get(pagecache.MARKS_KEY) == everyone
