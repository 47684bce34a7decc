"""The Hero's passive rules: he deals no damage, his two goals are tracked and told to him, two goals
met win him the game and take him out of it, and he wins with the Law. Mixed into CardsRuleset
before the phase mixins; each hook wraps the part-1 step it refines (`super()`).

«Герой: ... Не может наносить урон никаким образом.
Имеет две цели, о выполнении которых узнаёт:
- Ночью данная им броня спасла жизнь представителю Закона.
- По итогам дня погибает найденный им представитель мафии, имеющий его метку.
Цели не засчитываются, если в фазу их выполнения живых представителей Мафии и Предателя не меньше,
чем остальных живых. ...
Побеждает при победе Закона, если дожил до неё или выполнил одну цель.
Если выполнил две цели, побеждает и покидает игру. Игра при этом продолжается.»

Memory: `memory["hero"][str(seat)] = {"marks": [seat, ...], "goals": {"armour": phase, "mark": phase},
"won": bool}` (the marks are set by his night guess, engine/abilities).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.events import GM, PUBLIC, Event, seat_audience
from games.engine.rulesets.common import ref as _ref
from games.engine.state import ACTIVE, GameState
from games.rulesets.cards.engine.context import DAY, HAND, LEFT, NIGHT, _Close
from games.rulesets.cards.engine.roles import HERO, LAW, MAFIA, TRAITOR

HERO_MEMORY = "hero"
ARMOUR_GOAL, MARK_GOAL = "armour", "mark"  # «данная им броня спасла жизнь» / «погибает ... имеющий его метку»
GOALS = (ARMOUR_GOAL, MARK_GOAL)
NO_DAMAGE = "hero_no_damage"  # why a damage of the hero's cards does not happen


def hero_seat(state: GameState) -> int | None:
    """The hero's seat (at most one per game), or None."""
    return next((s.id for s in state.seats if s.role == HERO), None)


def damaging_cards(collection: Any, names: Any = None) -> list[str]:
    """The cards (of `names`, or of the whole collection) whose effect damages someone else: what
    the hero plays without their damage («Не может наносить урон никаким образом»)."""
    cards = [collection.get(n) for n in names] if names is not None else list(collection.cards.values())
    out = []
    for card in cards:
        if card is not None and card.name not in out and any(e.op == "damage" and e.who != "self"
                                                             for e in card.effect):
            out.append(card.name)
    return sorted(out)


def hero_record(memory: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The hero's marks and goals as the memory holds them (a fresh record if none)."""
    record = (memory.get(HERO_MEMORY) or {}).get(str(seat)) or {}
    return {"marks": list(record.get("marks", ())), "goals": dict(record.get("goals", {})),
            "won": bool(record.get("won", False))}


def _record(memory: dict[str, Any], seat: int) -> dict[str, Any]:
    book = memory.setdefault(HERO_MEMORY, {})
    record = book.setdefault(str(seat), {})
    record.setdefault("marks", [])
    record.setdefault("goals", {})
    record.setdefault("won", False)
    return record


def goals_void(state: GameState, seats: list[int]) -> bool:
    """«Цели не засчитываются, если в фазу их выполнения живых представителей Мафии и Предателя не
    меньше, чем остальных живых»: counted over the characters alive in the phase (at its start)."""
    factions = [state.seat(s).faction for s in seats]
    evil = sum(1 for f in factions if f in (MAFIA, TRAITOR))
    return evil >= len(factions) - evil


def _hand_after(h0: int, p0: int, net: int, lost: int, gained: int) -> int:
    """The Hand's size at the end of the phase from its size before the damage (h0), the replacements
    owed (p0), the damage armour did not stop (net), the cards discarded from it by effects after
    the damage (lost) and the cards drawn or given into it by effects (gained)."""
    absorbed = min(net, p0)
    h1 = max(0, h0 - (net - absorbed))
    return max(0, h1 - lost) + (p0 - absorbed) + gained


class HeroMixin:
    """A part of CardsRuleset (ruleset.py), not used alone."""

    def _armour_and_damage(self, ctx: _Close) -> None:
        hero = hero_seat(ctx.state)
        if hero is None or hero not in ctx.alive_at_start:
            super()._armour_and_damage(ctx)
            return
        # «Не может наносить урон никаким образом»: the damage his cards would deal to anyone else
        # does not happen (the other primitives of the card do).
        for instance in ctx.instances:
            if instance.live and instance.op == "damage" and instance.actor == hero and instance.target != hero:
                instance.cancelled = NO_DAMAGE
                self._note(ctx, instance, n=0, reason=NO_DAMAGE)
                if instance.play is not None:
                    ctx.report(hero).setdefault("no_damage", []).append(ctx.plays[instance.play].name)
        given: dict[int, int] = {}
        if ctx.kind == NIGHT:
            for instance in self._live(ctx, "armour"):
                if instance.actor == hero and instance.target != hero:
                    given[instance.target] = given.get(instance.target, 0) + instance.n
        before = {s: (len(ctx.table.hand(s)), ctx.pending.get(s, 0)) for s in given}
        super()._armour_and_damage(ctx)
        ledger = ctx.ledger
        for seat, n in given.items():
            if seat in ledger.broken:
                continue  # broken armour counts for nothing, the hero's too
            damage, armour = ledger.damage.get(seat, 0), ledger.armour.get(seat, 0)
            net, without = max(0, damage - armour), max(0, damage - max(0, armour - n))
            if without > net:
                ctx.hero_saves[seat] = (*before[seat], net, without)

    def _deaths(self, ctx: _Close) -> None:
        super()._deaths(ctx)
        hero = hero_seat(ctx.state)
        if hero is None or hero not in ctx.alive_at_start:
            return
        record = _record(ctx.memory, hero)
        met: list[tuple[str, int]] = []
        if ctx.kind == NIGHT and ARMOUR_GOAL not in record["goals"]:
            for seat in sorted(ctx.hero_saves):
                if ctx.state.seat(seat).faction == LAW and ctx.status[seat] == ACTIVE and self._saved(ctx, seat):
                    met.append((ARMOUR_GOAL, seat))
                    break
        if ctx.kind == DAY and MARK_GOAL not in record["goals"]:
            for seat in ctx.dead:
                if seat in record["marks"] and ctx.state.seat(seat).faction == MAFIA:
                    met.append((MARK_GOAL, seat))
                    break
        if not met:
            return
        void = goals_void(ctx.state, ctx.alive_at_start)
        hero_ref = _ref(ctx.seat(hero))
        for goal, seat in met:
            data = {**hero_ref, "goal": goal, "seat": seat, "seat_name": ctx.name(seat)}
            if void:
                ctx.gm_note("hero_goal_void", **data)
                continue
            record["goals"][goal] = ctx.state.phase
            # «о выполнении которых узнаёт» (the GM sees it too); the dead «не получают сообщений».
            audience = seat_audience(hero) if ctx.status[hero] == ACTIVE else GM
            ctx.events.append(Event("hero_goal", audience, data))
        if len(record["goals"]) == len(GOALS) and not record["won"]:
            record["won"] = True
            if ctx.status[hero] == ACTIVE:  # «побеждает и покидает игру. Игра при этом продолжается.»
                ctx.status[hero] = LEFT
                ctx.events.append(Event("hero_left", PUBLIC, hero_ref))

    def _saved(self, ctx: _Close, seat: int) -> bool:
        """Would the character have ended the night with an empty Hand without the hero's armour?
        The Hand he ends with, less what the armour's share of the damage would have taken from it
        (each unit a replacement not drawn or a card discarded, while there are any)."""
        h0, p0, net, without = ctx.hero_saves[seat]
        lost = sum(i.n for i in self._live(ctx, "discard") if i.target == seat and i.zone == HAND)
        gained = sum(i.n for i in ctx.instances
                     if i.live and i.target == seat and i.op in ("draw", "give") and i.to == HAND)
        difference = _hand_after(h0, p0, net, lost, gained) - _hand_after(h0, p0, without, lost, gained)
        return len(ctx.table.hand(seat)) - difference <= 0

    def _game_winners(self, ctx: _Close, winner: str, seats: Any) -> list[int]:
        """«Побеждает при победе Закона, если дожил до неё или выполнил одну цель. Если выполнил две
        цели, побеждает» (whoever wins the game)."""
        out = list(super()._game_winners(ctx, winner, seats))
        hero = next((s for s in seats if s.role == HERO), None)
        if hero is None or hero.id in out:
            return out
        record = hero_record(ctx.memory, hero.id)
        if record["won"] or (winner == LAW and record["goals"]):
            out.append(hero.id)
        return out
