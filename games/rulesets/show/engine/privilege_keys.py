"""The show's eleven privileges («Привилегии») by key, in the seed's order, and the actions a
hero's panel offers for them. Constants only, so the options' check can read them without the
engine's other modules."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

SNAKELET = "snakelet"  # 1) ЗМЕЁНЫШ
BOUNCER = "bouncer"  # 2) ВЫШИБАЛА
SECRETARY = "secretary"  # 3) СЕКРЕТАРЬ
BINGO = "bingo"  # 4) БИНГО
TALKER = "talker"  # 5) ГОВОРУН
HARE = "hare"  # 6) ЗАЯЦ
HACKER = "hacker"  # 7) ХАКЕР
GENIUS = "genius"  # 8) ГЕНИЙ
AUTHORITY = "authority"  # 9) АВТОРИТЕТ
LAWYER = "lawyer"  # 10) АДВОКАТ
MOLE = "mole"  # 11) КРОТ

PRIVILEGES: tuple[str, ...] = (SNAKELET, BOUNCER, SECRETARY, BINGO, TALKER, HARE, HACKER, GENIUS, AUTHORITY,
                               LAWYER, MOLE)

# The seed's names (the site words them through its catalogue; docs/glossary.md).
SEED_NAMES: Mapping[str, str] = MappingProxyType({
    SNAKELET: "Змеёныш", BOUNCER: "Вышибала", SECRETARY: "Секретарь", BINGO: "Бинго", TALKER: "Говорун",
    HARE: "Заяц", HACKER: "Хакер", GENIUS: "Гений", AUTHORITY: "Авторитет", LAWYER: "Адвокат", MOLE: "Крот",
})

# Actions of the privileges (ShowRuleset.allowed_actions offers them; docs/rulesets/show.md, "Part 3").
STUN, EXCLUDE, EXTRA_VOTE, INTERCEPT, MOLE_COMA, STEAL, FAKE = (
    "stun", "exclude", "extra_vote", "intercept", "mole_coma", "steal", "fake")
PRIVILEGE_ACTIONS: tuple[str, ...] = (STUN, EXCLUDE, EXTRA_VOTE, INTERCEPT, MOLE_COMA, STEAL, FAKE)

FAKES_PER_STAGE = 5  # «до пяти таких сообщений за Этап»
AUTHORITY_MIN_FREE = 6  # «работает только когда на свободе более пяти Героев»
