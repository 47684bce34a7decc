"""The neutrals' and overt roles' abilities of issue 17 that helper A builds on the registry of
abilities.py: the maniac's swap (at once), his night Sleeve discard (phase end) and his kill-draw
(at the close), the geek's card of choice, the marauder's copies, and the joker's list judged at
once. docs/rulesets/cards.md ("Part 2 (a)") explains the readings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.state import GameState
from games.rulesets.cards.engine.abilities import Ability, Act, register
from games.rulesets.cards.engine.context import DAY, NIGHT

MANIAC_SWAP = "maniac_swap"


def _player(state: GameState, seat: int) -> Mapping[str, Any]:
    return state.memory.get("players", {}).get(str(seat), {})


def _hand(state: GameState, seat: int) -> list[str]:
    return list(_player(state, seat).get("hand", ()))


def _sleeve(state: GameState, seat: int) -> list[str]:
    return [item.get("card") for item in _player(state, seat).get("sleeve", ())]


# -- the maniac's swap: «Может в любой момент мгновенно поменять местами карту из Руки и карту из Рукава» --


def _swap_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    card, sleeve_card = data.get("card"), data.get("sleeve_card")
    if not isinstance(card, str) or not isinstance(sleeve_card, str):
        return "bad_input"
    if card not in _hand(state, seat):
        return "not_in_hand"
    if sleeve_card not in _sleeve(state, seat):
        return "not_in_sleeve"
    return None


def _swap_choices(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"card": sorted(set(_hand(state, seat))), "sleeve_card": sorted(set(_sleeve(state, seat)))}


def _swap_ready(_rs: Any, state: GameState, seat: int) -> bool:
    return bool(_hand(state, seat)) and bool(_sleeve(state, seat))


def _swap_apply(_rs: Any, act: Act) -> None:
    """The Sleeve card takes the Hand card's place in the Hand order (damage discards from the
    front), the Hand card takes the Sleeve card's place in the Sleeve (as an ordinary card: it may
    pay a Price)."""
    card, sleeve_card = act.data["card"], act.data["sleeve_card"]
    hand, sleeve = act.table.hand(act.seat), act.table.sleeve(act.seat)
    i = hand.index(card)
    j = next(k for k, item in enumerate(sleeve) if item["card"] == sleeve_card)
    hand[i] = sleeve_card
    sleeve[j] = {"card": card, "overt": False}
    act.result.update(card=card, sleeve_card=sleeve_card, hand=list(hand), sleeve=act.table.sleeve_names(act.seat))


register(Ability(
    key=MANIAC_SWAP, secret="maniac", phases=(NIGHT, DAY), fields=("card", "sleeve_card"),
    seed="Может в любой момент мгновенно поменять местами карту из Руки и карту из Рукава",
    check=_swap_check, choices=_swap_choices, ready=_swap_ready, apply=_swap_apply,
))

__all__ = ["MANIAC_SWAP"]
