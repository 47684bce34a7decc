"""The card collection of the `cards` rule set: cards as data, validated at load.

The shipped collection is games/rulesets/cards/data/cards_collection.yaml (its structure is also written as
a JSON Schema in cards_collection.schema.json, which the tests check the file against). A game's
collection is frozen at its start: `new_game` copies it into the state's memory, so a later edit of
the file (or of the GM's copy) never changes a running game.

Every error names the card (its name, or its position when it has none) and the field, and all of
them are reported at once: `CollectionError.errors`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

__all__ = [
    "ACE",
    "COLOURS",
    "COLOUR_LABELS",
    "DEFAULT_COLLECTION_PATH",
    "MULLIGAN",
    "OPS",
    "TARGET_RULES",
    "WHEN",
    "Card",
    "Collection",
    "CollectionError",
    "Effect",
    "default_collection",
    "load_collection",
    "parse_collection",
]

DEFAULT_COLLECTION_PATH = Path(__file__).resolve().parents[1] / "data" / "cards_collection.yaml"
SCHEMA_PATH = DEFAULT_COLLECTION_PATH.with_name("cards_collection.schema.json")

# «Каждая карта обладает одним из цветов: Урон, Разведка, Защита, Саботаж, Контроль, Поддержка,
# Нейтральный»
DAMAGE, RECON, DEFENCE, SABOTAGE, CONTROL, SUPPORT, NEUTRAL = (
    "damage", "recon", "defence", "sabotage", "control", "support", "neutral",
)
COLOURS: tuple[str, ...] = (DAMAGE, RECON, DEFENCE, SABOTAGE, CONTROL, SUPPORT, NEUTRAL)
COLOUR_LABELS: Mapping[str, str] = {
    DAMAGE: "Урон", RECON: "Разведка", DEFENCE: "Защита", SABOTAGE: "Саботаж", CONTROL: "Контроль",
    SUPPORT: "Поддержка", NEUTRAL: "Нейтральный",
}
WHEN: tuple[str, ...] = ("night", "any", "day")
SELF, OTHER, TWO, DEAD = "self", "other", "two", "dead"
TARGET_RULES: tuple[str, ...] = (SELF, OTHER, TWO, DEAD)
ORIGINS: tuple[str, ...] = ("seed", "seed-name", "invented")

# The card every draw from an empty deck gives: «Пока не собрал, любые эффекты, требующие вытянуть
# карту из колоды, вытягивают вместо этого карту "Маллиган".»
MULLIGAN = "Маллиган"
# Kept in prison: «он теряет карты из рукава, кроме Тузов»
ACE = "Туз"

WHO = ("target", "target2", "self")
ZONES_DRAW = ("hand", "sleeve")
ZONES_DISCARD = ("hand", "sleeve", "deck")
ZONES_TAKE = ("hand", "sleeve")
REVEALS = ("role", "colours", "hand", "sleeve", "deck_top", "visitors", "visits")
REDIRECTS = ("incoming", "outgoing")

# op -> {parameter: (allowed values or a type, default)}; `n` is a positive integer where given.
_N = "n"
OPS: Mapping[str, Mapping[str, Any]] = {
    "damage": {"n": (_N, None)},
    "armour": {"n": (_N, None)},
    "break_armour": {},
    "draw": {"n": (_N, 1), "to": (ZONES_DRAW, "hand")},
    "discard": {"n": (_N, 1), "zone": (ZONES_DISCARD, "hand")},
    "reveal": {"what": (REVEALS, None), "n": (_N, 1)},
    "message": {},
    "block": {},
    "redirect": {"which": (REDIRECTS, None)},
    "steal": {"zone": (ZONES_TAKE, "sleeve")},
    "copy": {"zone": (ZONES_TAKE, "sleeve")},
    "restrict": {"n": (_N, None)},
    "gm": {"note": (str, "")},
}


class CollectionError(ValueError):
    """A collection that does not load. `errors` lists every problem, each naming card and field."""

    def __init__(self, errors: Iterable[str], *, source: str = "collection") -> None:
        self.errors = tuple(errors)
        self.source = source
        super().__init__(f"{source}: " + "; ".join(self.errors))


@dataclass(frozen=True, slots=True)
class Effect:
    op: str
    who: str  # "target" | "target2" | "self"
    n: int = 1
    to: str = "hand"  # draw: where the drawn cards go
    zone: str = "hand"  # discard / steal / copy: where from
    what: str = ""  # reveal: what is revealed
    which: str = ""  # redirect: incoming | outgoing
    note: str = ""  # gm: what the GM is asked to decide

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"op": self.op, "who": self.who}
        for key in OPS[self.op]:
            data[key] = getattr(self, key)
        return data


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    colour: str
    price: int
    free: bool
    when: str
    target: str
    effect: tuple[Effect, ...]
    text: str
    origin: str
    deckable: bool = True
    payable: bool = False
    reusable: bool = False
    seed_quote: str = ""

    @property
    def targeted(self) -> bool:
        """A «целевая карта»: one that names a character (prison and its likes forbid them)."""
        return self.target != SELF

    @property
    def by_day(self) -> bool:
        return self.when in ("any", "day")

    @property
    def by_night(self) -> bool:
        return self.when in ("any", "night")

    @property
    def resolved_by_gm(self) -> bool:
        return any(e.op == "gm" for e in self.effect)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "colour": self.colour, "price": self.price, "free": self.free, "when": self.when,
            "target": self.target, "deckable": self.deckable, "payable": self.payable, "reusable": self.reusable,
            "effect": [e.to_json() for e in self.effect], "text": self.text, "origin": self.origin,
            "seed_quote": self.seed_quote,
        }


@dataclass(frozen=True)
class Collection:
    cards: Mapping[str, Card]
    version: int = 1
    _order: tuple[str, ...] = field(default=(), repr=False)

    def __contains__(self, name: object) -> bool:
        return name in self.cards

    def __getitem__(self, name: str) -> Card:
        return self.cards[name]

    def get(self, name: str) -> Card | None:
        return self.cards.get(name)

    @property
    def names(self) -> tuple[str, ...]:
        return self._order or tuple(self.cards)

    def of_colour(self, colour: str) -> tuple[Card, ...]:
        return tuple(self.cards[n] for n in self.names if self.cards[n].colour == colour)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "cards": [self.cards[n].to_json() for n in self.names]}


# -- loading and validation -----------------------------------------------------------------------

_CARD_FIELDS = {
    "name", "colour", "price", "free", "when", "target", "deckable", "payable", "reusable", "effect", "text",
    "origin", "seed_quote",
}
_REQUIRED = ("name", "colour", "price", "free", "when", "target", "effect", "text", "origin")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_effect(where: str, index: int, raw: Any, target_rule: str, errors: list[str]) -> Effect | None:
    at = f"{where}: field 'effect[{index}]'"
    if not isinstance(raw, Mapping):
        errors.append(f"{at}: must be a mapping with an 'op'")
        return None
    op = raw.get("op")
    if op not in OPS:
        errors.append(f"{at}: field 'op': {op!r} is not one of {', '.join(OPS)}")
        return None
    spec = OPS[op]
    unknown = sorted(set(raw) - set(spec) - {"op", "who"})
    if unknown:
        errors.append(f"{at}: field {unknown[0]!r} is not used by op {op!r} (allowed: {', '.join(['who', *spec])})")
    values: dict[str, Any] = {}
    for key, (allowed, default) in spec.items():
        value = raw.get(key, default)
        if value is None:
            errors.append(f"{at}: field {key!r} is required for op {op!r}")
            continue
        if allowed == _N:
            if not _is_int(value) or value < 1:
                errors.append(f"{at}: field {key!r} must be a positive integer, got {value!r}")
                continue
        elif allowed is str:
            if not isinstance(value, str):
                errors.append(f"{at}: field {key!r} must be text, got {value!r}")
                continue
        elif value not in allowed:
            errors.append(f"{at}: field {key!r}: {value!r} is not one of {', '.join(allowed)}")
            continue
        values[key] = value
    default_who = "self" if target_rule == SELF else "target"
    who = raw.get("who", default_who)
    if who not in WHO:
        errors.append(f"{at}: field 'who': {who!r} is not one of {', '.join(WHO)}")
        return None
    if who == "target" and target_rule == SELF:
        errors.append(f"{at}: field 'who': 'target' needs a card with a target (the card's target is 'self')")
        return None
    if who == "target2" and target_rule != TWO:
        errors.append(f"{at}: field 'who': 'target2' needs a card with target 'two'")
        return None
    if op == "redirect" and values.get("which") == "outgoing" and target_rule != TWO:
        errors.append(f"{at}: field 'which': an outgoing redirect needs a card with target 'two'")
        return None
    if op in ("redirect", "block", "steal", "copy", "restrict", "message", "break_armour") and who == "self":
        errors.append(f"{at}: field 'who': op {op!r} acts on another character, not on 'self'")
        return None
    if target_rule == DEAD and op not in ("reveal", "gm"):
        errors.append(f"{at}: field 'op': a card aimed at the dead can only reveal or go to the GM, not {op!r}")
        return None
    if len(values) != len(spec):
        return None
    return Effect(op=op, who=who, **values)


def _parse_card(index: int, raw: Any, errors: list[str]) -> Card | None:
    if not isinstance(raw, Mapping):
        errors.append(f"card #{index + 1}: must be a mapping of fields, got {type(raw).__name__}")
        return None
    name = raw.get("name")
    where = f"card {name!r}" if isinstance(name, str) and name.strip() else f"card #{index + 1}"
    before = len(errors)
    unknown = sorted(set(raw) - _CARD_FIELDS)
    for key in unknown:
        errors.append(f"{where}: field {key!r} is not a card field (allowed: {', '.join(sorted(_CARD_FIELDS))})")
    for key in _REQUIRED:
        if key not in raw:
            errors.append(f"{where}: field {key!r} is required")
    if "name" in raw and (not isinstance(name, str) or not name.strip() or name != name.strip()):
        errors.append(f"{where}: field 'name' must be non-empty text without surrounding spaces")
    if "colour" in raw and raw["colour"] not in COLOURS:
        errors.append(f"{where}: field 'colour': {raw['colour']!r} is not one of {', '.join(COLOURS)}")
    if "price" in raw and (not _is_int(raw["price"]) or raw["price"] < 0):
        errors.append(f"{where}: field 'price' must be an integer of at least 0, got {raw['price']!r}")
    for key in ("free", "deckable", "payable", "reusable"):
        if key in raw and not isinstance(raw[key], bool):
            errors.append(f"{where}: field {key!r} must be true or false, got {raw[key]!r}")
    if "when" in raw and raw["when"] not in WHEN:
        errors.append(f"{where}: field 'when': {raw['when']!r} is not one of {', '.join(WHEN)}")
    if "target" in raw and raw["target"] not in TARGET_RULES:
        errors.append(f"{where}: field 'target': {raw['target']!r} is not one of {', '.join(TARGET_RULES)}")
    for key in ("text", "seed_quote"):
        if key in raw and not isinstance(raw[key], str):
            errors.append(f"{where}: field {key!r} must be text")
    if "origin" in raw and raw["origin"] not in ORIGINS:
        errors.append(f"{where}: field 'origin': {raw['origin']!r} is not one of {', '.join(ORIGINS)}")
    if raw.get("origin") == "seed" and not raw.get("seed_quote"):
        errors.append(f"{where}: field 'seed_quote' is required when the origin is 'seed'")
    effects: list[Effect] = []
    raw_effect = raw.get("effect")
    if "effect" in raw:
        if not isinstance(raw_effect, list):
            errors.append(f"{where}: field 'effect' must be a list of primitives (empty for no effect)")
        elif raw.get("target") in TARGET_RULES:
            for i, item in enumerate(raw_effect):
                effect = _parse_effect(where, i, item, raw["target"], errors)
                if effect is not None:
                    effects.append(effect)
    if len(errors) > before:
        return None
    return Card(
        name=name, colour=raw["colour"], price=raw["price"], free=raw["free"], when=raw["when"],
        target=raw["target"], effect=tuple(effects), text=raw["text"], origin=raw["origin"],
        deckable=raw.get("deckable", True), payable=raw.get("payable", False), reusable=raw.get("reusable", False),
        seed_quote=raw.get("seed_quote", ""),
    )


def parse_collection(data: Any, *, source: str = "collection") -> Collection:
    """A Collection from already-parsed data (the YAML file, a GM's copy, or a state's memory)."""
    errors: list[str] = []
    if not isinstance(data, Mapping):
        raise CollectionError(["the collection must be a mapping with 'version' and 'cards'"], source=source)
    extra = sorted(set(data) - {"version", "cards"})
    for key in extra:
        errors.append(f"field {key!r} is not a collection field (allowed: cards, version)")
    version = data.get("version", 1)
    if not _is_int(version) or version < 1:
        errors.append(f"field 'version' must be a positive integer, got {version!r}")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        errors.append("field 'cards' must be a non-empty list of cards")
        raise CollectionError(errors, source=source)
    cards: dict[str, Card] = {}
    order: list[str] = []
    for index, raw in enumerate(raw_cards):
        card = _parse_card(index, raw, errors)
        if card is None:
            continue
        if card.name in cards:
            errors.append(f"card {card.name!r}: field 'name': the name is used by another card")
            continue
        cards[card.name] = card
        order.append(card.name)
    if not errors:
        if MULLIGAN not in cards:
            errors.append(f"card {MULLIGAN!r}: the collection must hold it (every draw from an empty deck gives it)")
        elif cards[MULLIGAN].deckable:
            errors.append(f"card {MULLIGAN!r}: field 'deckable' must be false (it is drawn, never put in a deck)")
    if errors:
        raise CollectionError(errors, source=source)
    return Collection(cards=cards, version=version, _order=tuple(order))


def load_collection(path: str | Path | None = None) -> Collection:
    """Read and validate a collection file (YAML or JSON); the shipped one by default."""
    path = Path(path) if path is not None else DEFAULT_COLLECTION_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CollectionError([f"cannot read the file: {error}"], source=str(path)) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise CollectionError([f"not valid YAML: {error}"], source=str(path)) from None
    return parse_collection(data, source=str(path))


@lru_cache(maxsize=1)
def default_collection() -> Collection:
    return load_collection(DEFAULT_COLLECTION_PATH)
