"""Deck rules: validation as a pure function that returns every refusal, and a legal starter deck.

«Требования к колоде: 15 несвободных карт, 0-3 свободных карт. Не больше 2 копий одной карты. Карт
цветов, не соответствующих роли и не нейтральных, можно взять не более 2 в сумме.»
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.rulesets.cards.engine.collection import COLOURS, NEUTRAL, Collection
from games.rulesets.cards.engine.roles import SECRET_ROLES, colours_of, overt_role, valid_chosen_colours

__all__ = ["DECK_REASONS", "DeckRules", "Refusal", "deck_rules_for", "starter_deck", "validate_deck"]

# Refusal codes with an English gloss (the site translates them and shows the cards named).
DECK_REASONS: Mapping[str, str] = {
    "not_a_list": "a deck is a list of card names",
    "unknown_card": "no such card in this game's collection",
    "not_deckable": "this card cannot be put in a deck",
    "too_many_copies": "at most 2 copies of one card",
    "non_free_count": "a deck holds exactly 15 non-free cards",
    "too_many_free": "a deck holds at most 3 free cards",
    "off_colour": "at most 2 cards in total of colours outside the role's (Neutral is always allowed)",
    "colour_forbidden": "the role may not take cards of this colour",
    "per_colour": "the role may take only so many cards of one colour",
    "colours_missing": "the role chooses its colours when building the deck",
    "colours_invalid": "the chosen colours are not two different non-neutral colours",
    "colours_unexpected": "only the joker chooses colours",
}


@dataclass(frozen=True)
class Refusal:
    code: str  # a DECK_REASONS key
    cards: tuple[str, ...] = ()  # the cards involved, each once, in deck order
    detail: Mapping[str, Any] = field(default_factory=dict)  # counts and limits, JSON-able

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "cards": list(self.cards), "detail": dict(self.detail)}


@dataclass(frozen=True)
class DeckRules:
    non_free: int = 15
    free_max: int = 3
    copies: int = 2
    off_colour_max: int = 2
    per_colour_max: int | None = None
    banned_colours: tuple[str, ...] = ()
    # Мот: «Его карты с ценой 2 и более являются Свободными. (Набирать их можно как несвободные)» —
    # a non-free card of this Price or more may count as free or as non-free, as the deck needs.
    flex_price_min: int | None = None


def deck_rules_for(role: str, overt: str | None = None) -> DeckRules:
    """The deck limits of a secret role; an overt role's `deck_rules` (part 2: Крупье, Гений) adjust
    them. «Полицейский ... нельзя брать карты других цветов, кроме Нейтральных»: no off-colour card
    at all; «Предатель ... Не может брать в колоду более трёх карт одного цвета»; «Герой ... более
    четырёх карт одного цвета. Не может брать карты Урона.»"""
    spec = SECRET_ROLES[role]
    rules = DeckRules(off_colour_max=spec.off_colour_max, per_colour_max=spec.per_colour_max,
                      banned_colours=spec.banned_colours)
    hook = overt_role(overt)
    if hook is not None and hook.deck_rules:
        # «Крупье: Лимит карт не своего цвета в колоде - 4, вместо 2. Если является Предателем, может
        # брать до 4 карт каждого цвета.» A pair (from, to) replaces the limit only where it is
        # `from`: the policeman's «нельзя брать карты других цветов» (0) stays 0.
        changes = {}
        for key, value in hook.deck_rules.items():
            if not hasattr(rules, key):
                continue
            if isinstance(value, tuple):
                if getattr(rules, key) == value[0]:
                    changes[key] = value[1]
            else:
                changes[key] = value
        rules = replace(rules, **changes)
    if hook is not None and hook.free_price_min is not None:
        rules = replace(rules, flex_price_min=hook.free_price_min)
    return rules


def _unique(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def validate_deck(
    cards: Any,
    *,
    role: str,
    collection: Collection,
    colours: Sequence[str] | None = None,
    overt: str | None = None,
) -> list[Refusal]:
    """Every reason the deck is refused (an empty list: the deck is legal). `colours` are the
    joker's two chosen colours («Выбирает два любых цвета в начале игры»)."""
    if not isinstance(cards, (list, tuple)) or not all(isinstance(c, str) for c in cards):
        return [Refusal("not_a_list")]
    rules = deck_rules_for(role, overt)
    spec = SECRET_ROLES[role]
    refusals: list[Refusal] = []
    if spec.chooses_colours:
        if not colours:
            refusals.append(Refusal("colours_missing", detail={"needed": spec.chooses_colours}))
        elif not valid_chosen_colours(role, list(colours)):
            refusals.append(Refusal("colours_invalid", detail={"given": [str(c) for c in colours]}))
    elif colours:
        refusals.append(Refusal("colours_unexpected", detail={"given": [str(c) for c in colours]}))
    role_colours = set(colours_of(role, colours if not refusals else ()))

    unknown = _unique(c for c in cards if c not in collection)
    if unknown:
        refusals.append(Refusal("unknown_card", unknown))
    known = [c for c in cards if c in collection]
    undeckable = _unique(c for c in known if not collection[c].deckable)
    if undeckable:
        refusals.append(Refusal("not_deckable", undeckable))
    counts = Counter(known)
    for name in _unique(known):
        if counts[name] > rules.copies:
            refusals.append(Refusal("too_many_copies", (name,), {"count": counts[name], "max": rules.copies}))
    non_free = [c for c in known if not collection[c].free]
    free = [c for c in known if collection[c].free]
    if rules.flex_price_min is not None:
        # Мот's priced cards count as non-free or as free, whichever makes the deck: as many of them
        # move to the free side as the non-free count is over, never more than there are.
        flex = [c for c in non_free if collection[c].price >= rules.flex_price_min]
        moved = min(max(len(non_free) - rules.non_free, 0), len(flex))
        if moved:
            for name in flex[len(flex) - moved:]:
                non_free.remove(name)
            free = free + flex[len(flex) - moved:]
    if len(non_free) != rules.non_free:
        refusals.append(Refusal("non_free_count", (), {"count": len(non_free), "needed": rules.non_free}))
    if len(free) > rules.free_max:
        refusals.append(Refusal("too_many_free", _unique(free), {"count": len(free), "max": rules.free_max}))
    banned = _unique(c for c in known if collection[c].colour in rules.banned_colours)
    if banned:
        refusals.append(Refusal("colour_forbidden", banned, {"colours": list(rules.banned_colours)}))
    if not spec.chooses_colours or role_colours:
        off = [c for c in known if collection[c].colour not in role_colours | {NEUTRAL}
               and collection[c].colour not in rules.banned_colours]
        if len(off) > rules.off_colour_max:
            code = "colour_forbidden" if rules.off_colour_max == 0 else "off_colour"
            refusals.append(Refusal(code, _unique(off), {"count": len(off), "max": rules.off_colour_max}))
    if rules.per_colour_max is not None:
        by_colour = Counter(collection[c].colour for c in known)
        for colour in COLOURS:
            if by_colour[colour] > rules.per_colour_max:
                refusals.append(Refusal(
                    "per_colour", _unique(c for c in known if collection[c].colour == colour),
                    {"colour": colour, "count": by_colour[colour], "max": rules.per_colour_max},
                ))
    return refusals


def starter_deck(
    role: str, collection: Collection, rng: random.Random, *, colours: Sequence[str] | None = None,
    overt: str | None = None,
) -> list[str]:
    """A legal deck for a player who did not build one by the deadline: 15 non-free cards of the
    role's colours and Neutral, at most 2 copies each, drawn at random (the caller shuffles it).
    Cards without a Price come first: the opening Sleeve is empty (or holds the roles' cards, which
    do not pay), so a dealt deck of them gives an opening Hand its player can pay for; priced cards
    fill the deck only when the collection has too few of them."""
    rules = deck_rules_for(role, overt)
    allowed = (set(colours_of(role, colours)) | {NEUTRAL}) - set(rules.banned_colours)
    pool = [n for n in collection.names
            if collection[n].deckable and not collection[n].free and collection[n].colour in allowed]
    rng.shuffle(pool)
    tiers = [[n for n in pool if not collection[n].price], [n for n in pool if collection[n].price]]
    deck: list[str] = []
    per_colour: Counter[str] = Counter()
    for tier in tiers:
        for copy in range(rules.copies):
            for name in tier:
                if len(deck) == rules.non_free:
                    break
                colour = collection[name].colour
                if rules.per_colour_max is not None and per_colour[colour] >= rules.per_colour_max:
                    continue
                deck.append(name)
                per_colour[colour] += 1
    if len(deck) != rules.non_free or validate_deck(deck, role=role, collection=collection, colours=colours,
                                                    overt=overt):
        raise ValueError(f"the collection cannot make a legal deck for the role {role!r}")
    return deck
