"""Issue 14, item 15: «A deck refused at the deadline is replaced by a random one whose opening Hand
the player cannot pay for.» The deck dealt at the deadline must be legal («15 несвободных карт, 0-3
свободных карт. Не больше 2 копий одной карты. Карт цветов, не соответствующих роли и не
нейтральных, можно взять не более 2 в сумме.») and playable: every card of the opening Hand has a
Price its player can pay from his opening Sleeve («Цена»: Sleeve cards discarded to play it; the
cards an overt role gives do not pay)."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from games.engine.orders import PhaseInputs
from games.rulesets.cards.engine import CARDS, SECRET_ROLES, default_collection, starter_deck, validate_deck
from games.rulesets.cards.engine.effects import Table
from games.rulesets.cards.engine.roles import SIX_COLOURS

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("role", sorted(SECRET_ROLES))
def test_starter_deck_is_legal_and_payable_when_drawn_with_many_seeds(role):
    collection = default_collection()
    spec = SECRET_ROLES[role]
    for seed in range(200):
        rng = random.Random(seed)
        colours = sorted(rng.sample(SIX_COLOURS, spec.chooses_colours)) if spec.chooses_colours else None
        deck = starter_deck(role, collection, rng, colours=colours)
        assert validate_deck(deck, role=role, collection=collection, colours=colours) == [], (role, seed)
        # The opening Sleeve pays nothing (the roles' cards do not pay): every card must be free of Price.
        assert [c for c in deck if collection[c].price] == [], (role, seed, deck)


@pytest.mark.parametrize("seed", range(40))
def test_refused_deck_is_reported_and_replaced_by_a_payable_one_when_the_deck_building_closes(seed):
    """The refused deck's every problem goes to its player (`deck_refused`), the dealt deck too
    (`deck_auto`), and each card of the opening Hand can be paid for."""
    roles = ["sheriff", "boss", "maniac", "joker", "hero", "traitor", "policeman", "detective"]
    seats = [(i + 1, f"P{i + 1}", role) for i, role in enumerate(roles)]
    state, _events = CARDS.new_game(seats, seed=seed)
    bad = {1: ["Пистолет"] * 3, 4: {"cards": ["Нож"], "colours": ["damage", "damage"]}}
    result = CARDS.resolve(state, PhaseInputs(extra={"decks": bad}), seed=seed, now=NOW)
    refused = {e.data["seat"] for e in result.events
               if e.kind == "deck_refused" and e.audience == f"seat:{e.data['seat']}"}
    assert refused == {1, 4}
    dealt = {e.data["seat"]: e.data for e in result.events if e.kind == "deck_auto" and e.audience.startswith("seat:")}
    assert set(dealt) == {s[0] for s in seats}
    new = result.state
    table = Table(dict(new.memory), default_collection())
    for seat_id, _name, _role in seats:
        payable = len(table.payable(seat_id))
        for card in table.hand(seat_id):
            assert default_collection()[card].price <= payable, (seed, seat_id, card)
        assert sorted(dealt[seat_id]["deck"]) == sorted(table.deck(seat_id) + table.hand(seat_id)
                                                        + [c for c in table.sleeve_names(seat_id)
                                                           if c not in ("Туз", "Оракул")])
