"""The two protocol methods every rule set offers the site: check_vote (may this vote stand now?)
and speaking_order (who speaks in which order), for forum and club alike."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.engine.orders import PhaseInputs
from games.engine.rulesets import RULESETS, Ruleset, get_ruleset

NOW = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("key", sorted(RULESETS))
def test_rule_set_fills_the_protocol_when_registered(key):
    ruleset = get_ruleset(key)
    assert isinstance(ruleset, Ruleset)
    assert {"not_a_voter", "bad_target", "peace_not_allowed"} <= set(ruleset.vote_reasons)
    roles = ruleset.default_roles(ruleset.min_players)
    state, _events = ruleset.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])
    assert all(ruleset.check_vote(state, v, None) is None for v in ruleset.voters(state))
    assert set(ruleset.speaking_order(state)) <= {s.id for s in state.seats}


def test_forum_vote_stands_when_it_names_anyone_in_play_including_the_voter():
    """«По умолчанию считается, что игрок голосует сам за себя.» — a self-vote is allowed."""
    forum = get_ruleset("forum")
    roles = forum.default_roles(7)
    state, _ = forum.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])
    assert forum.check_vote(state, 1, 2) is None
    assert forum.check_vote(state, 1, 1) is None
    assert forum.check_vote(state, 1, "2") is None  # a seat id that went through JSON
    assert forum.check_vote(state, 1, "peace") == "peace_not_allowed"
    assert forum.check_vote(state, 1, 99) == "bad_target"
    assert forum.check_vote(state, 99, 1) == "not_a_voter"
    jailed = forum.resolve(state, PhaseInputs(votes={v: 3 for v in range(1, 8) if v != 3} | {3: 4}),
                           seed=1, now=NOW).state
    assert jailed.seat(3).status == "jailed"
    assert forum.check_vote(jailed, 3, 1) == "not_a_voter"
    assert forum.check_vote(jailed, 1, 3) == "bad_target"
    assert forum.speaking_order(jailed) == (1, 2, 4, 5, 6, 7)


def test_forum_speaks_in_seating_order_when_a_day_opens():
    forum = get_ruleset("forum")
    roles = forum.default_roles(9)
    state, _ = forum.new_game([(10 + i, f"p{i}", r) for i, r in enumerate(roles)])
    assert forum.speaking_order(state) == tuple(range(10, 19))
