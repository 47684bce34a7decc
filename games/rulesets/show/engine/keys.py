"""Keys: public keys (the status), secret knowledge (ТЗ), reveals; all kept in the state's memory."""

from __future__ import annotations

import random
from collections.abc import MutableMapping
from typing import Any

from games.engine.events import GM, PUBLIC, Event, seat_audience
from games.engine.rulesets.common import ref
from games.engine.state import GameState
from games.rulesets.show.engine.privileges import record_knowledge
from games.rulesets.show.engine.roles import NOT_MASON, innate_keys, keys_of

Memory = MutableMapping[str, Any]


def public_keys(memory: Memory, seat_id: int) -> list[str]:
    return list((memory.get("public_keys") or {}).get(str(seat_id), ()))


def is_revealed(memory: Memory, seat_id: int) -> bool:
    return seat_id in (memory.get("revealed") or ())


def secret_keys(memory: Memory, holder: int) -> list[dict[str, Any]]:
    return list((memory.get("secret_keys") or {}).get(str(holder), ()))


def reveal(state: GameState, memory: Memory, seat_id: int, events: list[Event], *, reason: str) -> None:
    """«Как только про героя становятся известны все его три Ключа, вскрывается его Роль»: a
    revealed hero's three keys are all public (whatever revealed him), so the status stays one fact."""
    seat = state.seat(seat_id)
    memory.setdefault("public_keys", {})[str(seat_id)] = list(keys_of(seat.role))
    if seat_id not in memory.setdefault("revealed", []):
        memory["revealed"].append(seat_id)
        events.append(Event("role_revealed", PUBLIC, {**ref(seat), "role": seat.role, "reason": reason}))


def add_public_key(
    state: GameState, memory: Memory, seat_id: int, rng: random.Random, events: list[Event], *, reason: str
) -> str | None:
    """One more public key about the hero, chosen at random among those not public yet («выбираемый
    системой случайно»); the third reveals the role. None when all three are public already."""
    known = public_keys(memory, seat_id)
    left = [k for k in keys_of(state.seat(seat_id).role) if k not in known]
    if not left:
        return None
    key = rng.choice(left)
    memory.setdefault("public_keys", {})[str(seat_id)] = [*known, key]
    events.append(Event("public_key", PUBLIC, {**ref(state.seat(seat_id)), "key": key, "reason": reason}))
    if len(known) + 1 == 3:
        reveal(state, memory, seat_id, events, reason="three_keys")
    return key


def known_keys(state: GameState, memory: Memory, viewer: int) -> dict[int, set[str]]:
    """Everything `viewer` knows: public + secret + innate (the /fullstatus)."""
    known: dict[int, set[str]] = {s.id: set(public_keys(memory, s.id)) for s in state.seats}
    for about, keys in innate_keys(state, viewer).items():
        known[about] |= set(keys)
    for item in secret_keys(memory, viewer):
        known[int(item["about"])].add(str(item["key"]))
    return known


def knowledge_candidates(state: GameState, memory: Memory, holder: int, about: int) -> list[str]:
    """«получить о нём в индивидуальное пользование случайный Ключ, ещё не ставший публичным» and
    «Ключ "не-Масон" никогда не выпадает в качестве Тайного Знания»; a key the holder knows already
    (innate or an earlier ТЗ) is not drawn either, so a ТЗ always teaches something."""
    known = known_keys(state, memory, holder)[about]
    public = set(public_keys(memory, about))
    return [k for k in keys_of(state.seat(about).role) if k != NOT_MASON and k not in public and k not in known]


def extra_knowledge_had(state: GameState) -> frozenset[int]:
    """The heroes the Saviour has had his extra Secret Knowledge about (kept apart from his keys:
    the Змеёныш's turn may erase a key, not the fact that it was given)."""
    return frozenset(int(h) for h in (state.memory.get("saviour") or {}).get("extra_about") or ())


def give_secret_key(
    state: GameState, memory: Memory, holder: int, about: int, rng: random.Random, events: list[Event], *,
    source: str, phase: str,
) -> str | None:
    left = knowledge_candidates(state, memory, holder, about)
    if not left:
        return None
    key = rng.choice(left)
    memory.setdefault("secret_keys", {}).setdefault(str(holder), []).append(
        {"about": about, "key": key, "phase": phase, "source": source}
    )
    memory["knowledge_count"] = int(memory.get("knowledge_count", 0)) + 1
    target = state.seat(about)
    events.append(Event("secret_key", seat_audience(holder), {**ref(target), "key": key, "source": source}))
    # «Все участники видят в общем чате, что ... получил Тайное Знание, но не знают кто и о ком
    # именно» (C8: the receiver stays secret); the count is in the status.
    events.append(Event("knowledge_received", PUBLIC, {"count": memory["knowledge_count"]}))
    events.append(Event("secret_key_gm", GM, {"holder": holder, "holder_name": state.seat(holder).name,
                                              **ref(target), "key": key, "source": source}))
    record_knowledge(state, memory, holder, about, key, phase)  # part 3: the Хакер may intercept it
    return key
