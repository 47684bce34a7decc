"""Reads of the cards pages: what the views need of the cards engine (the collection, the deck
rules, the targets a card may take, the GM's primitives), so that the views import no engine
module (issue 15) and parse, check, call one service and render.

Reads only: every write is games.rulesets.cards.services'. The callers check games.permissions
first; nothing here decides who may see what.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import QuerySet

from games import permissions
from games.models import Game, GameEvent, Seat
from games.rulesets.cards.engine.collection import (
    ACE,
    COLOUR_LABELS,
    COLOURS,
    NEUTRAL,
    default_collection,
    parse_collection,
)
from games.rulesets.cards.engine.decks import deck_rules_for
from games.rulesets.cards.engine.hero import damaging_cards
from games.rulesets.cards.engine.roles import OVERT_ROLES, SECRET_ROLES, SIX_COLOURS, overt_key, overt_role
from games.rulesets.cards.engine.ruleset import CARDS, GM_OPS, collection_of
from games.rulesets.cards.wording import GM_OP_LABELS, OVERT_SUMMARIES, TARGET_LABELS, WHEN_LABELS, overt_ability_notes
from games.selectors.state import game_state
from games.wording import role_label

# The primitives the GM card dashboard's form offers: the engine's GM_OPS (the one definition,
# which the service checks an effect against) without "break_armour". The form has not offered it
# since the dashboard was built (it has no label in GM_OP_LABELS); the service and the engine still
# take it, from a scenario file or a hand-written POST. The offered set stays what it was.
FORM_GM_OPS: tuple[str, ...] = tuple(op for op in GM_OPS if op != "break_armour")


def overt_summary(name) -> str:
    """The one-line ability of an overt role as written in an application («Класс»), from the engine's
    registry (aliases, case and «ё» alike), or "" for a name of the player's own («В таком случае - не
    обладает дополнительными способностями»)."""
    role = overt_role(name)
    return str(OVERT_SUMMARIES.get(role.name, "")) if role is not None else ""


def overt_role_list() -> list[dict]:
    """The «Класс» list at signup: every overt role of the engine with its one-line ability, by name."""
    return [{"name": key, "summary": str(OVERT_SUMMARIES.get(key, ""))} for key in sorted(OVERT_ROLES)]


# The events a player reads on his cards page: his own results of past phases.
RESULT_KINDS = ("role", "team", "deck_refused", "deck_auto", "mafia_decks", "containers", "phase_report", "reveal",
                "message", "mafia_message", "ability")


def is_cards_game(game: Game) -> bool:
    """Whether the game is played with this rule set (its card pages exist for it)."""
    return game.ruleset == CARDS.key


def gm_op_choices() -> list[tuple[str, Any]]:
    """(primitive, label) of the dashboard's «apply by hand» form."""
    return [(op, GM_OP_LABELS[op]) for op in FORM_GM_OPS]


# --- Cards and collections ------------------------------------------------------------------------
def card_info(card) -> dict:
    """What the pages show of a card (a collection's Card)."""
    return {
        "name": card.name, "colour": card.colour, "colour_label": COLOUR_LABELS.get(card.colour, card.colour),
        "price": card.price, "free": card.free, "when": card.when, "when_label": WHEN_LABELS.get(card.when, card.when),
        "target": card.target, "target_label": TARGET_LABELS.get(card.target, card.target),
        "text": card.text, "message": any(e.op == "message" for e in card.effect),
        "resolved_by_gm": card.resolved_by_gm, "reusable": card.reusable, "deckable": card.deckable,
        "payable": card.payable,
    }


def card_row(collection, name: str) -> dict:
    """card_info of a card named in a standing input, or a bare row for a name the collection lacks."""
    card = collection.get(name)
    return card_info(card) if card is not None else {"name": name, "colour": "", "colour_label": "", "text": ""}


def colour_groups(collection) -> list[dict]:
    """Every card of a collection by colour, in the colours' order (the rules page)."""
    return [{"colour": colour, "label": COLOUR_LABELS[colour],
             "cards": [card_info(c) for c in collection.of_colour(colour)]} for colour in COLOURS]


def hero_no_damage_cards(game: Game, seat: Seat, names=None) -> list[str] | None:
    """For the hero, the cards whose damage he does not deal («Не может наносить урон никаким
    образом»): of `names` (his Hand and Sleeve), or the deckable ones of the collection he may take
    (no Урон card: «Не может брать карты Урона»). None for anybody else."""
    if seat.role != "hero":
        return None
    collection = game_collection(game)
    if names is None:
        names = [c.name for c in collection.cards.values() if c.deckable and c.colour != "damage"]
    return damaging_cards(collection, names)


def game_collection(game: Game):
    """The collection a game is played with: frozen in its state once started, else the GM's copy
    (game_set_collection), else the shipped one."""
    state = game_state(game)
    if state is not None:
        return collection_of(state)
    raw = (game.options or {}).get("collection")
    return parse_collection(raw, source="the game's collection") if raw is not None else default_collection()


def rules_collection(game: Game | None):
    """The collection the rules page shows: the game's, or without a game the shipped one."""
    return game_collection(game) if game is not None else default_collection()


def secret_role_rows(ruleset_key: str) -> list[dict]:
    """The secret roles with their deck rules, as the rules page lists them."""
    return [{"key": key, "name": role_label(ruleset_key, key), "colours": [COLOUR_LABELS[c] for c in spec.colours],
             "chooses": spec.chooses_colours, "off_colour_max": spec.off_colour_max,
             "per_colour_max": spec.per_colour_max, "banned": [COLOUR_LABELS[c] for c in spec.banned_colours],
             "start_sleeve": list(spec.start_sleeve)}
            for key, spec in SECRET_ROLES.items()]


def secret_role_keys() -> tuple[str, ...]:
    """The secret roles' keys in the engine's order (the joker's guess list)."""
    return tuple(SECRET_ROLES)


def colour_labels(colours) -> list[str]:
    """The words of colour keys, in the order given."""
    return [COLOUR_LABELS.get(c, c) for c in colours]


# --- Deck building --------------------------------------------------------------------------------
def deckable_names(collection) -> list[str]:
    """The cards a deck may hold, in the collection's order (the form's rows are their indexes)."""
    return [n for n in collection.names if collection[n].deckable]


def game_deckable_names(game: Game) -> list[str]:
    """deckable_names of the game's frozen collection (the game has started)."""
    return deckable_names(collection_of(game_state(game)))


def deck_list(counts: Counter, names: list[str]) -> list[str]:
    """The deck as a list of card names, copies repeated, in the collection's order."""
    return [name for name in names for _copy in range(counts[name])]


def chooses_colours(seat: Seat) -> int:
    """How many colours the seat's secret role chooses for its deck (0: the role's own)."""
    spec = SECRET_ROLES.get(seat.role)
    return spec.chooses_colours if spec else 0


def deck_figures(game: Game, seat: Seat, view, counts: Counter, colours: list[str], *, check: bool) -> dict:
    """The deck page's figures for the deck as the form holds it: the collection's deckable cards by
    colour with their counts, the running totals against the role's deck rules, and (`check`) the
    engine's refusals of that deck as codes (None unchecked)."""
    state = game_state(game)
    collection = collection_of(state)
    names = deckable_names(collection)
    cards = deck_list(counts, names)
    spec = SECRET_ROLES.get(seat.role)
    overt = CARDS.overt_of(state, seat.pk)
    rules = deck_rules_for(seat.role, overt) if spec else None
    chooses = spec.chooses_colours if spec else 0
    role_colours = set(colours if chooses else view.colours)
    refusals = CARDS.check_deck(state, seat.pk, cards, colours if chooses else None) if check else None
    by_colour = Counter()
    non_free = free = off = 0
    for name in cards:
        card = collection[name]
        by_colour[card.colour] += 1
        if card.free:
            free += 1
        else:
            non_free += 1
        if card.colour != NEUTRAL and card.colour not in role_colours:
            off += 1
    if rules is not None and rules.flex_price_min is not None:
        # Мот: his cards of Price 2+ count as free where the non-free are over (as validate_deck does).
        flex = sum(1 for name in cards if not collection[name].free and collection[name].price >= rules.flex_price_min)
        moved = min(max(non_free - rules.non_free, 0), flex)
        non_free, free = non_free - moved, free + moved
    index = {name: i for i, name in enumerate(names)}
    groups = []
    for colour in COLOURS:
        rows = [{**card_info(card), "index": index[card.name], "count": counts[card.name]}
                for card in collection.of_colour(colour) if card.deckable]
        if rows:
            groups.append({"colour": colour, "label": COLOUR_LABELS[colour], "cards": rows,
                           "mine": colour in role_colours, "count": by_colour[colour],
                           "banned": bool(rules and colour in rules.banned_colours)})
    summary = {
        "non_free": non_free, "non_free_needed": rules.non_free if rules else 15,
        "free": free, "free_max": rules.free_max if rules else 3,
        "off": off, "off_max": rules.off_colour_max if rules else 2,
        "per_colour_max": rules.per_colour_max if rules else None, "copies": rules.copies if rules else 2,
        "by_colour": [(COLOUR_LABELS[c], by_colour[c]) for c in COLOURS if by_colour[c]],
        "total": len(cards),
    }
    return {
        "groups": groups, "summary": summary, "refusals": refusals, "chooses": chooses,
        "colour_choices": [(c, COLOUR_LABELS[c]) for c in SIX_COLOURS],
        # Инженер: «Собирая Колоду, может выбрать из нее две карты» — the cards of this deck to choose from.
        "deck_picks": overt_role(overt).deck_picks if overt_role(overt) is not None else 0,
        "deck_cards": sorted(set(cards)),
        "role_colours": [COLOUR_LABELS[c] for c in COLOURS if c in role_colours],
    }


# --- Playing --------------------------------------------------------------------------------------
def card_targets(state, seat_pk: int, card_name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seat ids the engine would accept now as a card's first and second target."""
    first, second = CARDS.valid_targets(state, seat_pk, card_name)
    return tuple(first), tuple(second)


def prison_keep_cards(view) -> list[str]:
    """The maniac's Sleeve cards prison would take (not Aces, not his overt role's), each once."""
    return list(dict.fromkeys(card.name for card, overt in view.sleeve if not overt and card.name != ACE))


# --- Events ---------------------------------------------------------------------------------------
def result_events(user, game: Game, seat: Seat, *, limit: int = 80) -> QuerySet[GameEvent]:
    """The seat's own results of past phases that this user may read (his cards page), newest first."""
    events = permissions.filter_visible_card_events(user, game, seat, GameEvent.objects.select_related("phase"))
    return events.filter(kind__in=RESULT_KINDS).order_by("-created_at", "-pk")[:limit]


def hand_size_events(user, game: Game) -> QuerySet[GameEvent]:
    """The public Hand sizes after each past phase, oldest first (the game page's table)."""
    return permissions.filter_visible_events(user, game, GameEvent.objects.select_related("phase")).filter(
        kind="hand_sizes", audience="public").order_by("created_at", "pk")


# --- The overt role ("My role") -------------------------------------------------------------------
def overt_ability(game: Game, seat: Seat) -> dict | None:
    """The seat's overt role as his role page tells it: the name, the seed's sentence of what it
    does (the engine's OVERT_ROLES; empty for a name of the player's own, which «не обладает
    дополнительными способностями»), and what is left of a limited ability. None without a role."""
    state = game_state(game)
    in_game = state is not None and state.has_seat(seat.pk)
    name = CARDS.overt_of(state, seat.pk) if in_game else seat.overt_role
    if not name:
        return None
    role = overt_role(name)
    if role is None:
        return {"name": name, "seed": "", "notes": []}
    player = state.memory.get("players", {}).get(str(seat.pk), {}) if in_game else {}
    used = state.memory.get("abilities", {}).get(str(seat.pk), {}) if in_game else {}
    limited = [(key, max(0, spec.per_game - int((used.get(key) or {}).get("game", 0))), spec.per_game)
               for key, spec in CARDS.abilities.items()
               if spec.overt and overt_key(spec.overt) == overt_key(role.name) and spec.per_game]
    return {"name": role.name, "seed": role.seed, "notes": overt_ability_notes(role, player, limited)}
