"""Scenario files (../shared/scenarios/FORMAT.md): a whole game in YAML, played through the same
services the views call, with its expected outcomes compared phase by phase."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import yaml
from allauth.account.models import EmailAddress
from django.db import transaction
from django.utils import timezone

from accounts.models import User, display_name_key
from games.models import Game, Order, Phase, PrivateMessage, Seat, Thread, VoteRecord
from games.rulesets import registry
from games.rulesets.base import ScenarioSpec, SiteRuleset
from games.selectors.commitment import commitment_reveal
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.orders import order_submit
from games.services.phases import parse_phase_name
from games.services.posting import post_submit
from games.services.resolution import phase_close

TOP_KEYS = {"ruleset", "rng_seed", "options", "players", "phases", "expect"}
# A player's name and role; a rule set with two roles per player writes the secret one and the
# overt one instead (cards). A rule set adds its own keys (ScenarioSpec.player_keys).
PLAYER_KEYS = {"name", "role", "secret", "overt"}
PHASE_KEYS = {"phase", "posts", "orders", "gm", "expect"}
COMMON_INPUTS = {"posts", "orders", "gm"}
# `as`: the post is signed as that player (post_submit's `shown_as`: the Show's Говорун, /fake); a
# rule set that allows no false name refuses it, and a refused post counts in `refused`.
POST_KEYS = {"by", "text", "comment", "as"}
ORDER_KEYS = {"by", "action", "target", "from", "text"}
COMMON_OUTCOME = {"votes", "tally", "alive", "refused", "over", "private", "rooms"}
GAME_KEYS = {"over", "winner"}
# What each rule set says (outcome keys, GM decisions, its own inputs and player keys) comes from
# its adapter: SiteRuleset.scenario (games/rulesets/base.py, ScenarioSpec).


class ScenarioError(Exception):
    """A file that is not a valid scenario: the message names the file, the phase and the key."""


@dataclass
class PhaseReport:
    name: str
    outcome: dict[str, Any]
    diffs: list[str] = field(default_factory=list)


@dataclass
class ScenarioReport:
    path: str
    phases: list[PhaseReport]
    game: dict[str, Any]
    game_diffs: list[str]
    game_url: str = ""
    users: dict[str, str] = field(default_factory=dict)
    password: str = ""

    @property
    def ok(self) -> bool:
        return not self.game_diffs and all(not p.diffs for p in self.phases)


def load(path: str) -> dict:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{path}: not valid YAML: {exc}") from None
    validate(path, data)
    return data


def _unknown(where: str, given, allowed: set[str]) -> None:
    if not isinstance(given, dict):
        raise ScenarioError(f"{where}: expected a mapping, got {type(given).__name__}")
    extra = sorted(set(given) - allowed)
    if extra:
        raise ScenarioError(f"{where}: unknown key {extra[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _adapter(path: str, ruleset) -> SiteRuleset:
    """The rule set's adapter; a malformed file for a key no rule set registered."""
    adapter = registry.find(ruleset) if isinstance(ruleset, str) else None
    if adapter is None:
        raise ScenarioError(f"{path}: key 'ruleset': {ruleset!r} is not a rule set this site plays yet "
                            f"(known: {', '.join(sorted(registry.keys()))})")
    return adapter


def _all_keys(common: set[str], own) -> set[str]:
    """The keys any registered rule set accepts: a key of another rule set is then "not used by
    this rule set" rather than unknown."""
    return common.union(*(own(a.scenario) for a in registry.adapters()))


def validate(path: str, data) -> None:
    _unknown(path, data, TOP_KEYS)
    ruleset = data.get("ruleset")
    adapter = _adapter(path, ruleset)
    spec = adapter.scenario
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise ScenarioError(f"{path}: key 'players': a non-empty list is required")
    player_keys = _all_keys(PLAYER_KEYS, lambda s: s.player_keys)
    names = []
    for index, player in enumerate(players):
        _unknown(f"{path}: players[{index}]", player, player_keys)
        if not isinstance(player.get("name"), str) or not player["name"].strip():
            raise ScenarioError(f"{path}: players[{index}]: key 'name' is required")
        names.append(player["name"])
    if len(set(names)) != len(names):
        raise ScenarioError(f"{path}: key 'players': a name is listed twice")
    if not isinstance(data.get("rng_seed", 0), int):
        raise ScenarioError(f"{path}: key 'rng_seed': an integer is required")
    phases = data.get("phases") or []
    if not isinstance(phases, list):
        raise ScenarioError(f"{path}: key 'phases': a list is required")
    phase_keys = _all_keys(PHASE_KEYS, lambda s: set(s.inputs) | set(s.own_inputs))
    inputs = COMMON_INPUTS | set(spec.inputs) | set(spec.own_inputs)
    allowed_expect = COMMON_OUTCOME | adapter.scenario_outcome_keys()
    for index, phase in enumerate(phases):
        where = f"{path}: phase {phase.get('phase', index + 1) if isinstance(phase, dict) else index + 1}"
        _unknown(where, phase, phase_keys)
        for key in set(phase) - {"phase", "expect"} - inputs:
            raise ScenarioError(f"{where}: key {key!r} is not used by the {ruleset} rule set")
        _unknown(f"{where}: key 'expect'", phase.get("expect") or {}, allowed_expect)
        _unknown(f"{where}: key 'gm'", phase.get("gm") or {}, set(spec.gm))
        for key in sorted(spec.own_inputs & set(phase)):  # the rule set's own shapes (the Show's)
            problem = adapter.scenario_check(key, phase[key])
            if problem is None:
                problem = _names_known(phase[key], names, spec.words)
            if problem is not None:
                raise ScenarioError(f"{where}: key {key!r}: {problem}")
        for key, allowed in spec.inputs.items():
            items = phase.get(key) or []
            if not isinstance(items, list):
                raise ScenarioError(f"{where}: key {key!r}: a list is required")
            for item in items:
                _unknown(f"{where}: key {key!r}", item, set(allowed))
                if item.get("by") not in names:
                    raise ScenarioError(f"{where}: key {key!r}: {item.get('by')!r} is not a player")
        for key in ("posts", "orders"):
            items = phase.get(key) or []
            if not isinstance(items, list):
                raise ScenarioError(f"{where}: key {key!r}: a list is required")
            for item in items:
                if isinstance(item, dict) and "by" in item:
                    _unknown(f"{where}: key {key!r}", item,
                             POST_KEYS if key == "posts" else ORDER_KEYS | set(spec.order_keys))
                    who = item["by"]
                elif isinstance(item, dict) and len(item) == 1:
                    who = next(iter(item))
                else:
                    raise ScenarioError(f"{where}: key {key!r}: each item is {{Name: text}} or {{by: Name, ...}}")
                if who not in names:
                    raise ScenarioError(f"{where}: key {key!r}: {who!r} is not a player")
                if key == "posts" and "as" in item and item["as"] not in names:
                    raise ScenarioError(f"{where}: key 'posts': 'as' {item['as']!r} is not a player")
    _unknown(f"{path}: key 'expect'", data.get("expect") or {}, GAME_KEYS)


def _as_comparable(value):
    if isinstance(value, list):
        return sorted((json.dumps(_as_comparable(v), ensure_ascii=False, sort_keys=True) for v in value))
    if isinstance(value, dict):
        return {str(k): _as_comparable(v) for k, v in value.items()}
    return value


def compare(expected: dict, actual: dict) -> list[str]:
    diffs = []
    for key, want in expected.items():
        got = actual.get(key)
        if _as_comparable(want) != _as_comparable(got):
            diffs.append(f"  {key}: expected {json.dumps(want, ensure_ascii=False)}, got {json.dumps(got, ensure_ascii=False)}")
    return diffs


def commitment_diffs(game: Game) -> list[str]:
    """Every game played to its end checks its role commitment, as a player would on the
    commitment page and in the game thread's last post: the revealed list must hash to what the
    start published, whatever the rules changed since the deal (issue 28)."""
    if game.status != Game.Status.FINISHED:
        return []
    seats = list(game.seats.select_related("user"))
    reveal = commitment_reveal(game, seats)
    diffs = []
    if reveal is None or not reveal["matches"]:
        diffs.append(f"  commitment: the revealed list does not hash to the published {game.commitment!r}")
    else:
        # The game-over post names each seat's role as dealt, in words, with the published hash
        # (the committed text itself is on the commitment page, checked above).
        last = game.game_thread.posts.filter(body__contains=game.commitment).order_by("-number").first()
        missing = [f"{row['number']}. {row['name']} — {row['label']}" for row in reveal["roles"]
                   if last is None or f"{row['number']}. {row['name']} — {row['label']}" not in last.body]
        if last is None or missing:
            diffs.append("  commitment: the game thread's last word does not reveal the dealt roles"
                         + (f" ({'; '.join(missing[:3])})" if missing else ""))
    return diffs


def play(path: str, *, keep: bool = False, password: str | None = None) -> ScenarioReport:
    """Play one file. Without `keep` everything happens in a transaction that is rolled back."""
    data = load(path)

    class _Rollback(Exception):
        pass

    report: ScenarioReport | None = None
    try:
        with transaction.atomic():
            report = _play(path, data, keep=keep, password=password)
            if not keep:
                raise _Rollback
    except _Rollback:
        pass
    return report


def _user(name: str, password: str):
    token = secrets.token_hex(4)
    display = name
    if User.objects.filter(display_name_key=display_name_key(name)).exists():
        display = f"{name}-{token}"[:40]  # the scenario name becomes an alias of the seat
    user = User(username=f"scn-{token}", email=f"scn-{token}@example.invalid", display_name=display)
    user.set_password(password)
    user.save()
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _names_known(value, names: list[str], words: frozenset[str]) -> str | None:
    """A player's name used as a key or an item of a rule set's own input that names nobody (the
    rule set's own `words` aside: ScenarioSpec.words)."""
    found = list(value) if isinstance(value, (dict, list)) else []
    if isinstance(value, dict):
        found += [v for v in value.values() if isinstance(v, str)]
    unknown = [n for n in found if isinstance(n, str) and n not in names and n not in words]
    return f"{unknown[0]!r} is not a player" if unknown else None


def _play(path: str, data: dict, *, keep: bool, password: str | None) -> ScenarioReport:
    adapter = registry.site(data["ruleset"])
    spec = adapter.scenario
    password = password or secrets.token_urlsafe(9)
    players = data["players"]
    phases = data.get("phases") or []
    gm = _user("gm", password)
    users = {p["name"]: _user(p["name"], password) for p in players}
    game = game_create(title=f"Scenario: {Path(path).stem}", gm=gm, ruleset=data["ruleset"], size=len(players),
                       options=data.get("options") or {})
    phase_hours = game.phase_hours
    # The game is played in simulated time that ends now, so a kept game stays playable.
    # Every phase lasts exactly its length here, so the phase left open after the last one
    # opens an hour ago and still has most of its time.
    clock = timezone.now() - timedelta(hours=phase_hours * len(phases) + 1)
    seat_data = {}
    for player in players:
        try:
            seat = game_signup(game=game, user=users[player["name"]], overt_role=str(player.get("overt") or ""))
        except Exception as exc:  # noqa: BLE001 - a refused application (a taken overt role) is a malformed file
            raise ScenarioError(f"{path}: key 'players': {player['name']}: {getattr(exc, 'message', exc)}") from None
        if users[player["name"]].display_name != player["name"]:
            Seat.objects.filter(pk=seat.pk).update(aliases=[player["name"]])
        given = {key: player[key] for key in spec.seat_data if player.get(key) is not None}
        if given:
            seat_data[seat.pk] = given
    roles = [p.get("role") or p.get("secret") for p in players]
    try:
        game_start(game=game, by=gm, now=clock, seed=int(data.get("rng_seed", 0)),
                   roles_in_seat_order=roles if all(roles) else None, seat_data=seat_data or None)
    except Exception as exc:  # noqa: BLE001 - reported as a malformed file
        raise ScenarioError(f"{path}: key 'players': {getattr(exc, 'message', exc)}") from None
    game.refresh_from_db()
    seat_name = {s.pk: s for s in game.seats.select_related("user")}
    scenario_name = {s.pk: (s.aliases[0] if s.aliases else s.user.display_name) for s in seat_name.values()}
    by_scenario = {scenario_name[pk]: s for pk, s in seat_name.items()}
    # A seat's place in the file's players (signed up in that order): the engine player's seat ids.
    seat_number = {pk: place for place, pk in enumerate(
        sorted(seat_name, key=lambda pk: seat_name[pk].number), start=1)}
    reports = []
    for index, phase_spec in enumerate(phases):
        name = phase_spec.get("phase")
        game.refresh_from_db()
        where = f"{path}: phase {name}"
        current = game.current_phase
        if game.status == Game.Status.FINISHED:
            if not (adapter.epilogue_kind and name == adapter.epilogue_kind and current is not None
                    and current.kind == adapter.epilogue_kind and current.is_open):
                raise ScenarioError(f"{where}: key 'phase': the game ended before this phase")
            reports.append(_play_epilogue(game, current, phase_spec, users, clock, where))
            clock = max(clock, current.deadline_at) + timedelta(minutes=1)
            continue
        try:
            kind, number = parse_phase_name(str(name))
        except (ValueError, TypeError):
            raise ScenarioError(f"{where}: key 'phase': {name!r} is not a phase name") from None
        if current is None or (current.kind, current.number) != (kind, number):
            expected = f"{current.kind} {current.number}" if current else "none"
            raise ScenarioError(f"{where}: key 'phase': the {data['ruleset']} rule set plays {expected!r} here")
        posts_refused: dict[str, int] = {}
        if not spec.posts_after_inputs:
            clock = _play_posts(game, phase_spec, users, clock, posts_refused)
        for item in [] if spec.plays_orders else phase_spec.get("orders") or []:
            clock += timedelta(minutes=1)
            game.refresh_from_db()
            if "by" in item and "action" in item:
                order_submit(game=game, user=users[item["by"]], action=item["action"],
                             target=by_scenario.get(item.get("target")), source=by_scenario.get(item.get("from")), now=clock,
                             confirm=False)
            else:
                who, text = (item["by"], item.get("text", "")) if "by" in item else next(iter(item.items()))
                order_submit(game=game, user=users[who], text=str(text), now=clock, confirm=False)
        if spec.inputs or spec.own_inputs or spec.plays_orders:  # the rule set's own inputs (cards: plays ...)
            adapter.scenario_play_inputs(game=game, phase_spec=phase_spec, user_of=users.__getitem__,
                                         seat_of=_seat_finder(by_scenario, where), now=clock + timedelta(minutes=1))
            clock += timedelta(minutes=2)
        if spec.posts_after_inputs:
            clock = _play_posts(game, phase_spec, users, clock, posts_refused)
        decisions = _gm_decisions(spec, phase_spec.get("gm") or {}, by_scenario, where)
        if decisions:
            Phase.objects.filter(pk=current.pk).update(gm_decisions=decisions)
        # Closed as the deadline task closes it.
        clock = max(clock, current.deadline_at)
        phase_close(phase_id=current.pk, now=current.deadline_at, only_if_due=True)
        current.refresh_from_db()
        outcome = _rename(adapter.scenario_outcome(dict(current.outcome or {}), seat_number), scenario_name, seat_name)
        refused: dict[str, int] = dict(posts_refused)
        for voter_id in VoteRecord.objects.filter(phase=current, valid=False).values_list("voter_id", flat=True):
            refused[scenario_name[voter_id]] = refused.get(scenario_name[voter_id], 0) + 1
        for actor_id in Order.objects.filter(phase=current, valid=False).values_list("actor_id", flat=True):
            refused[scenario_name[actor_id]] = refused.get(scenario_name[actor_id], 0) + 1
        outcome["refused"] = refused
        outcome["rooms"] = [
            sorted(scenario_name[pk] for pk in room.members.values_list("pk", flat=True))
            for room in Thread.objects.filter(kind=Thread.Kind.ROOM, opened_by=current).order_by("pk")
        ]
        outcome["private"] = {scenario_name[s]: scenario_name[r] for s, r in PrivateMessage.objects.filter(
            phase=current).order_by("pk").values_list("sender_id", "recipient_id")}
        game.refresh_from_db()
        outcome["over"] = game.status == Game.Status.FINISHED
        reports.append(PhaseReport(name=str(name), outcome=outcome, diffs=compare(phase_spec.get("expect") or {}, outcome)))
        clock += timedelta(minutes=1)
    game.refresh_from_db()
    game_outcome = {"over": game.status == Game.Status.FINISHED, "winner": game.winner or None}
    report = ScenarioReport(path=path, phases=reports, game=game_outcome,
                            game_diffs=compare(data.get("expect") or {}, game_outcome) + commitment_diffs(game))
    if keep:
        report.game_url = game.get_absolute_url()
        report.users = {"gm": gm.username, **{name: u.username for name, u in users.items()}}
        report.password = password
    return report


def _play_epilogue(game: Game, current: Phase, phase_spec: dict, users: dict, clock, where: str) -> PhaseReport:
    """The rule set's epilogue after the end (SiteRuleset.epilogue_kind: the Show's «Судный День»):
    only posts are played (the game is over, nobody acts), then it closes at its deadline as the
    task would (the game thread locks). Its outcome: `over`, `refused` (the posts refused)."""
    extra = set(phase_spec) - {"phase", "posts", "expect"}
    if extra:
        raise ScenarioError(f"{where}: key {sorted(extra)[0]!r}: the game is over, only posts are played")
    refused: dict[str, int] = {}
    _play_posts(game, phase_spec, users, clock, refused)
    phase_close(phase_id=current.pk, now=current.deadline_at, only_if_due=True)
    game.refresh_from_db()
    outcome = {"over": game.status == Game.Status.FINISHED, "refused": refused}
    return PhaseReport(name=str(phase_spec.get("phase")), outcome=outcome,
                       diffs=compare(phase_spec.get("expect") or {}, outcome))


def _play_posts(game, phase_spec: dict, users: dict, clock, refused: dict[str, int]):
    """The phase's `posts` in order, a minute apart, through post_submit; a post the site refuses
    (a rule set whose dead do not post, a false name the rule set does not allow now, the Show's
    stunned hero) counts in `refused`. Returns the clock after the last one."""
    for item in phase_spec.get("posts") or []:
        who, text = (item["by"], item.get("text", "")) if "by" in item else next(iter(item.items()))
        clock += timedelta(minutes=1)
        shown_as = users[item["as"]].pk if "by" in item and "as" in item else None
        try:
            post_submit(thread=game.game_thread, author=users[who], body=str(text), now=clock,
                        comment=str(item.get("comment", "")) if "by" in item else "", shown_as=shown_as)
        except ActionRefused:
            refused[who] = refused.get(who, 0) + 1
    return clock


def _seat_finder(by_scenario: dict, where: str):
    """A scenario name -> its seat id (None for None), for a rule set's own inputs."""

    def seat_pk(name):
        if name is None:
            return None
        if name not in by_scenario:
            raise ScenarioError(f"{where}: {name!r} is not a player")
        return by_scenario[name].pk

    return seat_pk


def _gm_decisions(spec: ScenarioSpec, given: dict, by_scenario: dict, where: str) -> dict:
    """A phase's `gm:` as Phase.gm_decisions, each value read by the shape its rule set declares
    (ScenarioSpec.gm): names become seat ids."""
    decisions = {}
    for key, value in given.items():
        shape = spec.gm.get(key)
        if shape == "seat_map":
            if not isinstance(value, dict):
                raise ScenarioError(f"{where}: key 'gm': {key} is a mapping {{name: n}}")
            unknown = [n for n in value if n not in by_scenario]
            if unknown:
                raise ScenarioError(f"{where}: key 'gm': {key} {unknown[0]!r} is not a player")
            decisions[key] = {str(by_scenario[n].pk): v for n, v in value.items()}
        elif shape == "seat":
            if value not in by_scenario:
                raise ScenarioError(f"{where}: key 'gm': {key} {value!r} is not a player")
            decisions[key] = by_scenario[value].pk
        elif shape == "seats":
            names = value if isinstance(value, list) else [value]
            unknown = [n for n in names if n not in by_scenario]
            if unknown:
                raise ScenarioError(f"{where}: key 'gm': {key} {unknown[0]!r} is not a player")
            decisions[key] = [by_scenario[n].pk for n in names]
        elif shape == "value":
            decisions[key] = value
    return decisions


def _rename(value, scenario_name: dict[int, str], seats: dict):
    """Outcomes name seats by display name; scenarios by the names written in the file."""
    by_display = {s.user.display_name: scenario_name[pk] for pk, s in seats.items()}

    def fix(v):
        if isinstance(v, str):
            return by_display.get(v, v)
        if isinstance(v, list):
            return [fix(x) for x in v]
        if isinstance(v, dict):
            return {fix(k): fix(x) for k, x in v.items()}
        return v

    return fix(value)
