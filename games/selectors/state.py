"""The one loader of a game's engine state, and the engine reads the pages ask about it.

A game's state is stored as the engine's JSON (`Game.state`, a closed phase's
`state_before["state"]`); everything outside the engines reads it through `game_state` /
`stored_state` instead of calling `GameState.from_json` itself, so the stored shape has one
reader. The views and template tags import no engine module (issue 15): what they need of the
rule set's engine (the actions a seat may order, the table's style, the speaking order) they ask
here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.rulesets import RULESETS, get_ruleset
from games.engine.rulesets.base import SiteStyle, site_style, voting_order
from games.engine.state import GameState


def stored_state(data: Mapping | None) -> GameState | None:
    """An engine state from its stored JSON (a Game.state, a phase's state_before["state"], a row
    read with values_list), or None for none (a game before its start stores {})."""
    return GameState.from_json(data) if data else None


def game_state(game) -> GameState | None:
    """The game's engine state now, or None before the start."""
    return stored_state(game.state)


def game_rules(game) -> Any:
    """The engine's rule set object of the game (KeyError for a key no rule set registered)."""
    return get_ruleset(game.ruleset)


def table_style(game) -> SiteStyle:
    """How the game's table looks on the site (the engine's SiteStyle; the forum's for a key no
    rule set registered, an old game's)."""
    return site_style(RULESETS.get(game.ruleset))


def allowed_actions(game, state: GameState | None, seat_pk: int) -> tuple[str, ...]:
    """The actions the seat may order now by the rule set (none without a running state)."""
    return tuple(game_rules(game).allowed_actions(state, seat_pk)) if state is not None else ()


def owed_actions(game, state: GameState | None, seat_pk: int) -> tuple[str, ...]:
    """The actions the seat owes now (a role that must act each night); none without a state."""
    return tuple(game_rules(game).owed_actions(state, seat_pk)) if state is not None else ()


def role_actions(game) -> list[str]:
    """Every action some role of the rule set may order, sorted (the GM's override form)."""
    return sorted({a for role in game_rules(game).roles.values() for a in role.actions})


def table_order(game, state: GameState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(speaking order, voting order) of the current phase, seat ids, for a table that speaks and
    votes in rounds by seat (club); empty for a rule set that does not."""
    rules = RULESETS.get(game.ruleset)
    if rules is None:
        return (), ()
    return tuple(rules.speaking_order(state)), voting_order(rules, state)
