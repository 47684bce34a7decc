"""The `cards` rule set (seed 001_666f92ca90d279a9.txt): secret and overt roles, deck building, Hand
and Sleeve, card plays resolved together at the end of each phase, damage and armour, death at an
empty Hand, the Veche, and the factions' wins. docs/rulesets/cards.md explains every reading.

`CardsRuleset` is the protocol's face (games.engine.rulesets.base.Ruleset); its behaviour is split
by phase into mixins, one module each, which call each other through `self` so that a subclass
(part 2's overt roles) overrides a hook once for every caller:

    context.py       the constants and refusal codes, phase names, the collection, the close's context
    opening.py       OpeningMixin: the deal and the first night's knowledge
    plays.py         PlaysMixin: the actions and every input's check
    day.py           DayMixin: the Veche's voters, vote checks, the count at the close
    deckbuilding.py  DeckbuildingMixin: a deck's refusals, the close of deck building
    pipeline.py      PipelineMixin: a night's or day's close, the steps' order, the inputs taken into effects
    steps.py         StepsMixin: the effects applied step by step
    closing.py       ClosingMixin: the closing events and the outcome
    overt.py         OvertMixin: the overt roles' hooks on draws, Hands, damage and armour (part 2, c)

This module keeps what ties them together: the class's attributes, the phase, the overt role and
`resolve` (one phase's close, start to end), and re-exports the shared names it always offered.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from types import MappingProxyType

from games.engine.events import PUBLIC, Event
from games.engine.orders import PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec, SiteStyle
from games.engine.rulesets.common import ref as _ref
from games.engine.state import ACTIVE, GameState
# Each abilities_<roles> module registers its roles' abilities on abilities.py's registry when
# imported (by its module path, not as an attribute of the package: the package's __init__ imports
# this module, so `from <package> import ...` would point back at it).
import games.rulesets.cards.engine.abilities_lucky_scientist  # noqa: F401
import games.rulesets.cards.engine.abilities_maniac_joker_geek_marauder  # noqa: F401
import games.rulesets.cards.engine.abilities_prosecutor_assassin_hero_joker  # noqa: F401
from games.rulesets.cards.engine.abilities import AbilitiesMixin, phase_abilities_outcome
from games.rulesets.cards.engine.closing import ClosingMixin
from games.rulesets.cards.engine.context import (  # the shared names are re-exported from here too
    CARDS_MAX,
    CARDS_MIN,
    DEAD,
    DECKBUILDING,
    EVENT_KINDS,
    GM_EFFECT_REASONS,
    GM_OPS,
    LEFT,
    NIGHT,
    OPTION_DEFAULTS,
    REASONS,
    VOTE_REASONS,
    _Close,
    collection_of,
    has_link,
    parse_phase,
)
from games.rulesets.cards.engine.day import DayMixin
from games.rulesets.cards.engine.dead import DeadMixin
from games.rulesets.cards.engine.deckbuilding import DeckbuildingMixin
from games.rulesets.cards.engine.decks import DECK_REASONS
from games.rulesets.cards.engine.effects import Table
from games.rulesets.cards.engine.hero import HeroMixin
from games.rulesets.cards.engine.opening import OpeningMixin
from games.rulesets.cards.engine.overt import OvertMixin
from games.rulesets.cards.engine.pipeline import PipelineMixin
from games.rulesets.cards.engine.plays import PlaysMixin
from games.rulesets.cards.engine.roles import (
    FACTIONS,
    JOKER_OR_TRAITOR,
    LAW_PLACEHOLDER,
    ROLES,
)
from games.rulesets.cards.engine.steps import StepsMixin
from games.rulesets.cards.engine.veche import parse_measure
from games.rulesets.cards.engine.veche_roles import VecheRolesMixin

__all__ = [
    "CARDS",
    "CARDS_MAX",
    "CARDS_MIN",
    "DEAD",
    "LEFT",
    "EVENT_KINDS",
    "GM_EFFECT_REASONS",
    "GM_OPS",
    "OPTION_DEFAULTS",
    "REASONS",
    "VOTE_REASONS",
    "CardsRuleset",
    "collection_of",
    "has_link",
    "parse_phase",
]


class CardsRuleset(VecheRolesMixin, HeroMixin, DeadMixin, OpeningMixin, PlaysMixin, DayMixin, DeckbuildingMixin,
                   PipelineMixin, StepsMixin, ClosingMixin, OvertMixin, AbilitiesMixin):
    key = "cards"
    roles: Mapping[str, RoleSpec] = ROLES
    factions: tuple[str, ...] = FACTIONS
    min_players = CARDS_MIN
    max_players = CARDS_MAX
    outcome_keys: tuple[str, ...] = (
        "votes", "tally", "hands", "sleeves", "sleeve_sizes", "free_bottom", "deck_top", "hand_sizes", "damage", "armour", "dead", "executed", "imprisoned",
        "measure", "peace", "alive", "over", "abilities",
    )
    reasons: Mapping[str, str] = REASONS
    vote_reasons: Mapping[str, str] = VOTE_REASONS
    # Other names a GM may type for a role in a role table (games.text.roletable reads any
    # grammatical form of them); the labels the site shows are accepted besides.
    role_synonyms: Mapping[str, tuple[str, ...]] = MappingProxyType({
        LAW_PLACEHOLDER: ("законник", "член закона", "закон"),
        JOKER_OR_TRAITOR: ("джокер или предатель",),
    })
    deck_reasons: Mapping[str, str] = DECK_REASONS
    peace_vote = True  # the Veche has a vote «за мир»: the site's vote reader must accept it
    # «По окончании дня персонаж, набравший больше всего голосов, получает 6 урона»: the Veche's
    # leader at the close is punished whatever the margin (a plurality), never a majority that ends
    # the day early; the count speaks the Veche's own words (CardsSite.count_words).
    site = SiteStyle(majority=False)
    # The measure vote read from a post's bold text («[b]казнь[/b]», «[b]в тюрьму[/b]»).
    parse_measure = staticmethod(parse_measure)

    # -- the phase and the overt role (every mixin asks these) -------------------------------------------

    def _phase(self, state: GameState) -> tuple[str, int]:
        return parse_phase(state.phase)

    def overt_of(self, state: GameState, seat: int) -> str:
        return str(state.memory.get("overt", {}).get(str(seat), ""))

    # -- the close -----------------------------------------------------------------------------------

    def resolve(self, state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
        """Close the phase now being played. Deterministic for (state, inputs, seed); `now` is not
        used. The order of the steps is documented in docs/rulesets/cards.md ("The end of a phase")."""
        if state.ruleset != self.key:
            raise ValueError(f"a {state.ruleset!r} game cannot be resolved by the cards rule set")
        if state.over:
            raise ValueError("the game is over")
        kind, number = self._phase(state)
        memory = copy.deepcopy(dict(state.memory))
        memory.setdefault("players", {})
        memory.setdefault("deaths", [])
        ctx = _Close(
            state=state, inputs=inputs, kind=kind, number=number, memory=memory,
            table=Table(memory, collection_of(state)), rng=random.Random(seed),
            status={s.id: s.status for s in state.seats},
        )
        ctx.alive_at_start = [s.id for s in state.seats if s.status == ACTIVE]
        ctx.start_hands = {i: list(ctx.table.hand(i)) for i in ctx.alive_at_start}
        ctx.start_sleeves = {i: ctx.table.sleeve_names(i) for i in ctx.alive_at_start}
        # The containers before the phase's first at-once ability (abilities.py), so that the
        # outcome shows everything the phase changed.
        start = memory.pop("phase_start", None)
        if start and start.get("phase") == state.phase:
            for i in ctx.alive_at_start:
                ctx.start_hands[i] = list(start["hands"].get(str(i), ctx.start_hands[i]))
                ctx.start_sleeves[i] = list(start["sleeves"].get(str(i), ctx.start_sleeves[i]))
        for key, order in sorted(inputs.orders.items(), key=lambda kv: str(kv[0])):
            ctx.gm_note("input_ignored", given=order.to_json(), reason="cards_inputs_are_in_extra")

        if kind == DECKBUILDING:
            self._close_deckbuilding(ctx)
            next_phase = "night 1"
        else:
            self._close_play(ctx)
            next_phase = f"day {number}" if kind == NIGHT else f"night {number + 1}"

        abilities_used = phase_abilities_outcome(memory, state.phase, {s.id: s.name for s in state.seats})
        seats_after = tuple(replace(s, status=ctx.status[s.id]) for s in state.seats)
        winner = self._game_winner(ctx, seats_after)
        over = winner is not None
        new_state = replace(state, seats=seats_after, phase=state.phase if over else next_phase, over=over,
                            winner=winner, memory=memory)
        self._closing_events(ctx, new_state)
        if kind == DECKBUILDING and not over:
            ctx.events += self._night_one_events(new_state, ctx.table)
        if over:
            won = self._game_winners(ctx, winner, seats_after)
            ctx.events.append(Event("game_over", PUBLIC, {
                "winner": winner,
                "winners": [_ref(new_state.seat(i)) for i in won],
                "seats": [{**_ref(s), "role": s.role, "faction": s.faction, "status": s.status,
                           "overt": self.overt_of(state, s.id)} for s in seats_after],
            }))
        outcome = self._outcome(ctx, new_state)
        outcome["abilities"] = abilities_used
        return Resolution(state=new_state, events=tuple(ctx.events), outcome=outcome)


CARDS = CardsRuleset()
