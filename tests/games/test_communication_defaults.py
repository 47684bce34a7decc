"""The communication defaults come from the game's rule set (SiteRuleset, "Communication"): the
tables that named rule sets in games/services are gone, so a game of a key no rule set registers
(an old game's) falls back to the values those tables gave an unknown key."""

import pytest

from games.selectors.communication import anonymous_rules, private_mode, rooms_enabled, team_chat_enabled
from games.models import Game


@pytest.mark.parametrize(("ruleset", "mode", "anonymous", "rooms", "team_chat"), [
    ("forum", "anyone", {"limit": 5, "approval": False}, False, True),
    ("club", "off", None, False, True),
    ("cards", "neighbours", None, True, False),
    ("show", "anyone", {"limit": 5, "approval": False}, False, True),
    ("chess", "off", None, False, True),  # registered by no rule set
])
def test_defaults_per_rule_set(ruleset, mode, anonymous, rooms, team_chat):
    game = Game(ruleset=ruleset, options={})
    assert private_mode(game) == mode
    assert anonymous_rules(game) == anonymous
    assert rooms_enabled(game) is rooms
    assert team_chat_enabled(game) is team_chat


def test_the_games_options_win_over_the_rule_sets_defaults():
    game = Game(ruleset="cards", options={"private_messages": "anyone", "rooms": False, "team_chat": True,
                                          "anonymous_messages": {"limit": 2, "approval": True}})
    assert (private_mode(game), rooms_enabled(game), team_chat_enabled(game)) == ("anyone", False, True)
    assert anonymous_rules(game) == {"limit": 2, "approval": True}
