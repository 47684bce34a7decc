"""Deck building: a submitted deck's refusals and the close of the deck-building phase (a legal deck
dealt to whoever has none at the deadline). Mixed into CardsRuleset.
"""

from __future__ import annotations

from typing import Any

from games.engine.events import GM, Event, seat_audience
from games.engine.rulesets.common import ref as _ref
from games.engine.state import GameState
from games.rulesets.cards.engine.collection import COLOURS, NEUTRAL
from games.rulesets.cards.engine.context import _Close, _deck_input, _mapping_by_seat, collection_of
from games.rulesets.cards.engine.decks import Refusal, starter_deck, validate_deck
from games.rulesets.cards.engine.roles import SECRET_ROLES, overt_role, valid_chosen_colours


class DeckbuildingMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. Deck refusals and the deck-building close; the opening draw
    comes from OpeningMixin."""

    def check_deck(self, state: GameState, seat: int, cards: Any, colours: Any = None) -> list[Refusal]:
        """Every refusal of a deck this seat submits now (deck building, or a rebuild of an empty
        deck); an empty list when it may stand."""
        seat_state = state.seat(seat)
        return validate_deck(cards, role=seat_state.role, collection=collection_of(state),
                             colours=list(colours) if isinstance(colours, (list, tuple)) else colours,
                             overt=self.overt_of(state, seat))

    def check_picks(self, state: GameState, seat: int, cards: Any, picks: Any) -> str | None:
        """«Инженер/Механик: Собирая Колоду, может выбрать из нее две карты. Эти карты гарантированно
        будут среди 6 сданных карт.» None if `picks` (up to the role's number of cards, each a card of
        `cards`, copies counted) may stand with this deck, else `bad_picks`."""
        if picks in (None, []):
            return None
        hook = overt_role(self.overt_of(state, seat))
        allowed = hook.deck_picks if hook is not None else 0
        if not isinstance(picks, list) or not isinstance(cards, (list, tuple)) or len(picks) > allowed:
            return "bad_picks"
        left = list(cards)
        for name in picks:
            if name not in left:
                return "bad_picks"
            left.remove(name)
        return None

    def _gm_deck(self, ctx: _Close, seat: Any, player: dict) -> list[str] | None:
        """The GM's option `illegal_deck` = `gm`: the deck the GM built for a player who has no legal
        one at the deadline (`PhaseInputs.gm["decks"][seat]`, checked with the same deck rules); None
        (a random legal deck, and the GM told why) when the GM built none or an illegal one."""
        if ctx.state.options.get("illegal_deck", "random") != "gm":
            return None
        given = _mapping_by_seat(ctx.state, (ctx.inputs.gm or {}).get("decks")).get(seat.id)
        if given is None:
            ctx.gm_note("gm_effect_ignored", op="deck", seat=seat.id, name=seat.name, reason="no_gm_deck")
            return None
        cards, _colours = _deck_input(given)
        if self.check_deck(ctx.state, seat.id, cards, player.get("colours") or None):
            ctx.gm_note("gm_effect_ignored", op="deck", seat=seat.id, name=seat.name, reason="bad_gm_deck")
            return None
        return list(cards)

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
            picks = decks.get(seat.id, {}).get("picks") if isinstance(decks.get(seat.id), dict) else None
            if refusals == []:
                deck = list(cards)
                if picks and self.check_picks(state, seat.id, deck, picks) is None:
                    player["picks"] = list(picks)
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
                deck, by = self._gm_deck(ctx, seat, player), "gm"
                if deck is None:
                    deck, by = starter_deck(seat.role, table.collection, ctx.rng, colours=player["colours"] or None,
                                            overt=self.overt_of(state, seat.id)), "random"
                data = {**_ref(seat), "deck": sorted(deck), "colours": list(player["colours"]), "by": by}
                ctx.events.append(Event("deck_auto", seat_audience(seat.id), data))
                ctx.events.append(Event("deck_auto", GM, data))
            ctx.rng.shuffle(deck)
            player["deck"], player["built"] = deck, True
            self._opening_draw(self.overt_of(state, seat.id), table, seat)
