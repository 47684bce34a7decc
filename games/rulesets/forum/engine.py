"""The `forum` rule set (seed 002): jail vote and special actions in one game day, three teams."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience
from games.engine.orders import PEACE, Order, PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec
from games.engine.rulesets.common import Report as _Report
from games.engine.rulesets.common import order_data, seat_name
from games.engine.rulesets.common import pick_seat as _tie_break_pick
from games.engine.rulesets.common import ref as _ref
from games.engine.rulesets.common import scalar as _scalar
from games.engine.rulesets.common import seat_id as _seat_id
from games.engine.state import ACTIVE, GameState, SeatState
from games.engine.votecount import VOTE, Ballot, CloseCount, tally

__all__ = [
    "CHECK",
    "EVENT_KINDS",
    "FORUM",
    "GRANTED_CHECK",
    "JAILED",
    "KILLED",
    "OPTION_DEFAULTS",
    "PROTECT",
    "REASONS",
    "ROLES",
    "SHOOT",
    "STEAL",
    "VOTE_REASONS",
    "WOUNDED",
    "ForumRuleset",
    "day_number",
    "default_role_table",
    "winner_of",
]

TOWN, MAFIA, THIEF_FACTION = "town", "mafia", "thief"
CITIZEN, RECRUITER, REANIMATOR, MAFIOSO, KILLER, THIEF = (
    "citizen", "recruiter", "reanimator", "mafioso", "killer", "thief",
)
CHECK, PROTECT, SHOOT, STEAL = "check", "protect", "shoot", "steal"
JAILED, KILLED = "jailed", "killed"
WOUNDED, GRANTED_CHECK = "wounded", "granted_check"

ROLES: Mapping[str, RoleSpec] = MappingProxyType(
    {
        CITIZEN: RoleSpec(CITIZEN, TOWN),
        RECRUITER: RoleSpec(RECRUITER, TOWN, (CHECK,)),
        REANIMATOR: RoleSpec(REANIMATOR, TOWN, (PROTECT,)),
        # «Все члены этой команды знают друг друга до начала игры»
        MAFIOSO: RoleSpec(MAFIOSO, MAFIA, (SHOOT,), knows_team=True),
        KILLER: RoleSpec(KILLER, MAFIA, (SHOOT,), knows_team=True),
        THIEF: RoleSpec(THIEF, THIEF_FACTION, (STEAL,)),
    }
)

# The sizes of the automatic table (default_role_table). The seed sets no minimum, and small
# games (5-6 players) are common in forum play, so a table the GM writes himself may be smaller:
# any size at which the game is not over at the start (winner_of on the dealt table is None, and
# the town and the mafia are both there), which is two players at the least (docs/rulesets/forum.md).
FORUM_MIN, FORUM_MAX = 7, 20
FORUM_OWN_TABLE_MIN = 2

OPTION_DEFAULTS: Mapping[str, Any] = MappingProxyType({"reveal_roles": True})

# Reason codes of check_order, with an English gloss for the UI.
REASONS: Mapping[str, str] = MappingProxyType(
    {
        "game_over": "the game is over",
        "not_a_player": "the actor is not a player of this game",
        "not_active": "the actor is out of play (killed or jailed)",
        "not_your_action": "the actor's role has no such action now",
        "missing_target": "the order names no target",
        "bad_target": "the target is not a player of this game",
        "target_not_active": "the target is out of play",
        "self_forbidden": "the actor may not choose himself for this action",
        "missing_source": "a theft must name whose action is stolen",
        "bad_source": "the player stolen from is not a player of this game",
        "source_not_active": "the player stolen from is out of play",
        "unexpected_source": "only a theft names a player stolen from",
    }
)

# Reason codes of check_vote, with an English gloss for the UI.
VOTE_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "not_a_voter": "the voter is out of play, or the game is over",
        "bad_target": "the target is not a player in play",
        "peace_not_allowed": "the forum has no vote for peace",
    }
)

# Why an accepted order did nothing, in the GM's order events.
FAIL_ACTOR_JAILED = "actor_jailed"
FAIL_TARGET_JAILED = "target_jailed"
FAIL_SOURCE_JAILED = "source_jailed"
FAIL_STOLEN = "stolen"
FAIL_MAFIA_DISAGREE = "mafia_disagree"

# Every kind of event this rule set emits: the site gives each a text (tests/test_wording_complete.py
# reads this module's source to keep the list whole).
EVENT_KINDS: tuple[str, ...] = (
    "game_started", "role", "team", "order", "check_result", "granted_check", "killed", "wounded", "vote_result",
    "tie_break", "tie_break_ignored", "jailed", "game_over", "shot_by_lot",
)


def default_role_table(size: int) -> list[str]:
    """The default roles for `size` players: one recruiter, one reanimator, one killer, one thief,
    1-4 mafiosi (a quarter of the table is mafia, as in the seed's 9-player game: 2 of 9), the
    rest citizens."""
    if not FORUM_MIN <= size <= FORUM_MAX:
        raise ValueError(f"the forum rule set is played by {FORUM_MIN} to {FORUM_MAX} players, not {size}")
    mafiosi = 1 + (size - 6) // 4
    roles = [RECRUITER, REANIMATOR, *[MAFIOSO] * mafiosi, KILLER, THIEF]
    return roles + [CITIZEN] * (size - len(roles))


def day_number(phase: str) -> int:
    """"day 3" -> 3."""
    kind, _sep, number = phase.partition(" ")
    if kind != "day" or not number.isdigit():
        raise ValueError(f"not a forum phase: {phase!r}")
    return int(number)


def winner_of(seats: Iterable[SeatState]) -> str | None:
    """«Так продолжается до тех пор, пока не останется активной только одна команда.»
    The winning faction, "none" when nobody is left, None while two or more teams are in play.
    The thief is a team of one, so "only one team" already means he wins only alone."""
    factions = {s.faction for s in seats if s.status == ACTIVE}
    if len(factions) > 1:
        return None
    return next(iter(factions)) if factions else "none"




@dataclass(frozen=True)
class _Check:
    checker: int
    target: int
    grants: bool  # a recruiter's check (even stolen) gives a plain citizen a check of his own


class ForumRuleset:
    key = "forum"
    roles: Mapping[str, RoleSpec] = ROLES
    factions: tuple[str, ...] = (TOWN, MAFIA, THIEF_FACTION)
    min_players = FORUM_MIN  # the automatic table's smallest size
    min_players_own_table = FORUM_OWN_TABLE_MIN  # a table the GM writes: see validate_roles
    max_players = FORUM_MAX
    outcome_keys: tuple[str, ...] = (
        "votes", "tally", "jailed", "killed", "wounded", "checks", "granted_check", "alive", "over",
    )
    reasons: Mapping[str, str] = REASONS
    vote_reasons: Mapping[str, str] = VOTE_REASONS
    # Other names a GM may type for a role in a role table (games.text.roletable reads any
    # grammatical form of them); the labels the site shows are accepted besides.
    role_synonyms: Mapping[str, tuple[str, ...]] = MappingProxyType({
        CITIZEN: ("мирный", "мирный житель", "мирняк", "житель", "горожанин", "civilian"),
        RECRUITER: ("рекрутер", "вербовщик"),
        MAFIOSO: ("мафия", "мафиози"),
        KILLER: ("киллер", "убийца"),
        THIEF: ("жулик", "вор"),
    })
    # Orders are written to the GM in words (games.text.orders holds this rule set's order words):
    # the role page's text order and the player's letters to the GM are read for them.
    text_orders = True

    # -- setup ----------------------------------------------------------------------------------

    def default_roles(self, size: int) -> list[str]:
        return default_role_table(size)

    def validate_roles(self, roles: Sequence[str]) -> None:
        """The GM may choose any role list that makes a game: known roles, at most 20 players, at
        most one thief («Третья команда состоит из единственного игрока, жулика»), and a game that
        is not over at the start — the rule set's own win check («пока не останется активной
        только одна команда») finds no winner on the dealt table — with the town and the mafia
        both there. There is no other minimum: the seed sets none (the automatic table starts at 7)."""
        if not self.min_players_own_table <= len(roles) <= self.max_players:
            raise ValueError(
                f"the forum rule set is played by {self.min_players_own_table} to {self.max_players} players "
                f"with a table of the GM's, not {len(roles)}"
            )
        unknown = sorted({r for r in roles if r not in ROLES})
        if unknown:
            raise ValueError(f"unknown forum roles: {unknown}")
        dealt = [SeatState(i, f"p{i}", r, ROLES[r].faction) for i, r in enumerate(roles, 1)]
        if winner_of(dealt) is not None:
            raise ValueError("the game would be over before it starts: only one team is in play")
        factions = [ROLES[r].faction for r in roles]
        if MAFIA not in factions:
            raise ValueError("a forum game needs at least one mafia member (mafioso or killer)")
        if TOWN not in factions:
            raise ValueError("a forum game needs at least one town member")
        if factions.count(THIEF_FACTION) > 1:
            raise ValueError("the thief's team is a single player")

    def new_game(
        self, seats: Sequence[tuple[int, str, str]], *, options: Mapping[str, Any] | None = None
    ) -> tuple[GameState, tuple[Event, ...]]:
        seats = [tuple(s) for s in seats]
        self.validate_roles([role for _id, _name, role in seats])
        ids = [seat_id for seat_id, _name, _role in seats]
        names = [name for _id, name, _role in seats]
        if len(set(ids)) != len(ids):
            raise ValueError("seat ids must be unique")
        if any(not isinstance(i, int) or isinstance(i, bool) for i in ids):
            raise ValueError("seat ids must be integers")
        if any(not n or not n.strip() for n in names) or len(set(names)) != len(names):
            raise ValueError("player names must be non-empty and unique")
        merged = {**OPTION_DEFAULTS, **(options or {})}
        if not isinstance(merged["reveal_roles"], bool):
            raise ValueError("option reveal_roles must be true or false")
        state = GameState(
            ruleset=self.key,
            seats=tuple(SeatState(i, n, r, ROLES[r].faction) for i, n, r in seats),
            phase="day 1",
            options=merged,
        )
        events: list[Event] = [
            Event("game_started", PUBLIC, {"players": [_ref(s) for s in state.seats], "phase": state.phase}),
        ]
        for s in state.seats:
            events.append(Event("role", seat_audience(s.id), {**_ref(s), "role": s.role, "faction": s.faction}))
        for faction in self.factions:
            members = [s for s in state.seats if s.faction == faction and ROLES[s.role].knows_team]
            if members:
                events.append(
                    Event(
                        "team",
                        faction_audience(faction),
                        {"faction": faction, "members": [{**_ref(s), "role": s.role} for s in members]},
                    )
                )
        return state, tuple(events)

    # -- what may be done now -------------------------------------------------------------------

    def voters(self, state: GameState) -> tuple[int, ...]:
        """«...голосуют за посадку одного из них в тюрьму (доступно только активным игрокам,
        т.е. не убитым и не посаженным в тюрьму)»"""
        return () if state.over else tuple(s.id for s in state.active())

    def vote_targets(self, state: GameState) -> tuple[int, ...]:
        return () if state.over else tuple(s.id for s in state.active())

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        """«Но кто-то один сядет обязательно»: no peace vote. A vote for oneself stands (it is the
        default anyway: «По умолчанию считается, что игрок голосует сам за себя»)."""
        if _seat_id(voter) not in self.voters(state):
            return "not_a_voter"
        if target is None:
            return None
        if isinstance(target, str) and target.strip().lower() == PEACE:
            return "peace_not_allowed"
        if _seat_id(target) not in self.vote_targets(state):
            return "bad_target"
        return None

    def count_at_close(self, state: GameState, votes: Mapping[Any, Any]) -> CloseCount:
        """The jail vote as the close counts it, from each voter's last vote (`votes`: voter ->
        target, "peace" or None): «Голосовать можно неограниченное число раз в течении дня, но
        засчитывается только последний голос. По умолчанию считается, что игрок голосует сам за
        себя.» A missing vote, a vote for someone out of play and a "peace" call (the forum has
        none) all leave the default. The close (_settle_jail) and every count the site shows ask
        this, so a count names the leaders the close will find («Если большинство голосов набрали
        несколько игроков, ведущий случайным образом выбирает»)."""
        voters = self.voters(state)
        targets = set(self.vote_targets(state))
        raw_votes = {_seat_id(k): v for k, v in votes.items()}
        counted: dict[int, int] = {}
        defaulted: set[int] = set()
        for voter in voters:
            target = _seat_id(raw_votes.get(voter))
            if target not in targets:
                target = voter
                defaulted.add(voter)
            counted[voter] = target
        count = tally(
            [Ballot(voter=v, kind=VOTE, target=counted[v], order=i) for i, v in enumerate(voters)],
            voters=voters,
            targets=targets,
        )
        seat_order = {s.id: i for i, s in enumerate(state.seats)}
        return CloseCount(
            votes=MappingProxyType(counted),
            defaulted=frozenset(defaulted),
            weights=MappingProxyType({w.target: w.weight for w in count.wagons if w.target is not None}),
            leaders=tuple(sorted((w.target for w in count.leaders if w.target is not None),
                                 key=seat_order.__getitem__)),
        )

    def speaking_order(self, state: GameState) -> tuple[int, ...]:
        """The forum speaks in no fixed order; the seating order of the players in play is shown."""
        return () if state.over else tuple(s.id for s in state.active())

    def owed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        """Every action a role has is expected of it (a role acts every night it can)."""
        return self.allowed_actions(state, actor)

    def allowed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        if state.over or not state.has_seat(actor):
            return ()
        seat = state.seat(actor)
        if not seat.is_active:
            return ()
        actions = ROLES[seat.role].actions
        if GRANTED_CHECK in seat.flags and CHECK not in actions:
            actions = (*actions, CHECK)
        return actions

    def check_order(self, state: GameState, order: Order) -> str | None:
        if state.over:
            return "game_over"
        if not state.has_seat(order.actor):
            return "not_a_player"
        if not state.seat(order.actor).is_active:
            return "not_active"
        if order.action not in self.allowed_actions(state, order.actor):
            return "not_your_action"
        if order.target is None:
            return "missing_target"
        if not state.has_seat(order.target):
            return "bad_target"
        if not state.seat(order.target).is_active:
            return "target_not_active"
        if order.action == STEAL:
            # «Жулик может - на свой страх и риск - применить украденное действие к себе.»
            if order.source is None:
                return "missing_source"
            if not state.has_seat(order.source):
                return "bad_source"
            if not state.seat(order.source).is_active:
                return "source_not_active"
            if order.source == order.actor:
                return "self_forbidden"
            return None
        if order.source is not None:
            return "unexpected_source"
        # «себя реаниматор защитить не может!» — and checking or shooting oneself is no action at all.
        if order.target == order.actor:
            return "self_forbidden"
        return None

    # -- the close --------------------------------------------------------------------------------

    def resolve(self, state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
        """Settle the jail vote, then the orders, then check for a winner.

        `now` is not used: the forum rules do not depend on time, and leaving it out keeps the
        preview and the real close identical."""
        if state.ruleset != self.key:
            raise ValueError(f"a {state.ruleset!r} game cannot be resolved by the forum rule set")
        if state.over:
            raise ValueError("the game is over")
        turn = day_number(state.phase)
        rng = random.Random(seed)
        events: list[Event] = []

        jailed_id, votes, weights = self._settle_jail(state, inputs, rng, events)
        inputs = self._shot_by_lot(state, inputs, jailed_id, rng, events)
        checks, protected, shots, reports = self._settle_orders(state, inputs, jailed_id)

        shot_at = {target for _label, target in shots}
        ordered = [s.id for s in state.seats]
        killed = [i for i in ordered if i in shot_at and i not in protected]
        wounded = [i for i in ordered if i in shot_at and i in protected]
        reveal = bool(state.options.get("reveal_roles", True))
        for seat_id in killed:
            events.append(Event("killed", PUBLIC, _public_ref(state.seat(seat_id), reveal)))
        for seat_id in wounded:
            events.append(Event("wounded", PUBLIC, _ref(state.seat(seat_id))))

        next_phase = f"day {turn + 1}"
        results: dict[int, dict[int, str]] = {}
        granted: list[int] = []
        for check in checks:
            target = state.seat(check.target)
            results.setdefault(check.checker, {})[check.target] = target.role
            events.append(
                Event(
                    "check_result",
                    seat_audience(check.checker),
                    {"target": target.id, "target_name": target.name, "role": target.role},
                )
            )
            # A citizen killed tonight has no next turn to use the check in.
            if check.grants and target.role == CITIZEN and target.id not in killed and target.id not in granted:
                granted.append(target.id)
        for seat_id in granted:
            seat = state.seat(seat_id)
            events.append(Event("granted_check", seat_audience(seat_id), {**_ref(seat), "phase": next_phase}))

        for report in reports:
            events.append(Event("order", GM, _order_data(state, report)))

        new_seats = []
        for s in state.seats:
            status = JAILED if s.id == jailed_id else KILLED if s.id in killed else s.status
            # Both flags last exactly one turn: «Ранение проходит через игровой день».
            flags = set(s.flags) - {WOUNDED, GRANTED_CHECK}
            if status == ACTIVE:
                if s.id in wounded:
                    flags.add(WOUNDED)
                if s.id in granted:
                    flags.add(GRANTED_CHECK)
            new_seats.append(replace(s, status=status, flags=frozenset(flags)))
        winner = winner_of(new_seats)
        over = winner is not None
        new_state = replace(
            state, seats=tuple(new_seats), phase=state.phase if over else next_phase, over=over, winner=winner
        )
        if over:
            events.append(
                Event(
                    "game_over",
                    PUBLIC,
                    {
                        "winner": winner,
                        "seats": [
                            {**_ref(s), "role": s.role, "faction": s.faction, "status": s.status}
                            for s in new_state.seats
                        ],
                    },
                )
            )

        name = {s.id: s.name for s in state.seats}
        outcome: dict[str, Any] = {
            "votes": {name[v]: name[t] for v, t in votes.items()},
            "tally": {name[t]: w for t, w in weights.items()},
            "jailed": [name[jailed_id]] if jailed_id is not None else [],
            "killed": [name[i] for i in killed],
            "wounded": [name[i] for i in wounded],
            "checks": {name[c]: {name[t]: role for t, role in r.items()} for c, r in results.items()},
            "granted_check": [name[i] for i in granted],
            "alive": [s.name for s in new_state.active()],
            "over": over,
        }
        if over:
            outcome["winner"] = winner
        return Resolution(state=new_state, events=tuple(events), outcome=outcome)

    def _settle_jail(
        self, state: GameState, inputs: PhaseInputs, rng: random.Random, events: list[Event]
    ) -> tuple[int | None, dict[int, int], dict[int, int]]:
        """«Набравший большинство при голосовании игрок садится в тюрьму... Если большинство голосов
        набрали несколько игроков, ведущий случайным образом выбирает, кто из них сядет. Но кто-то
        один сядет обязательно.»"""
        count = self.count_at_close(state, inputs.votes)
        votes, defaulted, weights, leaders = dict(count.votes), count.defaulted, dict(count.weights), count.leaders
        events.append(
            Event(
                "vote_result",
                PUBLIC,
                {
                    "votes": [
                        {
                            "voter": v,
                            "voter_name": state.seat(v).name,
                            "target": t,
                            "target_name": state.seat(t).name,
                            "default": v in defaulted,
                        }
                        for v, t in votes.items()
                    ],
                    "tally": [{**_ref(state.seat(t)), "votes": w} for t, w in weights.items()],
                },
            )
        )
        if not leaders:
            return None, votes, weights  # nobody could vote: cannot happen while the game runs
        given = inputs.gm.get("tie_break")
        pick = _tie_break_pick(state, given)
        if len(leaders) == 1:
            jailed = leaders[0]
            if given is not None:
                events.append(Event("tie_break_ignored", GM, {"given": _scalar(given), "reason": "no_tie"}))
        else:
            if pick in leaders:
                jailed, by = pick, "gm"
            else:
                # A pick outside the leaders is a slip, not a decision: the close must not fail at
                # the deadline over it, so the lot decides and the GM is told.
                if given is not None:
                    events.append(Event("tie_break_ignored", GM, {"given": _scalar(given), "reason": "not_a_leader"}))
                jailed, by = rng.choice(leaders), "lot"
            data = {"leaders": [_ref(state.seat(i)) for i in leaders], **_ref(state.seat(jailed)), "by": by}
            events.append(Event("tie_break", PUBLIC, data))
        reveal = bool(state.options.get("reveal_roles", True))
        events.append(Event("jailed", PUBLIC, _public_ref(state.seat(jailed), reveal)))
        return jailed, votes, weights

    def _shot_by_lot(
        self, state: GameState, inputs: PhaseInputs, jailed: int | None, rng: random.Random, events: list[Event]
    ) -> PhaseInputs:
        """Option `missing_shot: "lot"` (an automatic game's choice, docs/rulesets/forum.md,
        "Automatic games"): when no mafioso ordered the collective shot, the lot names its target
        among the players in play outside the mafia (not the one jailed today), as if the first
        free mafioso had ordered it. «none» (the default, a human GM's game): no order, no shot."""
        if state.options.get("missing_shot", "none") != "lot":
            return inputs
        shooters = [s for s in state.seats if s.is_active and s.role == MAFIOSO and s.id != jailed]
        if not shooters or any(o.action == SHOOT and o.actor in {s.id for s in shooters} for o in inputs.orders.values()):
            return inputs
        targets = [s.id for s in state.seats if s.is_active and s.faction != MAFIA and s.id != jailed]
        if not targets:
            return inputs
        target = rng.choice(targets)
        actor = shooters[0].id
        events.append(Event("shot_by_lot", GM, {**_ref(state.seat(actor)), "target": target,
                                                "target_name": state.seat(target).name}))
        return replace(inputs, orders={**inputs.orders, actor: Order(actor, SHOOT, target)})

    def _settle_orders(
        self, state: GameState, inputs: PhaseInputs, jailed: int | None
    ) -> tuple[list[_Check], set[int], list[tuple[str, int]], list[_Report]]:
        """«После ведущий обрабатывает заказы на спецдействия всех игроков.» All orders act at the
        same moment: who is shot tonight still checks, protects and is checked tonight."""
        seat_order = {s.id: i for i, s in enumerate(state.seats)}
        reports: list[_Report] = []
        live: list[_Report] = []
        # Seating order, not the mapping's order, so that the same orders always resolve the same.
        for key, order in sorted(inputs.orders.items(), key=lambda kv: seat_order.get(kv[1].actor, len(seat_order))):
            report = _Report(order)
            reports.append(report)
            reason = "actor_mismatch" if _seat_id(key) != order.actor else self.check_order(state, order)
            if reason is not None:
                report.result, report.reason = "rejected", reason
                continue
            # «...садится в тюрьму - его спецдействие не срабатывает, также не срабатывает
            # спецдействие, направленное против него.»
            if order.actor == jailed:
                report.fail(FAIL_ACTOR_JAILED)
            elif order.action == STEAL and order.source == jailed:
                report.fail(FAIL_SOURCE_JAILED)
            elif order.target == jailed and order.action != SHOOT:
                report.fail(FAIL_TARGET_JAILED)
            else:
                # A shot at the jailed player is failed later: a mafioso's still counts when the
                # mafiosi's targets are compared.
                live.append(report)

        # The thief goes first: what he steals does not happen for its owner.
        stolen_from: set[int] = set()  # seats whose own action is taken this turn
        mafia_shot_stolen = False
        checks: list[_Check] = []
        protected: set[int] = set()
        shots: list[tuple[str, int]] = []
        for report in [r for r in live if r.order.action == STEAL]:
            order = report.order
            source = state.seat(order.source)
            target = order.target
            if source.role == RECRUITER:
                checks.append(_Check(order.actor, target, grants=True))
                report.effect = {"stole": CHECK}
            elif source.role == CITIZEN and GRANTED_CHECK in source.flags:
                checks.append(_Check(order.actor, target, grants=False))
                report.effect = {"stole": CHECK}
            elif source.role == REANIMATOR:
                protected.add(target)
                report.effect = {"stole": PROTECT}
            elif source.role == MAFIOSO:
                # «Если жулик обкрадет любого из мафиози - он украдет их коллективный выстрел,
                # независимо от того, кто из них на самом деле стрелял»
                mafia_shot_stolen = True
                shots.append(("thief", target))
                report.effect = {"stole": "mafia_shot"}
            elif source.role == KILLER:
                shots.append(("thief", target))
                report.effect = {"stole": SHOOT}
            else:
                # «Конечно, если он обкрадет честного жителя, ничего не произойдет.»
                report.effect = {"stole": None}
                continue
            stolen_from.add(source.id)

        mafia_reports: list[_Report] = []
        for report in live:
            order = report.order
            if order.action == STEAL:
                continue
            role = state.seat(order.actor).role
            if order.actor in stolen_from or (role == MAFIOSO and mafia_shot_stolen):
                report.fail(FAIL_STOLEN)
            elif order.action == CHECK:
                checks.append(_Check(order.actor, order.target, grants=role == RECRUITER))
            elif order.action == PROTECT:
                protected.add(order.target)
            elif order.action == SHOOT and role == MAFIOSO:
                mafia_reports.append(report)
            elif order.action == SHOOT:
                if order.target == jailed:
                    report.fail(FAIL_TARGET_JAILED)
                else:
                    shots.append((f"killer:{order.actor}", order.target))

        # «При этом достаточно, чтобы один из мафиози обозначил выстрел. Но если двое мафиози
        # укажут разные цели - выстрел не состоится!»
        mafia_targets = {r.order.target for r in mafia_reports}
        if len(mafia_targets) > 1:
            for report in mafia_reports:
                report.fail(FAIL_MAFIA_DISAGREE)
        elif mafia_targets:
            (target,) = mafia_targets
            if target == jailed:
                for report in mafia_reports:
                    report.fail(FAIL_TARGET_JAILED)
            else:
                shots.append(("mafia", target))

        # A shot at today's jailed player from the thief never reaches here (failed above).
        shot_targets = {t for _label, t in shots}
        for report in reports:
            if report.result != "done":
                continue
            order = report.order
            if order.action == SHOOT or report.effect.get("stole") in (SHOOT, "mafia_shot"):
                target = order.target
                report.effect["outcome"] = WOUNDED if target in protected else KILLED
            elif order.action == PROTECT or report.effect.get("stole") == PROTECT:
                report.effect["outcome"] = "saved" if order.target in shot_targets else "not_shot"
            elif order.action == CHECK or report.effect.get("stole") == CHECK:
                report.effect["learned_role"] = state.seat(order.target).role
        return checks, protected, shots, reports





def _public_ref(seat: SeatState, reveal: bool) -> dict[str, Any]:
    return {**_ref(seat), "role": seat.role} if reveal else _ref(seat)


def _order_data(state: GameState, report: _Report) -> dict[str, Any]:
    order = report.order
    data = order_data(state, report)
    if order.source is not None:
        data["source"] = order.source
        data["source_name"] = seat_name(state, order.source)
    data.update(report.effect)
    return data


FORUM = ForumRuleset()
