"""What a player may do now and whether an input may stand: the actions, the orders, the plays and
their checks (zone, phase, targets, Price), the night discard, the Hand's order, the mafia message and
the joker's list. The close checks every input again with the same functions. Mixed into CardsRuleset.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from games.engine.orders import Order
from games.engine.rulesets.common import pick_seat
from games.engine.state import GameState
from games.rulesets.cards.engine.collection import Card
from games.rulesets.cards.engine.context import (
    DAY,
    DEAD,
    DECKBUILDING,
    HAND,
    NIGHT,
    NIGHT_DISCARD,
    SLEEVE,
    collection_of,
    has_link,
    living_other,
)
from games.rulesets.cards.engine.effects import Table
from games.rulesets.cards.engine.roles import JOKER, MAFIA, SECRET_ROLES, overt_role


class PlaysMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. The checks of inputs as they come in; the close
    (pipeline.py, steps.py) calls the same ones through `self`, so a subclass that changes a check changes it for
    both."""

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

    def player_view(self, state: GameState, seat: int) -> dict[str, Any]:
        """A player's own containers, for his pages: Hand (in order), Sleeve, deck size, restrictions,
        and the top of his deck when his overt role sees it (Экстрасенс, overt.py)."""
        return self.own_view(state, Table(copy.deepcopy(dict(state.memory)), collection_of(state)), seat)

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
        payment = self._payment(state, table, seat, card, zone, play.get("pay"), play.get("pay_hand"))
        return payment if isinstance(payment, str) else None

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
        reason = living_other(state, seat, first)
        if reason is not None:
            return reason
        if card.target == "two":
            if target2 is None:
                return "missing_second_target"
            second = pick_seat(state, target2)
            if second is None:
                return "bad_target"
            reason = living_other(state, seat, second)
            if reason is not None:
                return reason
            if second == first:
                return "same_targets"
        elif target2 is not None:
            return "unexpected_target"
        return None

    def price_of(self, state: GameState, table: Table, seat: int, card: Card, zone: str) -> int:
        """The Price this player pays for this card: none for a Free one. Read (docs/rulesets/cards.md,
        "Part 2 (b)"): a Free card («Свободная») is played without paying its Price. «Мот: Его карты с
        ценой 2 и более являются Свободными»; Фокусник: «После первой пересборки Колоды нижние две
        карты в ней становятся Свободными»."""
        hook = overt_role(self.overt_of(state, seat))
        if hook is not None and hook.free_price_min is not None and card.price >= hook.free_price_min:
            return 0
        if card.price and card.name in table.free_marks(seat, zone):
            return 0
        return card.price

    def price_for(self, state: GameState, seat: int, card_name: str, zone: str) -> int | None:
        """The Price this player pays now for this card of his zone (for the pages), None if unknown."""
        table = Table(copy.deepcopy(dict(state.memory)), collection_of(state))
        card = table.collection.get(card_name)
        return None if card is None else self.price_of(state, table, seat, card, zone)

    def hand_pay_left(self, state: GameState, seat: int) -> int:
        """How many cards this player may still pay from his Hand this phase (Культист: two)."""
        hook = overt_role(self.overt_of(state, seat))
        table = Table(copy.deepcopy(dict(state.memory)), collection_of(state))
        return max((hook.hand_pay if hook is not None else 0) - self.hand_paid(state, table, seat), 0)

    def hand_paid(self, state: GameState, table: Table, seat: int) -> int:
        """How many cards this player has paid from his Hand in the current phase (Культист)."""
        record = table.player(seat).get("hand_paid") or {}
        return int(record.get("n", 0)) if record.get("phase") == state.phase else 0

    def payment_for(self, state: GameState, seat: int, play: Mapping[str, Any], *, reserved: Any = (),
                    used: int = 0) -> tuple[list[str], list[str]] | str:
        """How this play would be paid now (the Sleeve cards, the Hand cards), or a REASONS code, with the
        player's other play of the phase in mind: `reserved` Hand cards it plays or pays with, `used` the
        Hand cards it pays with (Культист: «до двух карт в фазу» over both plays)."""
        table = Table(copy.deepcopy(dict(state.memory)), collection_of(state))
        card = table.collection.get(play.get("card")) if isinstance(play.get("card"), str) else None
        if card is None:
            return "unknown_card"
        return self._payment(state, table, seat, card, str(play.get("from")), play.get("pay"), play.get("pay_hand"),
                             reserved=reserved, used=used)

    def _payment(self, state: GameState, table: Table, seat: int, card: Card, zone: str, pay: Any,
                 pay_hand: Any = None, *, reserved: Any = (), used: int = 0) -> tuple[list[str], list[str]] | str:
        """«Цена»: that many Sleeve cards discarded to play the card; (the Sleeve cards, the Hand cards)
        that pay it, or a REASONS code. «Культист: Сбрасывая карты на оплату Цены, может сбросить до двух
        карт в фазу из Руки вместо Рукава»: `pay_hand` names them; without a choice, a Культист whose
        Sleeve is short pays the rest with the first cards of his Hand (the played card excepted)."""
        price = self.price_of(state, table, seat, card, zone)
        payable = table.payable(seat, exclude_one=card.name if zone == SLEEVE else None)
        hook = overt_role(self.overt_of(state, seat))
        may_hand = max((hook.hand_pay if hook is not None else 0) - self.hand_paid(state, table, seat) - used, 0)
        hand = list(table.hand(seat))
        if zone == HAND and card.name in hand:
            hand.remove(card.name)
        for name in reserved or ():  # what his other play of the phase plays or pays with
            if name in hand:
                hand.remove(name)
        from_hand: list[str] = []
        if pay_hand not in (None, []):
            if hook is None or not hook.hand_pay:
                return "no_hand_pay"
            if not isinstance(pay_hand, list) or not all(isinstance(c, str) for c in pay_hand):
                return "bad_payment"
            if len(pay_hand) > may_hand:
                return "hand_pay_limit"
            if len(pay_hand) > price:
                return "bad_payment"
            for name in pay_hand:
                if name not in hand:
                    return "bad_payment"
                hand.remove(name)
            from_hand = list(pay_hand)
        owed = price - len(from_hand)
        if pay is not None:
            if not isinstance(pay, list) or len(pay) != owed:
                return "bad_payment"
            left = list(payable)
            for name in pay:
                if name not in left:
                    return "bad_payment"
                left.remove(name)
            return list(pay), from_hand
        if len(payable) >= owed:
            return payable[:owed], from_hand
        short = owed - len(payable)
        if pay_hand is None and short <= may_hand and short <= len(hand):
            return list(payable), hand[:short]
        return "cannot_pay"

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
