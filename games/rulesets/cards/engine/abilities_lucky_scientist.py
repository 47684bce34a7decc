"""The overt roles' abilities of issue 17 on the registry of abilities.py:
Везунчик's redraws of night 1 (at once) and Учёный's discard of two (at the phase's end).
docs/rulesets/cards.md ("Part 2 (c)") explains the readings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.state import GameState
from games.rulesets.cards.engine.abilities import CLOSE, Ability, Act, register, uses
from games.rulesets.cards.engine.context import HAND, NIGHT, NIGHT_DISCARD, OPENING_HAND, _Close

LUCKY_REDRAW = "lucky_redraw"
SCIENTIST_DISCARD = "scientist_discard"
LUCKY_NIGHT = "night 1"  # «В первую ночь»
LUCKY_TIMES = 2  # «до двух раз»


def _hand(state: GameState, seat: int) -> list[str]:
    return list(state.memory.get("players", {}).get(str(seat), {}).get("hand", ()))


# -- Везунчик: «В первую ночь может до двух раз отменить пришедшие ему 6 карт, перемешать колоду, и
# набрать 6 карт снова» --------------------------------------------------------------------------------


def _lucky_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    if state.phase != LUCKY_NIGHT:
        return "first_night_only"
    if not _hand(state, seat):
        return "empty_hand"
    return None


def _lucky_ready(_rs: Any, state: GameState, seat: int) -> bool:
    return state.phase == LUCKY_NIGHT and bool(_hand(state, seat))


def _lucky_apply(_rs: Any, act: Act) -> None:
    """His Hand goes back into his deck, the deck is shuffled with the act's seed (the site's phase
    seed and the count of the phase's at-once uses: deterministic), and he draws 6 again from the
    top. A play he had standing with a card that left the Hand is refused at the close
    (`not_in_hand`), as any stale play."""
    player = act.table.player(act.seat)
    returned = list(player["hand"])
    deck = returned + list(player["deck"])
    act.rng.shuffle(deck)
    player["hand"], player["deck"] = [], deck
    for _ in range(OPENING_HAND):
        act.table.draw(act.seat, HAND)
    used, _in_phase = uses(act.memory, act.seat, LUCKY_REDRAW, act.state.phase)
    act.result.update(returned=returned, hand=list(player["hand"]), deck_size=len(player["deck"]),
                      left=max(0, LUCKY_TIMES - used - 1))


register(Ability(
    key=LUCKY_REDRAW, overt="Везунчик", phases=(NIGHT,), per_game=LUCKY_TIMES,
    seed="В первую ночь может до двух раз отменить пришедшие ему 6 карт, перемешать колоду, и набрать 6 карт снова",
    check=_lucky_check, ready=_lucky_ready, apply=_lucky_apply,
))


# -- Учёный: «Раз за игру, ночью может сбросить две карты из руки, добирая на замену, даже если играет
# какие-нибудь карты» ----------------------------------------------------------------------------------


def _two_of_hand(hand: list[str], cards: Any) -> str | None:
    """The night discard's own checks (plays.py `_check_discard`): exactly two cards, both in the Hand."""
    if not isinstance(cards, list) or len(cards) != NIGHT_DISCARD or not all(isinstance(c, str) for c in cards):
        return "discard_count"
    left = list(hand)
    for card in cards:
        if card not in left:
            return "discard_not_in_hand"
        left.remove(card)
    return None


def _scientist_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    return _two_of_hand(_hand(state, seat), data.get("cards"))


def _scientist_choices(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"cards": list(dict.fromkeys(_hand(state, seat)))}


def _scientist_ready(_rs: Any, state: GameState, seat: int) -> bool:
    return len(_hand(state, seat)) >= NIGHT_DISCARD


def _scientist_close(_rs: Any, ctx: _Close, seat: int, data: Mapping[str, Any]) -> str | None:
    """Taken right after the plays and the ordinary night discard: the two cards must still be in
    the Hand (a card played from the Hand, or discarded the ordinary way, has left it). They go to
    the graveyard and two replacements are owed — like the night discard's, so the phase's damage
    cancels them first («вместо сброса карт он просто не добирает новых») — but a play stands beside
    it («даже если играет какие-нибудь карты»)."""
    cards = data.get("cards")
    reason = _two_of_hand(ctx.table.hand(seat), cards)
    if reason is not None:
        return reason
    for card in cards:
        ctx.table.remove_from_hand(seat, card)
        ctx.table.graveyard(seat).append(card)
    ctx.pending[seat] = ctx.pending.get(seat, 0) + NIGHT_DISCARD
    ctx.ability_notes[(seat, SCIENTIST_DISCARD)] = {"cards": list(cards)}
    return None


register(Ability(
    key=SCIENTIST_DISCARD, overt="Учёный", phases=(NIGHT,), per_game=1, when=CLOSE, fields=("cards",),
    seed="Раз за игру, ночью может сбросить две карты из руки, добирая на замену, даже если играет какие-нибудь карты.",
    check=_scientist_check, choices=_scientist_choices, ready=_scientist_ready, close=_scientist_close,
))

__all__ = ["LUCKY_REDRAW", "SCIENTIST_DISCARD"]
