"""What a viewer may know: the public status, a hero's /fullstatus, and the running stage's ballots.

Each takes the viewer so that the site cannot leak: a secret is never computed for someone who may
not see it (docs/rulesets/show.md, "Status and secrets")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.state import GameState
from games.rulesets.show.engine.facts import SLAVE, coma_missed, id_map, judge_today
from games.rulesets.show.engine.keys import innate_keys, is_revealed, public_keys, secret_keys
from games.rulesets.show.engine.privileges import own_role_view
from games.rulesets.show.engine.roles import KEYS

ASLEEP, COMA = "asleep", "coma"  # «Спит» (at most one stage missed) and a deeper coma


class NotYours(PermissionError):
    """The viewer may not see this hero's secrets (the site answers 404)."""


def sleep_mark(state: GameState, hero: int) -> str | None:
    """«Если герой только недавно попал в кому и пропущен всего один этап, то в Статусе он
    помечается как "Спит"»."""
    missed = coma_missed(state, hero)
    if missed is None:
        return None
    return ASLEEP if missed <= 1 else COMA


def public_status(state: GameState) -> dict[str, Any]:
    """«Публичные Ключи доступны всем ... суммируется в Статусе»; «Число полученных Тайных Знаний
    указывается в Статусе» (the count only: who holds them is secret, C8)."""
    memory = dict(state.memory)
    judge = judge_today(state) if state.options.get("judge_public", True) or state.over else None
    heroes = []
    for s in state.seats:
        revealed = is_revealed(memory, s.id) or state.over
        slave = (memory.get("slaves") or {}).get(str(s.id))
        heroes.append({
            "seat": s.id, "name": s.name, "free": s.status != SLAVE,
            "owners": list(slave["owners"]) if slave else [],
            "keys": [k for k in KEYS if k in public_keys(memory, s.id)],
            "role": s.role if revealed else None,
            "relieved": s.id in (memory.get("relieved") or ()),
            "sleep": sleep_mark(state, s.id),
            "judge": s.id == judge,
        })
    return {"phase": state.phase, "heroes": heroes, "knowledge_count": int(memory.get("knowledge_count", 0)),
            "over": state.over, "winner": state.winner}


def full_status(state: GameState, hero: int, *, viewer: int | None, is_gm: bool = False) -> dict[str, Any]:
    """«Полная картина по доступным Ключам (публичные + приватные + врождённые) доступна по
    индивидуальной команде /fullstatus»: only the hero himself, the GM, and everyone after the end."""
    if not (is_gm or state.over or viewer == hero):
        raise NotYours(hero)
    memory = dict(state.memory)
    innate = innate_keys(state, hero)
    secret: dict[int, list[dict[str, Any]]] = {}
    for item in secret_keys(memory, hero):
        secret.setdefault(int(item["about"]), []).append({"key": item["key"], "source": item["source"]})
    rows = []
    for s in state.seats:
        public = public_keys(memory, s.id)
        rows.append({
            "seat": s.id, "name": s.name,
            "public": [k for k in KEYS if k in public],
            "secret": [i["key"] for i in secret.get(s.id, ())],
            "innate": [k for k in KEYS if k in innate.get(s.id, ())],
        })
    # part 3: «Крот не знает свою Роль» — hidden from himself while the show runs
    me = own_role_view(state, hero, viewer=viewer, is_gm=is_gm)
    rights = int((memory.get("knowledge_rights") or {}).get(str(hero), 0))
    return {"hero": hero, "role": me["role"], "faction": me["faction"], "rows": rows, "knowledge_rights": rights,
            "privileges": list((memory.get("privileges") or {}).get(str(hero)) or ())}


def visible_ballots(
    state: GameState, votes: Mapping[int, Any], *, viewer: int | None, is_gm: bool = False
) -> dict[int, Any]:
    """The running stage's ballots a viewer may see: «Кто как проголосовал становится всем видно только
    в конце этапа» — until then a hero sees his own ballot, the GM all of them."""
    ballots = id_map(votes)
    if is_gm:
        return ballots
    return {v: t for v, t in ballots.items() if v == viewer}
