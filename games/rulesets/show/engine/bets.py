"""The show's bets on a winner and the winners' pot («Ставки и Куш Победителей», issue 19).

`memory["bets"]`: None before the first night; then {seat: {"pick": seat, "stake": coins}} with
`memory["bets_charged"]` False until the first night's close charges the stakes into the pot.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from games.engine.events import GM, Event, seat_audience
from games.engine.rulesets.common import ref, seat_id
from games.engine.state import ACTIVE, GameState
from games.rulesets.show.engine.coins import POT, hero
from games.rulesets.show.engine.facts import id_map, ids

if TYPE_CHECKING:
    from games.rulesets.show.engine.closing import Closing
    from games.rulesets.show.engine.economy import Book


def open_bets(close: Closing, seed_text: str) -> None:
    """«Каждый герой в начале первой ночи делает Ставку на Победителя ... в первую ночь каждый герой
    автоматически делает Ставку на случайно выбранного героя»: when the next stage is the first night
    (A2/A22: the first night there is; none if the show never has one), every hero (slaves too: «Куш
    ... всегда равен десяти Базовым Ставкам») is given a random free hero other than himself; he is
    told his pick (`bet`, to him) and may change it until the morning."""
    memory = close.memory
    if memory.get("bets") is not None:
        return
    rng = random.Random(f"{seed_text}:bets")
    free = close.free()
    bets = {}
    for seat in close.start.seats:
        others = [h for h in free if h != seat.id] or free
        if not others:
            continue
        pick = rng.choice(others)
        bets[str(seat.id)] = {"pick": pick, "stake": 0}
        close.events.append(Event("bet", seat_audience(seat.id), {**ref(close.start.seat(pick)), "stake": 0,
                                                                   "default": True}))
    memory["bets"] = bets
    memory["bets_charged"] = False


def valid_pick(state: GameState, status: dict[int, str], pick: Any) -> int | None:
    """A pick is a free hero (himself allowed: «кто из героев по его мнению останется на свободе»)."""
    target = seat_id(pick)
    if target is None or not state.has_seat(target) or status.get(target) != ACTIVE:
        return None
    return target


def charge_bets(close: Closing, book: Book) -> None:
    """At the first night's close: the changes of `extra["bets"]` made during the night, then
    «С Баланса каждого участника снимается одинаковое для всех количество монет (так называемая
    Базовая Ставка = 25 ㉿)» into the pot. «Отказаться от Ставки нельзя.»"""
    memory = close.memory
    bets = memory.get("bets")
    if bets is None or memory.get("bets_charged"):
        return
    status_at_start = {s.id: s.status for s in close.start.seats}
    for seat, pick in id_map(close.inputs.extra.get("bets")).items():
        target = valid_pick(close.start, status_at_start, pick)
        if str(seat) in bets and target is not None:
            bets[str(seat)]["pick"] = target
    base = int(close.start.options["base_stake"])
    for seat, bet in sorted(bets.items(), key=lambda kv: int(kv[0])):
        bet["stake"] = base
        book.move(hero(int(seat)), POT, base, "bet", close.name(int(bet["pick"])) or "")
    memory["bets_charged"] = True
    close.events.append(Event("bets_gm", GM, {"bets": {close.name(int(s)): close.name(int(b["pick"]))
                                                       for s, b in bets.items()}, "pot": book.balance(POT)}))


def talent_raises(close: Closing, book: Book, talents: list[int]) -> list[str]:
    """«Каждый Талантливый раб имеет возможность на этапе Защитных Речей поменять своего ставленника
    и одновременно с этим увеличить Ставки всех рабов включая свою на размер Базовой Ставки»
    (C11: in the defence stage). `extra["raise"]`: the Talents raising; each raise makes every slave
    (himself included) pay one more base stake into the pot (A23: each slave pays his own; two
    Talents raise twice); a raising Talent's `extra["bets"]` pick (a free hero) replaces his own."""
    memory = close.memory
    bets = memory.get("bets") or {}
    if not memory.get("bets_charged"):
        return []
    raisers = [h for h in close.seating(ids(close.inputs.extra.get("raise"))) if h in talents]
    status_at_start = {s.id: s.status for s in close.start.seats}
    picks = id_map(close.inputs.extra.get("bets"))
    base = int(close.start.options["base_stake"])
    slaves = [s.id for s in close.start.seats if status_at_start[s.id] != ACTIVE]
    for raiser in raisers:
        target = valid_pick(close.start, status_at_start, picks.get(raiser))
        if target is not None and str(raiser) in bets:
            bets[str(raiser)]["pick"] = target
        for slave in slaves:
            if str(slave) in bets:
                bets[str(slave)]["stake"] = int(bets[str(slave)]["stake"]) + base
                book.move(hero(slave), POT, base, "bet_raise", close.name(raiser) or "")
    return [close.name(h) for h in raisers]


def about_me(state: GameState, seat: int) -> dict[str, Any]:
    """«По кнопке "Обо мне" можно всегда посмотреть свою Ставку и имена тех, кто сделал свою Ставку
    на вас»: his bet (pick, stake) and the names of those whose pick is he."""
    bets = state.memory.get("bets") or {}
    mine = bets.get(str(seat))
    return {
        "bet": None if mine is None else {"pick": state.seat(int(mine["pick"])).name, "stake": int(mine["stake"])},
        "backers": [state.seat(int(s)).name for s, b in sorted(bets.items(), key=lambda kv: int(kv[0]))
                    if int(b["pick"]) == seat],
    }
