"""The players' card containers (deck, Hand, Sleeve) and the engine primitives that card effects and
the GM's hand-resolution are made of.

Containers live in the state's memory, `memory["players"][str(seat)]`:

    {"deck": [card, ...],            # top first; [] = empty, the owner may rebuild
     "hand": [card, ...],            # in Hand order (damage discards from the front)
     "sleeve": [{"card": name, "overt": bool}, ...],   # overt: given by the overt role
     "graveyard": [card, ...],       # every card spent, paid, discarded or lost, in order
     "built": bool, "colours": [...], "restricted": int, "mafia_message": bool, "rebuilds": int}

Every function here changes the containers in place; the rule set deep-copies memory before a
close, so a past state is never changed.
"""

from __future__ import annotations

import random
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from games.rulesets.cards.engine.collection import ACE, MULLIGAN, Collection, Effect

__all__ = ["Instance", "Table", "new_player"]


def new_player() -> dict[str, Any]:
    return {
        "deck": [], "hand": [], "sleeve": [], "graveyard": [], "built": False, "colours": [], "restricted": 0,
        "mafia_message": True, "rebuilds": 0,
    }


class Table:
    """Read and change the players' containers in a memory mapping."""

    def __init__(self, memory: MutableMapping[str, Any], collection: Collection) -> None:
        self.players: MutableMapping[str, dict[str, Any]] = memory.setdefault("players", {})
        self.collection = collection

    def player(self, seat: int) -> dict[str, Any]:
        return self.players.setdefault(str(seat), new_player())

    def hand(self, seat: int) -> list[str]:
        return self.player(seat)["hand"]

    def deck(self, seat: int) -> list[str]:
        return self.player(seat)["deck"]

    def sleeve(self, seat: int) -> list[dict[str, Any]]:
        return self.player(seat)["sleeve"]

    def sleeve_names(self, seat: int) -> list[str]:
        return [item["card"] for item in self.sleeve(seat)]

    def graveyard(self, seat: int) -> list[str]:
        return self.player(seat)["graveyard"]

    # -- moving cards --------------------------------------------------------------------------

    def draw(self, seat: int, to: str = "hand") -> str:
        """«Всякий раз, как правила диктуют тянуть карту из колоды, тянется верхняя.» From an empty
        deck: «вытягивают вместо этого карту "Маллиган"»."""
        deck = self.deck(seat)
        player = self.player(seat)
        bottom = int(player.get("free_bottom", 0))
        if deck and bottom and len(deck) <= bottom:
            # Фокусник: one of the Free bottom cards of his deck is drawn, and stays Free.
            player["free_bottom"] = bottom - 1
            player.setdefault("free_marks", {}).setdefault(to, []).append(deck[0])
        card = deck.pop(0) if deck else MULLIGAN
        self.put(seat, card, to)
        return card

    def free_marks(self, seat: int, zone: str) -> list[str]:
        """The cards of a zone marked Free (Фокусник: «После первой пересборки Колоды нижние две карты
        в ней становятся Свободными»): the marks of that zone, as far as the zone still holds such
        cards (copies of one card are alike: a mark is on one of them)."""
        marks = self.player(seat).get("free_marks", {}).get(zone, [])
        left = list(self.hand(seat)) if zone == "hand" else self.sleeve_names(seat)
        out = []
        for name in marks:
            if name in left:
                left.remove(name)
                out.append(name)
        return out

    def use_free_mark(self, seat: int, zone: str, card: str) -> None:
        marks = self.player(seat).get("free_marks", {}).get(zone, [])
        if card in marks:
            marks.remove(card)

    def free_bottom(self, seat: int) -> int:
        """How many cards at the bottom of the deck are Free (Фокусник), as far as the deck holds them."""
        return min(int(self.player(seat).get("free_bottom", 0)), len(self.deck(seat)))

    def put(self, seat: int, card: str, to: str, *, overt: bool = False) -> None:
        if to == "sleeve":
            self.sleeve(seat).append({"card": card, "overt": overt})
        else:
            self.hand(seat).append(card)

    def discard_hand_front(self, seat: int, n: int) -> list[str]:
        """«Карты из Руки сбрасываются в том порядке, в котором они в ней расположены»."""
        hand = self.hand(seat)
        gone = hand[:n]
        del hand[:n]
        self.graveyard(seat).extend(gone)
        return gone

    def discard_sleeve_front(self, seat: int, n: int) -> list[str]:
        sleeve = self.sleeve(seat)
        gone = [item["card"] for item in sleeve[:n]]
        del sleeve[:n]
        self.graveyard(seat).extend(gone)
        return gone

    def discard_deck_top(self, seat: int, n: int) -> list[str]:
        deck = self.deck(seat)
        gone = deck[:n]
        del deck[:n]
        player = self.player(seat)
        if int(player.get("free_bottom", 0)) > len(deck):
            player["free_bottom"] = len(deck)
        self.graveyard(seat).extend(gone)
        return gone

    def remove_from_hand(self, seat: int, card: str) -> bool:
        hand = self.hand(seat)
        if card in hand:
            hand.remove(card)
            return True
        return False

    def remove_from_sleeve(self, seat: int, card: str) -> dict[str, Any] | None:
        sleeve = self.sleeve(seat)
        for i, item in enumerate(sleeve):
            if item["card"] == card:
                return sleeve.pop(i)
        return None

    def payable(self, seat: int, *, exclude_one: str | None = None) -> list[str]:
        """Sleeve cards that may pay a Price, in Sleeve order: «Карты, добавленные в Рукав этими
        ролями, нельзя сбрасывать на оплату Цены» unless the card says so (Пустышка)."""
        out = []
        skipped = False
        for item in self.sleeve(seat):
            if exclude_one is not None and not skipped and item["card"] == exclude_one:
                skipped = True
                continue
            card = self.collection.get(item["card"])
            if not item.get("overt") or (card is not None and card.payable):
                out.append(item["card"])
        return out

    def pay(self, seat: int, cards: list[str]) -> None:
        """Discard these Sleeve cards (already checked to be payable) to pay a Price; non-overt
        copies go first."""
        sleeve = self.sleeve(seat)
        for card in cards:
            index = next((i for i, it in enumerate(sleeve) if it["card"] == card and not it.get("overt")), None)
            if index is None:
                index = next(i for i, it in enumerate(sleeve) if it["card"] == card)
            sleeve.pop(index)
            self.graveyard(seat).append(card)

    def take_random(self, seat: int, zone: str, rng: random.Random) -> str | None:
        """A random card out of a Hand or Sleeve (steal)."""
        if zone == "hand":
            hand = self.hand(seat)
            if not hand:
                return None
            return hand.pop(rng.randrange(len(hand)))
        sleeve = self.sleeve(seat)
        if not sleeve:
            return None
        return sleeve.pop(rng.randrange(len(sleeve)))["card"]

    def peek_random(self, seat: int, zone: str, rng: random.Random) -> str | None:
        cards = self.hand(seat) if zone == "hand" else self.sleeve_names(seat)
        return cards[rng.randrange(len(cards))] if cards else None

    def remove_aces(self) -> dict[int, int]:
        """«все карты Туз исчезают»: from every Hand, Sleeve and deck. Seat -> how many vanished."""
        gone: dict[int, int] = {}
        for key, player in self.players.items():
            before = len(player["hand"]) + len(player["sleeve"]) + len(player["deck"])
            player["hand"] = [c for c in player["hand"] if c != ACE]
            player["sleeve"] = [it for it in player["sleeve"] if it["card"] != ACE]
            player["deck"] = [c for c in player["deck"] if c != ACE]
            after = len(player["hand"]) + len(player["sleeve"]) + len(player["deck"])
            if after != before:
                gone[int(key)] = before - after
        return gone

    def view(self, seat: int) -> dict[str, Any]:
        """What the owner sees of his containers (deck size only: the order is secret even to him)."""
        player = self.player(seat)
        view = {
            "hand": list(player["hand"]),
            "sleeve": [item["card"] for item in player["sleeve"]],
            "sleeve_from_overt": [item["card"] for item in player["sleeve"] if item.get("overt")],
            "deck_size": len(player["deck"]),
            "can_rebuild": not player["deck"],
            "restricted": int(player.get("restricted", 0)),
        }
        if "free_marks" in player or "free_bottom" in player:
            # Фокусник: «На карте видно, является ли она Свободной».
            view.update(free_hand=self.free_marks(seat, "hand"), free_sleeve=self.free_marks(seat, "sleeve"),
                        free_deck_bottom=self.free_bottom(seat))
        return view


@dataclass
class Instance:
    """One primitive about to happen at this close: from a played card (play index) or from the GM
    (`play is None`). `target` is whom it acts on after blocks and redirects."""

    op: str
    actor: int | None
    target: int | None
    play: int | None = None
    n: int = 1
    to: str = "hand"
    zone: str = "hand"
    what: str = ""
    which: str = ""
    note: str = ""
    card: str = ""  # GM `give`
    text: str = ""  # message text
    viewer: int | None = None  # reveal: who learns (the actor for cards)
    who: str = "target"
    second: int | None = None  # redirect outgoing: where the target's plays go
    cancelled: str | None = None  # why it does not happen ("blocked")
    redirected_from: int | None = None

    @classmethod
    def from_effect(cls, effect: Effect, *, play: int, actor: int, target: int | None, target2: int | None,
                    text: str = "") -> Instance:
        whom = {"self": actor, "target": target, "target2": target2}[effect.who]
        return cls(
            op=effect.op, actor=actor, target=whom, play=play, n=effect.n, to=effect.to, zone=effect.zone,
            what=effect.what, which=effect.which, note=effect.note, text=text, viewer=actor, who=effect.who,
            second=target2,
        )

    @property
    def live(self) -> bool:
        return self.cancelled is None


@dataclass
class Ledger:
    """What happened to each seat at one close, for the events and the outcome."""

    damage: dict[int, int] = field(default_factory=dict)
    armour: dict[int, int] = field(default_factory=dict)
    broken: set[int] = field(default_factory=set)
    discarded: dict[int, list[str]] = field(default_factory=dict)  # by damage
    lost: dict[int, list[str]] = field(default_factory=dict)  # by discard effects, prison, theft
    gained: dict[int, list[str]] = field(default_factory=dict)  # stolen / copied / given into a zone
    drawn: dict[int, list[str]] = field(default_factory=dict)
    absorbed: dict[int, int] = field(default_factory=dict)  # replacements the damage cancelled
    restricted: dict[int, int] = field(default_factory=dict)

    @staticmethod
    def add(book: dict[int, Any], seat: int, value: Any) -> None:
        """Add a number to a seat's count, or cards to a seat's list."""
        if isinstance(value, list):
            book.setdefault(seat, []).extend(value)
        else:
            book[seat] = book.get(seat, 0) + value
