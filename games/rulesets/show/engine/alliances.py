"""Sympathies, the «Выбор Союзника» stage and the allies («Симпатии, Альянсы и Союзники», issue 19).

`memory["sympathies"]`: {seat: [first, second]} (None where not sent); `memory["allies"]`: {seat:
partner} both ways, for the rest of the show; `memory["after_allies"]`: the stage that follows the
choice (the first night, or insomnia's day 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engine.events import GM, PUBLIC, Event, seat_audience
from games.engine.rulesets.common import ref, seat_id
from games.engine.state import GameState
from games.rulesets.show.engine.facts import id_map
from games.rulesets.show.engine.stages import DAY, DEFENCE, REVOTE

if TYPE_CHECKING:
    from games.rulesets.show.engine.closing import Closing

ALLY_SOURCE = "ally"


def record_sympathies(close: Closing) -> None:
    """«Первую свою Симпатию герой выражает после первого дневного голосования ... Вторую свою
    Симпатию каждый герой имеет возможность отправить после повторного дневного голосования»: a
    sympathy (`extra["sympathies"]` {seat: seat}) given in `day 1` or `defence 1` is the first, one
    given in `revote 1` the second; every hero may send them (slaves too), never to himself; the
    last one given in its window stands. Delivered at the «Выбор Союзника» stage."""
    if close.number != 1 or close.kind not in (DAY, DEFENCE, REVOTE):
        return
    slot = 1 if close.kind == REVOTE else 0
    sympathies = close.memory.setdefault("sympathies", {})
    for sender, target in id_map(close.inputs.extra.get("sympathies")).items():
        to = seat_id(target)
        if not close.start.has_seat(sender) or to is None or not close.start.has_seat(to) or to == sender:
            continue
        sympathies.setdefault(str(sender), [None, None])[slot] = to


def menu(state: GameState, seat: int) -> list[int]:
    """«выбрать имя в меню, состоящем из тех, кому были отправлены ранее свои Симпатии, и тех, кто
    прислал свои»."""
    sympathies = state.memory.get("sympathies") or {}
    names = set(int(t) for t in sympathies.get(str(seat)) or () if t is not None)
    names |= {int(s) for s, sent in sympathies.items() if seat in [t for t in sent if t is not None]}
    names.discard(seat)
    order = [s.id for s in state.seats]
    return sorted(names, key=order.index)


def check_pick(state: GameState, seat: int, pick: Any) -> str | None:
    target = seat_id(pick)
    if target is None or target not in menu(state, seat):
        return "bad_target"
    return None


def choose(close: Closing) -> list[list[str]]:
    """«Союзы создаются из тех, кто выразил взаимную Симпатию, в том числе отложенную»: two heroes
    who picked each other are allies «до конца Шоу и не могут быть расторгнуты». «Все участники
    проинформированы, сколько создано Альянсов, но не знают кто с кем Союзники кроме них самих»:
    public `alliances` {count}; each ally is told his partner (`ally`); the GM sees the pairs."""
    state = close.start
    picks = {}
    for seat, pick in id_map(close.inputs.extra.get("ally_picks")).items():
        if state.has_seat(seat) and check_pick(state, seat, pick) is None:
            picks[seat] = seat_id(pick)
    allies = close.memory.setdefault("allies", {})
    pairs: list[tuple[int, int]] = []
    for seat, pick in sorted(picks.items()):
        if seat < pick and picks.get(pick) == seat:
            pairs.append((seat, pick))
            allies[str(seat)], allies[str(pick)] = pick, seat
    close.events.append(Event("alliances", PUBLIC, {"count": len(pairs)}))
    for a, b in pairs:
        close.events.append(Event("ally", seat_audience(a), ref(state.seat(b))))
        close.events.append(Event("ally", seat_audience(b), ref(state.seat(a))))
    close.events.append(Event("alliances_gm", GM, {"pairs": [[close.name(a), close.name(b)] for a, b in pairs]}))
    return [sorted([close.name(a), close.name(b)]) for a, b in pairs]


def share_knowledge(state: GameState, memory: dict[str, Any], before: dict[str, list], events: list[Event]) -> None:
    """«Если герой, будучи в Альянсе, получает Тайное Знание, то такое же сразу приходит и его
    Союзнику»: every key a hero learned since `before` (`key_counts`: {seat: his secret keys then};
    the keys themselves, not their count: a close that erased one, the Змеёныш's turn, may teach
    another) goes to his ally too, unless the ally knows it already (A35: only what comes after the
    alliance is formed; the copy is not counted as a new Secret Knowledge in the status, which would
    tell who is allied)."""
    allies = memory.get("allies") or {}
    secret = memory.setdefault("secret_keys", {})
    for seat, partner in sorted(allies.items(), key=lambda kv: int(kv[0])):
        old = before.get(seat) or []
        new = [item for item in secret.get(seat) or []
               if item not in old and item.get("source") != ALLY_SOURCE]
        for item in new:
            theirs = secret.setdefault(str(partner), [])
            if any(int(i["about"]) == int(item["about"]) and i["key"] == item["key"] for i in theirs):
                continue
            if int(item["about"]) == int(partner):
                continue
            theirs.append({**item, "source": ALLY_SOURCE})
            about = state.seat(int(item["about"]))
            events.append(Event("secret_key", seat_audience(int(partner)), {**ref(about), "key": item["key"],
                                                                           "source": ALLY_SOURCE}))


def key_counts(memory: dict[str, Any]) -> dict[str, list]:
    """Each hero's secret keys now (a copy), for `share_knowledge` to find what comes after."""
    return {seat: list(items) for seat, items in (memory.get("secret_keys") or {}).items()}
