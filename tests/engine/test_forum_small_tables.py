"""Smaller forum tables (issue 14, item 11), as rule cases of the seed (002_fbe98fa7d018c05d.txt):
the seed sets no minimum number of players, so a table the GM writes is accepted at any size at
which the game is not over at the start; the automatic table still starts at 7."""

from __future__ import annotations

import pytest

from games.engine.rulesets import get_ruleset
from games.rulesets.forum.engine import winner_of

FORUM = get_ruleset("forum")


def _deal(roles):
    return FORUM.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])


@pytest.mark.parametrize("roles", [
    ["citizen", "citizen", "recruiter", "mafioso", "thief"],  # 5: all three teams
    ["citizen", "citizen", "reanimator", "recruiter", "mafioso", "killer"],  # 6, no thief
    ["citizen", "citizen", "mafioso"],
])
def test_gm_table_is_accepted_below_seven_when_the_game_is_not_over_at_the_start(roles):
    """«Так продолжается до тех пор, пока не останется активной только одна команда.» — a table
    of five or six with the town and the mafia in play is a game that has not ended yet."""
    state, _events = _deal(roles)
    assert state.phase == "day 1" and len(state.active()) == len(roles)
    assert winner_of(state.seats) is None


@pytest.mark.parametrize("roles", [
    ["mafioso", "killer", "mafioso"],  # only the mafia: it has already won
    ["citizen", "recruiter", "reanimator", "citizen"],  # only the town
    ["mafioso", "mafioso"],  # two players, one team
])
def test_gm_table_is_refused_when_one_team_has_already_won_at_the_start(roles):
    """«Так продолжается до тех пор, пока не останется активной только одна команда. В результате
    объявляется победа одной из команд» — a table of one team would be over before day 1."""
    with pytest.raises(ValueError, match="over before it starts"):
        _deal(roles)


def test_automatic_table_still_starts_at_seven_when_the_gm_writes_none():
    """«Итак, в игре участвуют три команды.» — the automatic table deals all three teams, which
    it does from seven players; below that the GM writes his own."""
    assert len(FORUM.default_roles(7)) == 7
    for size in (5, 6):
        with pytest.raises(ValueError):
            FORUM.default_roles(size)
    assert FORUM.min_players == 7 and FORUM.min_players_own_table < 5
