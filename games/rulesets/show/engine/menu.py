"""What a hero may do now and with which choices: the panel's offers (issue 28, item 3).

`check(rules, state, hero, action, choice, inputs)` is the one rule of every panel input: the site's
services ask it before they write a row, and `menu` asks it of every candidate to list what the
panel offers. So a panel offers exactly what the engine accepts (docs/rulesets/show.md, "The
panel's offers"). A choice is a seat id, a ballot word («enslave» / «spare»), None for an action
with no target (the judge's «Пощадить», a raise that keeps the pick), or for the Хакер's guess a
(number, "receiver" | "about", seat) triple.

`inputs` is what the stage holds so far (the site's ledger): a carousel theft needs the thief's
standing ballot, a Talent raises once, the Говорун's fakes are counted (`fakes_used`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets.common import seat_id
from games.engine.state import ACTIVE, GameState
import games.rulesets.show.engine.privileges as priv
from games.rulesets.show.engine.bets import valid_pick
from games.rulesets.show.engine.facts import id_map, ids, in_coma, priv_memory
from games.rulesets.show.engine.privilege_keys import (
    EXCLUDE,
    EXTRA_VOTE,
    FAKE,
    INTERCEPT,
    MOLE_COMA,
    STEAL,
    STUN,
)
from games.rulesets.show.engine.roles import ENSLAVE, RELIEVE, SAVE, SUSPECT
from games.rulesets.show.engine.stages import DAY, DEFENCE, JUDGE, NIGHT, REVOTE, SPARE, TO_SLAVERY, parse_phase
from games.rulesets.show.engine.trials import talents_today

if TYPE_CHECKING:
    from games.rulesets.show.engine.ruleset import ShowRuleset

VOTE, REQUEST_OPINION, USE_KNOWLEDGE, PICK_ALLY = "vote", "request_opinion", "use_knowledge", "pick_ally"
LULL, BET, RAISE, SYMPATHY = "lull", "bet", "raise", "sympathy"
NIGHT_CHOICES = (SUSPECT, SAVE, RELIEVE, ENSLAVE)
# The extras of a night choice (an order's detail): each is offered beside a valid night choice.
QUESTION, PUBLIC_KEY, EXTRA_KNOWLEDGE = "question", "public_key", "extra_knowledge"
DETAILS = (QUESTION, PUBLIC_KEY, EXTRA_KNOWLEDGE)
GUESS_FIELDS = ("receiver", "about")
WORDS = (TO_SLAVERY, SPARE)

# Every action a panel may offer, in the panel's order.
ACTIONS: tuple[str, ...] = (
    VOTE, REQUEST_OPINION, *NIGHT_CHOICES, SPARE, *DETAILS, USE_KNOWLEDGE, LULL,
    STUN, EXCLUDE, EXTRA_VOTE, INTERCEPT, MOLE_COMA, STEAL, FAKE, BET, RAISE, SYMPATHY, PICK_ALLY,
)


# -- the part 2 checks the site used to keep (bets, the raise, sympathies) ------------------------


def bets_open(state: GameState) -> bool:
    """«может до утра поменять свою Ставку»: the first night's bets, given and not yet charged."""
    kind, _n = parse_phase(state.phase)
    return kind == NIGHT and state.memory.get("bets") is not None and not state.memory.get("bets_charged")


def may_raise(state: GameState, seat: int) -> bool:
    """«Каждый Талантливый раб имеет возможность на этапе Защитных Речей ... увеличить Ставки»."""
    kind, number = parse_phase(state.phase)
    return (kind == DEFENCE and bool(state.memory.get("bets_charged"))
            and seat in talents_today(dict(state.memory), number) and str(seat) in (state.memory.get("bets") or {}))


def sympathy_open(state: GameState) -> bool:
    """«после первого дневного голосования» (day 1, defence 1) and «после повторного» (revote 1)."""
    kind, number = parse_phase(state.phase)
    return number == 1 and kind in (DAY, DEFENCE, REVOTE) and bool(state.options.get("alliances", True))


def _free_pick(state: GameState, target: Any) -> bool:
    status = {s.id: s.status for s in state.seats}
    return valid_pick(state, status, target) is not None


def check_bet(state: GameState, hero: int, pick: Any) -> str | None:
    """«в первую ночь каждый герой автоматически делает Ставку ... но может до утра поменять»: a
    free hero (himself allowed)."""
    if state.over:
        return "game_over"
    if not bets_open(state) or str(hero) not in (state.memory.get("bets") or {}):
        return "not_your_action"
    return None if _free_pick(state, pick) else "bad_target"


def check_raise(state: GameState, hero: int, pick: Any, *, raised: bool = False) -> str | None:
    """A Talent raises every slave's stake once in the defence, keeping his pick (None) or naming a
    free hero."""
    if state.over:
        return "game_over"
    if not may_raise(state, hero):
        return "not_your_action"
    if pick is not None and not _free_pick(state, pick):
        return "bad_target"
    return "already_raised" if raised else None


def check_sympathy(state: GameState, hero: int, target: Any) -> str | None:
    """A sympathy to any other hero (slaves send and receive them too)."""
    if state.over:
        return "game_over"
    if not sympathy_open(state) or not state.has_seat(hero):
        return "not_your_action"
    target = seat_id(target)
    if target is None or not state.has_seat(target):
        return "bad_target"
    return "self_forbidden" if target == hero else None


def check_lull(state: GameState, hero: int, target: Any) -> str | None:
    """/lull: a free hero names another free hero who is not in coma already."""
    if state.over:
        return "game_over"
    if not state.has_seat(hero) or state.seat(hero).status != ACTIVE:
        return "not_free"
    target = seat_id(target)
    if target is None or not state.has_seat(target):
        return "bad_target"
    if target == hero:
        return "self_forbidden"
    if state.seat(target).status != ACTIVE:
        return "target_not_free"
    if in_coma(state, target):
        return "in_coma"
    return None


def voted(rules: ShowRuleset, state: GameState, inputs: PhaseInputs | None, hero: int) -> bool:
    """Whether the hero's ballot stands in the stage so far."""
    vote = id_map((inputs or PhaseInputs()).votes).get(hero)
    return vote is not None and rules.check_vote(state, hero, vote) is None


def check_steal(rules: ShowRuleset, state: GameState, thief: int, victim: Any,
                inputs: PhaseInputs | None) -> str | None:
    """The carousel: «сразу после своего выбора на Дневном Голосовании»: a voter orders once his
    ballot stands; a slave who may not vote at any time of the day vote."""
    code = priv.check_steal(state, thief, victim)
    if code is not None:
        return code
    if thief in rules.voters(state) and not voted(rules, state, inputs, thief):
        return "not_after_vote"
    return None


def _raised(inputs: PhaseInputs | None, hero: int) -> bool:
    return hero in ids((inputs or PhaseInputs()).extra.get("raise"))


def _night_base(rules: ShowRuleset, state: GameState, hero: int) -> Order | None:
    """A night choice the hero may make now (an extra rides on one)."""
    for action in NIGHT_CHOICES:
        for seat in state.seats:
            order = Order(hero, action, seat.id)
            if rules.check_order(state, order) is None:
                return order
    return None


def check(rules: ShowRuleset, state: GameState, hero: int, action: str, choice: Any,
          inputs: PhaseInputs | None = None, *, fakes_used: int = 0) -> str | None:
    """Why the hero may not do `action` with `choice` now (a reason code), or None: the one rule
    the panel's offers and the site's services share."""
    if state.over:
        return "game_over"
    if not state.has_seat(hero):
        return "not_a_player"
    kind, _n = parse_phase(state.phase)
    if action == VOTE:
        if kind not in (DAY, REVOTE):
            return "not_your_action"
        return "missing_target" if choice is None else rules.check_vote(state, hero, choice)
    if action == REQUEST_OPINION:
        return rules.check_request(state, hero, seat_id(choice))
    if action in NIGHT_CHOICES or action == SPARE:
        if kind not in (NIGHT, JUDGE) or (kind == NIGHT and action == SPARE):
            return "not_your_action"
        if action == SPARE and choice is not None:
            return "bad_target"  # «Пощадить» names nobody: the one defendant is spared
        return rules.check_order(state, Order(hero, action, choice))
    if action in DETAILS:
        base = _night_base(rules, state, hero) if kind == NIGHT else None
        if base is None:
            return "not_your_action"
        if choice is None:
            return "missing_target"
        return rules.check_order(state, Order(hero, base.action, base.target, detail={action: choice}))
    if action == USE_KNOWLEDGE:
        return rules.check_knowledge(state, hero, seat_id(choice))
    if action == LULL:
        return check_lull(state, hero, choice)
    if action == STUN:
        return priv.check_stun(state, hero, choice)
    if action == EXCLUDE:
        return priv.check_exclude(state, hero, choice)
    if action == EXTRA_VOTE:
        return "missing_target" if choice is None else priv.check_extra_vote(state, hero, choice, rules=rules)
    if action == INTERCEPT:
        if not isinstance(choice, tuple) or len(choice) != 3 or choice[1] not in GUESS_FIELDS:
            return "bad_guess"
        number, field, seat = choice
        return priv.check_intercept(state, hero, {"number": number, field: seat})
    if action == MOLE_COMA:
        return priv.check_mole(state, hero, choice)
    if action == STEAL:
        return check_steal(rules, state, hero, choice, inputs)
    if action == FAKE:
        return "bad_target" if choice is None else priv.check_fake(state, hero, fakes_used, as_hero=choice)
    if action == BET:
        return check_bet(state, hero, choice)
    if action == RAISE:
        return check_raise(state, hero, choice, raised=_raised(inputs, hero))
    if action == SYMPATHY:
        return check_sympathy(state, hero, choice)
    if action == PICK_ALLY:
        return rules.check_ally_pick(state, hero, choice)
    return "not_your_action"


def candidates(state: GameState, action: str) -> tuple[Any, ...]:
    """Every choice an action could take: the heroes, the ballot words, None, the Хакер's guesses."""
    seats = tuple(s.id for s in state.seats)
    if action in (VOTE, EXTRA_VOTE):
        return (*seats, *WORDS)
    if action == SPARE:
        return (None,)
    if action == RAISE:
        return (None, *seats)
    if action == INTERCEPT:
        numbers = [int(i["number"]) for i in priv_memory(state).get("hack_open") or ()]
        return tuple((n, f, s) for n in numbers for f in GUESS_FIELDS for s in seats)
    return seats


def menu(rules: ShowRuleset, state: GameState, hero: int, inputs: PhaseInputs | None = None, *,
         fakes_used: int = 0) -> dict[str, tuple[Any, ...]]:
    """{action: its valid choices} for every action the hero may take now (an action with no valid
    choice is not offered): what his panel renders."""
    if state.over or not state.has_seat(hero):
        return {}
    out: dict[str, tuple[Any, ...]] = {}
    for action in ACTIONS:
        valid = tuple(c for c in candidates(state, action)
                      if check(rules, state, hero, action, c, inputs, fakes_used=fakes_used) is None)
        if valid:
            out[action] = valid
    return out


# -- what holds a stage open (issue 28, item 4) ---------------------------------------------------


def optional_actions(rules: ShowRuleset, state: GameState, hero: int,
                     inputs: PhaseInputs | None = None) -> tuple[str, ...]:
    """The optional inputs of this stage the hero may still give and has not: the stage's early end
    would cut them off, so they hold it (until he gives one, says he is done, or the timer ends).
    Only inputs the close reads from this stage and nobody gave yet hold it, never a change of one
    given: the night's stun, exclusion and the first night's bet («может до утра поменять»); the
    day vote's Talent ballot, the Авторитет's extra vote (the re-vote's too) and the carousel's
    theft; a Talent's raise in the defence; the first sympathy in `defence 1` (its window is day 1
    and the defence) and the second in `revote 1`. A stunned hero's night choice is not optional:
    he owes it as before the stun (`owes`). The at-once buttons (/mole, a Хакер's guess, Secret Knowledge, /lull, /fake) act when used
    and are not read at the close: they hold nothing."""
    if state.over or not state.has_seat(hero):
        return ()
    inputs = inputs or PhaseInputs()
    extra = inputs.extra
    kind, number = parse_phase(state.phase)
    out: list[str] = []

    def can(action: str) -> bool:
        return any(check(rules, state, hero, action, c, inputs) is None for c in candidates(state, action))

    def given(key: str) -> bool:
        value = extra.get(key)
        return hero in (ids(value) if isinstance(value, (list, tuple)) else id_map(value))

    if kind == NIGHT:
        tonight = priv_memory(state).get("stunned") or {}
        stunned_by_him = tonight.get("phase") == state.phase and str(hero) in (tonight.get("by") or {})
        if not stunned_by_him and not given("stun") and can(STUN):
            out.append(STUN)
        if not given("exclude") and can(EXCLUDE):
            out.append(EXCLUDE)
        if not given("bets") and can(BET):
            out.append(BET)
    elif kind in (DAY, REVOTE):
        if kind == DAY and hero in rules.extra_voters(state) and not voted(rules, state, inputs, hero):
            out.append(VOTE)
        if not given("extra_votes") and can(EXTRA_VOTE):
            out.append(EXTRA_VOTE)
        if kind == DAY and not given("steal") and any(priv.check_steal(state, hero, s.id) is None
                                                      for s in state.seats):
            out.append(STEAL)
    elif kind == DEFENCE and may_raise(state, hero) and not _raised(inputs, hero):
        out.append(RAISE)
    if number == 1 and kind in (DEFENCE, REVOTE) and not given("sympathies") and can(SYMPATHY):
        slot = 1 if kind == REVOTE else 0
        sent = ((state.memory.get("sympathies") or {}).get(str(hero)) or [None, None])[slot]
        if sent is None:
            out.append(SYMPATHY)
    return tuple(out)


def pairs(offers: Mapping[str, tuple[Any, ...]]) -> set[tuple[str, Any]]:
    """A menu as a set of (action, choice) pairs (the property tests compare them)."""
    return {(action, choice) for action, choices in offers.items() for choice in choices}
