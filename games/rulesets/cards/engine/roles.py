"""Secret (night) roles with their colours and deck limits, the overt (day) roles' registry, the
default role table, and who wins.

Part 1 of the rule set gives every secret role its faction, colours, deck limits and win condition,
and every overt role its name (one holder per game) and the cards it puts in the Sleeve at the start.
The overt abilities and the neutrals' special powers (part 2) plug in here: each is one more field
filled in `OVERT_ROLES` / `SECRET_ROLES` and read by the hook that already asks for it
(`vote_weight`, `deck_rules_for`, `opening_hand_size`, ...).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from games.engine.rulesets.base import RoleSpec
from games.rulesets.cards.engine.collection import (
    ACE,
    COLOURS,
    CONTROL,
    DAMAGE,
    DEFENCE,
    NEUTRAL,
    RECON,
    SABOTAGE,
    SUPPORT,
)

__all__ = [
    "FACTIONS",
    "LAW_ROLES",
    "OVERT_ROLES",
    "ROLES",
    "SECRET_ROLES",
    "OvertRole",
    "SecretRole",
    "default_role_table",
    "deal_placeholders",
    "overt_key",
    "overt_role",
    "winner_of",
]

# Factions (SeatState.faction). The traitor and the hero are factions of their own so that the
# mafia's team events never reach the traitor («Мафия: Состоит из ровно трёх персонажей»); the
# traitor wins with the mafia, the hero with the law (see `winners`).
LAW, MAFIA, MANIAC, JOKER, TRAITOR, HERO = "law", "mafia", "maniac", "joker", "traitor", "hero"
FACTIONS: tuple[str, ...] = (LAW, MAFIA, MANIAC, JOKER, TRAITOR, HERO)
# What `GameState.winner` may hold (FORMAT.md: `law`, `mafia` (with the traitor), `maniac`, `joker`, `none`).
WINNERS: tuple[str, ...] = (LAW, MAFIA, MANIAC, JOKER, "none")

# Role-table placeholders that new_game turns into real roles with the game's seed: «Каждый
# законник получает одну из следующих ролей, случайным образом» and «С 13 игроков добавляются
# дополнительные роли - Джокер или Предатель».
LAW_PLACEHOLDER = "law"
JOKER_OR_TRAITOR = "joker_or_traitor"

SIX_COLOURS = (DAMAGE, RECON, DEFENCE, SABOTAGE, CONTROL, SUPPORT)


@dataclass(frozen=True)
class SecretRole:
    key: str
    faction: str
    colours: tuple[str, ...]  # «Босс: Контроль, Разведка»; the joker chooses his two
    off_colour_max: int = 2  # «Карт цветов, не соответствующих роли и не нейтральных, можно взять не более 2»
    per_colour_max: int | None = None  # traitor 3, hero 4
    banned_colours: tuple[str, ...] = ()  # hero: Damage
    chooses_colours: int = 0  # joker: 2
    start_sleeve: tuple[str, ...] = ()  # joker: Туз; hero: Оракул
    opening_sleeve_draws: int = 0  # maniac: «В начале игры тянет 1 карту из Колоды в Рукав»
    seed: str = ""  # the seed's words


SECRET_ROLES: Mapping[str, SecretRole] = MappingProxyType(
    {
        r.key: r
        for r in (
            SecretRole("boss", MAFIA, (CONTROL, RECON), seed="Босс: Контроль, Разведка"),
            SecretRole("advisor", MAFIA, (SUPPORT, DEFENCE), seed="Советник: Поддержка, Защита"),
            SecretRole("killer", MAFIA, (DAMAGE, SABOTAGE), seed="Киллер: Урон, Саботаж"),
            SecretRole("sheriff", LAW, (DAMAGE, RECON), seed="Шериф: Урон, Разведка"),
            SecretRole("commissioner", LAW, (RECON, DEFENCE), seed="Комиссар: Разведка, Защита"),
            SecretRole("doctor", LAW, (DEFENCE, SABOTAGE), seed="Доктор: Защита, Саботаж"),
            SecretRole("agent", LAW, (SABOTAGE, CONTROL), seed="Агент: Саботаж, Контроль"),
            SecretRole("judge", LAW, (CONTROL, SUPPORT), seed="Судья: Контроль, Поддержка"),
            SecretRole("vigilante", LAW, (SUPPORT, DAMAGE), seed="Вигиланте: Поддержка, Урон"),
            SecretRole("policeman", LAW, (DAMAGE, DEFENCE, CONTROL), off_colour_max=0,
                       seed="Полицейский: Урон, Защита, Контроль, нельзя брать карты других цветов, кроме Нейтральных."),
            SecretRole("detective", LAW, (RECON, SABOTAGE, SUPPORT), off_colour_max=0,
                       seed="Сыщик: Разведка, Саботаж, Поддержка, нельзя брать карты других цветов, кроме Нейтральных."),
            SecretRole("maniac", MANIAC, SIX_COLOURS, opening_sleeve_draws=1,
                       seed="Маньяк: Урон, Разведка, Защита, Саботаж, Контроль, Поддержка. В начале игры тянет 1 "
                            "карту из Колоды в Рукав"),
            SecretRole("joker", JOKER, (), chooses_colours=2, start_sleeve=(ACE,),
                       seed="Джокер: Выбирает два любых цвета в начале игры. В начале игры получает одну карту Туз в рукав."),
            SecretRole("traitor", TRAITOR, SIX_COLOURS, per_colour_max=3,
                       seed="Предатель: Урон, Разведка, Защита, Саботаж, Контроль, Поддержка. Не может брать в колоду "
                            "более трёх карт одного цвета. Цель - привести мафию к победе."),
            SecretRole("hero", HERO, (RECON, DEFENCE, SABOTAGE, CONTROL, SUPPORT), per_colour_max=4,
                       banned_colours=(DAMAGE,), start_sleeve=("Оракул",),
                       seed="Герой: Разведка, Защита, Саботаж, Контроль, Поддержка. Не может брать в колоду более "
                            "четырёх карт одного цвета. Не может брать карты Урона. В начале игры имеет карту Оракул в рукаве."),
        )
    }
)
LAW_ROLES: tuple[str, ...] = tuple(k for k, r in SECRET_ROLES.items() if r.faction == LAW)
MAFIA_ROLES: tuple[str, ...] = ("boss", "advisor", "killer")
# «Мафия: Состоит из ровно трёх персонажей следующих ролей», and one maniac, joker, traitor, hero.
SINGLE_ROLES: tuple[str, ...] = (*MAFIA_ROLES, "maniac", "joker", "traitor", "hero")

# The protocol's role map: the secret roles, plus the two placeholders a role table may hold.
ROLES: Mapping[str, RoleSpec] = MappingProxyType(
    {
        **{k: RoleSpec(k, r.faction, knows_team=r.faction == MAFIA) for k, r in SECRET_ROLES.items()},
        LAW_PLACEHOLDER: RoleSpec(LAW_PLACEHOLDER, LAW),
        JOKER_OR_TRAITOR: RoleSpec(JOKER_OR_TRAITOR, "neutral"),
    }
)


# -- overt roles -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OvertRole:
    """One overt (day) role. Part 1 reads `start_sleeve` (and the names); the other fields are the
    hooks part 2 fills in, each already consulted where the rule applies."""

    name: str
    seed: str  # the seed's description
    aliases: tuple[str, ...] = ()
    start_sleeve: tuple[str, ...] = ()  # «В начале игры получает 1 карту "X" в Рукав»
    vote_weight: float = 1.0  # Авторитет 2, Политик 1.5 (his first-time prison: engine/veche_roles.py)
    opening_hand: int | None = None  # part 2: Здоровяк 7, Гик 5
    # Deck limits: a number replaces the secret role's limit (Гений), a pair (from, to) replaces it
    # only where it is `from` (Крупье: off-colour 2 -> 4, the traitor's 3 per colour -> 4).
    deck_rules: Mapping[str, Any] = field(default_factory=dict)
    free_price_min: int | None = None  # Мот: his cards of this Price or more are Free
    deck_picks: int = 0  # Инженер: cards of his deck chosen to be among the opening Hand
    hand_pay: int = 0  # Культист: Price cards a phase he may discard from the Hand instead of the Sleeve
    free_after_rebuild: int = 0  # Фокусник: the bottom cards of his first rebuilt deck become Free
    implemented: bool = False  # True once every part of the ability is in the engine
    # Part 2 (c): draws, hands, damage and armour (engine/overt.py reads them; docs/rulesets/cards.md).
    opening_sleeve_draws: int = 0  # Шулер 1: «В начале игры тянет 1 карту из колоды в Рукав»
    low_hand_draw: tuple[int, ...] = ()  # Монах (1, 2): «имеет 1 или 2 карты в Руке, тянет карту»
    deck_top_seen: int = 0  # Экстрасенс 3: «Всегда видит верхние 3 карты в своей Колоде»
    rebuild_sleeve_draws: int = 0  # Банкир 1: «пересобирает Колоду ... тянет одну карту из нее в Рукав»
    night_damage_cap: int | None = None  # Горец 6: «В одну ночь не может получить более чем 6 урона»
    idle_night_armour: int = 0  # Лентяй 3: «Если не играет карт ночью, получает 3 брони»
    damage_to_sleeve: int = 0  # Воин 2: «Первые две карты за игру, которые сбрасывает ... переносит в Рукав»


def _overt(name: str, seed: str, *, sleeve: Iterable[str] = (), aliases: Iterable[str] = (),
           vote_weight: float = 1.0, implemented: bool | None = None, **hooks: Any) -> OvertRole:
    """`hooks`: the other OvertRole fields (opening_hand, deck_rules, free_price_min, deck_picks, ...)."""
    sleeve = tuple(sleeve)
    done = bool(sleeve) if implemented is None else implemented
    return OvertRole(name, seed, tuple(aliases), sleeve, vote_weight=vote_weight, implemented=done, **hooks)


OVERT_ROLES: Mapping[str, OvertRole] = MappingProxyType(
    {
        r.name: r
        for r in (
            _overt("Здоровяк", "В начале первой ночи добирает дополнительную 1 карту из Колоды в Руку.",
                   opening_hand=7, implemented=True),
            # Гик: 5 cards at the opening draw; his card of choice is the ability `geek_card` (abilities_maniac_joker_geek_marauder.py).
            _overt("Гик", "В начале первой ночи набирает в Руку 5 карт, вместо 6. Один раз за игру в любой момент "
                          "может получить в Рукав любую карту, на выбор.", opening_hand=5, implemented=True),
            _overt("Культист", "Сбрасывая карты на оплату Цены, может сбросить до двух карт в фазу из Руки вместо Рукава.",
                   hand_pay=2, implemented=True),
            _overt("Инженер", "Собирая Колоду, может выбрать из нее две карты. Эти карты гарантированно будут среди "
                              "6 сданных карт.", aliases=("Механик", "Инженер/Механик"), deck_picks=2,
                   implemented=True),
            _overt("Прокурор", "Один раз за игру, голосуя, может получить на этот день +2 к силе голоса.", implemented=True),
            _overt("Авторитет", "+1 к силе голоса (голос считается за 2)", vote_weight=2.0, implemented=True),
            _overt("Менеджер", "Может создавать чат-комнаты на двух или четырех персонажей.", implemented=True),
            _overt("Заговорщик", "Один раз за игру при создании чат-комнаты днем может создать ее на любое количество "
                                 "персонажей. Эта чат-комната не уничтожается до конца игры и может существовать "
                                 "параллельно с другими чат-комнатами этого персонажа.", implemented=True),
            _overt("Сплетник", "В начале игры получает 1 карту \"Безлимитный тариф\" в Рукав", sleeve=("Безлимитный тариф",)),
            _overt("Патрульный", "В начале игры получает 1 карту \"Свидетель\" в Рукав.", sleeve=("Свидетель",)),
            _overt("Богач", "В начале игры получает 1 карту \"Пустышка\" в Рукав. Ее можно сбросить на оплату Цены.",
                   sleeve=("Пустышка",)),
            # Мародер: the ability `marauder_copy` (abilities_maniac_joker_geek_marauder.py).
            _overt("Мародер", "Один раз за игру может мгновенно выбрать мертвого персонажа и получить копии всех карт "
                              "из его Рукава себе в Рукав", aliases=("Мародёр",), implemented=True),
            _overt("Горец", "В одну ночь не может получить более чем 6 урона от чужих карт", night_damage_cap=6,
                   implemented=True),
            _overt("Параноик", "В начале игры получает 1 карту \"Бункер\" в Рукав.", sleeve=("Бункер",)),
            _overt("Секретарша", "В начале игры получает 1 карту \"Кофе\" в Рукав", sleeve=("Кофе",)),
            _overt("Охранник", "В начале игры получает 1 карту \"Камера наблюдения\" в Рукав",
                   sleeve=("Камера наблюдения",)),
            _overt("Качок", "В начале игры получает 1 карту \"Из последних сил\" в Рукав", sleeve=("Из последних сил",)),
            _overt("Шулер", "В начале игры тянет 1 карту из колоды в Рукав", opening_sleeve_draws=1, implemented=True),
            _overt("Мот", "Его карты с ценой 2 и более являются Свободными. (Набирать их можно как несвободные)",
                   free_price_min=2, implemented=True),
            _overt("Везунчик", "В первую ночь может до двух раз отменить пришедшие ему 6 карт, перемешать колоду, и "
                               "набрать 6 карт снова", implemented=True),
            _overt("Воин", "Первые две карты за игру, которые сбрасывает из Руки из-за урона, вместо этого переносит в Рукав",
                   damage_to_sleeve=2, implemented=True),
            _overt("Крупье", "Лимит карт не своего цвета в колоде - 4, вместо 2. Если является Предателем, может брать "
                             "до 4 карт каждого цвета.",
                   deck_rules=MappingProxyType({"off_colour_max": (2, 4), "per_colour_max": (3, 4)}), implemented=True),
            _overt("Гадалка", "В начале игры получает 1 карту \"Оракул\" в Рукав", sleeve=("Оракул",)),
            _overt("Почтальон", "Раз в день может отправить днём приватное сообщение любому игроку, указав публично "
                                "получателя.", implemented=True),
            _overt("Фокусник", "После первой пересборки Колоды нижние две карты в ней становятся Свободными. На карте "
                               "видно, является ли она Свободной.", free_after_rebuild=2, implemented=True),
            _overt("Пришелец", "В начале игры получает 1 карту \"Супергерой\" в Рукав.", sleeve=("Супергерой",)),
            _overt("Лентяй", "Если не играет карт ночью, получает 3 брони", idle_night_armour=3, implemented=True),
            _overt("Учёный", "Раз за игру, ночью может сбросить две карты из руки, добирая на замену, даже если играет "
                             "какие-нибудь карты.", aliases=("Ученый",), implemented=True),
            _overt("Оператор", "В начале игры получает 1 карту \"Письмо\" в Рукав", sleeve=("Письмо",)),
            _overt("Банкир", "Каждый раз, как пересобирает Колоду взамен закончившейся, в эту же фазу тянет одну карту "
                             "из нее в Рукав.", rebuild_sleeve_draws=1, implemented=True),
            _overt("Гений", "Его колода должна содержать 12 несвободных карт и до 5 свободных.",
                   deck_rules=MappingProxyType({"non_free": 12, "free_max": 5}), implemented=True),
            _overt("Экстрасенс", "Всегда видит верхние 3 карты в своей Колоде", deck_top_seen=3, implemented=True),
            _overt("Монах", "Если по итогам фазы имеет 1 или 2 карты в Руке, тянет карту из Колоды в Руку",
                   low_hand_draw=(1, 2), implemented=True),
            _overt("Убийца", "Раз за игру может убить одного игрока, имеющего ровно 1 карту в руке.", implemented=True),
            _overt("Гробовщик", "В начале игры получает одну карту \"Аутопсия\" в рукав", sleeve=("Аутопсия",)),
            _overt("Джедай", "В начале игры получает одну карту \"Пролом\" в рукав", sleeve=("Пролом",)),
            _overt("Боец", "В начале игры получает 1 карту \"Боевое искусство\" в Рукав.", sleeve=("Боевое искусство",)),
            _overt("Наркоман", "В начале игры получает 1 карту \"Укол стимулятора\" в Рукав", sleeve=("Укол стимулятора",)),
            _overt("Политик", "+0,5 к силе голоса (голос считается за 1,5). Если он становится лидером голосования в "
                              "первый раз, попадает в тюрьму вместо казни.", vote_weight=1.5, implemented=True),
            _overt("Социопат", "Не может быть целью карт и голосования в первые сутки", implemented=True),
            _overt("Мститель", "Будучи мертвым, может продолжать публично общаться с другими игроками и участвовать в "
                               "старых и новых чат-комнатах. Если умер весь город, победителем становится команда "
                               "Мстителя (если до игры допущено несколько мстителей, то погибшего последним Мстителя. "
                               "Спорные случаи решаются дайсом.)", implemented=True),
        )
    }
)


def overt_key(name: str) -> str:
    """How overt names are compared (one holder per role) and sorted (the Veche's tie-break):
    case-folded, «ё» as «е», inner spaces collapsed."""
    return " ".join(str(name).replace("ё", "е").replace("Ё", "Е").casefold().split())


_BY_KEY: Mapping[str, OvertRole] = MappingProxyType(
    {overt_key(alias): role for role in OVERT_ROLES.values() for alias in (role.name, *role.aliases)}
)


def overt_role(name: str | None) -> OvertRole | None:
    """The registered overt role for a name as written in an application, or None for a custom
    name («Можете сами вписать любое другое незанятое наименование роли ... не обладает
    дополнительными способностями»)."""
    if not name:
        return None
    return _BY_KEY.get(overt_key(name))


# -- the role table ----------------------------------------------------------------------------------


def mafia_count(size: int) -> int:
    """«В игре всегда 3 мафии». Tables smaller than the seed imagines (it is «рассчитана на 10
    человек, но допускает и другое число») get fewer, so that the mafia is never the majority."""
    if size >= 7:
        return 3
    return 2 if size >= 5 else 1


def default_role_table(size: int, *, minimum: int, maximum: int) -> list[str]:
    """«В игре всегда 3 мафии, маньяк появляется, если участников не менее 11. С 13 игроков
    добавляются дополнительные роли - Джокер или Предатель, на 15-16 они есть оба.» The rest are
    law members whose roles new_game draws at random (`law` placeholders)."""
    if not minimum <= size <= maximum:
        raise ValueError(f"the cards rule set is played by {minimum} to {maximum} players, not {size}")
    roles = list(MAFIA_ROLES[: mafia_count(size)])
    if size >= 11:
        roles.append("maniac")
    if size >= 15:
        roles += ["joker", "traitor"]
    elif size >= 13:
        roles.append(JOKER_OR_TRAITOR)
    return roles + [LAW_PLACEHOLDER] * (size - len(roles))


def deal_placeholders(roles: Sequence[str], rng: random.Random, *, hero: bool, extra_neutral: str) -> list[str]:
    """Replace the placeholders with real roles, in seating order: each `law` seat draws one of the
    eight law roles independently («Роли законников полностью случайны и независимы - какой-то роли
    может быть несколько представителей, а какой-то может не быть»); `joker_or_traitor` becomes the
    option's choice (or a coin flip); with the `hero` option one random law seat becomes the hero
    («Герой ... если есть, заменяет одного представителя Закона»)."""
    roles = list(roles)
    if hero and "hero" not in roles:
        law_seats = [i for i, r in enumerate(roles) if r == LAW_PLACEHOLDER] or [
            i for i, r in enumerate(roles) if r in LAW_ROLES
        ]
        if not law_seats:
            raise ValueError("the hero replaces a law member, and this table has none")
        roles[rng.choice(law_seats)] = "hero"
    for i, role in enumerate(roles):
        if role == LAW_PLACEHOLDER:
            roles[i] = rng.choice(LAW_ROLES)
        elif role == JOKER_OR_TRAITOR:
            roles[i] = extra_neutral if extra_neutral in ("joker", "traitor") else rng.choice(("joker", "traitor"))
    return roles


# -- who wins ----------------------------------------------------------------------------------------


def winner_of(alive_factions: Sequence[str]) -> str | None:
    """The winning faction from the factions of the characters still in play, or None while the
    game goes on.

    «Закон побеждает, если мертва вся Мафия, Предатель и Маньяк и жив хоть один представитель
    Закона. Мафия и Предатель побеждают, если мёртв весь Закон и Маньяк и жива хоть одна мафия или
    предатель. Маньяк побеждает, если мертвы все, кроме него самого. ... В случае ситуации "умерли
    все" не выигрывает никто.» and of the joker: «Если остался единственным выжившим - проигрывает,
    как и все.» When nobody who can still win a faction's condition is left (only a hero, or a hero
    and nobody but the joker's rivals gone) the game ends with no winner; while the joker lives
    beside someone else he may still guess, so the game goes on."""
    alive = list(alive_factions)
    if not alive:
        return "none"
    law = alive.count(LAW)
    mafia = alive.count(MAFIA) + alive.count(TRAITOR)
    maniac = alive.count(MANIAC)
    if law and not mafia and not maniac:
        return LAW
    if mafia and not law and not maniac:
        return MAFIA
    if maniac and len(alive) == 1:
        return MANIAC
    if not law and not mafia and not maniac:
        # Only heroes and / or the joker: nobody's condition can hold any more.
        if JOKER in alive and len(alive) > 1:
            return None
        return "none"
    return None


def winners(winner: str | None, seats: Iterable[Any]) -> list[int]:
    """The seats that win with the faction (the dead too: «Они все еще могут выиграть, если
    выиграла их фракция»): the traitor with the mafia, the hero with the law if he lived to see it
    («Побеждает при победе Закона, если дожил до неё»; his goals are part 2)."""
    out = []
    for seat in seats:
        if winner == LAW and (seat.faction == LAW or (seat.faction == HERO and seat.status == "active")):
            out.append(seat.id)
        elif winner == MAFIA and seat.faction in (MAFIA, TRAITOR):
            out.append(seat.id)
        elif winner in (MANIAC, JOKER) and seat.faction == winner:
            out.append(seat.id)
    return out


def colours_of(role: str, chosen: Sequence[str] | None = None) -> tuple[str, ...]:
    spec = SECRET_ROLES[role]
    if spec.chooses_colours:
        return tuple(chosen or ())
    return spec.colours


def valid_chosen_colours(role: str, chosen: Any) -> bool:
    spec = SECRET_ROLES[role]
    if not spec.chooses_colours:
        return chosen in (None, [], ())
    return (
        isinstance(chosen, (list, tuple))
        and len(chosen) == spec.chooses_colours
        and len(set(chosen)) == len(chosen)
        and all(c in COLOURS and c != NEUTRAL for c in chosen)
    )
