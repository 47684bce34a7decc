"""What the cards rule set's modules share: the constants and refusal codes, the phase names, the
game's collection, the readers of loose inputs, and the context of one phase's close (`_Close`,
with its `_Play`s). Pure: no Django import.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from games.engine.events import GM, Event
from games.engine.orders import PhaseInputs
from games.engine.rulesets.common import pick_seat
from games.engine.state import ACTIVE, GameState, SeatState
from games.rulesets.cards.engine.collection import Card, Collection, default_collection, parse_collection
from games.rulesets.cards.engine.effects import Instance, Ledger, Table
from games.rulesets.cards.engine.veche import VecheResult


CARDS_MIN, CARDS_MAX = 3, 20
DECKBUILDING, NIGHT, DAY = "deckbuilding", "night", "day"
DEAD, LEFT = "dead", "left"  # statuses: died with an empty Hand; the joker who guessed wrong
OPENING_HAND = 6  # «каждый игрок набирает себе 6 карт из колоды в руку»
EXECUTION_DAMAGE = 6  # «получает 6 урона, если была выбрана казнь»
PRISON_PHASES = 4  # «в следующие 4 фазы не может играть целевых карт»
NIGHT_DISCARD = 2  # «Ночью, вместо того, чтобы играть карты, можно сбросить две карты из Руки.»
HAND, SLEEVE = "hand", "sleeve"

OPTION_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "hero": False, "extra_neutral": "random",
    # Part 2 (b): the GM's readings of what the seed leaves open (docs/rulesets/cards.md, "Part 2 (b)").
    "tie_break": "overt",  # «Приоритет повешения - по алфавиту»: overt (role name) | name (character) | gm
    "measure_weight": True,  # the vote strengths weigh the measure vote too
    "illegal_deck": "random",  # no legal deck at the deadline: random (a legal one dealt) | gm (the GM's)
    # Part 2 (d): the GM admits more than one «Мститель» («если до игры допущено несколько мстителей»).
    "several_avengers": False,
})
TIE_BREAKS = ("overt", "name", "gm")
ILLEGAL_DECKS = ("random", "gm")

REASONS: Mapping[str, str] = MappingProxyType(
    {
        "game_over": "the game is over",
        "not_a_player": "the actor is not a player of this game",
        "not_alive": "the actor is dead or out of the game",
        "not_your_action": "nobody does that in this phase",
        "wrong_phase": "this is not done in the current phase",
        "bad_input": "the input is not in the expected shape",
        "unknown_card": "no such card in this game's collection",
        "bad_zone": "a card is played from the Hand or from the Sleeve",
        "not_in_hand": "the card is not in the player's Hand",
        "not_in_sleeve": "the card is not in the player's Sleeve",
        "night_only": "the card is played only at night",
        "day_only": "the card is played only by day",
        "missing_target": "the card needs a target",
        "missing_second_target": "the card needs a second target",
        "unexpected_target": "the card takes no target",
        "bad_target": "the target is not a character of this game",
        "target_not_alive": "the target must be a living character",
        "target_not_dead": "the target must be a dead character",
        "self_target": "a target may be any living character but oneself",
        "same_targets": "the two targets must be different characters",
        "restricted": "the player may not play targeted cards for now (prison or the like)",
        "message_link": "a card message may not contain links",
        "cannot_pay": "not enough Sleeve cards to pay the Price (cards given by an overt role do not pay)",
        "bad_payment": "the cards named to pay the Price are not payable cards of the Sleeve",
        "no_hand_pay": "only the Cultist pays a Price with cards from the Hand",
        "hand_pay_limit": "the Cultist pays at most two cards a phase from the Hand",
        "discard_count": "a night discard is exactly two cards from the Hand",
        "discard_not_in_hand": "the cards to discard are not in the Hand",
        "first_night_only": "this is done only on the first night",
        "empty_hand": "the Hand is empty",
        "discard_by_day": "the two-card discard is a night action",
        "played_instead": "the two-card discard is instead of playing: the player played a card",
        "discard_instead": "the player discards two cards this night instead of playing",
        "bad_reorder": "a new Hand order must hold exactly the cards of the Hand",
        "deck_not_empty": "a deck is rebuilt only when it is empty",
        "already_built": "the deck has been built",
        "bad_deck": "the deck breaks the deck rules",
        "bad_picks": "the Engineer chooses at most two cards, and only cards of his deck",
        "not_mafia": "only a mafioso sends the mafia's message, and only to another living mafioso",
        "message_used": "the mafia message has been used (it recharges when the deck is rebuilt)",
        "not_joker": "only the joker names everybody's roles",
        "bad_guess": "the joker's list must give a secret role for every other player",
        "cards_inputs_are_in_extra": "a cards game takes its inputs as plays, discards and the like, not orders",
        "target_protected": "the Sociopath cannot be the target of cards or votes in the first night and day",
        "not_one_card": "the Assassin kills only a player who has exactly one card in Hand",
        "hero_no_damage": "the hero cannot deal damage in any way (nor kill)",
        "hero_sleeve_played": "the hero acts at night only if he plays no Sleeve card",
        "hero_other_choice": "the hero gives armour or names a mafia role at night, not both: the later one counts",
        "bad_role": "the hero names one of the Mafia's secret roles: the Boss, the Advisor or the Killer",
        # abilities (abilities.py)
        "no_such_ability": "there is no such ability",
        "not_your_ability": "the player's roles do not have this ability",
        "used_up": "the ability has been used as many times as a game allows",
        "used_this_phase": "the ability has been used as many times as a phase allows",
    }
)

# Why an entry of the GM's hand resolution (`PhaseInputs.gm`) was skipped (`gm_effect_ignored`).
GM_EFFECT_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "bad_input": "the number is not a whole number of zero or more",
        "unknown_op": "no such operation",
        "target_not_alive": "the target is not a living character",
        "bad_n": "the number is not a whole number of zero or more",
        "bad_reveal": "a reveal names what is shown and to whom",
        "unknown_card": "no such card in this game's collection",
        "bad_zone": "no such container",
        "no_tie_pick": "the GM picked none of the tied leaders: the overt role names decided",
        "bad_gm_deck": "the GM's deck for the player breaks the deck rules: a legal one was dealt at random",
        "no_gm_deck": "the GM built no deck for the player: a legal one was dealt at random",
    }
)

# The primitives the GM applies by hand (`PhaseInputs.gm["effects"]`).
GM_OPS: tuple[str, ...] = ("damage", "armour", "break_armour", "draw", "discard", "reveal", "message", "give", "block",
                           "restrict")

# Every kind of event this rule set emits (docs/rulesets/cards.md, "Events"): the site gives each a text.
EVENT_KINDS: tuple[str, ...] = (
    "game_started", "role", "team", "deck_refused", "deck_auto", "mafia_decks", "deck_order", "containers",
    "phase_report", "reveal", "message", "mafia_message", "hand_sizes", "veche_result", "tie_break", "executed",
    "imprisoned", "died", "joker_won", "joker_left", "game_over", "play", "gm_resolve", "phase_summary", "discard",
    "deck_rebuilt", "joker_guess", "input_ignored", "vote_dropped", "measure_dropped", "gm_effect_ignored",
    # issue 17, abilities (abilities.py, abilities_maniac_joker_geek_marauder.py)
    "ability", "maniac_kill_draw",
    # part 2 (d): the Politician, the Hero, the Joker's knowledge of the dead, the Avenger
    "politician_spared", "hero_goal", "hero_goal_void", "hero_left", "dead_role", "avenger_dice", "avenger_team_won",
    "hero_mark", "assassinated",
)

VOTE_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "not_a_voter": "only a living character votes, and only in the Veche (by day)",
        "bad_target": "the vote is for a living character or for peace",
        "peace_not_allowed": "there is no vote for peace now",
        "target_protected": "the Sociopath cannot be the target of cards or votes in the first night and day",
    }
)

_LINK_RE = re.compile(
    r"(https?://|ftp://|www\.|\[url|\[img|\bt\.me/|@\w{3,}\b|"
    r"\b[\w-]+\.(ru|com|org|net|me|io|su|info|biz|ua|by|kz|рф|gg|tv|app|dev|co)\b)",
    re.IGNORECASE,
)


def has_link(text: str) -> bool:
    """«Сообщение не должно содержать ссылок (в т.ч. и косвенных ...)» — the direct ones are refused
    here (addresses, domains, [url], @handles); indirect ones are the GM's to judge."""
    return bool(_LINK_RE.search(text or ""))


def parse_phase(phase: str) -> tuple[str, int]:
    """"deckbuilding" -> ("deckbuilding", 0); "night 2" -> ("night", 2); nights and days from 1."""
    if phase == DECKBUILDING:
        return DECKBUILDING, 0
    kind, _sep, number = phase.partition(" ")
    if kind not in (NIGHT, DAY) or not number.isdigit() or int(number) < 1:
        raise ValueError(f"not a cards phase: {phase!r}")
    return kind, int(number)


_COLLECTIONS: dict[int, tuple[Any, Collection]] = {}


def collection_of(state: GameState) -> Collection:
    """The game's frozen collection (memory["collection"]), parsed once per stored copy."""
    data = state.memory.get("collection")
    if data is None:
        return default_collection()
    cached = _COLLECTIONS.get(id(data))
    if cached is not None and cached[0] is data:
        return cached[1]
    collection = parse_collection(data, source="the game's collection")
    if len(_COLLECTIONS) > 64:
        _COLLECTIONS.clear()
    _COLLECTIONS[id(data)] = (data, collection)
    return collection


# -- reading inputs ----------------------------------------------------------------------------------


def _mapping_by_seat(state: GameState, value: Any) -> dict[int, Any]:
    """{seat id or name: x} from inputs that may have passed through JSON."""
    out: dict[int, Any] = {}
    if isinstance(value, Mapping):
        for key, item in value.items():
            seat = pick_seat(state, key)
            if seat is not None:
                out[seat] = item
    return out


def living_other(state: GameState, seat: int, target: int) -> str | None:
    """«Целью можно выбрать любого живого персонажа, кроме себя.» None when `target` (a seat id) is a
    character in play other than `seat`, else the reason (the check of a card's and an ability's targets)."""
    if not state.seat(target).is_active:
        return "target_not_alive"
    if target == seat:
        return "self_target"
    return None


def _deck_input(value: Any) -> tuple[Any, Any]:
    """A deck submission: a list of names, or {"cards": [...], "colours": [...]}."""
    if isinstance(value, Mapping):
        return value.get("cards"), value.get("colours")
    return value, None


@dataclass
class _Play:
    index: int
    by: int
    name: str
    zone: str
    target: int | None
    target2: int | None
    message: str
    pay: list[str] | None
    card: Card | None = None
    result: str = "done"  # done | refused | blocked
    reason: str | None = None
    paid: list[str] = field(default_factory=list)
    paid_hand: list[str] = field(default_factory=list)  # Культист: Price cards paid from the Hand
    effects: dict[str, Any] = field(default_factory=dict)

    def refuse(self, reason: str) -> None:
        self.result, self.reason = "refused", reason

    def to_json(self, state: GameState) -> dict[str, Any]:
        def name(seat: int | None) -> str | None:
            return state.seat(seat).name if seat is not None and state.has_seat(seat) else None

        return {
            "by": self.by, "by_name": name(self.by), "card": self.name, "from": self.zone,
            "target": self.target, "target_name": name(self.target),
            "target2": self.target2, "target2_name": name(self.target2),
            "result": self.result, "reason": self.reason, "paid": list(self.paid),
            **({"paid_hand": list(self.paid_hand)} if self.paid_hand else {}),
            "resolved_by_gm": bool(self.card and self.card.resolved_by_gm), **self.effects,
        }


@dataclass
class _Close:
    state: GameState
    inputs: PhaseInputs
    kind: str
    number: int
    memory: dict[str, Any]
    table: Table
    rng: random.Random
    status: dict[int, str]
    events: list[Event] = field(default_factory=list)
    plays: list[_Play] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    pending: dict[int, int] = field(default_factory=dict)  # Hand replacements owed
    veche: VecheResult | None = None
    executed: list[int] = field(default_factory=list)
    imprisoned: list[int] = field(default_factory=list)
    dead: list[int] = field(default_factory=list)
    alive_at_start: list[int] = field(default_factory=list)
    start_hands: dict[int, list[str]] = field(default_factory=dict)
    start_sleeves: dict[int, list[str]] = field(default_factory=dict)
    joker_won: int | None = None
    reports: dict[int, dict[str, Any]] = field(default_factory=dict)  # per seat, for his phase report
    # The hero's armour that stopped damage this night: seat -> (Hand size and replacements owed
    # before the damage, the damage that got through, the damage that would have without it).
    hero_saves: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    avenger: int | None = None  # the Avenger whose team won when the whole town died
    kills: list[int] = field(default_factory=list)  # the Assassin's target, dead at this close
    # What a phase-end ability's close tells its player, by (seat, ability key) (abilities.py).
    ability_notes: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)

    def seat(self, seat_id: int) -> SeatState:
        return self.state.seat(seat_id)

    def name(self, seat_id: int | None) -> str | None:
        return self.state.seat(seat_id).name if seat_id is not None and self.state.has_seat(seat_id) else None

    def alive(self, seat_id: int | None) -> bool:
        return seat_id is not None and self.status.get(seat_id) == ACTIVE

    def report(self, seat_id: int) -> dict[str, Any]:
        return self.reports.setdefault(seat_id, {})

    def gm_note(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, GM, data))
