"""The `club` rule set (seed 003): acquaintance night, days with one re-vote, nights, fouls, early wins, rating."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience
from games.engine.orders import PEACE, Order, PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec, SiteStyle
from games.engine.rulesets.common import Report as _Report
from games.engine.rulesets.common import order_data, seat_name
from games.engine.rulesets.common import pick_seat as _pick
from games.engine.rulesets.common import ref as _ref
from games.engine.rulesets.common import scalar as _scalar
from games.engine.rulesets.common import seat_id as _seat_id
from games.engine.state import ACTIVE, GameState, SeatState
from games.engine.votecount import VOTE, Ballot, tally
from games.rulesets.club.rating import club_rating, rating_breakdown
from games.rulesets.club.roles import (
    ACTIVE_CARDS,
    BLACK,
    CHECK,
    CIVILIAN,
    COMMISSAR,
    DOCTOR,
    DON,
    EXECUTED,
    FREEZE,
    HEAL,
    KEY,
    KILL,
    KILLED,
    MAFIOSO,
    MANIAC,
    NOTE,
    PUTANA,
    RED,
    REMOVED,
    ROLES,
    TAKE,
)

__all__ = [
    "ACTIVE_CARDS",
    "CLUB",
    "EVENT_KINDS",
    "OPTION_DEFAULTS",
    "REASONS",
    "ROLES",
    "VOTE_REASONS",
    "ClubRuleset",
    "club_rating",
    "default_role_table",
    "end_of_game",
    "parse_phase",
    "rating_breakdown",
]

NIGHT, DAY, REVOTE = "night", "day", "revote"

UNIQUE_ROLES = (DON, PUTANA, COMMISSAR, DOCTOR, MANIAC)
NIGHT_ACTIONS = frozenset({KILL, FREEZE, HEAL, CHECK, NOTE})
SHOOTERS = (DON, MAFIOSO)

CLUB_MIN, CLUB_MAX = 8, 14
MAX_NEWCOMERS = 3  # «за столом может быть не более 3 новичков»

OPTION_DEFAULTS: Mapping[str, Any] = MappingProxyType({"newcomer_immunity": ()})

REASONS: Mapping[str, str] = MappingProxyType(
    {
        "game_over": "the game is over",
        "not_a_player": "the actor is not a player of this game",
        "not_active": "the actor is out of play",
        "not_your_action": "the actor's role has no such action",
        "not_night": "night actions are ordered during a night (from night 1)",
        "not_day": "the don's take-along is ordered during a day or its re-vote",
        "missing_target": "the order names no target",
        "bad_target": "the target is not a player of this game",
        "target_not_active": "the target is out of play",
        "self_forbidden": "the actor may not choose himself for this action",
        "unexpected_source": "club orders name no player stolen from",
        "unexpected_detail": "only the last black's kill may carry a freeze",
        "healed_twice": "the doctor healed this player last night",
        "frozen_thrice": "the putana froze this player the last two nights",
        "note_used": "the commissar has already left his one note",
        "no_take_right": "a don with three fouls takes nobody",
        "target_immune": "a newcomer is immune on the first day and night",
    }
)

VOTE_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "not_a_voter": "the voter may not vote now (out of play, tied in a two-way re-vote, or no vote going on)",
        "bad_target": "the target may not be voted for now (out of play, or not among the re-vote leaders)",
        "self_vote_forbidden": "nobody may vote against himself",
        "peace_not_allowed": "there is no vote for peace",
        "target_immune": "a newcomer may not be voted out on the first day",
    }
)

# Why an accepted order did nothing, in the GM's order events.
FAIL_ACTOR_REMOVED = "actor_removed"
FAIL_TARGET_REMOVED = "target_removed"
FAIL_FROZEN = "frozen"
FAIL_LAST_MAFIA_FROZEN = "last_mafia_frozen"
FAIL_OVERRULED = "overruled"
FAIL_MAFIA_DISAGREE = "mafia_disagree"
FAIL_NOT_EXECUTED = "not_executed"
FAIL_NO_TAKE_RIGHT = "no_take_right"
FAIL_FORFEIT = "forfeit"

# Every kind of event this rule set emits: the site gives each a text (tests/test_wording_complete.py
# reads this module's source to keep the list whole).
EVENT_KINDS: tuple[str, ...] = (
    "game_started", "role", "newcomers", "team", "order", "foul", "foul_ignored", "removed", "forfeit",
    "forfeit_ignored", "vote_dropped", "vote_result", "revote", "no_execution", "executed", "taken", "frozen",
    "check_result", "night_result", "killed", "note", "game_over",
)

MEMORY_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        "fouls": {},  # str(seat) -> fouls so far
        "foul_votes": [],  # seats owed a finger in the nearest vote they can be voted in
        "rotation": 0,  # seating index the current day's monologues start from (or after)
        "revote": None,  # {"leaders": [seat], "start": seating index} while a re-vote is on
        "pending_take": None,  # {"don": seat, "target": seat}: the day's take, kept for its re-vote
        "last_heal": None,  # {"target": seat, "night": n}: the doctor's last heal that happened
        "last_freeze": None,  # {"target": seat, "night": n, "nights": streak}
        "note_used": False,
        "immune": [],  # newcomers' seats
        "deaths": [],  # {"seat", "phase", "causes"}: causes vote | don | mafia | maniac | fouls
        "day_log": {},  # str(day) -> {"executed", "decisive", "voted", "taken"}
        "maniac_end": None,  # "shot" | "refusal": the maniac's last night lost the game for red
    }
)


def default_role_table(size: int) -> list[str]:
    """The default roles for `size` players: the seed's table for 12 (don, two mafiosi, putana;
    commissar, doctor, maniac, five civilians), with a third of the table black, rounded."""
    if not CLUB_MIN <= size <= CLUB_MAX:
        raise ValueError(f"the club rule set is played by {CLUB_MIN} to {CLUB_MAX} players, not {size}")
    blacks = (size + 1) // 3
    roles = [DON, *[MAFIOSO] * (blacks - 2), PUTANA, COMMISSAR, DOCTOR, MANIAC]
    return roles + [CIVILIAN] * (size - len(roles))


def parse_phase(phase: str) -> tuple[str, int]:
    """"night 0" -> ("night", 0); days and re-votes count from 1."""
    kind, _sep, number = phase.partition(" ")
    if kind not in (NIGHT, DAY, REVOTE) or not number.isdigit() or (kind != NIGHT and int(number) < 1):
        raise ValueError(f"not a club phase: {phase!r}")
    return kind, int(number)




def _memory(state: GameState) -> dict[str, Any]:
    memory = copy.deepcopy(dict(MEMORY_DEFAULTS))
    memory.update(copy.deepcopy(dict(state.memory)))
    return memory


def _fouls(memory: Mapping[str, Any], seat_id: int) -> int:
    return int((memory.get("fouls") or {}).get(str(seat_id), 0))



def _with_role(seat: SeatState) -> dict[str, Any]:
    return {**_ref(seat), "role": seat.role}


def _color(seat: SeatState) -> str:
    return seat.faction  # the maniac plays for red, so the faction is the commissar's answer


# -- seating and rotation ---------------------------------------------------------------------------


def _first_active_from(seats: Sequence[SeatState], index: int) -> int:
    """The seating index of the first player in play at or after `index`, going round the table."""
    n = len(seats)
    for k in range(n):
        i = (index + k) % n
        if seats[i].status == ACTIVE:
            return i
    return index % n


def _round_robin(seats: Sequence[SeatState], start: int, ids: Iterable[int]) -> tuple[int, ...]:
    position = {s.id: i for i, s in enumerate(seats)}
    n = len(seats)
    return tuple(sorted(ids, key=lambda i: (position[i] - start) % n))


def _day_starts(state: GameState) -> tuple[int, int, int]:
    """Seating indexes where the day's monologues, its vote and its re-vote start. «Каждый новый
    круг начинает говорить/голосовать следующий номер»: each round starts one player later."""
    memory = state.memory
    speak = _first_active_from(state.seats, int(memory.get("rotation", 0)))
    vote = _first_active_from(state.seats, speak + 1)
    revote = _first_active_from(state.seats, vote + 1)
    return speak, vote, revote


# -- the end of the game ----------------------------------------------------------------------------


def end_of_game(
    seats: Iterable[SeatState], *, next_phase: str | None, memory: Mapping[str, Any] | None = None
) -> tuple[str | None, str | None]:
    """(winner, reason) once the game is decided, else (None, None). `next_phase` is the phase the
    game would go on with: the guaranteed black wins depend on whether a day or a night comes next.
    The proofs are in docs/rulesets/club.md."""
    memory = memory or {}
    active = [s for s in seats if s.status == ACTIVE]
    blacks = [s for s in active if s.faction == BLACK]
    reds = [s for s in active if s.faction == RED]
    if not active:
        return "none", "nobody_left"  # «Если не осталось живых игроков, объявляется ничья.»
    if not blacks:
        return RED, "blacks_dead"
    if not reds:
        return BLACK, "reds_dead"
    if next_phase is None:
        return None, None
    kind, number = parse_phase(next_phase)
    immune = set(memory.get("immune") or ())
    if number == 1 and any(s.id in immune for s in reds):
        return None, None  # an immune red cannot be voted out or shot: the proofs do not hold
    owed = set(memory.get("foul_votes") or ())
    if any(s.id in owed for s in blacks):
        return None, None  # a finger owed to a black can tip an otherwise locked vote
    b, r = len(blacks), len(reds)
    maniac = any(s.role == MANIAC for s in reds)
    doctor = any(s.role == DOCTOR for s in reds)
    if kind == DAY:
        guaranteed = b > r or (not maniac and b >= r)
    elif kind == NIGHT:
        guaranteed = (not maniac and b >= r) or (not doctor and b > r) or b >= r + 2
    else:
        guaranteed = False  # a re-vote is the middle of a day; its close decides
    return (BLACK, "guaranteed") if guaranteed else (None, None)


# -- the GM's order reports ---------------------------------------------------------------------------



def _order_data(state: GameState, report: _Report) -> dict[str, Any]:
    order = report.order
    data = order_data(state, report)
    if order.detail:
        freeze = _seat_id(order.detail.get(FREEZE))
        data["freeze"], data["freeze_name"] = freeze, seat_name(state, freeze)
    data.update(report.effect)
    return data


# -- one close -------------------------------------------------------------------------------------


@dataclass
class _Close:
    """The working set of one resolution; turned into the Resolution at the end."""

    state: GameState
    inputs: PhaseInputs
    kind: str
    number: int
    memory: dict[str, Any]
    status: dict[int, str]
    events: list[Event] = field(default_factory=list)
    reports: list[_Report] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    votes: dict[int, int | None] = field(default_factory=dict)
    tally: dict[int, int] = field(default_factory=dict)
    executed: list[int] = field(default_factory=list)
    revote: list[int] = field(default_factory=list)
    no_execution: bool = False
    taken: int | None = None
    killed: list[int] = field(default_factory=list)
    healed: list[int] = field(default_factory=list)
    frozen: list[int] = field(default_factory=list)
    checks: dict[int, dict[int, str]] = field(default_factory=dict)
    note: dict[int, str] | None = None

    def seat(self, seat_id: int) -> SeatState:
        return self.state.seat(seat_id)

    def die(self, seat_id: int, status: str, causes: list[str]) -> None:
        self.status[seat_id] = status
        self.memory["deaths"].append({"seat": seat_id, "phase": self.state.phase, "causes": sorted(causes)})

    def seats_after(self) -> tuple[SeatState, ...]:
        return tuple(replace(s, status=self.status[s.id]) for s in self.state.seats)


class ClubRuleset:
    key = KEY
    # How club players write a vote besides the forum's words: «Голос: [b]Петя[/b]», «Мой голос —
    # [b]Петя[/b]», «Переголосование: [b]Петя[/b]» (docs/rulesets/club.md, docs/votes.md).
    vote_intent_words: tuple[str, ...] = ("голос", "переголосование")
    roles: Mapping[str, RoleSpec] = ROLES
    factions: tuple[str, ...] = (BLACK, RED)
    min_players = CLUB_MIN
    max_players = CLUB_MAX
    outcome_keys: tuple[str, ...] = (
        "votes", "tally", "executed", "revote", "peaceful", "taken", "killed", "healed", "frozen", "checks",
        "note", "removed", "alive", "over",
    )
    reasons: Mapping[str, str] = REASONS
    vote_reasons: Mapping[str, str] = VOTE_REASONS
    # Other names a GM may type for a role in a role table (games.text.roletable reads any
    # grammatical form of them); the labels the site shows are accepted besides.
    role_synonyms: Mapping[str, tuple[str, ...]] = MappingProxyType({
        DON: ("дон мафии",),
        MAFIOSO: ("мафия", "черный"),
        PUTANA: ("проститутка", "любовница"),
        COMMISSAR: ("шериф", "комиссар"),
        DOCTOR: ("врач",),
        CIVILIAN: ("мирный", "мирный житель", "мирняк", "житель", "горожанин", "красный", "citizen"),
    })
    # Orders are written to the GM in words (games.text.orders holds this rule set's order words):
    # the role page's text order and the player's letters to the GM are read for them.
    text_orders = True
    # «Переголосование может быть только одно ... объявляется мирный день»: a plurality with a
    # re-vote, no majority; «Голосую за» is the club's vote; «Каждый новый круг начинает
    # говорить/голосовать следующий номер»; «Ночью строго запрещено жестикулировать и издавать звуки».
    site = SiteStyle(majority=False, tie="revote", vote_word="голосую за", rounds=True, night_silence=True)

    # -- setup ----------------------------------------------------------------------------------

    def default_roles(self, size: int) -> list[str]:
        return default_role_table(size)

    def validate_roles(self, roles: Sequence[str]) -> None:
        """Any list that makes a game: 8-14 players, known roles, a black and a red, and the roles
        the seed speaks of in the singular («дон», «путана», «комиссар», «доктор», «маньяк») once."""
        if not self.min_players <= len(roles) <= self.max_players:
            raise ValueError(
                f"the club rule set is played by {self.min_players} to {self.max_players} players, not {len(roles)}"
            )
        unknown = sorted({r for r in roles if r not in ROLES})
        if unknown:
            raise ValueError(f"unknown club roles: {unknown}")
        factions = {ROLES[r].faction for r in roles}
        if factions != {BLACK, RED}:
            raise ValueError("a club game needs at least one black and one red player")
        doubled = sorted(r for r in UNIQUE_ROLES if list(roles).count(r) > 1)
        if doubled:
            raise ValueError(f"at most one of each: {doubled}")

    def new_game(
        self, seats: Sequence[tuple[int, str, str]], *, options: Mapping[str, Any] | None = None
    ) -> tuple[GameState, tuple[Event, ...]]:
        seats = [tuple(s) for s in seats]
        self.validate_roles([role for _id, _name, role in seats])
        ids = [seat_id for seat_id, _name, _role in seats]
        names = [name for _id, name, _role in seats]
        if any(not isinstance(i, int) or isinstance(i, bool) for i in ids) or len(set(ids)) != len(ids):
            raise ValueError("seat ids must be unique integers")
        if any(not n or not n.strip() for n in names) or len(set(names)) != len(names):
            raise ValueError("player names must be non-empty and unique")
        merged = {**OPTION_DEFAULTS, **(options or {})}
        newcomers = merged["newcomer_immunity"] or ()
        if isinstance(newcomers, (str, bytes)) or not isinstance(newcomers, Iterable):
            raise ValueError("option newcomer_immunity must be a list of player names or seat ids")
        merged["newcomer_immunity"] = list(newcomers)
        immune: list[int] = []
        for value in merged["newcomer_immunity"]:
            if isinstance(value, bool):
                seat_id = None
            elif isinstance(value, int):
                seat_id = value if value in ids else None
            elif isinstance(value, str) and value.strip() in names:
                seat_id = ids[names.index(value.strip())]
            else:
                seat_id = None
            if seat_id is None:
                raise ValueError(f"newcomer_immunity: {value!r} is not a player of this game")
            if seat_id not in immune:
                immune.append(seat_id)
        if len(immune) > MAX_NEWCOMERS:
            raise ValueError(f"at most {MAX_NEWCOMERS} newcomers play at one table")
        memory = copy.deepcopy(dict(MEMORY_DEFAULTS))
        memory["immune"] = immune
        state = GameState(
            ruleset=self.key,
            seats=tuple(SeatState(i, n, r, ROLES[r].faction) for i, n, r in seats),
            phase="night 0",
            options=merged,
            memory=memory,
        )
        events: list[Event] = [
            Event("game_started", PUBLIC, {"players": [_ref(s) for s in state.seats], "phase": state.phase}),
        ]
        for s in state.seats:
            events.append(Event("role", seat_audience(s.id), {**_ref(s), "role": s.role, "faction": s.faction}))
        if immune:
            events.append(Event("newcomers", PUBLIC, {"players": [_ref(state.seat(i)) for i in immune]}))
        return state, tuple(events)

    # -- what may be done now -------------------------------------------------------------------

    def _phase(self, state: GameState) -> tuple[str, int]:
        return parse_phase(state.phase)

    def _leaders(self, state: GameState) -> list[int]:
        revote = state.memory.get("revote") or {}
        return [int(i) for i in revote.get("leaders") or ()]

    def voters(self, state: GameState) -> tuple[int, ...]:
        """«Если на переголосовании осталось два игрока, то они не голосуют. Если больше двух, то
        голосуют все игроки.»"""
        if state.over:
            return ()
        kind, _number = self._phase(state)
        active = tuple(s.id for s in state.active())
        if kind == DAY:
            return active
        if kind == REVOTE:
            leaders = self._leaders(state)
            return tuple(i for i in active if i not in leaders) if len(leaders) == 2 else active
        return ()

    def vote_targets(self, state: GameState) -> tuple[int, ...]:
        if state.over:
            return ()
        kind, number = self._phase(state)
        immune = set(state.memory.get("immune") or ()) if number == 1 else set()
        active = [s.id for s in state.active() if s.id not in immune]
        if kind == DAY:
            return tuple(active)
        if kind == REVOTE:
            leaders = self._leaders(state)
            return tuple(i for i in active if i in leaders)
        return ()

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        """None if the vote may stand now, else a VOTE_REASONS code. «Нельзя голосовать против себя.»"""
        if _seat_id(voter) not in self.voters(state):
            return "not_a_voter"
        if target is None:
            return None  # withdrawing a vote leaves the voter not voting, which is his to do
        if isinstance(target, str) and target.strip().lower() == PEACE:
            return "peace_not_allowed"
        target_id = _seat_id(target)
        if target_id not in self.vote_targets(state):
            kind, number = self._phase(state)
            if (
                number == 1
                and kind in (DAY, REVOTE)
                and target_id in set(state.memory.get("immune") or ())
                and state.seat(target_id).is_active
            ):
                return "target_immune"
            return "bad_target"
        if target_id == _seat_id(voter):
            return "self_vote_forbidden"
        return None

    def speaking_order(self, state: GameState) -> tuple[int, ...]:
        """The day's monologues from the round's first speaker on; in a re-vote, the defence
        speeches of the tied players from the re-vote's first number on; nobody speaks at night."""
        if state.over:
            return ()
        kind, _number = self._phase(state)
        if kind == DAY:
            speak, _vote, _revote = _day_starts(state)
            return _round_robin(state.seats, speak, (s.id for s in state.active()))
        if kind == REVOTE:
            start = int((state.memory.get("revote") or {}).get("start", 0))
            leaders = [i for i in self._leaders(state) if state.seat(i).is_active]
            return _round_robin(state.seats, start, leaders)
        return ()

    def voting_order(self, state: GameState) -> tuple[int, ...]:
        """The voters in the order they vote: the vote round starts one player after the monologues,
        the re-vote one after the vote. It decides who «добил» (cast the finishing vote)."""
        if state.over:
            return ()
        kind, _number = self._phase(state)
        if kind == DAY:
            _speak, start, _revote = _day_starts(state)
        elif kind == REVOTE:
            start = int((state.memory.get("revote") or {}).get("start", 0))
        else:
            return ()
        return _round_robin(state.seats, start, self.voters(state))

    def _role_actions(self, state: GameState, seat: SeatState) -> tuple[str, ...]:
        actions = ROLES[seat.role].actions
        # «Если же по ходу игры так получилось, что у черных осталась только путана, то у нее есть
        # возможность и убивать, и морозить.»
        if seat.role == PUTANA and self._lone_putana(state, seat.id):
            actions = (KILL, *actions)
        return actions

    def _lone_putana(self, state: GameState, seat_id: int) -> bool:
        blacks = [s.id for s in state.active() if s.faction == BLACK]
        return blacks == [seat_id]

    def owed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        """Every action a role has is expected of it (a role acts every night it can)."""
        return self.allowed_actions(state, actor)

    def allowed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        if state.over or not state.has_seat(actor):
            return ()
        seat = state.seat(actor)
        if not seat.is_active:
            return ()
        kind, number = self._phase(state)
        actions = self._role_actions(state, seat)
        if kind == NIGHT and number >= 1:
            return tuple(
                a for a in actions if a in NIGHT_ACTIONS and not (a == NOTE and state.memory.get("note_used"))
            )
        if kind in (DAY, REVOTE) and TAKE in actions and _fouls(state.memory, actor) < 3:
            return (TAKE,)
        return ()

    def check_order(self, state: GameState, order: Order) -> str | None:
        if state.over:
            return "game_over"
        if not state.has_seat(order.actor):
            return "not_a_player"
        actor = state.seat(order.actor)
        if not actor.is_active:
            return "not_active"
        if order.action not in self._role_actions(state, actor):
            return "not_your_action"
        kind, number = self._phase(state)
        if order.action in NIGHT_ACTIONS and not (kind == NIGHT and number >= 1):
            return "not_night"  # «В первую ночь ни у одной из активных ролей нет действия»
        if order.action == TAKE and kind not in (DAY, REVOTE):
            return "not_day"
        if order.source is not None:
            return "unexpected_source"
        if order.detail and not (order.action == KILL and actor.role == PUTANA and set(order.detail) == {FREEZE}):
            return "unexpected_detail"
        reason = self._check_target(state, order.actor, order.action, order.target, kind, number)
        if reason is None and order.detail:
            reason = self._check_target(state, order.actor, FREEZE, order.detail.get(FREEZE), kind, number)
        return reason

    def _check_target(
        self, state: GameState, actor: int, action: str, target: Any, kind: str, number: int
    ) -> str | None:
        if target is None:
            return "missing_target"
        target = _seat_id(target)
        if target is None or not state.has_seat(target):
            return "bad_target"
        if not state.seat(target).is_active:
            return "target_not_active"
        # «Самоубийство исключено»; the rest gain nothing from choosing themselves, except the
        # doctor: «лечить одного и того же человека (в том числе и себя)».
        if target == actor and action != HEAL:
            return "self_forbidden"
        memory = state.memory
        if action == HEAL:
            last = memory.get("last_heal") or {}
            if last.get("target") == target and last.get("night") == number - 1:
                return "healed_twice"
        if action == FREEZE:
            last = memory.get("last_freeze") or {}
            if last.get("target") == target and last.get("night") == number - 1 and last.get("nights", 0) >= 2:
                return "frozen_thrice"
        if action == NOTE and memory.get("note_used"):
            return "note_used"
        if action == TAKE and _fouls(memory, actor) >= 3:
            return "no_take_right"
        if action in (KILL, TAKE) and number == 1 and target in set(memory.get("immune") or ()):
            # «но его может убить маньяк, если новичок добил в первый день красного игрока»
            if not (state.seat(actor).role == MANIAC and self._finished_off_red(state, target, day=1)):
                return "target_immune"
        return None

    def _finished_off_red(self, state: GameState, seat_id: int, *, day: int) -> bool:
        log = (state.memory.get("day_log") or {}).get(str(day)) or {}
        executed = log.get("executed")
        return (
            log.get("decisive") == seat_id
            and executed is not None
            and state.has_seat(executed)
            and state.seat(executed).faction == RED
        )

    # -- the close --------------------------------------------------------------------------------

    def resolve(self, state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
        """Fouls first (a fourth removes the player before anything else happens in the phase), then
        a forfeit, then the phase's own business, then the end of the game.

        `seed` and `now` are not used: the club rules draw no lots (a tie goes to a re-vote, a second
        tie to a peaceful day) and do not depend on time."""
        if state.ruleset != self.key:
            raise ValueError(f"a {state.ruleset!r} game cannot be resolved by the club rule set")
        if state.over:
            raise ValueError("the game is over")
        kind, number = self._phase(state)
        ctx = _Close(
            state=state, inputs=inputs, kind=kind, number=number, memory=_memory(state),
            status={s.id: s.status for s in state.seats},
        )
        self._apply_fouls(ctx)
        forfeit = self._forfeit(ctx)
        if forfeit is not None:
            for key, order in sorted(inputs.orders.items(), key=lambda kv: str(kv[0])):
                report = _Report(order)
                report.fail(FAIL_FORFEIT)
                ctx.reports.append(report)
        elif kind == NIGHT and number == 0:
            self._acquaintance(ctx)
        elif kind in (DAY, REVOTE):
            self._close_vote(ctx)
        else:
            self._close_night(ctx)

        if kind == NIGHT:
            next_phase = f"day {number + 1}"
        elif kind == DAY and ctx.revote:
            next_phase = f"revote {number}"
        else:
            next_phase = f"night {number}"
        seats_after = ctx.seats_after()
        if forfeit is not None:
            winner, why = (RED if forfeit == BLACK else BLACK), "forfeit"
        else:
            winner, why = end_of_game(seats_after, next_phase=next_phase, memory=ctx.memory)
        over = winner is not None
        if over and kind == NIGHT and number >= 1 and winner == BLACK and forfeit is None:
            ctx.memory["maniac_end"] = self._maniac_lost_it(ctx)

        for report in ctx.reports:
            ctx.events.append(Event("order", GM, _order_data(state, report)))
        new_state = replace(
            state,
            seats=seats_after,
            phase=state.phase if over else next_phase,
            over=over,
            winner=winner,
            memory=ctx.memory,
        )
        if over:
            breakdown = rating_breakdown(new_state)
            totals: dict[int, float] = {}
            for item in breakdown:
                totals[item["seat"]] = totals.get(item["seat"], 0.0) + item["points"]
            ctx.events.append(
                Event(
                    "game_over",
                    PUBLIC,
                    {
                        "winner": winner,
                        "reason": why,
                        "seats": [
                            {**_ref(s), "role": s.role, "faction": s.faction, "status": s.status}
                            for s in new_state.seats
                        ],
                        "rating": [
                            {**_ref(s), "points": totals.get(s.id, 0.0)} for s in new_state.seats
                        ],
                        "rating_items": breakdown,
                    },
                )
            )
        return Resolution(state=new_state, events=tuple(ctx.events), outcome=self._outcome(ctx, new_state))

    def _outcome(self, ctx: _Close, new_state: GameState) -> dict[str, Any]:
        name = {s.id: s.name for s in ctx.state.seats}
        day_ended = ctx.kind in (DAY, REVOTE) and not ctx.revote
        outcome: dict[str, Any] = {
            "votes": {name[v]: (name[t] if t is not None else None) for v, t in ctx.votes.items()},
            "tally": {name[t]: w for t, w in ctx.tally.items()},
            "executed": [name[i] for i in ctx.executed],
            "revote": [name[i] for i in ctx.revote],
            # «объявляется мирный день (никто не умирает)»: nobody left the table this day.
            "peaceful": day_ended and not ctx.executed and ctx.taken is None and not ctx.removed,
            "taken": name[ctx.taken] if ctx.taken is not None else None,
            "killed": [name[i] for i in ctx.killed],
            "healed": [name[i] for i in ctx.healed],
            "frozen": [name[i] for i in ctx.frozen],
            "checks": {name[c]: {name[t]: color for t, color in r.items()} for c, r in ctx.checks.items()},
            "note": {name[t]: color for t, color in ctx.note.items()} if ctx.note is not None else None,
            "removed": [name[i] for i in ctx.removed],
            "alive": [s.name for s in new_state.active()],
            "over": new_state.over,
        }
        if new_state.over:
            outcome["winner"] = new_state.winner
        return outcome

    # -- fouls and forfeits -------------------------------------------------------------------------

    def _apply_fouls(self, ctx: _Close) -> None:
        """«Если у игрока накапливаются три фола за игру, то он получает палец на ближайшем
        голосовании. Четвертый фол – вскрытие карты и уход игрока из-за стола.»"""
        given = ctx.inputs.gm.get("fouls") or []
        if isinstance(given, (str, int)) and not isinstance(given, bool):
            given = [given]
        for value in given:
            seat_id = _pick(ctx.state, value)
            if seat_id is None:
                ctx.events.append(Event("foul_ignored", GM, {"given": _scalar(value), "reason": "unknown_player"}))
                continue
            if ctx.status[seat_id] != ACTIVE:
                ctx.events.append(Event("foul_ignored", GM, {"given": seat_id, "reason": "not_active"}))
                continue
            fouls = _fouls(ctx.memory, seat_id) + 1
            ctx.memory["fouls"][str(seat_id)] = fouls
            seat = ctx.seat(seat_id)
            ctx.events.append(Event("foul", PUBLIC, {**_ref(seat), "fouls": fouls}))
            owed = ctx.memory["foul_votes"]
            if fouls == 3 and seat_id not in owed:
                owed.append(seat_id)
            if fouls >= 4:
                if seat_id in owed:
                    owed.remove(seat_id)
                ctx.removed.append(seat_id)
                ctx.die(seat_id, REMOVED, ["fouls"])
                ctx.events.append(Event("removed", PUBLIC, {**_with_role(seat), "fouls": fouls}))

    def _forfeit(self, ctx: _Close) -> str | None:
        """«ведущий должен объявлять поражение команде, где человек нарочно набрал один или
        несколько фолов» — inputs.gm["forfeit"] names the losing faction; the game ends at once."""
        value = ctx.inputs.gm.get("forfeit")
        if value is None:
            return None
        if value not in self.factions:
            ctx.events.append(Event("forfeit_ignored", GM, {"given": _scalar(value), "reason": "not_a_faction"}))
            return None
        ctx.events.append(Event("forfeit", PUBLIC, {"faction": value, "winner": RED if value == BLACK else BLACK}))
        return value

    # -- night 0 ----------------------------------------------------------------------------------

    def _acquaintance(self, ctx: _Close) -> None:
        """«просыпаются только черные игроки, которые знакомятся друг с другом: дон показывает
        пальцами пистолет, а путана демонстрирует мизинец»"""
        members = [s for s in ctx.state.seats if s.faction == BLACK and ctx.status[s.id] == ACTIVE]
        ctx.events.append(
            Event("team", faction_audience(BLACK), {"faction": BLACK, "members": [_with_role(s) for s in members]})
        )
        for key, order in sorted(ctx.inputs.orders.items(), key=lambda kv: str(kv[0])):
            report = _Report(order)
            report.result, report.reason = "rejected", self.check_order(ctx.state, order) or "not_night"
            ctx.reports.append(report)

    # -- the day vote -----------------------------------------------------------------------------

    def _close_vote(self, ctx: _Close) -> None:
        state, memory = ctx.state, ctx.memory
        kind, number = ctx.kind, ctx.number
        targets = self.vote_targets(state)  # a player removed today may still be voted for
        voters = [v for v in self.voting_order(state) if v not in ctx.removed]
        raw_votes = {_seat_id(k): v for k, v in ctx.inputs.votes.items()}
        for voter in sorted(voters, key=[s.id for s in state.seats].index):
            given = raw_votes.get(voter)
            reason = self.check_vote(state, voter, given) if given is not None else None
            if reason is not None:
                ctx.events.append(
                    Event("vote_dropped", GM, {"voter": voter, "voter_name": ctx.seat(voter).name,
                                               "given": _scalar(given), "reason": reason})
                )
            ctx.votes[voter] = _seat_id(given) if given is not None and reason is None else None
        ballots = [
            Ballot(voter=v, kind=VOTE, target=ctx.votes[v], order=i)
            for i, v in enumerate(voters)
            if ctx.votes.get(v) is not None
        ]
        count = tally(ballots, voters=voters, targets=targets)
        weights = {w.target: w.weight for w in count.wagons if w.target is not None}
        fingers: list[int] = []
        for seat_id in list(memory["foul_votes"]):
            if seat_id in targets and seat_id not in ctx.removed:
                weights[seat_id] = weights.get(seat_id, 0) + 1
                fingers.append(seat_id)
                memory["foul_votes"].remove(seat_id)
        seat_order = {s.id: i for i, s in enumerate(state.seats)}
        ctx.tally = dict(sorted(weights.items(), key=lambda kv: (-kv[1], seat_order[kv[0]])))
        top = max(weights.values(), default=0)
        leaders = sorted((t for t, w in weights.items() if w == top and top > 0), key=seat_order.__getitem__)
        ctx.events.append(
            Event(
                "vote_result",
                PUBLIC,
                {
                    "round": kind,
                    "voting_order": list(voters),
                    "votes": [
                        {"voter": v, "voter_name": ctx.seat(v).name, "target": ctx.votes[v],
                         "target_name": ctx.seat(ctx.votes[v]).name if ctx.votes[v] is not None else None}
                        for v in voters
                    ],
                    "not_voting": [_ref(ctx.seat(v)) for v in voters if ctx.votes[v] is None],
                    "tally": [
                        {**_ref(ctx.seat(t)), "votes": w, "foul_votes": 1 if t in fingers else 0}
                        for t, w in ctx.tally.items()
                    ],
                },
            )
        )

        executed: int | None = None
        why: str | None = None
        if not leaders:
            why = "no_votes"
        elif kind == DAY and len(targets) >= 2 and all(weights.get(t, 0) == 1 for t in targets):
            why = "all_one"  # «если во время первого голосования все игроки получили по одному пальцу»
        elif any(t in ctx.removed for t in leaders):
            # «голосовать в игрока ушедшего по фолам, тогда в этот день убийств больше не будет»
            why = "removed_leader"
        elif len(leaders) == 1:
            executed = leaders[0]
        elif kind == DAY:
            ctx.revote = leaders
        else:
            why = "tie_again"  # «Переголосование может быть только одно.»

        log = memory["day_log"].setdefault(str(number), {"executed": None, "decisive": None, "voted": [],
                                                          "taken": None})
        log["voted"] = sorted(set(log["voted"]) | {t for t, w in weights.items() if w > 0})
        if ctx.revote:
            _speak, _vote, revote_start = _day_starts(state)
            memory["revote"] = {"leaders": list(leaders), "start": revote_start}
            ctx.events.append(Event("revote", PUBLIC, {"leaders": [_ref(ctx.seat(i)) for i in leaders]}))
        else:
            if kind == DAY:
                _speak, vote_start, _revote = _day_starts(state)
                memory["rotation"] = vote_start + 1
            else:
                memory["rotation"] = int((memory.get("revote") or {}).get("start", 0)) + 1
            memory["revote"] = None
        if why is not None:
            ctx.no_execution = True
            ctx.events.append(Event("no_execution", PUBLIC, {"reason": why}))
        if executed is not None:
            ctx.executed = [executed]
            ctx.die(executed, EXECUTED, ["vote"])
            # «Убитый днём дон после вскрытия карты» — a player voted out opens his card.
            ctx.events.append(Event("executed", PUBLIC, _with_role(ctx.seat(executed))))
            finishers = [v for v in voters if ctx.votes.get(v) == executed]
            log["executed"] = executed
            log["decisive"] = finishers[-1] if finishers else None
        self._take(ctx, executed)

    def _take(self, ctx: _Close, executed: int | None) -> None:
        """«убитый днём дон после вскрытия карты имеет право забрать с собой в могилу (убить)
        любого игрока» — «Если у дона мафии есть хотя бы три фола, то он лишается права»."""
        memory = ctx.memory
        pending = memory.get("pending_take") if ctx.kind == REVOTE else None
        memory["pending_take"] = None
        take_report: _Report | None = None
        for report in self._screen(ctx, check_target=False):
            take_report = report
        if take_report is not None:
            order = take_report.order
            don, target = order.actor, order.target
        elif pending:
            don, target = int(pending["don"]), int(pending["target"])
        else:
            don, target = None, None
        if don is None:
            return
        if ctx.revote and don in ctx.revote:
            # The day's take waits for the re-vote; one sent in the re-vote replaces it.
            memory["pending_take"] = {"don": don, "target": target}
            if take_report is not None:
                take_report.result, take_report.reason = "carried", "revote"
            return
        if take_report is None and pending is not None:
            take_report = _Report(Order(don, TAKE, target), effect={"from_phase": f"day {ctx.number}"})
            ctx.reports.append(take_report)
        if executed != don:
            if take_report is not None:
                take_report.fail(FAIL_NOT_EXECUTED)
            return
        if _fouls(memory, don) >= 3:
            take_report.fail(FAIL_NO_TAKE_RIGHT)
            return
        if ctx.status.get(target) != ACTIVE:
            take_report.fail(FAIL_TARGET_REMOVED)
            return
        ctx.taken = target
        ctx.die(target, KILLED, ["don"])
        memory["day_log"][str(ctx.number)]["taken"] = target
        take_report.effect["outcome"] = KILLED
        ctx.events.append(Event("taken", PUBLIC, {**_ref(ctx.seat(target)), "by": don, "by_name": ctx.seat(don).name}))

    # -- the night --------------------------------------------------------------------------------

    def _screen(self, ctx: _Close, *, check_target: bool):
        """The phase's orders in seating order, each with its report; yields the reports of the
        orders that may act (rejected ones and those of removed players are reported and skipped)."""
        state = ctx.state
        seat_order = {s.id: i for i, s in enumerate(state.seats)}
        for key, order in sorted(ctx.inputs.orders.items(),
                                 key=lambda kv: seat_order.get(kv[1].actor, len(seat_order))):
            report = _Report(order)
            ctx.reports.append(report)
            reason = "actor_mismatch" if _seat_id(key) != order.actor else self.check_order(state, order)
            if reason is not None:
                report.result, report.reason = "rejected", reason
            elif order.actor in ctx.removed:
                report.fail(FAIL_ACTOR_REMOVED)
            elif check_target and order.target in ctx.removed:
                report.fail(FAIL_TARGET_REMOVED)
            else:
                yield report

    def _close_night(self, ctx: _Close) -> None:
        """«Ночью первой просыпаются вместе дон мафии и мафия ... Затем просыпается путана ...
        Следующим просыпается доктор ... Потом просыпается комиссар ... Последним просыпается
        маньяк.» Each acts on the night as it began; a freeze on a later waker stops him, the
        doctor's heal undoes a freeze or a death, and the deaths are announced in the morning."""
        state, memory, number = ctx.state, ctx.memory, ctx.number
        seat_order = {s.id: i for i, s in enumerate(state.seats)}
        live: list[_Report] = list(self._screen(ctx, check_target=True))

        def acts(action: str) -> list[tuple[_Report, int]]:
            found = [(r, r.order.target) for r in live if r.order.action == action]
            if action == FREEZE:
                # The last black's kill may carry her freeze (one order per player and phase).
                found += [(r, _seat_id(r.order.detail[FREEZE])) for r in live
                          if r.order.action == KILL and r.order.detail and FREEZE in r.order.detail]
            return [(r, t) for r, t in found if t not in ctx.removed]

        freeze = next(iter(acts(FREEZE)), None)
        heal = next(iter(acts(HEAL)), None)
        frozen = freeze[1] if freeze is not None else None
        doctor = heal[0].order.actor if heal is not None else None
        healed_target: int | None = None
        if heal is not None:
            if frozen == doctor:
                # «Если путана заморозила доктора, то он себя вылечить уже не сможет.»
                heal[0].fail(FAIL_FROZEN)
            else:
                healed_target = heal[1]
                memory["last_heal"] = {"target": healed_target, "night": number}
        if freeze is not None:
            last = memory.get("last_freeze") or {}
            running = last.get("target") == frozen and last.get("night") == number - 1
            streak = int(last.get("nights", 0)) + 1 if running else 1
            memory["last_freeze"] = {"target": frozen, "night": number, "nights": streak}
            if frozen == healed_target:
                # «Доктор лечит от всего: убийства мафии, убийства маньяка, заморозки путаны.»
                ctx.healed.append(frozen)
                freeze[0].effect["freeze_outcome"] = "healed"
                frozen = None
            else:
                freeze[0].effect["freeze_outcome"] = "frozen"
                ctx.frozen.append(frozen)
                seat = ctx.seat(frozen)
                if any(a in NIGHT_ACTIONS for a in self._role_actions(state, seat)):
                    # «ведущий показывает ему жест путаны (мизинец) после того, как замороженный
                    # игрок сообщает ему своё решение»
                    ctx.events.append(Event("frozen", seat_audience(frozen), {**_ref(seat), "night": number}))

        attacks: dict[int, list[str]] = {}
        attackers: dict[int, list[_Report]] = {}
        mafia_target = self._mafia_kill(ctx, live, frozen)
        if mafia_target is not None:
            target, reports = mafia_target
            attacks.setdefault(target, []).append("mafia")
            attackers.setdefault(target, []).extend(reports)
        for report in live:
            order = report.order
            role = ctx.seat(order.actor).role
            if order.action in (CHECK, NOTE):
                if order.actor == frozen:
                    report.fail(FAIL_FROZEN)  # «если на комиссара, то он в эту ночь не проверяет»
                    continue
                color = _color(ctx.seat(order.target))
                ctx.checks.setdefault(order.actor, {})[order.target] = color
                report.effect["color"] = color
                target = ctx.seat(order.target)
                ctx.events.append(
                    Event("check_result", seat_audience(order.actor),
                          {"target": target.id, "target_name": target.name, "color": color})
                )
                if order.action == NOTE:
                    memory["note_used"] = True
                    report.effect["note"] = True
            elif order.action == KILL and role == MANIAC:
                if order.actor == frozen:
                    report.fail(FAIL_FROZEN)  # «если на маньяка – он не убивает»
                    continue
                attacks.setdefault(order.target, []).append("maniac")
                attackers.setdefault(order.target, []).append(report)

        for target in sorted(attacks, key=seat_order.__getitem__):
            if target == healed_target:
                if target not in ctx.healed:
                    ctx.healed.append(target)
                outcome = "healed"
            else:
                ctx.killed.append(target)
                ctx.die(target, KILLED, attacks[target])
                outcome = KILLED
            for report in attackers[target]:
                report.effect["outcome"] = outcome
        if heal is not None and healed_target is not None:
            heal[0].effect["outcome"] = "saved" if healed_target in ctx.healed else "not_needed"
        ctx.healed.sort(key=seat_order.__getitem__)

        ctx.events.append(Event("night_result", PUBLIC, {"killed": [_ref(ctx.seat(i)) for i in ctx.killed]}))
        for seat_id in ctx.killed:
            # «Они покидают стол без звуков и без жестов» — no card is opened for a night death.
            ctx.events.append(Event("killed", PUBLIC, _ref(ctx.seat(seat_id))))
        for report in live:
            order = report.order
            if order.action == NOTE and report.result == "done" and order.actor in ctx.killed:
                # «записка ... будет оглашена ведущим днем только в том случае, если комиссар был убит»
                color = ctx.checks[order.actor][order.target]
                ctx.note = {order.target: color}
                target = ctx.seat(order.target)
                ctx.events.append(
                    Event("note", PUBLIC, {**_ref(ctx.seat(order.actor)), "target": target.id,
                                           "target_name": target.name, "color": color})
                )

    def _mafia_kill(
        self, ctx: _Close, live: list[_Report], frozen: int | None
    ) -> tuple[int, list[_Report]] | None:
        """«Они совещаются и беззвучно сообщают ведущему, кого они убивают этой ночью. При этом
        решающее слово за доном мафии.» Without the don the shooters must agree."""
        state = ctx.state
        shooters = [s.id for s in state.active() if s.role in SHOOTERS and s.id not in ctx.removed]
        if not shooters:
            shooters = [s.id for s in state.active() if s.role == PUTANA and s.id not in ctx.removed]
        reports = [r for r in live if r.order.action == KILL and r.order.actor in shooters]
        if not reports:
            return None
        don = next((r for r in reports if ctx.seat(r.order.actor).role == DON), None)
        if don is not None:
            target = don.order.target
            for report in reports:
                if report.order.target != target:
                    report.fail(FAIL_OVERRULED)
        else:
            targets = {r.order.target for r in reports}
            if len(targets) > 1:
                for report in reports:
                    report.fail(FAIL_MAFIA_DISAGREE)
                return None
            (target,) = targets
        agreed = [r for r in reports if r.result == "done"]
        # «Если путана по ошибке морозит последнюю оставшуюся мафию, то выстрел мафии не
        # засчитывается»
        if len(shooters) == 1 and frozen == shooters[0]:
            for report in agreed:
                report.fail(FAIL_LAST_MAFIA_FROZEN)
            return None
        if target in ctx.removed:
            for report in agreed:
                report.fail(FAIL_TARGET_REMOVED)
            return None
        return target, agreed

    def _maniac_lost_it(self, ctx: _Close) -> str | None:
        """«-1 для маньяка за выстрел, который привёл к поражению красной команды, при условии, что в
        случае отказа от выстрела, игра бы продолжилась» and the same for a refusal: replay the
        night's end without his shot, or with a shot at each player he could have chosen."""
        state = ctx.state
        maniac = next((s for s in state.seats if s.role == MANIAC), None)
        if maniac is None or not maniac.is_active or maniac.id in ctx.removed:
            return None
        next_phase = f"day {ctx.number + 1}"
        report = next((r for r in ctx.reports if r.order.actor == maniac.id and r.order.action == KILL), None)
        if report is not None and report.result == "done":
            if report.effect.get("outcome") != KILLED:
                return None
            target = report.order.target
            causes = next(d["causes"] for d in ctx.memory["deaths"]
                          if d["seat"] == target and d["phase"] == state.phase)
            if causes != ["maniac"]:
                return None  # the mafia's shot killed him too
            seats = [replace(s, status=ACTIVE) if s.id == target else s for s in ctx.seats_after()]
            winner, _why = end_of_game(seats, next_phase=next_phase, memory=ctx.memory)
            return "shot" if winner is None else None
        if maniac.id in ctx.frozen or (report is not None and report.reason == FAIL_FROZEN):
            return None  # a frozen maniac did not refuse
        heal = next((r for r in ctx.reports if r.order.action == HEAL and r.result == "done"), None)
        healed = heal.order.target if heal is not None else None
        for seat in ctx.seats_after():
            if seat.status != ACTIVE or seat.id == healed:
                continue
            if self.check_order(state, Order(maniac.id, KILL, seat.id)) is not None:
                continue
            seats = [replace(s, status=KILLED) if s.id == seat.id else s for s in ctx.seats_after()]
            winner, _why = end_of_game(seats, next_phase=next_phase, memory=ctx.memory)
            if winner is None:
                return "refusal"
        return None




CLUB = ClubRuleset()
