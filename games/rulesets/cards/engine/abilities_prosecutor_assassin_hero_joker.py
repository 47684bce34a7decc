"""The Prosecutor's, the Assassin's, the Hero's and the Joker's abilities on the registry of
abilities.py: the Prosecutor's +2 (at once), the Assassin's kill of a one-card Hand, the Hero's
night armour or guess, and the Joker's nightly «Отдел кадров» and his Ace a phase (at the end of
the phase). docs/rulesets/cards.md ("Part 2 (d)")
explains the readings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.events import Event, seat_audience
from games.engine.rulesets.common import ref as _ref
from games.engine.state import GameState
from games.rulesets.cards.engine.abilities import Ability, Act, other_living_target, register, seat_field
from games.rulesets.cards.engine.collection import ACE
from games.rulesets.cards.engine.context import DAY, NIGHT, SLEEVE, _Close
from games.rulesets.cards.engine.effects import Instance
from games.rulesets.cards.engine.hero import NO_DAMAGE, _record
from games.rulesets.cards.engine.roles import HERO, MAFIA_ROLES
from games.rulesets.cards.engine.veche_roles import PROSECUTOR_EXTRA, PROSECUTOR_MEMORY, protected

PROSECUTOR_BOOST = "prosecutor_boost"
ASSASSIN_KILL = "assassin_kill"
HERO_ARMOUR, HERO_GUESS = "hero_armour", "hero_guess"
JOKER_HR, JOKER_ACE = "joker_hr", "joker_ace"
HERO_ARMOUR_N = 3  # «может дать 3 брони любому другому персонажу»
HR_CARD = "Отдел кадров"


def _hand(state: GameState, seat: int) -> list[str]:
    return list(state.memory.get("players", {}).get(str(seat), {}).get("hand", ()))


def _others_alive(state: GameState, seat: int) -> list[int]:
    return [s.id for s in state.seats if s.is_active and s.id != seat]


def _other_target(state: GameState, seat: int, data: Mapping[str, Any], *, cards: bool = False) -> str | None:
    """«Целью можно выбрать любого живого персонажа, кроме себя»; `cards`: a card's effect, which
    may not name the Sociopath in the first night and day either."""
    reason = other_living_target(state, seat, data)
    if reason is None and cards and protected(state, seat_field(state, data)):
        return "target_protected"
    return reason


# -- Прокурор: «Один раз за игру, голосуя, может получить на этот день +2 к силе голоса» -------------


def _boost_apply(_rs: Any, act: Act) -> None:
    act.memory.setdefault(PROSECUTOR_MEMORY, {})[str(act.seat)] = act.state.phase
    act.result.update(weight=_rs.vote_weight(act.state, act.seat) + PROSECUTOR_EXTRA)


register(Ability(
    key=PROSECUTOR_BOOST, overt="Прокурор", phases=(DAY,), per_game=1,
    seed="Один раз за игру, голосуя, может получить на этот день +2 к силе голоса.",
    apply=_boost_apply,
))


# -- Убийца: «Раз за игру может убить одного игрока, имеющего ровно 1 карту в руке.» -----------------


def _kill_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    if state.seat(seat).role == HERO:
        return NO_DAMAGE  # «Герой: Не может наносить урон никаким образом» — nor kill
    reason = _other_target(state, seat, data)
    if reason is not None:
        return reason
    return None if len(_hand(state, seat_field(state, data))) == 1 else "not_one_card"


def _kill_choices(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"target": [s for s in _others_alive(state, seat) if len(_hand(state, s)) == 1]}


def _kill_close(_rs: Any, ctx: _Close, seat: int, data: Mapping[str, Any]) -> str | None:
    """The kill acts at the end of the phase, with the card plays («Эффекты карт вступают в силу
    одновременно, по окончании фазы»): the target, who had exactly one card in Hand as the phase
    began (what everybody knows: «Количество карт в Руке каждого игрока все узнают в конце каждой
    фазы»), dies at this close whatever else happens to his Hand."""
    target = seat_field(ctx.state, data)
    ctx.kills.append(target)
    ctx.ability_notes[(seat, ASSASSIN_KILL)] = {"target_name": ctx.name(target)}
    return None


register(Ability(
    key=ASSASSIN_KILL, overt="Убийца", phases=(NIGHT, DAY), per_game=1, when="close", fields=("target",),
    seed="Раз за игру может убить одного игрока, имеющего ровно 1 карту в руке.",
    check=_kill_check, choices=_kill_choices,
    ready=lambda rs, state, seat: state.seat(seat).role != HERO and bool(_kill_choices(rs, state, seat)["target"]),
    close=_kill_close,
))


# -- Герой: «Ночью, если не применяет карт из Рукава, может дать 3 брони любому другому персонажу или
# назвать персонажа и Тайную роль Мафии. Если угадывает, персонаж получает метку.» ------------------


def _hero_choice_stands(ctx: _Close, seat: int, key: str) -> str | None:
    """«Ночью, если не применяет карт из Рукава, может ... или ...»: not with a Sleeve card played
    this night, and one of the two: of both standing, the later one counts."""
    if any(p.by == seat and p.zone == SLEEVE and p.result != "refused" for p in ctx.plays):
        return "hero_sleeve_played"
    raw = ctx.inputs.extra.get("abilities") or []
    mine = [i for i, item in enumerate(raw) if isinstance(item, Mapping) and item.get("ability") in (HERO_ARMOUR, HERO_GUESS)
            and seat_field(ctx.state, item, "by") == seat]
    if mine and raw[mine[-1]].get("ability") != key:
        return "hero_other_choice"
    return None


def _hero_armour_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    return _other_target(state, seat, data)


def _hero_targets(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"target": _others_alive(state, seat)}


def _hero_armour_close(_rs: Any, ctx: _Close, seat: int, data: Mapping[str, Any]) -> str | None:
    reason = _hero_choice_stands(ctx, seat, HERO_ARMOUR)
    if reason is not None:
        return reason
    target = seat_field(ctx.state, data)
    ctx.instances.append(Instance(op="armour", actor=seat, target=target, n=HERO_ARMOUR_N))
    ctx.ability_notes[(seat, HERO_ARMOUR)] = {"target_name": ctx.name(target), "n": HERO_ARMOUR_N}
    return None


def _hero_guess_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    reason = _other_target(state, seat, data)
    if reason is not None:
        return reason
    return None if data.get("role") in MAFIA_ROLES else "bad_role"


def _hero_guess_choices(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"target": _others_alive(state, seat), "role": list(MAFIA_ROLES)}


def _hero_guess_close(_rs: Any, ctx: _Close, seat: int, data: Mapping[str, Any]) -> str | None:
    """A right guess marks the character; the hero is not told whether he guessed right (the seed
    says only «Если угадывает, персонаж получает метку»): he learns it when the marked mafioso's
    death fulfils his goal."""
    reason = _hero_choice_stands(ctx, seat, HERO_GUESS)
    if reason is not None:
        return reason
    target = seat_field(ctx.state, data)
    right = ctx.state.seat(target).role == data.get("role")
    record = _record(ctx.memory, seat)
    if right and target not in record["marks"]:
        record["marks"].append(target)
    ctx.gm_note("hero_mark", **_ref(ctx.seat(seat)), target=target, target_name=ctx.name(target),
                role=data.get("role"), right=right)
    ctx.ability_notes[(seat, HERO_GUESS)] = {"target_name": ctx.name(target), "role": data.get("role")}
    return None


for _key, _check, _choices, _close, _fields in (
    (HERO_ARMOUR, _hero_armour_check, _hero_targets, _hero_armour_close, ("target",)),
    (HERO_GUESS, _hero_guess_check, _hero_guess_choices, _hero_guess_close, ("target", "role")),
):
    register(Ability(
        key=_key, secret="hero", phases=(NIGHT,), per_phase=1, when="close", fields=_fields,
        seed="Ночью, если не применяет карт из Рукава, может дать 3 брони любому другому персонажу или назвать "
             "персонажа и Тайную роль Мафии. Если угадывает, персонаж получает метку.",
        check=_check, choices=_choices, close=_close,
    ))


# -- Джокер: «Каждую ночь может использовать эффект карты Отдел кадров.» and «Каждую фазу может
# добавить одну карту Туз в рукав любой одной цели.» ---------------------------------------------


def _hr_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    return _other_target(state, seat, data, cards=True)


def _hr_choices(_rs: Any, state: GameState, seat: int) -> dict[str, list[Any]]:
    return {"target": [s for s in _others_alive(state, seat) if not protected(state, s)]}


def _hr_close(_rs: Any, ctx: _Close, seat: int, data: Mapping[str, Any]) -> str | None:
    """The effect of «Отдел кадров» (reveal role) without the card: no Price, and not a card he
    played, so no block or redirect touches it; the target's secret role is told to him at the
    end of the night like the card's."""
    target = seat_field(ctx.state, data)
    role = ctx.state.seat(target).role
    ctx.events.append(Event("reveal", seat_audience(seat), {"card": HR_CARD, "target": target,
                                                             "target_name": ctx.name(target), "what": "role",
                                                             "value": role}))
    ctx.ability_notes[(seat, JOKER_HR)] = {"target_name": ctx.name(target), "role": role}
    return None


def _ace_check(_rs: Any, state: GameState, seat: int, data: Mapping[str, Any]) -> str | None:
    return _other_target(state, seat, data)


def _ace_close(_rs: Any, ctx: _Close, seat: int, data: Mapping[str, Any]) -> str | None:
    """«добавить одну карту Туз в рукав любой одной цели»: at the end of the phase the target's
    Sleeve gets a Туз (which survives prison and vanishes if the joker's list is wrong)."""
    target = seat_field(ctx.state, data)
    ctx.instances.append(Instance(op="give", actor=seat, target=target, n=1, card=ACE, to=SLEEVE))
    ctx.ability_notes[(seat, JOKER_ACE)] = {"target_name": ctx.name(target)}
    return None


register(Ability(
    key=JOKER_HR, secret="joker", phases=(NIGHT,), per_phase=1, when="close", fields=("target",),
    seed="Каждую ночь может использовать эффект карты Отдел кадров.",
    check=_hr_check, choices=_hr_choices, close=_hr_close,
))
register(Ability(
    key=JOKER_ACE, secret="joker", phases=(NIGHT, DAY), per_phase=1, when="close", fields=("target",),
    seed="Каждую фазу может добавить одну карту Туз в рукав любой одной цели.",
    check=_ace_check, choices=_hero_targets, close=_ace_close,
))

__all__ = ["ASSASSIN_KILL", "HERO_ARMOUR", "HERO_GUESS", "JOKER_ACE", "JOKER_HR", "PROSECUTOR_BOOST"]
