"""The overt roles that change the Veche and who may be named: the Politician (a vote of 1.5, and
prison instead of execution the first time he leads the vote), the Prosecutor's +2 on the day he
uses it, and the Sociopath (no card and no vote may name him in the first night and day). Mixed into CardsRuleset before the phase mixins, so each
hook here wraps the part-1 check it refines (`super()`).

«Политик +0,5 к силе голоса (голос считается за 1,5). Если он становится лидером голосования в
первый раз, попадает в тюрьму вместо казни.»
«Социопат Не может быть целью карт и голосования в первые сутки»
"""

from __future__ import annotations

from typing import Any

from games.engine.events import PUBLIC, Event
from games.engine.orders import PEACE
from games.engine.rulesets.common import pick_seat
from games.engine.rulesets.common import ref as _ref
from games.engine.rulesets.common import seat_id as _seat_id
from games.engine.state import GameState
from games.rulesets.cards.engine.collection import Card
from games.rulesets.cards.engine.context import _Close
from games.rulesets.cards.engine.roles import overt_role
from games.rulesets.cards.engine.veche import EXECUTION, PRISON

POLITICIAN, SOCIOPATH = "Политик", "Социопат"
# «в первые сутки»: the game opens at night, so the first day and night are night 1 and day 1.
SOCIOPATH_PHASES = ("night 1", "day 1")
# memory["politician_led"]: the seats whose first lead of the Veche is spent.
POLITICIAN_LED = "politician_led"
# The refusal of a card or a vote naming the Sociopath in the first night and day.
PROTECTED = "target_protected"
# memory["prosecutor_boost"] = {seat: "day N"}: the day the Prosecutor's vote counts 2 more
# (his at-once ability, engine/abilities_prosecutor_assassin_hero_joker.py).
PROSECUTOR_MEMORY = "prosecutor_boost"
PROSECUTOR_EXTRA = 2


def overt_name(state: GameState, seat: int) -> str:
    """The registered name of a seat's overt role ("" for none or a custom one)."""
    role = overt_role(state.memory.get("overt", {}).get(str(seat)))
    return role.name if role is not None else ""


def protected(state: GameState, seat: Any) -> bool:
    """«Не может быть целью карт и голосования в первые сутки»: the Sociopath, on night 1 and day 1."""
    target = pick_seat(state, seat) if not isinstance(seat, int) else seat
    return (target is not None and state.phase in SOCIOPATH_PHASES and state.has_seat(target)
            and overt_name(state, target) == SOCIOPATH)


class VecheRolesMixin:
    """A part of CardsRuleset (ruleset.py), not used alone: the Politician's first lead and the
    Sociopath's first day and night."""

    # -- the Sociopath -------------------------------------------------------------------------------

    def vote_targets(self, state: GameState) -> tuple[int, ...]:
        return tuple(s for s in super().vote_targets(state) if not protected(state, s))

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        if (target is not None and not (isinstance(target, str) and target.strip().lower() == PEACE)
                and _seat_id(voter) in self.voters(state) and protected(state, _seat_id(target))):
            return PROTECTED
        return super().check_vote(state, voter, target)

    def _check_targets(self, state: GameState, seat: int, card: Card, target: Any, target2: Any) -> str | None:
        reason = super()._check_targets(state, seat, card, target, target2)
        if reason is None and card.target != "self":
            for named in (target, target2):
                if named is not None and protected(state, pick_seat(state, named)):
                    return PROTECTED
        return reason

    # -- the Prosecutor ------------------------------------------------------------------------------

    def vote_weight(self, state: GameState, seat: int) -> float:
        """«Прокурор: Один раз за игру, голосуя, может получить на этот день +2 к силе голоса»: on
        the day he used it, his vote (and measure vote) weighs 2 more."""
        weight = super().vote_weight(state, seat)
        if state.memory.get(PROSECUTOR_MEMORY, {}).get(str(seat)) == state.phase:
            weight += PROSECUTOR_EXTRA
        return weight

    # -- the Politician ------------------------------------------------------------------------------

    def veche_measure(self, state: GameState, leader: int, measure: str) -> str:
        """«Если он становится лидером голосования в первый раз, попадает в тюрьму вместо казни»:
        the Politician's first lead of the Veche (the first day he is the one punished) is prison,
        whatever the measure vote said."""
        measure = super().veche_measure(state, leader, measure)
        if overt_name(state, leader) == POLITICIAN and leader not in state.memory.get(POLITICIAN_LED, ()):
            return PRISON
        return measure

    def _count_veche(self, ctx: _Close) -> None:
        super()._count_veche(ctx)
        veche = ctx.veche
        if veche is None or veche.leader is None or overt_name(ctx.state, veche.leader) != POLITICIAN:
            return
        led = ctx.memory.setdefault(POLITICIAN_LED, [])
        if veche.leader in led:
            return
        led.append(veche.leader)  # his first lead is spent, whatever the measure
        voted = EXECUTION if veche.measure_tally.get(EXECUTION, 0) > veche.measure_tally.get(PRISON, 0) else PRISON
        if voted == EXECUTION:
            ctx.events.append(Event("politician_spared", PUBLIC, {**_ref(ctx.seat(veche.leader)),
                                                                  "overt": POLITICIAN}))
