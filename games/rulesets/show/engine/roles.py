"""The show's heroes: roles and teams, the deal, keys (what a hero is NOT), innate keys and who wins."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from games.engine.rulesets.base import RoleSpec
from games.engine.state import GameState, SeatState
from games.rulesets.show.engine.facts import holds
from games.rulesets.show.engine.privilege_keys import MOLE

KEY = "show"

MASON, SAVIOUR, REPTILOID, DEMON = "mason", "saviour", "reptiloid", "demon"
ROLE_KEYS: tuple[str, ...] = (MASON, SAVIOUR, REPTILOID, DEMON)
# Factions are teams: «три команды (7+2+1)».
MASONS, REPTILOIDS, DEMONS = "masons", "reptiloids", "demon"
FACTIONS: tuple[str, ...] = (MASONS, REPTILOIDS, DEMONS)
BAD_FACTIONS: tuple[str, ...] = (REPTILOIDS, DEMONS)
NONE = "none"  # the documented draw (docs/rulesets/show.md, "Who wins")

# Night actions by role.
SUSPECT, ENSLAVE, SAVE, RELIEVE = "suspect", "enslave", "save", "relieve"

ROLES: Mapping[str, RoleSpec] = MappingProxyType(
    {
        MASON: RoleSpec(MASON, MASONS, actions=(SUSPECT,)),
        SAVIOUR: RoleSpec(SAVIOUR, MASONS, actions=(SAVE, RELIEVE)),
        REPTILOID: RoleSpec(REPTILOID, REPTILOIDS, actions=(ENSLAVE,), knows_team=True),
        DEMON: RoleSpec(DEMON, DEMONS, actions=(ENSLAVE,)),
    }
)

# A key says what a hero is NOT: «кем этот герой точно НЕ является».
NOT = "not_"
KEYS: tuple[str, ...] = tuple(NOT + r for r in ROLE_KEYS)
NOT_MASON = NOT + MASON

SHOW_MIN, SHOW_MAX = 4, 10  # «до 10 человек»; a Большое Шоу is exactly 10
BIG_SHOW = 10


def keys_of(role: str) -> tuple[str, ...]:
    """«если герою досталась Роль Масона, то про него могут стать известны три Ключа: не-Рептилоид,
    не-Демон и не-Спаситель»: the three roles he does not have."""
    return tuple(NOT + r for r in ROLE_KEYS if r != role)


def default_roles(size: int, *, demon: bool = True) -> list[str]:
    """«В каждом Большом Шоу всегда ровно 10 участников, разбитых своими Ролями на три команды
    (7+2+1)»: six Masons and the Saviour, two Reptiloids, the Demon. A smaller test show (a GM
    option): two Reptiloids from 8 heroes, one below; the Demon unless `demon` is off; one Saviour;
    Masons for the rest (5 heroes: 2 Masons + Saviour, a Reptiloid, the Demon)."""
    if not SHOW_MIN <= size <= SHOW_MAX:
        raise ValueError(f"a show has {SHOW_MIN} to {SHOW_MAX} heroes, not {size}")
    reptiloids = 2 if size >= 8 else 1
    roles = [SAVIOUR, *[REPTILOID] * reptiloids, *([DEMON] if demon else [])]
    return [*[MASON] * (size - len(roles)), *roles]


def validate_roles(roles: Sequence[str]) -> None:
    if not SHOW_MIN <= len(roles) <= SHOW_MAX:
        raise ValueError(f"a show has {SHOW_MIN} to {SHOW_MAX} heroes, not {len(roles)}")
    unknown = sorted({r for r in roles if r not in ROLES})
    if unknown:
        raise ValueError(f"unknown show roles: {unknown}")
    if list(roles).count(SAVIOUR) > 1 or list(roles).count(DEMON) > 1:
        raise ValueError("a show has at most one Saviour and one Demon")
    if not 1 <= list(roles).count(REPTILOID) <= 2:
        raise ValueError("a show has one or two Reptiloids")
    if MASON not in roles:
        raise ValueError("a show needs at least one Mason")


def deal(names: Sequence[str], seed: int, *, roles: Sequence[str] | None = None) -> list[str]:
    """The roles for `names` in seating order, shuffled with the game's seed (the site keeps the
    commitment hash of the deal, as for the other rule sets)."""
    table = list(roles) if roles is not None else default_roles(len(names))
    validate_roles(table)
    if len(table) != len(names):
        raise ValueError("one role per hero")
    random.Random(seed).shuffle(table)  # as the site shuffles every table (games/services/lifecycle.py)
    return table


def innate_keys(state: GameState, viewer: int) -> dict[int, tuple[str, ...]]:
    """«После раздачи Ролей в систему добавляются также врождённые персональные Ключи. Например,
    Демон знает про всех остальных участников что они не-Демоны и так далее.» A hero knows his own
    three keys; the Demon and the Saviour (one of each) know everyone else is not them; each
    Reptiloid knows the others are not-Reptiloid, and his partner's three keys («знают друг друга»).
    Six Masons learn nothing of the others from being a Mason."""
    me = state.seat(viewer)
    # Part 3, the Крот: «Крот не знает свою Роль» (he has no innate key, not even his own); «Если
    # Кротом оказался Рептилоид, то его Сообщник не будет знать имя напарника» (the partner keeps
    # only his own keys: his «не-Рептилоид» about the others would name the Mole by elimination).
    if holds(state, viewer, MOLE):
        return {}
    if me.role == REPTILOID and any(s.role == REPTILOID and s.id != viewer and holds(state, s.id, MOLE)
                                    for s in state.seats):
        return {viewer: keys_of(me.role)}
    known: dict[int, tuple[str, ...]] = {}
    for seat in state.seats:
        if seat.id == viewer or (me.role == REPTILOID and seat.role == REPTILOID):
            known[seat.id] = keys_of(seat.role)
        elif me.role in (DEMON, SAVIOUR, REPTILOID):
            known[seat.id] = (NOT + me.role,)
    return known


# -- who wins -----------------------------------------------------------------------------------


def free_seats(state: GameState) -> tuple[SeatState, ...]:
    return state.active()


def team_counts(seats: Iterable[SeatState]) -> dict[str, int]:
    counts = dict.fromkeys(FACTIONS, 0)
    for s in seats:
        counts[s.faction] += 1
    return counts


def winner_of(state: GameState) -> str | None:
    """The show's end (docs/rulesets/show.md, "Who wins", decision A1):

    - «Если вы в команде Масонов (включая Спасителя), вам нужно как можно быстрее найти и лишить
      свободы Рептилоидов и Демона, тогда вы победите»: no Reptiloid and no Demon free → `masons`.
    - A bad team wins when it cannot be stopped any more: its free heroes are at least as many as
      all the other free heroes together (read from the insomnia examples «осталось три Масона и
      два Рептилоида, или два Масона и Демон или Рептилоид», where one more night's slave makes
      2 against 2, or 1 against 1) → `reptiloids` or `demon`.
    - Both at once is only one free Reptiloid facing the free Demon with every good hero enslaved:
      neither can be stopped by the other's team → the documented draw `none`.
    """
    counts = team_counts(free_seats(state))
    total = sum(counts.values())
    if counts[REPTILOIDS] == 0 and counts[DEMONS] == 0:
        return MASONS
    wins = [f for f in BAD_FACTIONS if counts[f] > 0 and counts[f] >= total - counts[f]]
    if len(wins) == 1:
        return wins[0]
    if len(wins) > 1:
        return NONE
    return None


def deciding_teams(state: GameState) -> list[str]:
    """The free bad teams that one more night's slave taken from the others makes win (decision A2:
    the Saviour counts among the «Масоны»; a possible save does not make it uncertain)."""
    counts = team_counts(free_seats(state))
    total = sum(counts.values())
    return [team for team in BAD_FACTIONS
            if counts[team] > 0 and total - counts[team] >= 1 and counts[team] >= total - counts[team] - 1]


def night_would_decide(state: GameState) -> bool:
    """«Если результатом ночи однозначно станет выигрыш одной из "плохих" команд (например, осталось
    три Масона и два Рептилоида, или два Масона и Демон или Рептилоид) ... объявляется бессонница»:
    one night's slave taken by a free bad team from the others makes it win (`deciding_teams`). The
    privileges that change who can take a slave are privileges.night_would_decide's."""
    return bool(deciding_teams(state))
