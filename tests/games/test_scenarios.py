"""Scenario files (shared/scenarios/FORMAT.md) run through `play_scenario`: the shared samples,
ours in tests/scenarios/, and malformed files."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "scenarios"
# The show's `message_fees` (docs/rulesets/show.md, "Scenario keys (part 2)") is the engine
# player's only: the site charges a message fee when a post is stored, so its player refuses a file
# with that key, naming it. Every other part 2 input plays through the site's services.
SHOW_ENGINE_ONLY_INPUTS = ("message_fees",)


def _engine_only(path: Path) -> str | None:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for phase in data.get("phases") or ():
        for key in SHOW_ENGINE_ONLY_INPUTS:
            if key in phase:
                return key
    return None


ALL_OURS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))
OURS = [p for p in ALL_OURS if _engine_only(p) is None]
ENGINE_ONLY = [p for p in ALL_OURS if _engine_only(p) is not None]
SHARED_FORUM = sorted((SHARED / "forum").glob("*.yaml"))
SHARED_CLUB = sorted((SHARED / "club").glob("*.yaml"))
SHARED_CARDS = sorted((SHARED / "cards").glob("*.yaml"))


def run(*args) -> tuple[int, str, str]:
    from io import StringIO

    out, err = StringIO(), StringIO()
    try:
        call_command("play_scenario", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def test_shared_samples_exist():
    assert SHARED_FORUM, f"no forum scenarios under {SHARED}; the shared folder must sit beside the repository"


def test_shared_cards_sample_exists():
    """The seed's armour example (issue 9: «../shared/scenarios/cards/seed-armour-example.yaml (the
    seed's example) must pass»)."""
    assert any(p.name == "seed-armour-example.yaml" for p in SHARED_CARDS)


# The id names the rule set's folder too ("show/judge-on-the-bench.yaml"), so `-k show` picks every
# show file, not only those whose own name says "show".
@pytest.mark.parametrize("path", SHARED_FORUM + SHARED_CLUB + SHARED_CARDS + OURS,
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scenario_passes(db, path):
    code, out, err = run(str(path))
    assert code == 0, out + err
    assert "FAILED" not in out


@pytest.mark.parametrize("path", ENGINE_ONLY, ids=lambda p: p.name)
def test_site_player_refuses_part_2_inputs_it_does_not_play_yet(db, path):
    code, out, err = run(str(path))
    assert code != 0
    assert f"key {_engine_only(path)!r}" in out + err


def test_json_output_has_every_outcome_key(db):
    code, out, _err = run(str(SHARED_FORUM[0]), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    for phase in lines[:-1]:
        assert {"votes", "tally", "alive", "refused", "over", "jailed", "killed", "wounded", "checks", "granted_check"} <= set(phase)
    assert set(lines[-1]["game"]) >= {"over", "winner"}


def test_scenario_leaves_nothing_behind(db):
    from accounts.models import User
    from games.models import Game

    before = (User.objects.count(), Game.objects.count())
    run(str(SHARED_FORUM[0]))
    assert (User.objects.count(), Game.objects.count()) == before


def test_keep_leaves_a_playable_game(db):
    from games.models import Game

    code, out, err = run(str(SHARED_FORUM[0]), "--json", "--keep", "--password", "pw-12345")
    game = json.loads(out.splitlines()[-1])["game"]
    assert code == 0 and game["game_url"].startswith("/games/")
    assert set(game["users"]) >= {"gm", "Вася"}
    assert Game.objects.count() == 1


@pytest.mark.parametrize("text,needle", [
    ("ruleset: forum\nrng_seed: 1\nplayers: [{name: A, role: citizen}]\nphases: [{phase: day 1, expekt: {}}]\n", "expekt"),
    ("ruleset: forum\nplayers: [{name: A, rol: citizen}]\n", "rol"),
    ("ruleset: chess\nplayers: [{name: A}]\n", "ruleset"),
    ("ruleset: forum\nplayers: [{name: A, role: citizen}]\nphases: [{phase: day 1, posts: [{B: hi}]}]\n", "'B'"),
    ("ruleset: forum\nplayers: [{name: A, role: citizen}]\nphases: [{phase: day 1, expect: {jaled: [A]}}]\n", "jaled"),
    ("ruleset: forum\nplayers: [{name: A, role: citizen}]\nphases: [{phase: day 1, gm: {fouls: [A]}}]\n", "fouls"),
    ("ruleset: forum\nplayers: [[\n", "YAML"),
    # the show's privileges (part 3): a guess without its field, a privilege no show knows
    ("ruleset: show\nplayers: [{name: A, role: mason}]\nphases: [{phase: greetings, intercept: {A: {number: 1}}}]\n",
     "intercept"),
    ("ruleset: show\nplayers: [{name: A, role: mason}]\nphases: [{phase: greetings, stun: {A: B}}]\n", "'B'"),
    # Змеёныш rule 1: «может получить только не Рептилоид» (the deal refuses a Reptiloid holder)
    ("ruleset: show\nplayers: [{name: A, role: mason}, {name: B, role: mason}, {name: C, role: saviour},\n"
     "  {name: D, role: reptiloid, privileges: [snakelet]}, {name: E, role: demon}]\nphases: [{phase: greetings}]\n",
     "key 'players': Игру нельзя начать: the Змеёныш is never a Reptiloid"),
    # a post signed as nobody of the file (the Говорун's /fake, the common post key `as`)
    ("ruleset: show\nplayers: [{name: A, role: mason}]\nphases: [{phase: day 1, posts: [{by: A, text: hi, as: B}]}]\n",
     "phase day 1: key 'posts': 'as' 'B' is not a player"),
])
def test_malformed_file_exits_2_naming_the_key(db, tmp_path, text, needle):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(str(path))
    assert code == 2
    assert "bad.yaml" in err and needle in err
    assert "Traceback" not in err


def test_wrong_phase_kind_is_malformed(db, tmp_path):
    text = (SHARED_FORUM[0]).read_text(encoding="utf-8").replace("phase: day 1", "phase: night 1", 1)
    path = tmp_path / "wrong-phase.yaml"
    path.write_text(text, encoding="utf-8")
    code, _out, err = run(str(path))
    assert code == 2 and "night 1" in err


def test_failed_expectation_exits_1_with_a_diff(db, tmp_path):
    text = (SHARED_FORUM[0]).read_text(encoding="utf-8").replace("jailed: [Негодяй]", "jailed: [Вася]", 1)
    path = tmp_path / "wrong-expect.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, _err = run(str(path))
    assert code == 1
    assert "phase day 1: FAILED" in out and "jailed" in out


@pytest.mark.parametrize("name,old,new,key", [
    ("carousel-priority.yaml", "thefts: {Аня: genius, Вера: null}", "thefts: {Аня: null, Вера: genius}", "thefts"),
    ("privilege-bouncer.yaml", "expect: {stunned: [Кира], enslaved: [], coma: []}",
     "expect: {stunned: [], enslaved: [], coma: []}", "stunned"),
    ("privilege-talker-fakes.yaml", "fakes: {Аня: {Боря: 3, Жора: 2}}", "fakes: {Аня: {Боря: 4, Жора: 2}}", "fakes"),
    ("privilege-talker-fakes.yaml", "refused: {Аня: 1, Боря: 1}", "refused: {Аня: 1}", "refused"),
    ("privilege-bouncer-silence-from-slavery.yaml", "refused: {Кира: 1}}", "refused: {}}", "refused"),
    ("privilege-snakelet-erases-not-reptiloid.yaml", "keys_erased: {Жора: {Боря: not_reptiloid}, Гоша",
     "keys_erased: {Жора: {Вера: not_reptiloid}, Гоша", "keys_erased"),
    # «Я всё» (issue 28, item 4): without Аня's, her stun holds night 2 open
    ("done-i-am-done-releases-the-hold.yaml", "    done: [Аня]\n", "", "held"),
])
def test_a_privilege_expectation_broken_on_purpose_fails_the_site_player(db, tmp_path, name, old, new, key):
    """The privileges' files play through the site and their outcomes are compared: a wrong
    expectation is a failure naming the key, not a silent pass."""
    text = (ROOT / "tests" / "scenarios" / "show" / name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    code, out, _err = run(str(path))
    assert code == 1
    assert "FAILED" in out and key in out, out
