"""Who still plays is the rule set's (issue 15): "in `show` an enslaved player is not free but
still votes in some stages and writes in the slaves' chat: `status == "active"` / `is_alive` can
no longer mean "may act"". The core asks `permissions.in_play`, which asks the adapter
(`SiteRuleset.in_play_statuses`); these tests give the test-only vanilla rule set a status that
still plays and check the core's checks follow it, and that the forum's do not."""

from __future__ import annotations

import pytest

from games import permissions
from games.communication.anonymous import anonymous_send
from games.models import Seat, Thread
from games.rulesets import registry
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
NAMES = ["Аня", "Боря", "Вера", "Гоша"]


def started(ruleset: str):
    gm = make_user(f"Ведущий {ruleset}")
    game = game_create(title=f"Игра {ruleset}", gm=gm, ruleset=ruleset, size=4)
    users = [make_user(f"{name} {ruleset}") for name in NAMES]
    for user in users:
        game_signup(game=game, user=user)
    roles = ["mafioso", "citizen", "citizen", "citizen"]
    game_start(game=game, by=gm, seed=1, roles_in_seat_order=roles)
    game.refresh_from_db()
    seats = list(game.seats.select_related("user").order_by("number"))
    return game, seats


@pytest.fixture
def enslaving_vanilla(monkeypatch):
    """Vanilla as a rule set whose «enslaved» players still play (as the Show's slaves do)."""
    monkeypatch.setattr(registry.site("vanilla"), "in_play_statuses", frozenset({"active", "enslaved"}))


def enslave(seat: Seat) -> Seat:
    seat.status = "enslaved"
    seat.save(update_fields=["status"])
    return seat


def test_a_status_the_rule_set_keeps_in_play_still_plays(enslaving_vanilla):
    game, seats = started("vanilla")
    slave = enslave(seats[1])
    assert permissions.in_play(game, slave)
    assert "enslaved" in permissions.in_play_statuses(game) and "enslaved" in permissions.in_play_statuses()
    # He still sends and receives anonymous letters, as a player in play does.
    anonymous_send(game=game, user=slave.user, recipient=seats[2], text="Держись.")
    anonymous_send(game=game, user=seats[2].user, recipient=slave, text="И ты держись.")
    # The lounge is for those out of play: not his (he neither reads nor writes there).
    lounge = Thread.objects.get(game=game, kind=Thread.Kind.LOUNGE)
    assert not permissions.can_see_thread(slave.user, lounge)
    assert not permissions.can_post(slave.user, lounge)


def test_the_same_status_is_out_of_play_where_the_rule_set_does_not_keep_it():
    game, seats = started("vanilla")
    slave = enslave(seats[1])
    assert not permissions.in_play(game, slave)
    with pytest.raises(ActionRefused):
        anonymous_send(game=game, user=slave.user, recipient=seats[2], text="Держись.")
    with pytest.raises(ActionRefused):
        anonymous_send(game=game, user=seats[2].user, recipient=slave, text="И ты держись.")
    assert permissions.can_see_thread(slave.user, Thread.objects.get(game=game, kind=Thread.Kind.LOUNGE))


def test_the_forum_plays_with_active_seats_only():
    game, seats = started("forum")
    assert permissions.in_play(game, seats[0])
    seats[0].status = "dead"
    assert not permissions.in_play(game, seats[0])
    assert permissions.in_play_statuses(game) == frozenset({"active"})
    assert not permissions.in_play(game, None)


def test_a_phase_kind_is_one_the_games_rule_set_declares():
    """Issue 15: "Phase kinds come from the rule set ... Store a kind the rule set declares and
    validate it there": the cards' deck building is no phase of a forum game, nor a made-up kind
    of any game; the game is left as it was."""
    from games.models import Phase
    from games.services.phases import parse_phase_name, phase_open

    game, _seats = started("forum")
    game.phases.filter(closed_at__isnull=True).update(closed_at=game.current_phase.opened_at)
    before = Phase.objects.filter(game=game).count()
    for kind in ("deckbuilding", "stage"):
        with pytest.raises(ActionRefused) as refused:
            phase_open(game=game, kind=kind, by=game.gm, deadline_at=None)
        assert refused.value.code == "bad_kind"
        with pytest.raises(ValueError):
            parse_phase_name(f"{kind} 1", game)
    assert Phase.objects.filter(game=game).count() == before
    assert phase_open(game=game, kind="night", by=game.gm, deadline_at=None).kind == "night"


def test_the_phases_votes_are_cast_in_are_the_rule_sets(monkeypatch):
    """The Show votes in some of its stages: the kinds a vote is read in come from the rule set
    (SiteRuleset.voting_kinds), not from a fixed «day or re-vote»."""
    from games.selectors.votes import voting_kinds, voting_phase

    game, _seats = started("vanilla")
    game.refresh_from_db()
    assert game.current_phase.kind == "day" and voting_phase(game=game) == game.current_phase
    monkeypatch.setattr(registry.site("vanilla"), "voting_kinds", frozenset({"night"}))
    assert voting_phase(game=game) is None  # a day is no voting phase of this rule set now
    assert voting_kinds(game) == frozenset({"night"})
    assert "night" in voting_kinds() and "day" in voting_kinds()  # over every rule set
