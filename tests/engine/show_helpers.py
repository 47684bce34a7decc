"""Shared helpers for the show's engine tests: a ten-hero roster, closes written with names, and
short ways through the stages."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from games.engine.orders import Order, PhaseInputs
from games.engine.state import GameState
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.facts import SLAVE

NOW = datetime(2024, 3, 1, 20, 0, tzinfo=UTC)

ROSTER = [
    ("Аня", "mason"), ("Боря", "mason"), ("Вера", "mason"), ("Гоша", "mason"), ("Даша", "mason"),
    ("Егор", "mason"), ("Жора", "saviour"), ("Зина", "reptiloid"), ("Илья", "reptiloid"), ("Кира", "demon"),
]
MASONS = ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор"]


def new(roster=ROSTER, privileges=None, seed=0, in_play=None, **options) -> GameState:
    """A show; `privileges` {name: [privilege]} fixes the holders (part 3), `in_play` (the option
    `privileges`) has them dealt by `seed`."""
    # Part 1's rule tests play without the «Выбор Союзника» stage (option `alliances`); part 2's turn it on.
    options.setdefault("alliances", False)
    if in_play is not None:
        options["privileges"] = list(in_play)
    seat_data = {n: {"privileges": list(p)} for n, p in (privileges or {}).items()}
    state, _events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(roster, 1)], options=options,
                                   seed=seed, seat_data=seat_data)
    return state


def sid(state: GameState, name: str) -> int:
    return state.by_name(name).id


def inputs(state, *, votes=None, orders=(), posted=None, requests=None, knowledge=None, active=(), ratings=None,
           stun=None, exclude=None, extra_votes=None, intercept=None, steal=None):
    def named(value):
        return sid(state, value) if isinstance(value, str) and state.by_name(value) else value

    order_map = {}
    for actor, action, target, *rest in orders:
        detail = {k: named(v) for k, v in rest[0].items()} if rest else None
        order_map[sid(state, actor)] = Order(sid(state, actor), action, named(target), detail=detail)
    extra = {
        "posted": {sid(state, n): list(kinds) for n, kinds in (posted or {}).items()},
        "opinion_requests": {sid(state, r): sid(state, t) for r, t in (requests or {}).items()},
        "knowledge": {sid(state, h): sid(state, t) for h, t in (knowledge or {}).items()},
        "active": [sid(state, n) for n in active],
        "ratings": {sid(state, n): v for n, v in (ratings or {}).items()},
    }
    # part 3, the privileges' inputs, written with names
    for key, value in (("stun", stun), ("exclude", exclude), ("extra_votes", extra_votes), ("steal", steal)):
        if value:
            extra[key] = {sid(state, h): named(t) for h, t in value.items()}
    if intercept:
        extra["intercept"] = {sid(state, h): [{k: named(v) for k, v in g.items()}
                                              for g in (guess if isinstance(guess, list) else [guess])]
                              for h, guess in intercept.items()}
    return PhaseInputs(votes={sid(state, v): named(t) for v, t in (votes or {}).items()}, orders=order_map,
                       extra=extra)


def close(state, seed=0, **kwargs):
    return SHOW.resolve(state, inputs(state, **kwargs), seed=seed, now=NOW)


def free_names(state) -> list[str]:
    return [s.name for s in state.active()]


def greet(state) -> GameState:
    return close(state, posted={n: ["greeting"] for n in free_names(state)}).state


def day1(**options) -> GameState:
    return greet(new(**options))


def everyone_votes(state, target, **changes):
    votes = {}
    for name in free_names(state):
        votes[name] = target if name != target else next(n for n in free_names(state) if n != target)
    votes.update(changes)
    return votes


def night_orders(state, **overrides):
    """Everyone's night choice: Masons suspect Аня (or Боря), the Saviour saves Аня, Reptiloids and
    the Demon choose themselves (nobody); `overrides` are name -> (action, target[, detail])."""
    orders = []
    for seat in state.active():
        if seat.name in overrides:
            action, target, *rest = overrides[seat.name]
            orders.append((seat.name, action, target, *rest))
        elif seat.role == "mason":
            orders.append((seat.name, "suspect", "Аня" if seat.name != "Аня" else "Боря"))
        elif seat.role == "saviour":
            orders.append((seat.name, "save", "Аня" if state.by_name("Аня").is_active else seat.name))
        else:
            orders.append((seat.name, "enslave", seat.name))
    return orders


def enslaved(state, *names, owners=("public",)) -> GameState:
    """The state with these heroes made slaves directly (for a test's setup)."""
    memory = dict(state.memory)
    memory["slaves"] = {**memory["slaves"], **{str(sid(state, n)): {"by": "setup", "owners": list(owners),
                                                                     "phase": state.phase} for n in names}}
    return replace(state.with_seats(replace(state.by_name(n), status=SLAVE) for n in names), memory=memory)


def events_of(resolution, kind):
    return [e for e in resolution.events if e.kind == kind]
