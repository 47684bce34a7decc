"""What posting costs in SQL queries (issue 14, "Performance figures"): the htmx reply that stores
a post, reads its vote and answers with the thread region. Budgets, not timings: a vote post at
most 15 queries (the game's row and its thread's locked in one statement, the game's first: the
lock order that keeps a post and a close from deadlocking, tests/games/test_show_coins_concurrency.py),
a plain post two fewer (the ledger line and the "votes for you" notice); and the
sharing that makes it so (one game instance for the post and the page that answers it) must
not show a stale page after the post itself closed the day."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Phase, Post, VoteRecord
from tests.conftest import client_for
from tests.games.test_lifecycle import user_named

# Real commits: the on-commit work (the poll's state, the ISO picker's author list) runs when the
# post's transaction commits, before the answering page is rendered, as on the site.
pytestmark = pytest.mark.django_db(transaction=True)

VOTE_BUDGET = 15
PLAIN_BUDGET = VOTE_BUDGET - 2
# Issue 30 part 3: a reader's next replies, once his worker knows the thread's game and the kept
# thread row, game and user are in the cache: no read of the thread, its game or the user before
# the locked one; the read mark moved in the post's transaction; the new post not read back; and
# (second session) the game's co-GMs (when it has none) and the poster's ban told by the locking
# read itself.
NEXT_VOTE_BUDGET = 9
NEXT_PLAIN_BUDGET = NEXT_VOTE_BUDGET - 2


@pytest.fixture(autouse=True)
def _cached_sessions(settings):
    # As on the site with Redis: the session comes from the cache, the user row from the database.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"


def _htmx_reply(client, thread_id: int, body: str):
    return client.post(reverse("games:thread_reply", args=[thread_id]), {"body": body, "post": "1"},
                       HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region")


def _reply_queries(client, thread_id: int, body: str) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = _htmx_reply(client, thread_id, body)
    assert response.status_code == 200 and "HX-Push-Url" in response, response.content[:500]
    return len(captured.captured_queries), response


def test_vote_post_stays_within_its_query_budget_when_replying_by_htmx(started):
    client = client_for(user_named(started, "Вася"))
    _htmx_reply(client, started.game_thread_id, "Привет всем.")  # warm-up: the first post of a reader
    count, _response = _reply_queries(client, started.game_thread_id, "[b]В тюрьму Негодяя[/b]")
    assert VoteRecord.objects.filter(valid=True, target__user__display_name="Негодяй").exists()
    assert count <= VOTE_BUDGET


def test_plain_post_costs_fewer_queries_than_a_vote_post_when_replying_by_htmx(started):
    client = client_for(user_named(started, "Вася"))
    _htmx_reply(client, started.game_thread_id, "Привет всем.")
    # (The second reply of a worker keeps the thread row and its game it reads, 2 queries, for the next.)
    _htmx_reply(client, started.game_thread_id, "Всем привет ещё раз.")
    plain, _ = _reply_queries(client, started.game_thread_id, "Я подумаю до вечера.")
    vote, _ = _reply_queries(client, started.game_thread_id, "[b]В тюрьму Негодяя[/b]")
    assert plain <= PLAIN_BUDGET
    assert plain < vote <= VOTE_BUDGET


def test_reply_offers_no_vote_for_the_jailed_when_the_post_itself_closes_the_day(started):
    """A forum turn is one game day: the post that makes the majority closes day 1 and opens
    day 2, where the jailed player is no longer a target. The page that answers the post is read
    after the close, not from the game instance as it was before it."""
    started.end_day_on_majority = True
    started.save()
    voters = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло"]  # 7 alive: majority 4
    for name in voters[:-1]:
        _htmx_reply(client_for(user_named(started, name)), started.game_thread_id, "[b]В тюрьму Негодяя[/b]")
    client = client_for(user_named(started, voters[-1]))
    jail = 'data-insert="[b]В тюрьму Негодяя[/b]"'
    assert jail in _htmx_reply(client, started.game_thread_id, "Ещё думаю.").content.decode()
    response = _htmx_reply(client, started.game_thread_id, "[b]В тюрьму Негодяя[/b]")
    assert response.status_code == 200
    assert Phase.objects.get(game=started, kind=Phase.Kind.DAY, number=1).closed_at is not None
    assert Phase.objects.get(game=started, kind=Phase.Kind.DAY, number=2).closed_at is None
    html = response.content.decode()
    assert jail not in html and 'data-insert="[b]В тюрьму Васю[/b]"' in html
    assert Post.objects.filter(thread_id=started.game_thread_id, author__display_name="Фроло").count() == 2


def test_a_readers_next_replies_read_no_row_twice(started):
    """Budgets of the replies after the first ones (issue 30 part 3): the locked read of the game
    and thread (with whether the game has co-GMs and whether the poster is banned), the roster,
    the post, the thread's count, the read mark, the transaction; and a vote's ledger line and
    notice. Nothing read again after the commit."""
    client = client_for(user_named(started, "Вася"))
    for body in ("Привет всем.", "Ещё раз привет."):
        _htmx_reply(client, started.game_thread_id, body)  # the worker learns the game; the reads are kept
    plain, response = _reply_queries(client, started.game_thread_id, "Я подумаю до вечера.")
    assert "Я подумаю до вечера." in response.content.decode()
    vote, response = _reply_queries(client, started.game_thread_id, "[b]В тюрьму Негодяя[/b]")
    assert 'class="vote-confirmation ok"' in response.content.decode()
    assert plain <= NEXT_PLAIN_BUDGET and vote <= NEXT_VOTE_BUDGET
    assert plain < vote
