"""The neutrals' and overt roles' abilities of issue 17 on the registry of
abilities.py: the maniac's swap (at once), his night Sleeve discard (phase end) and his kill-draw
(at the close), the geek's card of choice, the marauder's copies, and the joker's list judged at
once. docs/rulesets/cards.md ("Part 2 (a)") explains the readings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.events import GM, PUBLIC, Event
from games.engine.rulesets.common import ref as _ref
from games.engine.state import GameState
from games.rulesets.cards.engine.abilities import CLOSE, Ability, Act, other_living_target, register, seat_field
from games.rulesets.cards.engine.context import DAY, DEAD, LEFT, NIGHT, SLEEVE, _Close, collection_of
from games.rulesets.cards.engine.effects import Instance
from games.rulesets.cards.engine.roles import JOKER, MANIAC

MANIAC_SWAP = "maniac_swap"
MANIAC_STRIKE = "maniac_strike"
GEEK_CARD = "geek_card"
MARAUDER_COPY = "marauder_copy"
JOKER_LIST = "joker_list"
MANIAC_DAMAGE, MANIAC_ARMOUR = 2, 3  # «нанести 2 урона или получить 3 брони»
KILL_DRAW = 2  # «тянет 2 карты из Колоды в Рукав»


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



# -- the maniac's night: «Ночью может сбросить карту из Рукава и нанести 2 урона или получить 3 брони» --


def _strike_check(rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    card, mode = data.get("card"), data.get("mode")
    if not isinstance(card, str) or mode not in ("damage", "armour"):
        return "bad_input"
    if card not in _sleeve(state, seat):
        return "not_in_sleeve"
    if mode == "armour":
        return None  # to himself: a target given with it is ignored
    return other_living_target(state, seat, data)  # «Целью можно выбрать любого живого персонажа, кроме себя.»


def _strike_choices(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"card": sorted(set(_sleeve(state, seat))), "mode": ["damage", "armour"],
            "target": [s.id for s in state.seats if s.is_active and s.id != seat]}


def _strike_ready(_rs: Any, state: GameState, seat: int) -> bool:
    return bool(_sleeve(state, seat))


def _strike_close(_rs: Any, ctx: _Close, seat: int, data: Mapping[str, Any]) -> str | None:
    """The Sleeve card is discarded at the close (after the plays took theirs: a card spent on a
    play is no longer there), then 2 damage to the target or 3 armour to himself, counted with the
    cards' damage and armour. Not a card: a block does not stop it, a redirect does not move it."""
    card = str(data["card"])
    if ctx.table.remove_from_sleeve(seat, card) is None:
        return "not_in_sleeve"
    ctx.table.graveyard(seat).append(card)
    ctx.ledger.add(ctx.ledger.lost, seat, [card])
    if data["mode"] == "damage":
        target = seat_field(ctx.state, data)
        ctx.instances.append(Instance(op="damage", actor=seat, target=target, n=MANIAC_DAMAGE, who="target"))
        note = {"card": card, "mode": "damage", "n": MANIAC_DAMAGE, "target_name": ctx.name(target)}
    else:
        ctx.instances.append(Instance(op="armour", actor=seat, target=seat, n=MANIAC_ARMOUR, who="self"))
        note = {"card": card, "mode": "armour", "n": MANIAC_ARMOUR}
    ctx.ability_notes[(seat, MANIAC_STRIKE)] = note
    return None


register(Ability(
    key=MANIAC_STRIKE, secret="maniac", phases=(NIGHT,), when=CLOSE, per_phase=1, fields=("card", "mode", "target"),
    seed="Ночью может сбросить карту из Рукава и нанести 2 урона или получить 3 брони.",
    check=_strike_check, choices=_strike_choices, ready=_strike_ready, close=_strike_close,
))


def maniac_kill_draw(ctx: _Close) -> None:
    """«Если персонаж, по которому Маньяк наносил урон ночью, умер по ее итогам, то Маньяк также
    тянет 2 карты из Колоды в Рукав.» At a night's close, after the deaths: for each character who
    died of it and at whom a damage of the maniac acted (his cards' or his Sleeve discard's, after
    blocks and redirects; armour may have absorbed it), a living maniac draws 2 cards from his deck
    into his Sleeve (from an empty deck, «Маллиган»)."""
    if ctx.kind != NIGHT or not ctx.dead:
        return
    for seat in ctx.alive_at_start:
        if ctx.seat(seat).role != MANIAC or not ctx.alive(seat):
            continue
        victims = [d for d in ctx.dead if d != seat and any(
            i.op == "damage" and i.live and i.actor == seat and i.target == d and i.n > 0 for i in ctx.instances)]
        for victim in victims:
            cards = [ctx.table.draw(seat, SLEEVE) for _ in range(KILL_DRAW)]
            ctx.ledger.add(ctx.ledger.gained, seat, cards)
            ctx.report(seat).setdefault("kill_draws", []).append({"victim": ctx.name(victim), "cards": cards})
            ctx.gm_note("maniac_kill_draw", **_ref(ctx.seat(seat)), victim=ctx.name(victim), cards=cards)


# -- the geek: «Один раз за игру в любой момент может получить в Рукав любую карту, на выбор» --------


def _geek_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    card = data.get("card")
    if not isinstance(card, str):
        return "bad_input"
    return None if card in collection_of(state) else "unknown_card"


def _geek_choices(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"card": sorted(collection_of(state).names)}


def _geek_apply(_rs: Any, act: Act) -> None:
    """Any card of the game's collection, into the Sleeve as a card the overt role added: «Карты,
    добавленные в Рукав этими ролями, нельзя сбрасывать на оплату Цены» (unless the card says it
    pays, like Пустышка)."""
    card = act.data["card"]
    act.table.put(act.seat, card, SLEEVE, overt=True)
    act.result.update(card=card, sleeve=act.table.sleeve_names(act.seat))


register(Ability(
    key=GEEK_CARD, overt="Гик", phases=(NIGHT, DAY), per_game=1, fields=("card",),
    seed="Один раз за игру в любой момент может получить в Рукав любую карту, на выбор.",
    check=_geek_check, choices=_geek_choices, apply=_geek_apply,
))


# -- the marauder: «Один раз за игру может мгновенно выбрать мертвого персонажа и получить копии всех
#    карт из его Рукава себе в Рукав» ---------------------------------------------------------------


def _dead(state: GameState) -> list[int]:
    return [s.id for s in state.seats if s.status == DEAD]


def _marauder_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    if data.get("target") is None:
        return "missing_target"
    target = seat_field(state, data)
    if target is None:
        return "bad_target"
    return None if state.seat(target).status == DEAD else "target_not_dead"


def _marauder_apply(_rs: Any, act: Act) -> None:
    """Copies of every card of the dead character's Sleeve as it is now (his own Sleeve is left as
    it is), as cards the overt role added (they do not pay a Price)."""
    target = seat_field(act.state, act.data)
    cards = act.table.sleeve_names(target)
    for card in cards:
        act.table.put(act.seat, card, SLEEVE, overt=True)
    act.result.update(target_name=act.name(target), cards=list(cards), sleeve=act.table.sleeve_names(act.seat))


register(Ability(
    key=MARAUDER_COPY, overt="Мародер", phases=(NIGHT, DAY), per_game=1, fields=("target",),
    seed="Один раз за игру может мгновенно выбрать мертвого персонажа и получить копии всех карт из его Рукава "
         "себе в Рукав",
    check=_marauder_check, choices=lambda _rs, state, seat: {"target": _dead(state)},
    ready=lambda _rs, state, seat: bool(_dead(state)), apply=_marauder_apply,
))


# -- the joker's list: «В любой момент может написать в личной комнате список соответствия Явных и
#    Тайных ролей всех игроков. Если все роли угаданы верно, побеждает моментально. Иначе покидает
#    игру, и все карты Туз исчезают.» -------------------------------------------------------------------


def _list_check(rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    return None if rs._guess(state, seat, data.get("roles")) is not None else "bad_guess"


def _list_apply(rs: Any, act: Act) -> None:
    """Judged at once: right, the game ends there with the joker's win («побеждает моментально»);
    wrong, he leaves the game (status `left`) and every Ace vanishes from every Hand, Sleeve and
    deck — and if his leaving decides the game, it ends there too."""
    state, seat = act.state, act.seat
    guess = rs._guess(state, seat, act.data["roles"])
    wrong = [i for i, role in guess.items() if state.seat(i).role != role]
    act.events.append(Event("joker_guess", GM, {**_ref(state.seat(seat)), "guess": {str(k): v for k, v in guess.items()},
                                                 "wrong": [_ref(state.seat(i)) for i in wrong]}))
    if not wrong:
        act.winner, act.won_by = JOKER, [seat]
        act.events.append(Event("joker_won", PUBLIC, _ref(state.seat(seat))))
        act.result.update(right=True)
        return
    act.status[seat] = LEFT
    vanished = sum(act.table.remove_aces().values())
    act.events.append(Event("joker_left", PUBLIC, {**_ref(state.seat(seat)), "aces_vanished": vanished}))
    act.result.update(right=False, wrong=len(wrong), aces_vanished=vanished)


register(Ability(
    key=JOKER_LIST, secret=JOKER, phases=(NIGHT, DAY), fields=("roles",), confirm=True,
    seed="В любой момент может написать в личной комнате список соответствия Явных и Тайных ролей всех игроков. "
         "Если все роли угаданы верно, побеждает моментально. Иначе покидает игру, и все карты Туз исчезают.",
    check=_list_check, apply=_list_apply,
))

__all__ = ["GEEK_CARD", "JOKER_LIST", "MANIAC_STRIKE", "MANIAC_SWAP", "MARAUDER_COPY", "maniac_kill_draw"]
