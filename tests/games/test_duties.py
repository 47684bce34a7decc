"""games.selectors.duties: what a player owes in his running games."""

from datetime import timedelta

from django.utils import timezone

from games.selectors.duties import duties_of
from games.services.posting import post_submit


def test_a_day_owes_votes_and_the_recruiter_an_order(started):
    vasya = started.seats.get(number=1).user  # the recruiter (tests/games/conftest.py ROLES)
    kinds = [d.kind for d in duties_of(vasya)]
    assert "vote" in kinds and "order" in kinds
    citizen = started.seats.filter(role="citizen").first().user
    assert [d.kind for d in duties_of(citizen)] == ["vote"]


def test_a_vote_cast_is_no_longer_owed(started):
    citizen = started.seats.filter(role="citizen").first().user
    target = started.seats.get(role="thief").user.display_name
    post_submit(thread=started.game_thread, author=citizen, body=f"[b]В тюрьму {target}[/b]")
    assert [d.kind for d in duties_of(citizen)] == []


def test_nothing_is_owed_after_the_deadline_or_by_outsiders(started, spectator):
    citizen = started.seats.filter(role="citizen").first().user
    phase = started.current_phase
    assert duties_of(citizen, now=phase.deadline_at + timedelta(minutes=1)) == []
    assert duties_of(spectator) == []
    assert duties_of(citizen, now=timezone.now())[0].time_left(timezone.now()) > timedelta(0)
