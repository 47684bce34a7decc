"""Fifty players post votes in the last seconds before a day's deadline, all at once, while two
sweeps race to close the day: every accepted post is stored with its own number, every vote
written before the deadline counts, every vote at or after it is refused as late (the post itself
is accepted: a player may still talk), the day closes once, and the count is the ledger's.

Each post_submit gets its own `now` relative to the deadline instead of the test sleeping until
the deadline, so what must happen is known in advance; the threads still write concurrently
(one database connection each): on SQLite the IMMEDIATE transactions serialise the writers, on
PostgreSQL the row lock on the thread does. The long version is `python -m bench.load`."""

import pytest
from django.db import connection

from bench.load import day_open, gm_run_game, problems, rush, rush_plan
from games.models import Post, VoteRecord
from games.selectors.votes import vote_count
from tests.conftest import require_service

PLAYERS = 50


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def backend(request, transactional_db):
    """The rush runs on the database the suite runs on: SQLite by default, PostgreSQL when
    DATABASE_URL names it (as in CI, where its absence fails the run)."""
    if request.param == "postgresql":
        require_service("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL must name PostgreSQL")
    elif connection.vendor != "sqlite":
        pytest.skip("the suite runs on PostgreSQL; the SQLite rush runs with the embedded default")
    return request.param


def test_fifty_players_vote_at_the_deadline(backend):
    game, seats = gm_run_game(players=PLAYERS, title="Гонка к дедлайну")
    phase = day_open(game, deadline_in=2.0)
    plan = rush_plan(PLAYERS)
    result = rush(game, phase, seats, plan, closers=2)

    # Every post_submit returned, and every post it returned is stored under its number, densely.
    assert not result.errors, result.errors[:3]
    assert len(result.posts) == sum(len(p) for p in plan) > PLAYERS
    stored = dict(Post.objects.filter(thread=game.game_thread).values_list("pk", "number"))
    assert sorted(stored.values()) == list(range(1, len(result.posts) + 1))
    assert {r.post_id: r.number for r in result.posts} == stored

    # Before the deadline: counted, for the player named, and the poster was told so.
    ledger = {row.post_id: row for row in VoteRecord.objects.filter(phase=phase)}
    assert len(result.before) == PLAYERS
    for r in result.before:
        row = ledger[r.post_id]
        assert (row.valid, row.is_final, row.target_id, row.voter_id) == (True, True, seats[r.target].pk, seats[r.player].pk)
        assert r.counted is True and r.reason == ""

    # At or after the deadline: the post stands, its vote is in the ledger as refused, late.
    assert any(r.offset == 0 for r in result.after) and len(result.after) >= PLAYERS // 2
    for r in result.after:
        row = ledger[r.post_id]
        assert (row.valid, row.reason, row.target_id) == (False, "after_deadline", seats[r.target].pk)
        assert r.counted is False and r.reason == "after_deadline"
    assert len(ledger) == len(result.posts)

    # The two sweeps: one closed the day, at their `now`.
    assert sorted(result.closes) == [False, True]
    phase.refresh_from_db()
    assert phase.closed_at == result.close_now

    # The count is the ledger's: each player on the wagon of the next one, with the post number
    # of the vote written before the deadline; nobody left out, no wagon at a majority.
    count = vote_count(phase=phase)
    voted = {seat.pk: (wagon.target.pk, number) for wagon in count.wagons for seat, number in wagon.voters}
    assert voted == {seats[r.player].pk: (seats[r.target].pk, r.number) for r in result.before}
    assert count.not_voting == [] and count.majority_reached is None
    assert problems(game, phase, seats, result) == []
