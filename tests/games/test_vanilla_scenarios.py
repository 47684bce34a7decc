"""The scenario player asks the rule set's adapter what a file may say (SiteRuleset.scenario and
scenario_outcome_keys): the vanilla rule set, registered only by the tests, gets its outcome keys
from its engine and the plain game's GM tie-break, and nothing of the other rule sets. Its sample
games (tests/scenarios/vanilla/) are played by tests/games/test_scenarios.py with the others."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.rulesets import registry

HEAD = "ruleset: vanilla\nplayers: [{name: A, role: citizen}, {name: B, role: citizen}, {name: C, role: mafioso}]\n"


def run(path) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("play_scenario", str(path), stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def test_the_outcome_keys_are_the_engines():
    assert registry.site("vanilla").scenario_outcome_keys() >= {"lynched", "killed"}


def test_an_unknown_rule_set_lists_the_registered_ones(db, tmp_path):
    path = tmp_path / "chess.yaml"
    path.write_text("ruleset: chess\nplayers: [{name: A}]\n", encoding="utf-8")
    code, _out, err = run(path)
    assert code == 2
    assert "'chess' is not a rule set this site plays yet (known: cards, club, forum, show, vanilla)" in err


@pytest.mark.parametrize("phase,needle", [
    ("{phase: day 1, plays: [{by: A, card: Пистолет}]}", "key 'plays' is not used by the vanilla rule set"),
    ("{phase: day 1, gm: {fouls: [A]}}", "unknown key 'fouls' (allowed: tie_break)"),
    ("{phase: day 1, gm: {tie_break: D}}", "tie_break 'D' is not a player"),
    ("{phase: day 1, expect: {jailed: [A]}}", "unknown key 'jailed'"),
])
def test_a_key_of_another_rule_set_is_refused(db, tmp_path, phase, needle):
    path = tmp_path / "bad.yaml"
    path.write_text(HEAD + f"phases: [{phase}]\n", encoding="utf-8")
    code, _out, err = run(path)
    assert code == 2, err
    assert needle in err and "Traceback" not in err


def test_a_player_key_of_another_rule_set_is_accepted_but_unused(db, tmp_path):
    """A player's `deck` (cards) is a key some registered rule set reads; vanilla ignores it."""
    path = tmp_path / "deck.yaml"
    path.write_text(HEAD.replace("{name: A, role: citizen}", "{name: A, role: citizen, deck: [Пистолет]}")
                    + "phases: [{phase: day 1, expect: {lynched: []}}]\n", encoding="utf-8")
    code, out, err = run(path)
    assert code == 0, out + err
