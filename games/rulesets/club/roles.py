"""The club's names that its engine and its rating share: the rule set's key, the colours, the
roles and their night actions, and the statuses a seat ends the game in. Pure: no Django import.
(games.rulesets.club.engine re-exports them, so both are ways in.)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from games.engine.rulesets.base import RoleSpec

KEY = "club"  # ClubRuleset.key and GameState.ruleset of a club game

BLACK, RED = "black", "red"
DON, MAFIOSO, PUTANA = "don", "mafioso", "putana"
COMMISSAR, DOCTOR, MANIAC, CIVILIAN = "commissar", "doctor", "maniac", "civilian"
KILL, FREEZE, HEAL, CHECK, NOTE, TAKE = "kill", "freeze", "heal", "check", "note", "take"
EXECUTED, KILLED, REMOVED = "executed", "killed", "removed"

ROLES: Mapping[str, RoleSpec] = MappingProxyType(
    {
        # «просыпаются только черные игроки, которые знакомятся друг с другом»
        DON: RoleSpec(DON, BLACK, (KILL, TAKE), knows_team=True),
        MAFIOSO: RoleSpec(MAFIOSO, BLACK, (KILL,), knows_team=True),
        # Her kill is transient (only when she is the last black), so it is not listed here.
        PUTANA: RoleSpec(PUTANA, BLACK, (FREEZE,), knows_team=True),
        COMMISSAR: RoleSpec(COMMISSAR, RED, (CHECK, NOTE)),
        DOCTOR: RoleSpec(DOCTOR, RED, (HEAL,)),
        MANIAC: RoleSpec(MANIAC, RED, (KILL,)),
        CIVILIAN: RoleSpec(CIVILIAN, RED),
    }
)
# «Активная красная карта (доктор, комиссар или маньяк)» — the seed's gesture list.
ACTIVE_CARDS = frozenset({COMMISSAR, DOCTOR, MANIAC})
