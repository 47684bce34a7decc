"""The vote-count fragment's conditional answers (issue 30 part 3, games/caching/conditional.py):
the fragment carries an ETag and `Cache-Control: private, no-cache`; a revalidation (If-None-Match)
is answered 304 before the view while nothing the count shows was written, and never for another
session, after a logout or a language switch, after a vote, a GM's correction, a rename or a
phase; anonymous readers too. No timing here: which path answered, and what."""

import pytest
from django.urls import reverse

from games.caching import conditional
from games.services.posting import post_submit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import user_named


# A clear cache for each test (tests/games/conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_cache")


@pytest.fixture
def early(monkeypatch):
    """The answers the middleware gave before the view (a list of responses)."""
    answered = []
    real = conditional.lookup

    def spy(request, found):
        response = real(request, found)
        if response is not None:
            answered.append(response)
        return response

    monkeypatch.setattr(conditional, "lookup", spy)
    return answered


def _url(game) -> str:
    return reverse("games:votes_live", args=[game.pk])


def _get(client, game, etag=None):
    headers = {"HTTP_HX_REQUEST": "true"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(_url(game), **headers)


def _vote(game, voter="Вася", target="Негодяя"):
    post_submit(thread=game.game_thread, author=user_named(game, voter), body=f"[b]В тюрьму {target}[/b]")


READERS = {
    "anonymous": lambda game: None,
    "spectator": lambda game: make_user("Зритель"),
    "player": lambda game: user_named(game, "Вася"),
    "gm": lambda game: game.gm,
}


@pytest.mark.parametrize("reader", READERS)
def test_nothing_changed_is_answered_304_before_the_view_and_a_vote_gives_the_new_count(started, early, reader):
    _vote(started, "Кикимора", "Васю")
    client = client_for(READERS[reader](started))
    first = _get(client, started)
    assert first.status_code == 200 and first["ETag"] and "Кикимора" in first.content.decode()
    assert first["Cache-Control"] == "private, no-cache"
    again = _get(client, started, first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"] and len(early) == 1
    assert again["Cache-Control"] == "private, no-cache"
    _vote(started)  # the ledger moves: the kept count is stale
    after = _get(client, started, first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"] and len(early) == 1
    assert "Негодяй" in after.content.decode()
    assert _get(client, started, after["ETag"]).status_code == 304 and len(early) == 2


def test_another_sessions_cookie_never_gets_a_304_for_someone_elses_etag(started, early):
    _vote(started)
    player = client_for(user_named(started, "Вася"))
    etag = _get(player, started)["ETag"]
    for other in (client_for(user_named(started, "Кикимора")), client_for(started.gm), client_for(None)):
        response = _get(other, started, etag)
        assert response.status_code == 200 and response["ETag"] != etag
    assert early == []
    # Each session has its own ETag: the same body under another cookie is another tag.
    assert _get(client_for(None), started)["ETag"] != etag


def test_a_logout_or_a_language_switch_ends_the_304s(started, early):
    _vote(started)
    client = client_for(user_named(started, "Вася"))
    etag = _get(client, started)["ETag"]
    assert _get(client, started, etag).status_code == 304
    response = client.post(reverse("accounts:language"), {"language": "en", "next": "/"})
    assert response.status_code in (302, 200)
    english = _get(client, started, etag)
    assert english.status_code == 200 and "Vote count" in english.content.decode()
    client.logout()
    count = len(early)
    assert _get(client, started, english["ETag"]).status_code == 200 and len(early) == count


@pytest.mark.parametrize("write", ["gm correction", "rename", "phase close", "count version"])
def test_every_write_the_count_shows_ends_the_304s(started, early, write):
    from games.models import Phase, Post, Seat
    from games.selectors.votes import voting_phase
    from games.services.resolution import phase_close
    from games.services.votes import count_version_bump, vote_correct

    _vote(started)
    client = client_for(user_named(started, "Кикимора"))
    first = _get(client, started)
    assert _get(client, started, first["ETag"]).status_code == 304
    if write == "gm correction":
        post = Post.objects.filter(thread=started.game_thread).order_by("-number").first()
        target = Seat.objects.get(game=started, user__display_name="Кикимора")
        vote_correct(post=post, gm=started.gm, kind="vote", target=target, note="")
    elif write == "rename":
        user = user_named(started, "Негодяй")
        user.display_name = "Злодей"
        user.save(update_fields=["display_name"])
    elif write == "phase close":
        phase_close(phase_id=Phase.objects.get(game=started, closed_at__isnull=True).pk, by=started.gm)
    else:
        started.refresh_from_db()
        count_version_bump(phase_id=voting_phase(game=started).pk)
    response = _get(client, started, first["ETag"])
    assert len(early) == 1, "answered from a validator the write made stale"
    if write == "count version":
        # The count's version moved with nothing it shows: the view makes the same body, the same tag.
        assert response.status_code == 304 and response["ETag"] == first["ETag"]
    else:
        assert response.status_code == 200 and response.content != first.content


def test_a_matching_etag_is_answered_304_by_the_view_when_no_validator_is_kept(started, early):
    from django.core.cache import cache

    _vote(started)
    client = client_for(None)
    etag = _get(client, started)["ETag"]
    cache.clear()  # the validator lost: the view makes the same body, whose tag the browser names
    response = _get(client, started, etag)
    assert response.status_code == 304 and response["ETag"] == etag and early == []


def test_a_game_without_a_count_sends_an_empty_box_and_no_stale_304(forum_game, early):
    client = client_for(None)
    first = _get(client, forum_game)
    assert first.status_code == 200 and first.content == b""
    assert _get(client, forum_game, first["ETag"]).status_code == 304  # the view's own: same body
    assert early == []  # no count read, nothing kept to validate from


def test_the_count_box_shows_the_deadline_in_each_readers_time_zone(started):
    """The count box's cache key holds the reader's time zone (it lacked it: a box made for one
    zone was shown in another)."""
    from datetime import datetime, timezone as tz

    from games.models import Phase

    Phase.objects.filter(game=started, closed_at__isnull=True).update(
        deadline_at=datetime(2031, 1, 1, 12, 0, tzinfo=tz.utc))
    moscow, novosibirsk = user_named(started, "Вася"), user_named(started, "Кикимора")
    moscow.time_zone, novosibirsk.time_zone = "Europe/Moscow", "Asia/Novosibirsk"
    for user in (moscow, novosibirsk):
        user.save(update_fields=["time_zone"])
    first = _get(client_for(moscow), started).content.decode()
    second = _get(client_for(novosibirsk), started).content.decode()
    assert "15:00" in first and "19:00" in second


def test_a_session_ended_or_changed_behind_the_cookie_gets_no_early_304(started, early):
    """The cookie alone is not enough: the session must still be in the store with the data the
    validator was made with (a logout on another device, an expiry, a flush; any change)."""
    from django.conf import settings
    from django.contrib.sessions.backends.cached_db import SessionStore

    _vote(started)
    client = client_for(user_named(started, "Вася"))
    etag = _get(client, started)["ETag"]
    assert _get(client, started, etag).status_code == 304 and len(early) == 1
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    session = SessionStore(key)
    session["something"] = "changed"
    session.save()
    _get(client, started, etag)
    assert len(early) == 1, "a 304 for a session whose data changed"
    etag = _get(client, started)["ETag"]
    assert _get(client, started, etag).status_code == 304 and len(early) == 2
    SessionStore(key).delete()  # logged out elsewhere: the browser still sends the cookie
    _get(client, started, etag)
    assert len(early) == 2, "a 304 for a session that is gone"
