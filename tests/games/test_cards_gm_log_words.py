"""The cards GM log speaks Russian (issue 29, item 12): every effect op the engine can emit (the
collection's primitives and the GM's own, read from the engine) is a sentence of the cards wording,
and no GM log line of a cards game — on the GM's dashboard or in the archive — shows a dict, a list
or an identifier («effect — {'op': 'give', 'target': 14, 'to': 'sleeve', 'card': 'Пистолет'}»)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.rulesets.cards.engine import collection
from games.rulesets.cards.engine.context import GM_OPS
from games.rulesets.cards.services import (REVEAL_WHAT, card_gm_deck_set, card_gm_effect_add, card_gm_effect_remove,
                                           card_gm_tie_break_set)
from games.rulesets.cards.wording import effect_text
from games.selectors.archive import gm_log_rows
from tests.conftest import client_for
from tests.games.test_cards_services import cards_game, to_day

pytestmark = pytest.mark.django_db

# Raw values a reader must never meet: a dict or list, a quoted key, an identifier (ASCII word).
_RAW_RE = re.compile(r"[{}\[\]']|[A-Za-z_]{2,}")


def _raw(text: str) -> list[str]:
    return _RAW_RE.findall(text)


def _gm_effects(target: int, viewer: int) -> list[dict]:
    """One or more GM effects per op of the engine's GM_OPS, each parameter's every value. A new
    op without a line here fails the test (KeyError): its words must be checked too."""
    by_op = {
        "damage": [{"n": 2}],
        "armour": [{"n": 1}],
        "break_armour": [{}],
        "draw": [{"n": 1, "to": to} for to in collection.ZONES_DRAW],
        "discard": [{"n": 1, "zone": zone} for zone in collection.ZONES_DISCARD],
        "reveal": [{"what": what, "viewer": viewer, **({"n": 2} if what == "deck_top" else {})} for what in REVEAL_WHAT],
        "message": [{"text": "Берегись"}],
        "give": [{"card": "Пистолет", "to": "sleeve"}],
        "block": [{}],
        "restrict": [{"n": 2}],
    }
    return [{"op": op, "target": target, **params} for op in GM_OPS for params in by_op[op]]


def _engine_effects(target: int, viewer: int) -> list[dict]:
    """Every primitive of the collection (collection.OPS) with each value of each enumerated
    parameter, and the GM's ops, as the engine's `play` events and the GM's log carry them."""
    effects = []
    for op, params in collection.OPS.items():
        variants: list[dict] = [{}]
        for name, (allowed, _default) in params.items():
            if isinstance(allowed, tuple):
                variants = [{**v, name: value} for v in variants for value in allowed]
            elif name == "n":
                variants = [{**v, "n": 2} for v in variants]
        effects += [{"op": op, "target": target, "viewer": viewer, **v} for v in variants]
    effects += [{"op": "steal", "target": target, "card": "Нож"}, {"op": "copy", "target": target, "card": "Нож"},
                {"op": "message", "target": target, "delivered": False},
                {"op": "discard", "target": target, "cards": ["Нож", "Кофе"], "zone": "hand"},
                {"op": "reveal", "target": target, "what": "role", "value": "boss"},
                {"op": "damage", "target": target, "n": 0, "reason": "hero_no_damage"}]
    return effects + _gm_effects(target, viewer)


def test_every_effect_op_the_engine_can_emit_is_a_russian_sentence():
    ops = set(collection.OPS) | set(GM_OPS)
    effects = _engine_effects(14, 15)
    assert {e["op"] for e in effects} == ops
    with translation.override("ru"):
        for effect in effects:
            text = effect_text(effect, {14: "Фроло", 15: "Эсмеральда"})
            assert not _raw(text), (effect, text)
            assert "Фроло" in text, (effect, text)
            assert "неизвестный" not in text.lower(), (effect, text)


def _log_lines(rows) -> list[str]:
    return [" ".join([row.label] + [f"{label}: {value}" for label, value in row.details]) for row in rows]


def test_the_cards_gm_log_words_every_gm_effect_and_decision_without_a_raw_value():
    game, gm, users, seats = cards_game(options={"tie_break": "gm"})
    phase = game.current_phase
    target, viewer = seats["Вася"].pk, seats["Петя"].pk
    for effect in _gm_effects(target, viewer):
        card_gm_effect_add(phase=phase, gm=gm, effect=effect)
    card_gm_effect_remove(phase=phase, gm=gm, index=0)
    to_day(game)
    game.refresh_from_db()
    card_gm_tie_break_set(phase=game.current_phase, gm=gm, seat_pk=seats["Маша"].pk)
    card_gm_tie_break_set(phase=game.current_phase, gm=gm, seat_pk=None)
    with translation.override("ru"):
        lines = _log_lines(gm_log_rows(gm, game))
    effect_lines = [line for line in lines if line.startswith("эффект карты вручную")]
    assert len(effect_lines) == len(_gm_effects(target, viewer))
    for line in lines:
        assert not _raw(line), line
    assert any("#1 Вася получает карту «Пистолет» в Рукав" in line for line in lines), lines
    assert sum("ничь" in line.lower() for line in lines) == 2 and any("#3 Маша" in line for line in lines), lines
    # The pages that show the log: the GM's dashboard and, once over, the archive.
    page = client_for(gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    log = page[page.index('class="archive-list gm-log"'):] if 'class="archive-list gm-log"' in page else page
    assert "{&#x27;op&#x27;" not in page and "{'op'" not in log


def test_the_cards_gm_log_words_the_decks_the_gm_builds():
    """«illegal_deck: gm»: the deck the GM builds for a player is logged as its cards, by name."""
    from games.rulesets.cards.engine.context import collection_of
    from games.rulesets.cards.engine.decks import starter_deck
    from games.selectors.state import game_state

    game, gm, _users, seats = cards_game(hands=False, options={"illegal_deck": "gm"})
    state = game_state(game)
    deck = starter_deck(state.seat(seats["Глаша"].pk).role, collection_of(state), random.Random(1))
    assert card_gm_deck_set(phase=game.current_phase, gm=gm, seat=seats["Глаша"], cards=deck) == []
    card_gm_deck_set(phase=game.current_phase, gm=gm, seat=seats["Глаша"], cards=None)
    with translation.override("ru"):
        lines = _log_lines(gm_log_rows(gm, game))
    for line in lines:
        assert not _raw(line), line
    first = next(c for c in deck)
    assert any("#4 Глаша" in line and first in line for line in lines), lines
    assert any("колоды сдаются случайно" in line for line in lines), lines
