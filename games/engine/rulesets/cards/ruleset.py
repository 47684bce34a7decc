"""The `cards` rule set (seed 001_666f92ca90d279a9.txt): secret and overt roles, deck building, Hand
and Sleeve, card plays resolved together at the end of each phase, damage and armour, death at an
empty Hand, the Veche, and the factions' wins. docs/rulesets/cards.md explains every reading.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience
from games.engine.orders import PEACE, Order, PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec
from games.engine.rulesets.cards.collection import (
    ACE,
    COLOURS,
    NEUTRAL,
    Card,
    Collection,
    default_collection,
    parse_collection,
)
from games.engine.rulesets.cards.decks import DECK_REASONS, Refusal, starter_deck, validate_deck
from games.engine.rulesets.cards.effects import Instance, Ledger, Table
from games.engine.rulesets.cards.roles import (
    FACTIONS,
    JOKER,
    JOKER_OR_TRAITOR,
    LAW_PLACEHOLDER,
    MAFIA,
    MANIAC,
    ROLES,
    SECRET_ROLES,
    SINGLE_ROLES,
    colours_of,
    deal_placeholders,
    default_role_table,
    overt_key,
    overt_role,
    valid_chosen_colours,
    winner_of,
    winners,
)
from games.engine.rulesets.cards.veche import EXECUTION, MEASURES, VecheResult, count_veche, parse_measure
from games.engine.rulesets.common import pick_seat, scalar
from games.engine.rulesets.common import ref as _ref
from games.engine.rulesets.common import seat_id as _seat_id
from games.engine.state import ACTIVE, GameState, SeatState

__all__ = [
    "CARDS",
    "CARDS_MAX",
    "CARDS_MIN",
    "DEAD",
    "LEFT",
    "EVENT_KINDS",
    "GM_EFFECT_REASONS",
    "GM_OPS",
    "OPTION_DEFAULTS",
    "REASONS",
    "VOTE_REASONS",
    "CardsRuleset",
    "collection_of",
    "has_link",
    "parse_phase",
]

CARDS_MIN, CARDS_MAX = 3, 20
DECKBUILDING, NIGHT, DAY = "deckbuilding", "night", "day"
DEAD, LEFT = "dead", "left"  # statuses: died with an empty Hand; the joker who guessed wrong
OPENING_HAND = 6  # «каждый игрок набирает себе 6 карт из колоды в руку»
EXECUTION_DAMAGE = 6  # «получает 6 урона, если была выбрана казнь»
PRISON_PHASES = 4  # «в следующие 4 фазы не может играть целевых карт»
NIGHT_DISCARD = 2  # «Ночью, вместо того, чтобы играть карты, можно сбросить две карты из Руки.»
HAND, SLEEVE = "hand", "sleeve"

OPTION_DEFAULTS: Mapping[str, Any] = MappingProxyType({"hero": False, "extra_neutral": "random"})

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
        "discard_count": "a night discard is exactly two cards from the Hand",
        "discard_not_in_hand": "the cards to discard are not in the Hand",
        "discard_by_day": "the two-card discard is a night action",
        "played_instead": "the two-card discard is instead of playing: the player played a card",
        "discard_instead": "the player discards two cards this night instead of playing",
        "bad_reorder": "a new Hand order must hold exactly the cards of the Hand",
        "deck_not_empty": "a deck is rebuilt only when it is empty",
        "already_built": "the deck has been built",
        "bad_deck": "the deck breaks the deck rules",
        "not_mafia": "only a mafioso sends the mafia's message, and only to another living mafioso",
        "message_used": "the mafia message has been used (it recharges when the deck is rebuilt)",
        "not_joker": "only the joker names everybody's roles",
        "bad_guess": "the joker's list must give a secret role for every other player",
        "cards_inputs_are_in_extra": "a cards game takes its inputs as plays, discards and the like, not orders",
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
)

VOTE_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "not_a_voter": "only a living character votes, and only in the Veche (by day)",
        "bad_target": "the vote is for a living character or for peace",
        "peace_not_allowed": "there is no vote for peace now",
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


class CardsRuleset:
    key = "cards"
    roles: Mapping[str, RoleSpec] = ROLES
    factions: tuple[str, ...] = FACTIONS
    min_players = CARDS_MIN
    max_players = CARDS_MAX
    outcome_keys: tuple[str, ...] = (
        "votes", "tally", "hands", "sleeves", "hand_sizes", "damage", "armour", "dead", "executed", "imprisoned",
        "measure", "peace", "alive", "over",
    )
    reasons: Mapping[str, str] = REASONS
    vote_reasons: Mapping[str, str] = VOTE_REASONS
    # Other names a GM may type for a role in a role table (games.text.roletable reads any
    # grammatical form of them); the labels the site shows are accepted besides.
    role_synonyms: Mapping[str, tuple[str, ...]] = MappingProxyType({
        LAW_PLACEHOLDER: ("законник", "член закона", "закон"),
        JOKER_OR_TRAITOR: ("джокер или предатель",),
    })
    deck_reasons: Mapping[str, str] = DECK_REASONS
    peace_vote = True  # the Veche has a vote «за мир»: the site's vote reader must accept it
    # The measure vote read from a post's bold text («[b]казнь[/b]», «[b]в тюрьму[/b]»).
    parse_measure = staticmethod(parse_measure)

    # -- setup ---------------------------------------------------------------------------------------

    def default_roles(self, size: int) -> list[str]:
        return default_role_table(size, minimum=self.min_players, maximum=self.max_players)

    def new_game(
        self,
        seats: Sequence[tuple[int, str, str]],
        *,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        seat_data: Mapping[Any, Mapping[str, Any]] | None = None,
    ) -> tuple[GameState, tuple[Event, ...]]:
        """Deal the game. `seats` are (seat id, display name, role); a role may be a placeholder
        (`law`, `joker_or_traitor`) drawn here with `random.Random(seed)` — the site passes the
        game's secret seed. `seat_data` (or `options["seat_data"]`) gives per seat (by id or name):
        `overt` (the application's «Класс»), and for scenario files `deck` (top first), `hand`,
        `sleeve`, `colours`. `options["collection"]` is the GM's edited collection (the shipped
        one by default); it is validated and frozen into the state."""
        seats = [tuple(s) for s in seats]
        ids = [s[0] for s in seats]
        names = [s[1] for s in seats]
        if not self.min_players <= len(seats) <= self.max_players:
            raise ValueError(f"the cards rule set is played by {self.min_players} to {self.max_players} players, "
                             f"not {len(seats)}")
        if any(not isinstance(i, int) or isinstance(i, bool) for i in ids) or len(set(ids)) != len(ids):
            raise ValueError("seat ids must be unique integers")
        if any(not n or not str(n).strip() for n in names) or len(set(names)) != len(names):
            raise ValueError("player names must be non-empty and unique")
        unknown = sorted({s[2] for s in seats if s[2] not in ROLES})
        if unknown:
            raise ValueError(f"unknown cards roles: {unknown}")
        merged = {**OPTION_DEFAULTS, **dict(options or {})}
        raw_collection = merged.pop("collection", None)
        from_options = merged.pop("seat_data", None)
        seat_data = seat_data if seat_data is not None else from_options
        if not isinstance(merged["hero"], bool):
            raise ValueError("option hero must be true or false")
        if merged["extra_neutral"] not in ("random", "joker", "traitor"):
            raise ValueError("option extra_neutral must be random, joker or traitor")
        collection = parse_collection(raw_collection, source="option collection") if raw_collection is not None \
            else default_collection()
        rng = random.Random(seed if seed is not None else 0)
        roles = deal_placeholders([s[2] for s in seats], rng, hero=merged["hero"],
                                  extra_neutral=merged["extra_neutral"])
        doubled = sorted(r for r in SINGLE_ROLES if roles.count(r) > 1)
        if doubled:
            raise ValueError(f"at most one of each: {doubled}")
        state = GameState(
            ruleset=self.key,
            seats=tuple(SeatState(i, n, r, SECRET_ROLES[r].faction) for (i, n, _), r in zip(seats, roles)),
            phase=DECKBUILDING,
            options=merged,
        )
        data: dict[int, Mapping[str, Any]] = {}
        for key, value in (seat_data or {}).items():
            seat = pick_seat(state, key)
            if seat is None:
                raise ValueError(f"seat_data: {key!r} is not a player of this game")
            if not isinstance(value, Mapping):
                raise ValueError(f"seat_data: {key!r}: a mapping is required")
            data[seat] = value

        memory: dict[str, Any] = {"collection": collection.to_json(), "overt": {}, "players": {}, "deaths": []}
        table = Table(memory, collection)
        taken: dict[str, str] = {}
        for seat in state.seats:
            given = data.get(seat.id, {})
            extra = sorted(set(given) - {"overt", "deck", "hand", "sleeve", "colours"})
            if extra:
                raise ValueError(f"seat_data for {seat.name}: unknown key {extra[0]!r}")
            overt = str(given.get("overt") or "").strip()
            if overt:
                key = overt_key(overt)
                if key in taken:
                    raise ValueError(f"the overt role {overt!r} is taken by {taken[key]}: «Каждой явной роли может "
                                     f"быть только один представитель»")
                taken[key] = seat.name
                memory["overt"][str(seat.id)] = overt
            player = table.player(seat.id)
            for field_name in ("deck", "hand", "sleeve"):
                cards = given.get(field_name)
                if cards is None:
                    continue
                if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                    raise ValueError(f"seat_data for {seat.name}: {field_name} must be a list of card names")
                missing = [c for c in cards if c not in collection]
                if missing:
                    raise ValueError(f"seat_data for {seat.name}: {field_name}: unknown card {missing[0]!r}")
            colours = given.get("colours")
            if colours is not None:
                if not valid_chosen_colours(seat.role, list(colours)):
                    raise ValueError(f"seat_data for {seat.name}: colours: {colours!r} are not this role's choice")
                player["colours"] = list(colours)
            # What the overt role puts in the Sleeve, then the secret role's, then the scenario's.
            hook = overt_role(overt)
            for card in (hook.start_sleeve if hook else ()):
                if card in collection:
                    table.put(seat.id, card, SLEEVE, overt=True)
            for card in SECRET_ROLES[seat.role].start_sleeve:
                if card in collection:
                    table.put(seat.id, card, SLEEVE)
            for card in given.get("sleeve") or ():
                table.put(seat.id, card, SLEEVE)
            if given.get("deck") is not None or given.get("hand") is not None:
                # «A player given a deck skips deck building; given a hand too, he skips the opening draw.»
                player["deck"] = list(given.get("deck") or ())
                player["built"] = True
                if given.get("hand") is not None:
                    player["hand"] = list(given["hand"])
                else:
                    self._opening_draw(overt, table, seat)
        everyone_built = all(table.player(s.id)["built"] for s in state.seats)
        state = replace(state, phase="night 1" if everyone_built else DECKBUILDING, memory=memory)

        overts = memory["overt"]
        events: list[Event] = [
            Event("game_started", PUBLIC, {
                "players": [{**_ref(s), "overt": overts.get(str(s.id), "")} for s in state.seats],
                "phase": state.phase,
            }),
        ]
        for s in state.seats:
            spec = SECRET_ROLES[s.role]
            events.append(Event("role", seat_audience(s.id), {
                **_ref(s), "role": s.role, "faction": s.faction, "overt": overts.get(str(s.id), ""),
                "colours": list(colours_of(s.role, table.player(s.id)["colours"])),
                "chooses_colours": spec.chooses_colours,
            }))
        members = [s for s in state.seats if s.faction == MAFIA]
        if members:
            # «После получения ролей члены Мафии узнают личности друг друга.»
            events.append(Event("team", faction_audience(MAFIA), {
                "faction": MAFIA, "members": [{**_ref(s), "role": s.role} for s in members],
            }))
        if everyone_built:
            events += self._night_one_events(state, table)
        return state, tuple(events)

    def _opening_draw(self, overt: str, table: Table, seat: SeatState) -> None:
        """«Как только все выбрали себе колоду каждый игрок набирает себе 6 карт из колоды в руку»
        (an overt role's `opening_hand` changes the 6: part 2's Здоровяк and Гик); the maniac «В
        начале игры тянет 1 карту из Колоды в Рукав»."""
        hook = overt_role(overt)
        size = hook.opening_hand if hook is not None and hook.opening_hand is not None else OPENING_HAND
        for _ in range(size):
            table.draw(seat.id, HAND)
        for _ in range(SECRET_ROLES[seat.role].opening_sleeve_draws):
            table.draw(seat.id, SLEEVE)

    def _night_one_events(self, state: GameState, table: Table) -> list[Event]:
        """«В начале первой ночи члены Мафии узнают колоды и Руки друг друга.» (the deck as its
        contents: its order is secret even to its owner), every player's own containers, and the
        Hand sizes everyone learns."""
        events: list[Event] = []
        members = [s for s in state.seats if s.faction == MAFIA and s.status == ACTIVE]
        if members:
            events.append(Event("mafia_decks", faction_audience(MAFIA), {"members": [
                {**_ref(s), "role": s.role, "deck": sorted(table.deck(s.id)), "hand": list(table.hand(s.id))}
                for s in members
            ]}))
        for s in state.seats:
            events.append(Event("containers", seat_audience(s.id), {**_ref(s), **table.view(s.id)}))
            events.append(Event("deck_order", GM, {**_ref(s), "deck": list(table.deck(s.id))}))
        events.append(Event("hand_sizes", PUBLIC, {"sizes": [
            {**_ref(s), "size": len(table.hand(s.id))} for s in state.seats if s.status == ACTIVE
        ]}))
        return events

    # -- what may be done now ------------------------------------------------------------------------

    def _phase(self, state: GameState) -> tuple[str, int]:
        return parse_phase(state.phase)

    def voters(self, state: GameState) -> tuple[int, ...]:
        """«Днем каждый персонаж может публично отдать голос»: every living character, by day."""
        if state.over or self._phase(state)[0] != DAY:
            return ()
        return tuple(s.id for s in state.active())

    def vote_targets(self, state: GameState) -> tuple[int, ...]:
        """«за любого персонажа»: any living character, the voter himself included."""
        return self.voters(state)

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        if _seat_id(voter) not in self.voters(state):
            return "not_a_voter"
        if target is None:
            return None
        if isinstance(target, str) and target.strip().lower() == PEACE:
            return None  # «Также можно проголосовать "за мир".»
        if _seat_id(target) not in self.vote_targets(state):
            return "bad_target"
        return None

    def check_measure(self, state: GameState, voter: int, measure: str | None) -> str | None:
        """The measure vote (execution or prison) may stand: a voter of the Veche, a known measure."""
        if _seat_id(voter) not in self.voters(state):
            return "not_a_voter"
        if measure is not None and measure not in MEASURES:
            return "bad_target"
        return None

    def speaking_order(self, state: GameState) -> tuple[int, ...]:
        """Nobody speaks in turn; by day the seating order of the living is shown. Nights and deck
        building are silent («радиомолчание»)."""
        return self.voters(state)

    def vote_weight(self, state: GameState, seat: int) -> float:
        """The strength of a seat's vote: 1, or what its overt role says (part 2: «Авторитет +1 к
        силе голоса (голос считается за 2)», «Политик +0,5»; «Прокурор» adds 2 once by input)."""
        hook = overt_role(state.memory.get("overt", {}).get(str(seat)))
        return hook.vote_weight if hook is not None else 1.0

    def overt_of(self, state: GameState, seat: int) -> str:
        return str(state.memory.get("overt", {}).get(str(seat), ""))

    def allowed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        if state.over or not state.has_seat(actor) or not state.seat(actor).is_active:
            return ()
        kind, _number = self._phase(state)
        player = state.memory.get("players", {}).get(str(actor), {})
        if kind == DECKBUILDING:
            return () if player.get("built") else ("deck",)
        actions = ["play", "reorder"]
        if kind == NIGHT:
            actions.append("discard")
        if not player.get("deck"):
            actions.append("rebuild")
        seat = state.seat(actor)
        if seat.faction == MAFIA and player.get("mafia_message", True):
            actions.append("mafia_message")
        if seat.role == JOKER:
            actions.append("joker_guess")
        return tuple(actions)

    def owed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        """Only the deck is owed («каждый персонаж составляет себе колоду»; one is dealt at the
        deadline otherwise): playing a card, discarding or reordering is each player's choice."""
        return tuple(a for a in self.allowed_actions(state, actor) if a == "deck")

    def check_order(self, state: GameState, order: Order) -> str | None:
        """One input checked as it comes in (the close checks them all again, together):
        `play` (target, detail {"card", "from", "target2", "message", "pay"}), `discard` (detail
        {"cards"}), `reorder` (detail {"hand"}), `deck` / `rebuild` (detail {"cards", "colours"}),
        `mafia_message` (target, detail {"text"}), `joker_guess` (detail {"roles": {seat: role}})."""
        if state.over:
            return "game_over"
        if not state.has_seat(order.actor):
            return "not_a_player"
        if not state.seat(order.actor).is_active:
            return "not_alive"
        if order.action not in self.allowed_actions(state, order.actor):
            return "not_your_action"
        detail = dict(order.detail or {})
        table = Table(copy.deepcopy(dict(state.memory)), collection_of(state))
        if order.action == "play":
            return self._check_play(state, table, order.actor, {**detail, "target": order.target})
        if order.action == "discard":
            return self._check_discard(state, table, order.actor, detail.get("cards"))
        if order.action == "reorder":
            return self._check_reorder(table, order.actor, detail.get("hand"))
        if order.action in ("deck", "rebuild"):
            refusals = self.check_deck(state, order.actor, detail.get("cards"), detail.get("colours"))
            return "bad_deck" if refusals else None
        if order.action == "mafia_message":
            return self._check_mafia_message(state, table, order.actor, order.target)
        if order.action == "joker_guess":
            return None if self._guess(state, order.actor, detail.get("roles")) is not None else "bad_guess"
        return "not_your_action"

    def check_play(self, state: GameState, seat: int, play: Mapping[str, Any]) -> str | None:
        """None if this play may stand now (a dict as in `PhaseInputs.extra["plays"]`), else a
        REASONS code. The pair rules (one card per zone, the discard instead of playing, paying
        two Prices from one Sleeve) are checked again at the close."""
        if state.over:
            return "game_over"
        if not state.has_seat(seat):
            return "not_a_player"
        if not state.seat(seat).is_active:
            return "not_alive"
        if self._phase(state)[0] == DECKBUILDING:
            return "wrong_phase"
        table = Table(copy.deepcopy(dict(state.memory)), collection_of(state))
        return self._check_play(state, table, seat, play)

    def check_deck(self, state: GameState, seat: int, cards: Any, colours: Any = None) -> list[Refusal]:
        """Every refusal of a deck this seat submits now (deck building, or a rebuild of an empty
        deck); an empty list when it may stand."""
        seat_state = state.seat(seat)
        return validate_deck(cards, role=seat_state.role, collection=collection_of(state),
                             colours=list(colours) if isinstance(colours, (list, tuple)) else colours,
                             overt=self.overt_of(state, seat))

    def player_view(self, state: GameState, seat: int) -> dict[str, Any]:
        """A player's own containers, for his pages: Hand (in order), Sleeve, deck size, restrictions."""
        return Table(copy.deepcopy(dict(state.memory)), collection_of(state)).view(seat)

    def hand_sizes(self, state: GameState) -> dict[int, int]:
        """What everybody knows: every living player's Hand size."""
        players = state.memory.get("players", {})
        return {s.id: len(players.get(str(s.id), {}).get("hand", ())) for s in state.active()}

    def _check_play(self, state: GameState, table: Table, seat: int, play: Mapping[str, Any]) -> str | None:
        if not isinstance(play, Mapping):
            return "bad_input"
        kind, _number = self._phase(state)
        name = play.get("card")
        card = table.collection.get(name) if isinstance(name, str) else None
        if card is None:
            return "unknown_card"
        zone = play.get("from")
        if zone not in (HAND, SLEEVE):
            return "bad_zone"
        if zone == HAND and name not in table.hand(seat):
            return "not_in_hand"
        if zone == SLEEVE and name not in table.sleeve_names(seat):
            return "not_in_sleeve"
        # «Если на карте не указано обратного, то сыграть ее можно только Ночью.»
        if kind == DAY and not card.by_day:
            return "night_only"
        if kind == NIGHT and not card.by_night:
            return "day_only"
        target, target2 = play.get("target"), play.get("target2")
        reason = self._check_targets(state, seat, card, target, target2)
        if reason is not None:
            return reason
        if card.targeted and int(table.player(seat).get("restricted", 0)) > 0:
            return "restricted"  # «в следующие 4 фазы не может играть целевых карт»
        if any(e.op == "message" for e in card.effect) and has_link(str(play.get("message") or "")):
            return "message_link"
        return self._check_price(table, seat, card, zone, play.get("pay"))

    def check_together(self, standing: Any, action: str) -> str | None:
        """May `action` ("play" or "discard") stand beside the player's other standing inputs of
        this phase (`standing`: the actions that stand, e.g. {"play"})? «Ночью, вместо того, чтобы
        играть карты, можно сбросить две карты из Руки»: a play and the two-card discard never stand
        together. The close asks it for each discard beside the plays it took (the play stands); the
        site asks it as each input comes in, so the conflict is refused when it is sent, naming the
        one that stands: `played_instead` (a play stands) or `discard_instead` (the discard stands).
        Part 2's Учёный («может сбросить две карты из руки ... даже если играет») hooks here."""
        standing = set(standing or ())
        if action == "discard" and "play" in standing:
            return "played_instead"
        if action == "play" and "discard" in standing:
            return "discard_instead"
        return None

    def valid_targets(self, state: GameState, seat: int, card_name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The seats this player may name as the card's first and second target now, by the same
        check the play is refused with (`_check_targets`): the pages offer only these."""
        card = collection_of(state).get(card_name)
        if card is None or card.target == "self":
            return (), ()
        ids = [s.id for s in state.seats]
        if card.target != "two":
            return tuple(i for i in ids if self._check_targets(state, seat, card, i, None) is None), ()
        pairs = [(a, b) for a in ids for b in ids if self._check_targets(state, seat, card, a, b) is None]
        firsts = {a for a, _b in pairs}
        seconds = {b for _a, b in pairs}
        return tuple(i for i in ids if i in firsts), tuple(i for i in ids if i in seconds)

    def _check_targets(self, state: GameState, seat: int, card: Card, target: Any, target2: Any) -> str | None:
        """«Целью можно выбрать любого живого персонажа, кроме себя.»"""
        if card.target == "self":
            return "unexpected_target" if target is not None or target2 is not None else None
        if target is None:
            return "missing_target"
        first = pick_seat(state, target)
        if first is None:
            return "bad_target"
        if card.target == "dead":
            return "target_not_dead" if state.seat(first).status != DEAD else None
        if not state.seat(first).is_active:
            return "target_not_alive"
        if first == seat:
            return "self_target"
        if card.target == "two":
            if target2 is None:
                return "missing_second_target"
            second = pick_seat(state, target2)
            if second is None:
                return "bad_target"
            if not state.seat(second).is_active:
                return "target_not_alive"
            if second == seat:
                return "self_target"
            if second == first:
                return "same_targets"
        elif target2 is not None:
            return "unexpected_target"
        return None

    def _check_price(self, table: Table, seat: int, card: Card, zone: str, pay: Any) -> str | None:
        """«Цена»: that many Sleeve cards discarded to play the card."""
        payable = table.payable(seat, exclude_one=card.name if zone == SLEEVE else None)
        if pay is not None:
            if not isinstance(pay, list) or len(pay) != card.price:
                return "bad_payment"
            left = list(payable)
            for name in pay:
                if name not in left:
                    return "bad_payment"
                left.remove(name)
            return None
        return "cannot_pay" if len(payable) < card.price else None

    def _check_discard(self, state: GameState, table: Table, seat: int, cards: Any) -> str | None:
        if self._phase(state)[0] != NIGHT:
            return "discard_by_day"
        if not isinstance(cards, list) or len(cards) != NIGHT_DISCARD or not all(isinstance(c, str) for c in cards):
            return "discard_count"
        hand = list(table.hand(seat))
        for card in cards:
            if card not in hand:
                return "discard_not_in_hand"
            hand.remove(card)
        return None

    def _check_reorder(self, table: Table, seat: int, hand: Any) -> str | None:
        if not isinstance(hand, list) or sorted(map(str, hand)) != sorted(table.hand(seat)):
            return "bad_reorder"
        return None

    def _check_mafia_message(self, state: GameState, table: Table, seat: int, target: Any) -> str | None:
        """«Один раз каждый мафиози может прислать сообщение другому мафу. Способность
        перезаряжается при пересборе колоды.»"""
        if state.seat(seat).faction != MAFIA:
            return "not_mafia"
        if not table.player(seat).get("mafia_message", True):
            return "message_used"
        to = pick_seat(state, target)
        if to is None or to == seat or state.seat(to).faction != MAFIA or not state.seat(to).is_active:
            return "not_mafia"
        return None

    def _guess(self, state: GameState, seat: int, roles: Any) -> dict[int, str] | None:
        """The joker's list, as {seat: secret role} for every other player, or None if malformed."""
        if state.seat(seat).role != JOKER or not isinstance(roles, Mapping):
            return None
        guess: dict[int, str] = {}
        for key, role in roles.items():
            target = pick_seat(state, key)
            if target is None or role not in SECRET_ROLES:
                return None
            guess[target] = role
        guess.pop(seat, None)
        if set(guess) != {s.id for s in state.seats if s.id != seat}:
            return None
        return guess

    # -- the close -----------------------------------------------------------------------------------

    def resolve(self, state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
        """Close the phase now being played. Deterministic for (state, inputs, seed); `now` is not
        used. The order of the steps is documented in docs/rulesets/cards.md ("The end of a phase")."""
        if state.ruleset != self.key:
            raise ValueError(f"a {state.ruleset!r} game cannot be resolved by the cards rule set")
        if state.over:
            raise ValueError("the game is over")
        kind, number = self._phase(state)
        memory = copy.deepcopy(dict(state.memory))
        memory.setdefault("players", {})
        memory.setdefault("deaths", [])
        ctx = _Close(
            state=state, inputs=inputs, kind=kind, number=number, memory=memory,
            table=Table(memory, collection_of(state)), rng=random.Random(seed),
            status={s.id: s.status for s in state.seats},
        )
        ctx.alive_at_start = [s.id for s in state.seats if s.status == ACTIVE]
        ctx.start_hands = {i: list(ctx.table.hand(i)) for i in ctx.alive_at_start}
        ctx.start_sleeves = {i: ctx.table.sleeve_names(i) for i in ctx.alive_at_start}
        for key, order in sorted(inputs.orders.items(), key=lambda kv: str(kv[0])):
            ctx.gm_note("input_ignored", given=order.to_json(), reason="cards_inputs_are_in_extra")

        if kind == DECKBUILDING:
            self._close_deckbuilding(ctx)
            next_phase = "night 1"
        else:
            self._close_play(ctx)
            next_phase = f"day {number}" if kind == NIGHT else f"night {number + 1}"

        seats_after = tuple(replace(s, status=ctx.status[s.id]) for s in state.seats)
        if ctx.joker_won is not None:
            winner: str | None = JOKER
        else:
            winner = winner_of([s.faction for s in seats_after if s.status == ACTIVE])
        over = winner is not None
        new_state = replace(state, seats=seats_after, phase=state.phase if over else next_phase, over=over,
                            winner=winner, memory=memory)
        self._closing_events(ctx, new_state)
        if kind == DECKBUILDING and not over:
            ctx.events += self._night_one_events(new_state, ctx.table)
        if over:
            won = winners(winner, seats_after) if winner != JOKER else [ctx.joker_won]
            ctx.events.append(Event("game_over", PUBLIC, {
                "winner": winner,
                "winners": [_ref(new_state.seat(i)) for i in won],
                "seats": [{**_ref(s), "role": s.role, "faction": s.faction, "status": s.status,
                           "overt": self.overt_of(state, s.id)} for s in seats_after],
            }))
        return Resolution(state=new_state, events=tuple(ctx.events), outcome=self._outcome(ctx, new_state))

    # -- deck building ---------------------------------------------------------------------------------

    def _close_deckbuilding(self, ctx: _Close) -> None:
        """«Во время набора колоды должно поддерживаться радиомолчание. ... После сборки колода
        перемешивается. ... Как только все выбрали себе колоду каждый игрок набирает себе 6 карт из
        колоды в руку. После этого начинается Ночь.» A player with no legal deck at the deadline
        gets a legal one drawn at random from his colours and Neutral (and the joker two random
        colours), so that the game can begin."""
        state, table = ctx.state, ctx.table
        decks = _mapping_by_seat(state, ctx.inputs.extra.get("decks"))
        for seat in state.seats:
            player = table.player(seat.id)
            if player["built"]:
                if seat.id in decks:
                    ctx.gm_note("input_ignored", seat=seat.id, name=seat.name, reason="already_built")
                continue
            cards, colours = _deck_input(decks.get(seat.id))
            refusals = self.check_deck(state, seat.id, cards, colours) if cards is not None else None
            if refusals == []:
                deck = list(cards)
                if SECRET_ROLES[seat.role].chooses_colours:
                    player["colours"] = list(colours)
            else:
                if refusals:
                    data = {**_ref(seat), "refusals": [r.to_json() for r in refusals]}
                    ctx.events.append(Event("deck_refused", seat_audience(seat.id), data))
                    ctx.events.append(Event("deck_refused", GM, data))
                spec = SECRET_ROLES[seat.role]
                if spec.chooses_colours and isinstance(colours, (list, tuple)) \
                        and valid_chosen_colours(seat.role, list(colours)):
                    player["colours"] = list(colours)  # his choice stands even if his deck did not
                if spec.chooses_colours and not valid_chosen_colours(seat.role, player.get("colours")):
                    player["colours"] = sorted(ctx.rng.sample([c for c in COLOURS if c != NEUTRAL],
                                                              spec.chooses_colours), key=COLOURS.index)
                deck = starter_deck(seat.role, table.collection, ctx.rng, colours=player["colours"] or None,
                                    overt=self.overt_of(state, seat.id))
                data = {**_ref(seat), "deck": sorted(deck), "colours": list(player["colours"])}
                ctx.events.append(Event("deck_auto", seat_audience(seat.id), data))
                ctx.events.append(Event("deck_auto", GM, data))
            ctx.rng.shuffle(deck)
            player["deck"], player["built"] = deck, True
            self._opening_draw(self.overt_of(state, seat.id), table, seat)

    # -- a night or a day ------------------------------------------------------------------------------

    def _close_play(self, ctx: _Close) -> None:
        self._joker_guess(ctx)
        if ctx.joker_won is not None:
            return
        self._own_containers(ctx)
        if ctx.kind == DAY:
            self._count_veche(ctx)
        self._take_plays(ctx)
        self._gm_instances(ctx)
        self._blocks(ctx)
        self._redirects(ctx)
        self._restrictions(ctx)
        self._thefts(ctx)
        self._armour_and_damage(ctx)
        self._discards(ctx)
        self._prison(ctx)
        self._draws(ctx)
        self._reveals(ctx)
        self._messages(ctx)
        self._deaths(ctx)
        self._tick(ctx)

    def _joker_guess(self, ctx: _Close) -> None:
        """«В любой момент может написать в личной комнате список соответствия Явных и Тайных ролей
        всех игроков. Если все роли угаданы верно, побеждает моментально. Иначе покидает игру, и все
        карты Туз исчезают.» The list is `extra["joker_guess"] = {joker seat: {seat: role}}`; a
        right list ends the game at this close before anything else happens."""
        state = ctx.state
        for joker, roles in _mapping_by_seat(state, ctx.inputs.extra.get("joker_guess")).items():
            seat = state.seat(joker)
            if not ctx.alive(joker) or seat.role != JOKER:
                ctx.gm_note("input_ignored", seat=joker, name=seat.name, reason="not_joker")
                continue
            guess = self._guess(state, joker, roles)
            if guess is None:
                ctx.gm_note("input_ignored", seat=joker, name=seat.name, reason="bad_guess")
                continue
            wrong = [i for i, role in guess.items() if state.seat(i).role != role]
            ctx.gm_note("joker_guess", **_ref(seat), guess={str(k): v for k, v in guess.items()},
                        wrong=[_ref(state.seat(i)) for i in wrong])
            if not wrong:
                ctx.joker_won = joker
                ctx.events.append(Event("joker_won", PUBLIC, _ref(seat)))
                return
            ctx.status[joker] = LEFT
            vanished = ctx.table.remove_aces()
            ctx.events.append(Event("joker_left", PUBLIC, {**_ref(seat), "aces_vanished": sum(vanished.values())}))

    def _own_containers(self, ctx: _Close) -> None:
        """A rebuilt empty deck («Если колода персонажа становится пуста, то персонаж может в любой
        момент собрать новую колоду из коллекции, как набрал бы в начале игры»; it also recharges the
        mafia message) and the Hand's order («этот порядок игрок может поменять в любой момент»)."""
        state, table, extra = ctx.state, ctx.table, ctx.inputs.extra
        for seat_id, value in _mapping_by_seat(state, extra.get("rebuilds")).items():
            seat = state.seat(seat_id)
            player = table.player(seat_id)
            if not ctx.alive(seat_id) or player["deck"]:
                ctx.gm_note("input_ignored", seat=seat_id, name=seat.name,
                            reason="not_alive" if not ctx.alive(seat_id) else "deck_not_empty")
                continue
            cards, colours = _deck_input(value)
            if SECRET_ROLES[seat.role].chooses_colours and colours is None:
                colours = player.get("colours")
            refusals = self.check_deck(state, seat_id, cards, colours)
            if refusals:
                data = {**_ref(seat), "refusals": [r.to_json() for r in refusals]}
                ctx.events.append(Event("deck_refused", seat_audience(seat_id), data))
                ctx.events.append(Event("deck_refused", GM, data))
                continue
            deck = list(cards)
            ctx.rng.shuffle(deck)
            player["deck"] = deck
            player["rebuilds"] = int(player.get("rebuilds", 0)) + 1
            player["mafia_message"] = True
            if SECRET_ROLES[seat.role].chooses_colours:
                player["colours"] = list(colours)
            ctx.report(seat_id)["rebuilt"] = True
            ctx.gm_note("deck_rebuilt", **_ref(seat), deck=list(deck))
        for seat_id, hand in _mapping_by_seat(state, extra.get("reorders")).items():
            if not ctx.alive(seat_id) or self._check_reorder(table, seat_id, hand) is not None:
                ctx.gm_note("input_ignored", seat=seat_id, name=ctx.name(seat_id), reason="bad_reorder")
                continue
            table.player(seat_id)["hand"] = [str(c) for c in hand]

    def _count_veche(self, ctx: _Close) -> None:
        state = ctx.state
        voters = self.voters(state)
        votes: dict[int, int | str | None] = {}
        for key, given in ctx.inputs.votes.items():
            voter = _seat_id(key)
            if voter is None:
                continue
            if isinstance(given, str) and given.strip().lower() == PEACE:
                value: int | str | None = PEACE
            else:
                value = pick_seat(state, given) if given is not None else None
            reason = self.check_vote(state, voter, value) if given is not None else None
            if given is not None and (reason is not None or (value is None)):
                ctx.gm_note("vote_dropped", voter=voter, voter_name=ctx.name(voter), given=scalar(given),
                            reason=reason or "bad_target")
                continue
            votes[voter] = value
        measures: dict[int, str | None] = {}
        for voter, measure in _mapping_by_seat(state, ctx.inputs.extra.get("measures")).items():
            if self.check_measure(state, voter, measure) is not None:
                ctx.gm_note("measure_dropped", voter=voter, voter_name=ctx.name(voter), given=scalar(measure))
                continue
            measures[voter] = measure
        alive = [s.id for s in state.active()]
        result = count_veche(
            voters=voters, alive=alive, votes=votes, measures=measures,
            weight=lambda seat: self.vote_weight(state, seat),
            tie_key=lambda seat: self._tie_key(state, seat),
        )
        if result.leader is not None:
            measure = self.veche_measure(state, result.leader, result.measure)
            if measure != result.measure:
                result = replace(result, measure=measure)
        ctx.veche = result

        def name(seat: Any) -> Any:
            return ctx.name(seat) if isinstance(seat, int) else seat

        ctx.events.append(Event("veche_result", PUBLIC, {
            "votes": [{"voter": v, "voter_name": ctx.name(v), "target": result.votes[v],
                       "target_name": name(result.votes[v]), "measure": result.measures[v],
                       "weight": result.weights[v]} for v in voters],
            "tally": [{"target": t, "target_name": name(t), "votes": w} for t, w in result.tally.items()],
            "measure_tally": dict(result.measure_tally),
            "leaders": [_ref(ctx.seat(i)) for i in result.leaders],
            "leader": _ref(ctx.seat(result.leader)) if result.leader is not None else None,
            "measure": result.measure, "peace": result.peace, "reason": result.reason,
        }))
        if result.leader is None:
            return
        if len(result.leaders) > 1:
            # «Приоритет повешения - по алфавиту»: by overt role name.
            ctx.events.append(Event("tie_break", PUBLIC, {
                "leaders": [{**_ref(ctx.seat(i)), "overt": self.overt_of(state, i)} for i in result.leaders],
                **_ref(ctx.seat(result.leader)), "by": "overt_alphabet",
            }))
        leader = ctx.seat(result.leader)
        if result.measure == EXECUTION:
            ctx.executed.append(leader.id)
            ctx.events.append(Event("executed", PUBLIC, {**_ref(leader), "damage": EXECUTION_DAMAGE}))
        else:
            ctx.imprisoned.append(leader.id)
            ctx.events.append(Event("imprisoned", PUBLIC, {**_ref(leader), "phases": PRISON_PHASES}))

    def veche_measure(self, state: GameState, leader: int, measure: str) -> str:
        """The measure applied to the Veche's leader: the vote's, unless a rule says otherwise (the
        hook for part 2's «Политик: Если он становится лидером голосования в первый раз, попадает в
        тюрьму вместо казни»)."""
        return measure

    def _tie_key(self, state: GameState, seat: int) -> tuple:
        overt = self.overt_of(state, seat)
        return (0, overt_key(overt)) if overt else (1, "")

    def _take_plays(self, ctx: _Close) -> None:
        """The standing plays: «Каждую фазу (День или Ночь) можно сыграть не более одной карты из
        Руки и не более одной карты из Рукава» — the last play per player and zone counts. Played
        Hand cards leave the Hand (and are replaced at the end: «Если игрок сыграл или сбросил таким
        образом карту из Руки, то по итогам фазы он берет из колоды карту на замену»), Sleeve cards
        are not replaced, Prices are paid from the Sleeve. Then the night discards: «Ночью, вместо
        того, чтобы играть карты, можно сбросить две карты из Руки.»"""
        state, table, extra = ctx.state, ctx.table, ctx.inputs.extra
        raw = extra.get("plays") or []
        if isinstance(raw, Mapping):  # {seat: [plays]} is accepted too
            raw = [{**p, "by": k} for k, v in raw.items() for p in (v if isinstance(v, list) else [v])
                   if isinstance(p, Mapping)]
        standing: dict[tuple[int, str], Mapping[str, Any]] = {}
        for item in raw if isinstance(raw, list) else []:
            if not isinstance(item, Mapping):
                continue
            by = pick_seat(state, item.get("by"))
            if by is None:
                ctx.gm_note("input_ignored", given=scalar(item.get("by")), reason="not_a_player")
                continue
            standing[(by, str(item.get("from")))] = item
        order = {s.id: i for i, s in enumerate(state.seats)}
        keys = sorted(standing, key=lambda k: (order[k[0]], 0 if k[1] == SLEEVE else 1))
        for by, zone in keys:
            item = standing[(by, zone)]
            play = _Play(
                index=len(ctx.plays), by=by, name=str(item.get("card")), zone=zone,
                target=pick_seat(state, item.get("target")) if item.get("target") is not None else None,
                target2=pick_seat(state, item.get("target2")) if item.get("target2") is not None else None,
                message=str(item.get("message") or ""),
                pay=list(item["pay"]) if isinstance(item.get("pay"), list) else None,
            )
            play.card = table.collection.get(play.name)
            ctx.plays.append(play)
            if not ctx.alive(by):
                play.refuse("not_alive")  # «Мертвые персонажи не участвуют в игре»
                continue
            # Checked on the containers as they stand now: the Sleeve play (taken first) has
            # already spent its card and paid its Price when the Hand play's Price is checked.
            reason = self._check_play(state, table, by, {**item, "from": zone})
            if reason is not None:
                play.refuse(reason)
                continue
            card = play.card
            if not card.reusable:
                if zone == HAND:
                    table.remove_from_hand(by, card.name)
                    ctx.pending[by] = ctx.pending.get(by, 0) + 1
                else:
                    table.remove_from_sleeve(by, card.name)
                table.graveyard(by).append(card.name)
            if card.price:
                paying = play.pay if play.pay is not None else table.payable(by)[: card.price]
                table.pay(by, paying)
                play.paid = list(paying)
        played = {p.by for p in ctx.plays if p.result == "done"}
        for seat_id, cards in _mapping_by_seat(state, extra.get("discards")).items():
            data = {**_ref(ctx.seat(seat_id)), "cards": cards if isinstance(cards, list) else scalar(cards)}
            if not ctx.alive(seat_id):
                reason = "not_alive"
            else:
                reason = self.check_together({"play"} if seat_id in played else (), "discard") \
                    or self._check_discard(state, table, seat_id, cards)
            if reason is not None:
                ctx.report(seat_id)["discard"] = {"result": "refused", "reason": reason}
                ctx.gm_note("discard", **data, result="refused", reason=reason)
                continue
            for card in cards:
                table.remove_from_hand(seat_id, card)
                table.graveyard(seat_id).append(card)
            ctx.pending[seat_id] = ctx.pending.get(seat_id, 0) + NIGHT_DISCARD
            ctx.report(seat_id)["discard"] = {"result": "done", "cards": list(cards)}
            ctx.gm_note("discard", **data, result="done")
        for play in ctx.plays:
            if play.result != "done":
                continue
            for effect in play.card.effect:
                ctx.instances.append(Instance.from_effect(effect, play=play.index, actor=play.by, target=play.target,
                                                          target2=play.target2, text=play.message))

    def _gm_instances(self, ctx: _Close) -> None:
        """The GM's hand-resolution, «applied as if a card had done it»: `gm.damage` and `gm.armour`
        ({seat: n}) and `gm.effects` (a list of primitives, docs/rulesets/cards.md)."""
        state, gm = ctx.state, ctx.inputs.gm
        for op in ("damage", "armour"):
            for seat_id, n in _mapping_by_seat(state, gm.get(op)).items():
                if not ctx.alive(seat_id) or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    ctx.gm_note("gm_effect_ignored", op=op, seat=seat_id, given=scalar(n), reason="bad_input")
                    continue
                ctx.instances.append(Instance(op=op, actor=None, target=seat_id, n=n))
        for item in gm.get("effects") or ():
            instance = self._gm_effect(ctx, item)
            if instance is not None:
                ctx.instances.append(instance)

    _GM_OPS = GM_OPS

    def _gm_effect(self, ctx: _Close, item: Any) -> Instance | None:
        state = ctx.state
        if not isinstance(item, Mapping) or item.get("op") not in self._GM_OPS:
            ctx.gm_note("gm_effect_ignored", given=scalar(item), reason="unknown_op")
            return None
        target = pick_seat(state, item.get("target"))
        if target is None or not ctx.alive(target):
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="target_not_alive")
            return None
        n = item.get("n", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="bad_n")
            return None
        instance = Instance(op=item["op"], actor=None, target=target, n=n, to=str(item.get("to", HAND)),
                            zone=str(item.get("zone", HAND)), what=str(item.get("what", "")),
                            text=str(item.get("text", "")), card=str(item.get("card", "")))
        if instance.op == "reveal":
            instance.viewer = pick_seat(state, item.get("viewer"))
            if instance.viewer is None or instance.what not in ("role", "colours", "hand", "sleeve", "deck_top"):
                ctx.gm_note("gm_effect_ignored", given=dict(item), reason="bad_reveal")
                return None
        if instance.op == "give" and instance.card not in ctx.table.collection:
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="unknown_card")
            return None
        if instance.to not in (HAND, SLEEVE) or instance.zone not in (HAND, SLEEVE, "deck"):
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="bad_zone")
            return None
        return instance

    def _live(self, ctx: _Close, op: str) -> list[Instance]:
        return [i for i in ctx.instances if i.op == op and i.live and i.target is not None]

    def _blocks(self, ctx: _Close) -> None:
        """A block makes every card the target played this phase do nothing (the cards are spent).
        Blocks are simultaneous and cannot themselves be blocked."""
        blocked = {i.target for i in self._live(ctx, "block")}
        for instance in ctx.instances:
            if instance.play is not None and instance.actor in blocked and instance.op != "block":
                instance.cancelled = "blocked"
        for play in ctx.plays:
            if play.result == "done" and play.by in blocked:
                play.result = "blocked"

    def _redirects(self, ctx: _Close) -> None:
        """`incoming`: the targeted cards others play at the redirect's target act on its player
        (a bodyguard); `outgoing`: the target's targeted cards act on the second target. In seating
        order; a card is redirected at most once, and a redirect is never redirected."""
        plays = {p.index: p for p in ctx.plays}
        for redirect in sorted(self._live(ctx, "redirect"), key=lambda i: i.play):
            for instance in ctx.instances:
                if (not instance.live or instance.play is None or instance.op in ("redirect", "block")
                        or instance.who == "self" or instance.redirected_from is not None
                        or not plays[instance.play].card.targeted):
                    continue
                if redirect.which == "incoming":
                    if instance.target == redirect.target and instance.actor != redirect.actor:
                        instance.redirected_from, instance.target = instance.target, redirect.actor
                elif instance.actor == redirect.target and redirect.second is not None:
                    instance.redirected_from, instance.target = instance.target, redirect.second

    def _restrictions(self, ctx: _Close) -> None:
        for instance in self._live(ctx, "restrict"):
            ctx.ledger.restricted[instance.target] = max(ctx.ledger.restricted.get(instance.target, 0), instance.n)

    def _thefts(self, ctx: _Close) -> None:
        """Steal: a random card of the target's Hand or Sleeve goes to the player's Sleeve (from the
        Hand it is lost, not replaced). Copy: a copy of a random card of the target's zone."""
        table = ctx.table
        for instance in ctx.instances:
            if not instance.live or instance.op not in ("steal", "copy") or instance.target is None:
                continue
            if instance.op == "steal":
                card = table.take_random(instance.target, instance.zone, ctx.rng)
                if card is not None:
                    ctx.ledger.add(ctx.ledger.lost, instance.target, [card])
            else:
                card = table.peek_random(instance.target, instance.zone, ctx.rng)
            if card is not None and instance.actor is not None:
                table.put(instance.actor, card, SLEEVE)
                ctx.ledger.add(ctx.ledger.gained, instance.actor, [card])
            self._note(ctx, instance, card=card)

    def _note(self, ctx: _Close, instance: Instance, **data: Any) -> None:
        if instance.play is not None:
            ctx.plays[instance.play].effects.setdefault("effects", []).append(
                {"op": instance.op, "target": instance.target, "target_name": ctx.name(instance.target), **data})

    def _armour_and_damage(self, ctx: _Close) -> None:
        """«по окончанию фазы он сбрасывает столько карт из Руки, сколько получил урона. Если он
        играет карты из Руки в эту фазу, то вместо сброса карт он просто не добирает новых. ...
        Каждая единица брони предотвращает один сброс карты из-за урона. ... Броня не накапливается
        между фазами.» The Veche's execution is 6 damage in the same count."""
        ledger, table = ctx.ledger, ctx.table
        for instance in self._live(ctx, "armour"):
            ledger.add(ledger.armour, instance.target, instance.n)
        for instance in self._live(ctx, "break_armour"):
            ledger.broken.add(instance.target)
        for seat in ledger.broken:
            ledger.armour.pop(seat, None)
        for instance in self._live(ctx, "damage"):
            ledger.add(ledger.damage, instance.target, instance.n)
        for seat in ctx.executed:
            ledger.add(ledger.damage, seat, EXECUTION_DAMAGE)
        for seat in ctx.alive_at_start:
            net = max(0, ledger.damage.get(seat, 0) - ledger.armour.get(seat, 0))
            if not net:
                continue
            absorbed = min(net, ctx.pending.get(seat, 0))
            if absorbed:
                ctx.pending[seat] -= absorbed
                ledger.absorbed[seat] = absorbed
            gone = table.discard_hand_front(seat, net - absorbed)
            if gone:
                ledger.discarded[seat] = gone

    def _discards(self, ctx: _Close) -> None:
        table = ctx.table
        for instance in self._live(ctx, "discard"):
            if instance.zone == HAND:
                gone = table.discard_hand_front(instance.target, instance.n)
            elif instance.zone == SLEEVE:
                gone = table.discard_sleeve_front(instance.target, instance.n)
            else:
                gone = table.discard_deck_top(instance.target, instance.n)
            if gone and instance.zone != "deck":
                ctx.ledger.add(ctx.ledger.lost, instance.target, gone)
            self._note(ctx, instance, cards=gone)

    def _prison(self, ctx: _Close) -> None:
        """«Если же была выбрана тюрьма, он теряет карты из рукава, кроме Тузов и полученных от Явной
        роли (Маньяк сохраняет ещё одну карту на выбор), и в следующие 4 фазы не может играть
        целевых карт.» The maniac's choice is `extra["prison_keep"][seat]` (else his first card
        that would be lost)."""
        table = ctx.table
        keep_choice = _mapping_by_seat(ctx.state, ctx.inputs.extra.get("prison_keep"))
        for seat_id in ctx.imprisoned:
            kept, lost = [], []
            maniac_keeps = ctx.seat(seat_id).role == MANIAC
            choice = keep_choice.get(seat_id)
            losing = [it for it in table.sleeve(seat_id) if not (it["card"] == ACE or it.get("overt"))]
            spared = None
            if maniac_keeps and losing:
                spared = next((it for it in losing if it["card"] == choice), losing[0])
            for item in table.sleeve(seat_id):
                if item["card"] == ACE or item.get("overt") or item is spared:
                    kept.append(item)
                else:
                    lost.append(item["card"])
            table.player(seat_id)["sleeve"] = kept
            table.graveyard(seat_id).extend(lost)
            if lost:
                ctx.ledger.add(ctx.ledger.lost, seat_id, lost)
            ctx.ledger.restricted[seat_id] = max(ctx.ledger.restricted.get(seat_id, 0), PRISON_PHASES)
            ctx.report(seat_id)["prison"] = {"lost": lost, "phases": PRISON_PHASES}

    def _draws(self, ctx: _Close) -> None:
        """The Hand replacements first («берет из колоды карту на замену»), then the draws and gifts
        of effects, in seating order of the cards that caused them."""
        table, ledger = ctx.table, ctx.ledger
        for seat in ctx.alive_at_start:
            for _ in range(ctx.pending.get(seat, 0)):
                ledger.add(ledger.drawn, seat, [table.draw(seat, HAND)])
        for instance in ctx.instances:
            if not instance.live or instance.target is None or instance.op not in ("draw", "give"):
                continue
            if instance.op == "give":
                for _ in range(instance.n):
                    table.put(instance.target, instance.card, instance.to)
                ledger.add(ledger.gained, instance.target, [instance.card] * instance.n)
                continue
            cards = [table.draw(instance.target, instance.to) for _ in range(instance.n)]
            if instance.to == HAND:
                ledger.add(ledger.drawn, instance.target, cards)
            else:
                ledger.add(ledger.gained, instance.target, cards)
            self._note(ctx, instance, n=instance.n, to=instance.to)

    def _reveals(self, ctx: _Close) -> None:
        """Information goes to the card's player (or the viewer the GM names), read at the end of
        the phase: a role, a role's colours, a Hand, a Sleeve, the top of a deck, or who played
        targeted cards at the target («visitors») / at whom the target played them («visits»)."""
        state, table = ctx.state, ctx.table
        plays = {p.index: p for p in ctx.plays}

        def targeted_hits() -> list[tuple[int, int]]:
            hits = []
            for instance in ctx.instances:
                if (instance.live and instance.play is not None and instance.target is not None
                        and instance.who != "self" and plays[instance.play].card.targeted
                        and instance.target != instance.actor):
                    hits.append((instance.actor, instance.target))
            return sorted(set(hits), key=lambda h: (h[0], h[1]))

        hits = targeted_hits()
        order = {s.id: i for i, s in enumerate(state.seats)}
        for instance in ctx.instances:
            if not instance.live or instance.op != "reveal" or instance.target is None or instance.viewer is None:
                continue
            target = state.seat(instance.target)
            what = instance.what
            if what == "role":
                value: Any = target.role
            elif what == "colours":
                value = list(colours_of(target.role, table.player(target.id).get("colours")))
            elif what == "hand":
                value = list(table.hand(target.id))
            elif what == "sleeve":
                value = table.sleeve_names(target.id)
            elif what == "deck_top":
                value = list(table.deck(target.id)[: instance.n])
            elif what == "visitors":
                value = [ctx.name(a) for a in sorted({a for a, t in hits if t == target.id and a != instance.viewer},
                                                     key=order.__getitem__)]
            else:  # visits
                value = [ctx.name(t) for t in sorted({t for a, t in hits if a == target.id}, key=order.__getitem__)]
            data = {"card": ctx.plays[instance.play].name if instance.play is not None else None,
                    "target": target.id, "target_name": target.name, "what": what, "value": value}
            ctx.events.append(Event("reveal", seat_audience(instance.viewer), data))
            self._note(ctx, instance, what=what, value=value)

    def _messages(self, ctx: _Close) -> None:
        """«Некоторые карты позволяют отправить цели сообщение. В таком случае цель получит его в конце
        фазы в сообщении от мастера. Цель не узнает, кто отправил сообщение.» The dead receive
        nothing («не получают сообщений»); the GM sees the sender. Then the mafia's own messages
        (sender named: the mafia know each other), `extra["mafia_messages"] = {seat: {"to", "text"}}`."""
        state, table = ctx.state, ctx.table
        alive_after = {s for s in ctx.alive_at_start if table.hand(s) and ctx.status[s] == ACTIVE}
        for instance in ctx.instances:
            if instance.op != "message" or instance.target is None:
                continue
            delivered = instance.live and bool(instance.text.strip()) and instance.target in alive_after
            if delivered:
                ctx.events.append(Event("message", seat_audience(instance.target), {
                    "card": ctx.plays[instance.play].name if instance.play is not None else None,
                    "text": instance.text,
                }))
            ctx.gm_note("message", sender=instance.actor, sender_name=ctx.name(instance.actor),
                        target=instance.target, target_name=ctx.name(instance.target), text=instance.text,
                        delivered=delivered)
            self._note(ctx, instance, delivered=delivered)
        for seat_id, value in _mapping_by_seat(state, ctx.inputs.extra.get("mafia_messages")).items():
            to = value.get("to") if isinstance(value, Mapping) else None
            text = str(value.get("text") or "") if isinstance(value, Mapping) else ""
            reason = "not_alive" if not ctx.alive(seat_id) else self._check_mafia_message(state, table, seat_id, to)
            if reason is None and not text.strip():
                reason = "bad_input"
            recipient = pick_seat(state, to)
            if reason is not None:
                ctx.gm_note("mafia_message", sender=seat_id, sender_name=ctx.name(seat_id), result="refused",
                            reason=reason)
                continue
            table.player(seat_id)["mafia_message"] = False
            delivered = recipient in alive_after
            if delivered:
                ctx.events.append(Event("mafia_message", seat_audience(recipient), {
                    **_ref(ctx.seat(seat_id)), "text": text}))
            ctx.gm_note("mafia_message", sender=seat_id, sender_name=ctx.name(seat_id), target=recipient,
                        target_name=ctx.name(recipient), text=text, result="done", delivered=delivered)

    def _deaths(self, ctx: _Close) -> None:
        """«Если у персонажа по итогам фазы становится 0 карт в Руке, то он умирает.» The role is not
        shown: «Знает Тайные роли мёртвых персонажей» is the joker's power, so the others do not."""
        for seat in ctx.alive_at_start:
            if ctx.status[seat] == ACTIVE and not ctx.table.hand(seat):
                ctx.status[seat] = DEAD
                ctx.dead.append(seat)
                ctx.memory["deaths"].append({"seat": seat, "phase": ctx.state.phase})
                ctx.events.append(Event("died", PUBLIC, _ref(ctx.seat(seat))))

    def _tick(self, ctx: _Close) -> None:
        """Restrictions count the phases they covered; new ones start with the next phase."""
        for seat in ctx.alive_at_start:
            player = ctx.table.player(seat)
            left = max(0, int(player.get("restricted", 0)) - 1)
            player["restricted"] = max(left, ctx.ledger.restricted.get(seat, 0))

    # -- events and outcome ------------------------------------------------------------------------------

    def _closing_events(self, ctx: _Close, new_state: GameState) -> None:
        """«Количество карт в Руке каждого игрока все узнают в конце каждой фазы. Количество карт в
        Рукаве и колоде знает только владелец.»"""
        state, table, ledger = ctx.state, ctx.table, ctx.ledger
        for play in ctx.plays:
            ctx.events.append(Event("play", GM, play.to_json(state)))
            if play.card is not None and play.card.resolved_by_gm and play.result == "done":
                notes = [e.note for e in play.card.effect if e.op == "gm"]
                ctx.events.append(Event("gm_resolve", GM, {**play.to_json(state), "note": " ".join(notes)}))
            ctx.report(play.by).setdefault("plays", []).append({
                "card": play.name, "from": play.zone, "target_name": ctx.name(play.target),
                "target2_name": ctx.name(play.target2), "result": play.result, "reason": play.reason,
                "paid": list(play.paid),
            })
        if ctx.kind == DECKBUILDING:
            return
        for seat in ctx.alive_at_start:
            report = ctx.report(seat)
            for key, book in (("damage", ledger.damage), ("armour", ledger.armour), ("absorbed", ledger.absorbed),
                              ("restricted", ledger.restricted)):
                if book.get(seat):
                    report[key] = book[seat]
            for key, book in (("discarded", ledger.discarded), ("lost", ledger.lost), ("gained", ledger.gained),
                              ("drawn", ledger.drawn)):
                if book.get(seat):
                    report[key] = list(book[seat])
            if seat in ledger.broken:
                report["armour_broken"] = True
        for seat in ctx.alive_at_start:
            ref = _ref(ctx.seat(seat))
            ctx.events.append(Event("phase_report", seat_audience(seat), {**ref, **ctx.report(seat)}))
            ctx.events.append(Event("containers", seat_audience(seat), {**ref, **table.view(seat)}))
        ctx.events.append(Event("phase_summary", GM, {
            "damage": {str(k): v for k, v in ledger.damage.items()},
            "armour": {str(k): v for k, v in ledger.armour.items()},
            "discarded": {str(k): v for k, v in ledger.discarded.items()},
            "lost": {str(k): v for k, v in ledger.lost.items()},
            "drawn": {str(k): v for k, v in ledger.drawn.items()},
            "dead": [_ref(ctx.seat(i)) for i in ctx.dead],
            "names": {str(i): ctx.name(i) for i in ctx.alive_at_start},  # for its text: «Петя — 3», not a seat id
        }))
        ctx.events.append(Event("hand_sizes", PUBLIC, {"sizes": [
            {**_ref(ctx.seat(s)), "size": len(table.hand(s))} for s in ctx.alive_at_start
        ]}))

    def _outcome(self, ctx: _Close, new_state: GameState) -> dict[str, Any]:
        name = {s.id: s.name for s in ctx.state.seats}
        table, ledger = ctx.table, ctx.ledger
        considered = ctx.alive_at_start
        veche = ctx.veche

        def label(value: Any) -> Any:
            return name.get(value, value) if isinstance(value, int) else value

        outcome: dict[str, Any] = {
            "votes": {name[v]: label(t) for v, t in veche.votes.items()} if veche else {},
            "tally": {label(t): w for t, w in veche.tally.items()} if veche else {},
            # Only the Hands and Sleeves that changed in this phase (an unchanged one is left out).
            "hands": {name[s]: list(table.hand(s)) for s in considered if table.hand(s) != ctx.start_hands[s]},
            "sleeves": {name[s]: table.sleeve_names(s) for s in considered
                        if table.sleeve_names(s) != ctx.start_sleeves[s]},
            "hand_sizes": {name[s]: len(table.hand(s)) for s in considered},
            "damage": {name[s]: n for s, n in sorted(ledger.damage.items()) if n},
            "armour": {name[s]: n for s, n in sorted(ledger.armour.items()) if n},
            "dead": [name[i] for i in ctx.dead],
            "executed": [name[i] for i in ctx.executed],
            "imprisoned": [name[i] for i in ctx.imprisoned],
            "measure": veche.measure if veche else None,
            "peace": bool(veche and veche.peace),
            "alive": [s.name for s in new_state.active()],
            "over": new_state.over,
        }
        if new_state.over:
            outcome["winner"] = new_state.winner
        return outcome


CARDS = CardsRuleset()
