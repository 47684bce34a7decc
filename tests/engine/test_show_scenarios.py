"""Every scenario in tests/scenarios/show/ played through the pure engine, with the `show` scenario
keys of docs/rulesets/show.md ("Scenario keys"); the site's `play_scenario` plays the same files
(tests/games/test_scenarios.py) and both must agree."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.coins import BANK, Transfer, hero
from games.rulesets.show.engine.economy import message_fee
from games.rulesets.show.engine.facts import SLAVE
from games.rulesets.show.engine.privileges import adjust_transfers, can_post, check_fake
from tests.engine.show_helpers import NOW, enslaved, inputs, new, sid

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "show").glob("*.yaml"))
TOP_KEYS = {"ruleset", "rng_seed", "options", "players", "phases", "expect"}
PHASE_KEYS = {"phase", "greetings", "defences", "opinions", "posted", "votes", "requests", "orders", "knowledge",
              "active", "lull", "ratings", "expect",
              # part 2 (docs/rulesets/show.md, "Scenario keys"); the site's player does not play them yet
              "acted_at", "message_fees", "bets", "raise", "trial_answers", "grants", "sympathies", "ally_picks",
              # part 3, the privileges (docs/rulesets/show.md, "Scenario keys")
              "stun", "exclude", "extra_votes", "intercept", "mole", "steal",
              # issue 28, item 4: «Я всё», [names] who waive their open optional inputs of the stage
              "done",
              # common (FORMAT.md): plain posts in the common thread, [{name: text}] or the long form
              # {by, text, comment?, as?}; the engine charges them as the site does (message_fees,
              # below) and checks a post signed `as` another hero (the Говорун's /fake) as the site does
              "posts",
              # issue 28, item 6: the GM's trial tasks, applied at once at the stage's open
              "trial_task", "trial_tasks"}
POST_KEYS = {"by", "text", "comment", "as"}
# Outcome keys this player computes itself, not the engine's close: `refused` {name: n} counts the
# posts it refuses (a post signed `as` another hero that privileges.check_fake refuses, a post by a
# hero the phase's `stun` silenced: privileges.can_post, or by a slave), as the site counts the posts post_submit
# refuses. The site's `refused` also counts refused ballots and panel
# inputs, which this player does not check: a file expects `refused` only in a stage whose other
# inputs all stand.
PLAYER_KEYS = {"refused"}
# Part 2's inputs: {name: value} maps, [names] lists; a value that is a name becomes a seat id.
MONEY_INPUTS = ("acted_at", "message_fees", "bets", "raise", "trial_answers", "grants", "sympathies", "ally_picks")
PRIVILEGE_INPUTS = ("stun", "exclude", "extra_votes", "intercept", "steal")
ORDER_KEYS = {"by", "action", "target", "question", "public_key", "extra_knowledge"}
DETAILS = ("question", "public_key", "extra_knowledge")


def comparable(value):
    if isinstance(value, list):
        return sorted(json.dumps(comparable(v), ensure_ascii=False, sort_keys=True) for v in value)
    if isinstance(value, dict):
        return {str(k): comparable(v) for k, v in value.items()}
    return value


def same(expected, actual) -> bool:
    return comparable(expected) == comparable(actual)


def seat_ids(state, value):
    if isinstance(value, str):
        return sid(state, value) if state.by_name(value) else value
    if isinstance(value, list):
        return [seat_ids(state, v) for v in value]
    if isinstance(value, dict):
        return {(sid(state, k) if state.by_name(k) else k): seat_ids(state, v) for k, v in value.items()}
    return value


def post_entries(posts):
    """A phase's `posts` as (author, hero shown or None): the short form {name: text} and the long
    form {by, text, comment?, as?}."""
    for item in posts or ():
        if "by" in item:
            assert set(item) <= POST_KEYS, set(item) - POST_KEYS
            assert item.get("as") is None or isinstance(item["as"], str), item
            yield item["by"], item.get("as")
        else:
            (name, _text), = item.items()
            yield name, None


def stored_posts(state, posts) -> tuple[list[str], dict[int, dict[int, int]], dict[str, int]]:
    """The phase's posts as the site stores them (post_submit; the site plays a show phase's posts
    after its other inputs, so `state` has the phase's stun made at once): a slave posts only in the
    slaves' chat, a hero the Вышибала stunned may send nothing until the night ends
    (`privileges.can_post`); a post signed `as`
    another hero (the Говорун's /fake) is checked by `privileges.check_fake` against the author's
    fakes accepted so far in this stage (in post order; a phase is one stage, so the count starts
    at 0). A refused post is refused whole: not stored, no fee. (the authors of the stored posts in
    order, the accepted fakes {author: {hero shown: n}} as the site's ledger gives them in
    `extra["fakes"]`, the refused posts {name: n})."""
    stored: list[str] = []
    fakes: dict[int, dict[int, int]] = {}
    refused: dict[str, int] = {}
    for name, shown_name in post_entries(posts):
        # a slave talks only in the slaves' chat (ShowSite.talk_refusal); the posts here are the
        # common thread's
        if state.by_name(name).status == SLAVE or not can_post(state, sid(state, name)):
            refused[name] = refused.get(name, 0) + 1
            continue
        if shown_name is not None:
            seat, shown = sid(state, name), state.by_name(shown_name)
            assert shown is not None, (state.phase, "posts", "as", shown_name)
            used = sum((fakes.get(seat) or {}).values())
            if check_fake(state, seat, used, as_hero=shown.id) is not None:
                refused[name] = refused.get(name, 0) + 1
                continue
            counts = fakes.setdefault(seat, {})
            counts[shown.id] = counts.get(shown.id, 0) + 1
        stored.append(name)
    return stored, fakes, refused


def posts_fees(state, authors) -> dict[int, int]:
    """The message fees of a phase's stored plain posts (their authors in order), as the site charges
    them when it stores each one (services.charge_message): the n-th post of a hero in the stage
    costs `message_fee(options, n)` (past the free limit), changed by the privileges' one rule as the
    site's `services.site_fee` does (privileges.adjust_transfers: the Говорун's cost nothing)."""
    sent: dict[int, int] = {}
    fees: dict[int, int] = {}
    for name in authors:
        seat = sid(state, name)
        fee = message_fee(state.options, sent.get(seat, 0))
        fees[seat] = fees.get(seat, 0) + sum(t.amount for t in adjust_transfers(
            state, [Transfer(hero(seat), BANK, fee, "message_fee")] if fee else []))
        sent[seat] = sent.get(seat, 0) + 1
    return {seat: fee for seat, fee in fees.items() if fee}


def play(path: Path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) <= TOP_KEYS and data["ruleset"] == "show"
    seats = [(i, p["name"], p["role"]) for i, p in enumerate(data["players"], 1)]
    for player in data["players"]:
        assert set(player) <= {"name", "role", "privileges"}, set(player)
    seat_data = {p["name"]: {"privileges": p["privileges"]} for p in data["players"] if p.get("privileges")}
    state, _events = SHOW.new_game(seats, options=data.get("options") or {}, seed=data["rng_seed"],
                                   seat_data=seat_data)
    diffs: list[str] = []
    for phase in data["phases"]:
        assert set(phase) <= PHASE_KEYS, set(phase) - PHASE_KEYS
        if phase["phase"] == SHOW.doomsday:
            # issue 28, item 7: Судный День follows the end (the site's epilogue phase): the show is
            # over, nothing is closed; every hero may post (slaves too, free of fees): nothing refused
            assert state.over and SHOW.doomsday_length(state) is not None, "Судный День follows only the end"
            assert set(phase) <= {"phase", "posts", "expect"}, set(phase)
            mine = {"over": True, "refused": {}}
            for key, expected in (phase.get("expect") or {}).items():
                if not same(expected, mine[key]):
                    diffs.append(f"{phase['phase']}: {key}: expected {expected!r}, got {mine[key]!r}")
            continue
        assert state.phase == phase["phase"], (state.phase, phase["phase"])
        assert not state.over, phase["phase"]
        if phase.get("trial_tasks") is not None:  # the GM's, at the stage's open (the site plays them first)
            assert SHOW.check_trial_tasks(state, phase["trial_tasks"].splitlines()) is None, phase["phase"]
            state, _told = SHOW.set_trial_tasks(state, phase["trial_tasks"].splitlines())
        if phase.get("trial_task") is not None:
            assert SHOW.check_trial_task(state, phase["trial_task"]) is None, (phase["phase"], "refused trial_task")
            state, _told = SHOW.set_trial_task(state, phase["trial_task"])
        if phase.get("lull"):
            state, _lulled = SHOW.lull(state, {sid(state, v): sid(state, t) for v, t in phase["lull"].items()})
        for mole, target in (phase.get("mole") or {}).items():  # /mole, at once before the close
            state, buried = SHOW.mole(state, sid(state, mole), sid(state, target))
            assert buried, (phase["phase"], "refused /mole", mole, target)
        posted = {name: list(kinds) for name, kinds in (phase.get("posted") or {}).items()}
        for key, kind in (("greetings", "greeting"), ("defences", "defence"), ("opinions", "opinion")):
            for name in phase.get(key) or ():
                posted.setdefault(name, []).append(kind)
        orders = []
        for item in phase.get("orders") or ():
            assert set(item) <= ORDER_KEYS, set(item) - ORDER_KEYS
            detail = {k: item[k] for k in DETAILS if k in item}
            orders.append((item["by"], item["action"], item.get("target"), *([detail] if detail else [])))
        phase_inputs = inputs(state, votes=phase.get("votes"), orders=orders, posted=posted,
                              requests=phase.get("requests"), knowledge=phase.get("knowledge"),
                              active=phase.get("active") or (), ratings=phase.get("ratings"),
                              **{k: phase[k] for k in PRIVILEGE_INPUTS if phase.get(k)})
        money = {key: seat_ids(state, phase[key]) for key in MONEY_INPUTS if key in phase}
        silenced = state  # the phase's stun made at once (SHOW.stun), as the site's panel makes it
        for bouncer, target in (phase.get("stun") or {}).items():
            silenced, _stunned = SHOW.stun(silenced, sid(state, bouncer), sid(state, target))
        authors, fakes, refused = stored_posts(silenced, phase.get("posts"))
        if phase.get("posts"):
            assert "message_fees" not in money, "posts and message_fees both charge the stage's messages"
            money["message_fees"] = posts_fees(state, authors)
        signed = {"fakes": fakes} if fakes else {}  # as the site's ledger_inputs reads its `fake` rows
        done = [sid(state, n) for n in phase.get("done") or ()]
        if done:  # «Я всё»: a `done` row, which the site also reads as activity
            signed["done"] = done
            signed["active"] = [*phase_inputs.extra.get("active", ()), *done]
        phase_inputs = replace(phase_inputs, extra={**phase_inputs.extra, **money, **signed})
        resolution = SHOW.resolve(state, phase_inputs, seed=data["rng_seed"], now=NOW)
        mine = {"refused": refused}
        for key, expected in (phase.get("expect") or {}).items():
            assert key in SHOW.outcome_keys or key in PLAYER_KEYS, (phase["phase"], key)
            actual = mine[key] if key in PLAYER_KEYS else resolution.outcome.get(key)
            if not same(expected, actual):
                diffs.append(f"{phase['phase']}: {key}: expected {expected!r}, got {actual!r}")
        state = resolution.state
    for key, expected in (data.get("expect") or {}).items():
        actual = {"over": state.over, "winner": state.winner}[key]
        if actual != expected:
            diffs.append(f"game: {key}: expected {expected!r}, got {actual!r}")
    return data, state, diffs


def test_there_are_show_scenarios():
    assert len(SCENARIOS) >= 5


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_show_scenario_holds_when_played_through_the_engine(path):
    data, state, diffs = play(path)
    assert not diffs, "\n".join(diffs)
    if state.over:
        assert (data["phases"][-1].get("expect") or {}).get("over") is True, "a show may end only where it says so"


@pytest.mark.parametrize("old,new,key", [
    ("fakes: {Аня: {Боря: 3, Жора: 2}}", "fakes: {Аня: {Боря: 4, Жора: 2}}", "fakes"),
    ("refused: {Аня: 1, Боря: 1}", "refused: {Аня: 1}", "refused"),
])
def test_a_talker_fakes_expectation_broken_on_purpose_fails_the_engine_player(tmp_path, old, new, key):
    """The Говорун's fakes and the refused posts are computed, not skipped: a wrong expectation is a
    diff naming the key (the site's player: tests/games/test_scenarios.py)."""
    source = next(p for p in SCENARIOS if p.name == "privilege-talker-fakes.yaml")
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / source.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _data, _state, diffs = play(path)
    assert diffs and all(f"day 1: {key}:" in d for d in diffs), diffs


@pytest.mark.parametrize("name,old,new,where", [
    ("privilege-bouncer-silence-from-slavery.yaml", "refused: {Кира: 1}}", "refused: {}}", "night 1: refused:"),
    ("privilege-snakelet-erases-not-reptiloid.yaml", "keys_erased: {Жора: {Боря: not_reptiloid}, Гоша",
     "keys_erased: {Жора: {Вера: not_reptiloid}, Гоша", "night 2: keys_erased:"),
])
def test_a_stun_or_snakelet_expectation_broken_on_purpose_fails_the_engine_player(tmp_path, name, old, new, where):
    """The stunned's refused post (Вышибала rule 6) and the knowledge the Змеёныш's turn erased
    (rule 3) are computed, not skipped: a wrong expectation is a diff naming the key."""
    source = next(p for p in SCENARIOS if p.name == name)
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    _data, _state, diffs = play(path)
    assert diffs and all(d.startswith(where) for d in diffs), diffs


def test_the_engine_player_refuses_the_posts_the_site_refuses():
    """As ShowSite.talk_refusal: a slave talks only in the slaves' chat, so his post in the common
    thread is refused (as is the stunned hero's and a fake past the five); the others are stored."""
    state = enslaved(new(), "Боря")
    stored, fakes, refused = stored_posts(state, [{"Аня": "Привет"}, {"Боря": "И я тут"}, {"Вера": "Ого"}])
    assert stored == ["Аня", "Вера"] and refused == {"Боря": 1} and fakes == {}


def test_i_am_done_is_played_not_skipped_by_the_engine_player(tmp_path):
    """«Я всё» (issue 28, item 4): without Аня's, the Вышибала's stun holds night 2 open: the file's
    `held: []` and `early: true` are then diffs (the site's player: tests/games/test_scenarios.py)."""
    source = next(p for p in SCENARIOS if p.name == "done-i-am-done-releases-the-hold.yaml")
    text = source.read_text(encoding="utf-8")
    assert "    done: [Аня]\n" in text
    path = tmp_path / source.name
    path.write_text(text.replace("    done: [Аня]\n", ""), encoding="utf-8")
    _data, _state, diffs = play(path)
    assert sorted(d.split(": expected")[0] for d in diffs) == ["night 2: early", "night 2: held"], diffs
