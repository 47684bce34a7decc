"""The card collection of the `cards` rule set (seed 001_666f92ca90d279a9.txt): the shipped file loads
and validates, holds every card the seed names and six cards of each colour, and a broken file is
refused with errors that name the card and the field."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import jsonschema
import pytest
import yaml

from games.rulesets.cards.engine import (
    CARDS,
    SECRET_ROLES,
    CollectionError,
    collection_of,
    default_collection,
    load_collection,
    parse_collection,
    starter_deck,
    validate_deck,
)
from games.rulesets.cards.engine.collection import COLOURS, DEFAULT_COLLECTION_PATH, SCHEMA_PATH

# Every card the seed names (the list).
SEED_CARDS = [
    "Совет", "Пистолет", "Камера наблюдения", "Бункер", "Свидетель", "Маллиган", "Безлимитный тариф", "Пустышка",
    "Кофе", "Из последних сил", "Оракул", "Супергерой", "Письмо", "Аутопсия", "Пролом", "Боевое искусство",
    "Укол стимулятора", "Туз", "Отдел кадров",
]


def raw() -> dict:
    return yaml.safe_load(DEFAULT_COLLECTION_PATH.read_text(encoding="utf-8"))


def test_shipped_collection_loads_and_validates_when_read():
    collection = load_collection()
    assert collection is not None and len(collection.cards) >= 7 * 6
    assert default_collection().names == collection.names


def test_shipped_collection_fits_its_json_schema_when_checked():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(raw(), schema)


@pytest.mark.parametrize("name", SEED_CARDS)
def test_every_card_the_seed_names_is_in_the_collection(name):
    """«В игре доступна коллекция карт (см. приложение).» The appendix is missing; ours has the
    seed's cards."""
    card = default_collection()[name]
    assert card.text and card.origin in ("seed", "seed-name")
    if card.origin == "seed-name":
        assert card.seed_quote, f"{name}: say where the seed names it"


def test_each_colour_has_six_distinct_deckable_cards_when_counted():
    """«Каждая карта обладает одним из цветов: Урон, Разведка, Защита, Саботаж, Контроль, Поддержка,
    Нейтральный»"""
    counts = Counter(c.colour for c in default_collection().cards.values() if c.deckable)
    assert set(counts) == set(COLOURS)
    assert all(n >= 6 for n in counts.values()), counts


def test_bunker_gives_two_armour_as_the_seed_says():
    """«Вася играет Бункер и получает 2 брони.»"""
    card = default_collection()["Бункер"]
    assert card.target == "self" and [(e.op, e.n, e.who) for e in card.effect] == [("armour", 2, "self")]


def test_every_card_states_its_particulars_when_loaded():
    """Colour, Price, free or not, day or not, target rule and an effect of engine primitives."""
    for card in default_collection().cards.values():
        assert card.colour in COLOURS and card.price >= 0 and isinstance(card.free, bool)
        assert card.when in ("night", "any", "day") and card.target in ("self", "other", "two", "dead")
        for effect in card.effect:
            assert effect.op in ("damage", "armour", "break_armour", "draw", "discard", "reveal", "message", "block",
                                 "redirect", "steal", "copy", "restrict", "gm")


def test_collection_covers_every_primitive_and_a_gm_card_when_loaded():
    ops = {e.op for c in default_collection().cards.values() for e in c.effect}
    assert ops == {"damage", "armour", "break_armour", "draw", "discard", "reveal", "message", "block", "redirect",
                   "steal", "copy", "restrict", "gm"}
    assert any(c.resolved_by_gm for c in default_collection().cards.values())


def test_mulligan_and_ace_are_never_put_in_a_deck():
    """«вытягивают вместо этого карту "Маллиган"»; Туз comes from the joker."""
    assert not default_collection()["Маллиган"].deckable
    assert not default_collection()["Туз"].deckable


@pytest.mark.parametrize("role", sorted(SECRET_ROLES))
def test_starter_deck_is_legal_for_every_role(role):
    colours = ["damage", "support"] if role == "joker" else None
    for seed in range(5):
        deck = starter_deck(role, default_collection(), random.Random(seed), colours=colours)
        assert validate_deck(deck, role=role, collection=default_collection(), colours=colours) == []


def test_collection_survives_its_json_round_trip_when_frozen_into_a_game():
    """«A game's collection is frozen at its start»: the state carries its own copy."""
    collection = default_collection()
    assert parse_collection(json.loads(json.dumps(collection.to_json()))) == collection
    state, _ = CARDS.new_game([(1, "А", "boss"), (2, "Б", "sheriff"), (3, "В", "doctor")])
    assert collection_of(state) == collection


def test_game_uses_the_gms_edited_collection_when_given_as_an_option():
    data = raw()
    bunker = next(c for c in data["cards"] if c["name"] == "Бункер")
    bunker["effect"] = [{"op": "armour", "n": 3}]
    state, _ = CARDS.new_game([(1, "А", "boss"), (2, "Б", "sheriff"), (3, "В", "doctor")],
                              options={"collection": data})
    assert collection_of(state)["Бункер"].effect[0].n == 3
    assert "collection" not in state.options
    bunker["effect"] = [{"op": "armour", "n": 9}]  # a later edit never reaches the running game
    assert collection_of(state)["Бункер"].effect[0].n == 3


def broken(change) -> dict:
    data = copy.deepcopy(raw())
    change(data)
    return data


def card(data, name):
    return next(c for c in data["cards"] if c["name"] == name)


BROKEN = [
    (lambda d: card(d, "Бункер").update(colour="purple"), ["'Бункер'", "'colour'", "purple"]),
    (lambda d: card(d, "Пистолет").update(price=-1), ["'Пистолет'", "'price'"]),
    (lambda d: card(d, "Пистолет").update(price="two"), ["'Пистолет'", "'price'"]),
    (lambda d: card(d, "Кофе").pop("free"), ["'Кофе'", "'free'", "required"]),
    (lambda d: card(d, "Кофе").update(when="noon"), ["'Кофе'", "'when'"]),
    (lambda d: card(d, "Кофе").update(target="everyone"), ["'Кофе'", "'target'"]),
    (lambda d: card(d, "Кофе").update(colour_="x"), ["'Кофе'", "'colour_'"]),
    (lambda d: card(d, "Пистолет").update(effect=[{"op": "explode"}]), ["'Пистолет'", "'effect[0]'", "'op'"]),
    (lambda d: card(d, "Пистолет").update(effect=[{"op": "damage"}]), ["'Пистолет'", "'effect[0]'", "'n'"]),
    (lambda d: card(d, "Пистолет").update(effect=[{"op": "damage", "n": 0}]), ["'Пистолет'", "'n'"]),
    (lambda d: card(d, "Пистолет").update(effect=[{"op": "damage", "n": 1, "whom": "x"}]), ["'Пистолет'", "'whom'"]),
    (lambda d: card(d, "Бункер").update(effect=[{"op": "armour", "n": 2, "who": "target"}]), ["'Бункер'", "'who'"]),
    (lambda d: card(d, "Пистолет").update(effect=[{"op": "draw", "to": "pocket"}]), ["'Пистолет'", "'to'"]),
    (lambda d: card(d, "Наручники").update(effect=[{"op": "redirect", "which": "outgoing"}]),
     ["'Наручники'", "'which'"]),
    (lambda d: card(d, "Бункер").update(origin="seed", seed_quote=""), ["'Бункер'", "'seed_quote'"]),
    (lambda d: d["cards"].append(dict(card(d, "Нож"))), ["'Нож'", "'name'", "another card"]),
    (lambda d: d["cards"].append({"colour": "damage"}), ["card #", "'name'"]),
    (lambda d: d["cards"].remove(card(d, "Маллиган")), ["'Маллиган'"]),
    (lambda d: card(d, "Маллиган").update(deckable=True), ["'Маллиган'", "'deckable'"]),
    (lambda d: d.update(decks=[]), ["'decks'"]),
]


@pytest.mark.parametrize("change,needles", BROKEN, ids=[":".join(n[:2]) for _c, n in BROKEN])
def test_broken_collection_is_refused_naming_the_card_and_field(change, needles):
    with pytest.raises(CollectionError) as caught:
        parse_collection(broken(change), source="test")
    message = str(caught.value)
    for needle in needles:
        assert needle in message, message


def test_broken_collection_reports_every_error_at_once():
    def two(d):
        card(d, "Бункер")["price"] = -5
        card(d, "Кофе")["when"] = "noon"

    with pytest.raises(CollectionError) as caught:
        parse_collection(broken(two))
    assert len(caught.value.errors) == 2


def test_broken_collection_file_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("cards: [[\n", encoding="utf-8")
    with pytest.raises(CollectionError) as caught:
        load_collection(path)
    assert str(path) in str(caught.value) and "YAML" in str(caught.value)
    with pytest.raises(CollectionError):
        load_collection(tmp_path / "missing.yaml")


def test_new_game_refuses_a_broken_collection_option():
    data = broken(lambda d: card(d, "Бункер").update(price=-1))
    with pytest.raises(ValueError, match="Бункер"):
        CARDS.new_game([(1, "А", "boss"), (2, "Б", "sheriff"), (3, "В", "doctor")], options={"collection": data})
