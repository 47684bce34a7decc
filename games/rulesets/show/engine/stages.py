"""The show's stages: their names, the GM's timer table, the options and their defaults."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from games.rulesets.show.engine.privilege_keys import GENIUS, PRIVILEGES
from games.rulesets.show.engine.trial_tasks import DEFAULT_TRIAL_TASKS, TASK_MAX_LENGTH, TASKS_MAX

# «череда сменяющих друг друга по циклу этапов»: the phase names of GameState.phase.
GREETINGS = "greetings"  # Приветствия (the first stage only)
DAY = "day"  # Дневное Голосование (day 1) / Дневное Голосование с Мнениями (day 2+)
DEFENCE = "defence"  # Защитные Речи
REVOTE = "revote"  # Повторное Голосование
JUDGE = "judge"  # Решение Судьи
NIGHT = "night"  # Ночной выбор (its close is the morning)
ALLIES = "allies"  # Выбор Союзника (once, at the end of day 1: «В конце первого дня наступает этап»)
STAGE_KINDS: tuple[str, ...] = (GREETINGS, DAY, DEFENCE, REVOTE, JUDGE, NIGHT, ALLIES)
# «а затем наступает заключительный этап: Судный День» (issue 28, item 7): the last stage, after the
# win and the settlement. Not a stage of the engine's state (the show is over when it begins: every
# secret open, the results published); the site runs it as the game's epilogue (docs/rulesets/show.md,
# "Судный День"), its length the option `doomsday_hours`.
DOOMSDAY = "doomsday"
DOOMSDAY_MAX_HOURS = 14 * 24

# Post kinds the site reports in `inputs.extra["posted"]` (media posts, or text when the GM allows).
GREETING, DEFENCE_SPEECH, OPINION = "greeting", "defence", "opinion"

# Re-vote ballots with one defendant: «перед всеми кроме него стоит выбор "В рабство"/"Пощадить"».
TO_SLAVERY, SPARE = "enslave", "spare"

OPTION_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        # Minutes each stage lasts with a full show of 10 free heroes (the GM may change any).
        "stage_minutes": {GREETINGS: 24 * 60, DAY: 12 * 60, DEFENCE: 6 * 60, REVOTE: 4 * 60, JUDGE: 2 * 60,
                          NIGHT: 8 * 60, ALLIES: 2 * 60},
        # «время, зависящее от количества остающихся на свободе героев»: [at least N free, percent]
        # rows, the first row whose N is reached applies.
        "timer_table": [[8, 100], [5, 75], [0, 50]],
        # A5: "self" — only his own save is limited to once per show (the reading);
        # "each" — every hero, himself included, may be saved once.
        "save_once": "self",
        # A3: two free Reptiloids naming different victims: "nobody" (they must agree) or "lot".
        "reptiloid_disagree": "nobody",
        # A7: a single defendant is enslaved by a majority of the ballots "cast" or of all "voters".
        "single_majority": "cast",
        # A9: each Mason's suspicion cuts the weight by 10 ("each") or any suspicion does once ("once").
        "suspicion_cut": "each",
        # A9: the judge is drawn among the free heroes not in coma ("free"), or among every hero not
        # in coma, slaves too ("all": the seed's letter «среди всех героев, которые не находятся в
        # Коме», issue 28); a slave judge decides from slavery but questions nobody (no night choice).
        "judge_from": "free",
        # A11: the new judge is announced to all (True) or told only to himself and the GM (False);
        # "auto" (issue 28): public, but private when the Гений is in play, whose «По утрам знает,
        # кто стал Судьёй» would tell him nothing otherwise. Resolved to a bool at the deal.
        "judge_public": "auto",
        # A25: a Secret Knowledge lot at each day vote ("day"), or at every main day stage
        # ("day_stages": the day vote, the defence, the re-vote, the judge's decision; the seed's
        # letter «На всех основных дневных этапах», issue 28).
        "knowledge_lots": "day",
        # C2: the judge questions a slave only when more than one unrevealed slave exists.
        "question_needs_two": True,
        # A14: a defendant in deep coma (more than one stage missed) is enslaved by the re-vote
        # whatever the ballots («Спит» ones are not: «не отправляется в рабство автоматически»).
        "coma_bench_auto": True,
        # The Saviour's extra Secret Knowledge «в первые три ночи».
        "saviour_knowledge_nights": 3,
        # -- Part 2: coins (㉿), docs/rulesets/show.md "Part 2: coins". A17: the seed gives no amounts;
        # these are the documented defaults, each the GM's to change.
        # «Перед раздачей Ролей все участники отправляют в Банк ... первоначальный сбор».
        "entry_fee": 50,
        # «чем позже они это делают - тем выше этот Взнос. Максимальный взнос платят те, кто тянет со
        # своим действием до конца этапа»: min + (max - min) × elapsed / length, rounded down.
        "stage_fee_min": 1,
        "stage_fee_max": 10,
        # «сборы за Кому»: what a hero in coma pays each stage instead of the stage fee.
        "coma_fee": 10,
        # The burden each slave pays each morning, by owner (A16).
        "burden_public": 20,
        "burden_reptiloids": 20,
        "burden_demon": 20,
        # «лимит бесплатных сообщений» per stage in the common thread, then a fee per message.
        "free_messages": 10,
        "message_fee": 2,
        # «За каждое анонимное сообщение берётся небольшая плата в Банк».
        "anonymous_fee": 5,
        # «Наблюдатели во время Шоу могут писать в общий чат за плату».
        "observer_fee": 5,
        # «Базовая Ставка = 25 ㉿».
        "base_stake": 25,
        # «один из трёх грантов (10㉿-15㉿-25㉿)» and «базовый взнос (30㉿)» for a skipped answer.
        "grants": [10, 15, 25],
        "pass_fee": 30,
        # «Выбор Союзника» after day 1 (False: a show without alliances, no such stage).
        "alliances": True,
        # Part 3: the privileges in play (none: a show without privileges), dealt at random at the
        # start («в момент назначения Ролей происходит случайное распределение доступных для этого
        # Шоу Привилегий»), and the carousel mode («РЕЖИМ "КАРУСЕЛЬ ПРИВИЛЕГИЙ"»).
        "privileges": [],
        "carousel": False,
        # Issue 28, item 6: the slaves' daily tasks («Каждое утро раб получает общее для всех рабов
        # задание на этот день»), the GM's list; a morning takes the next one the GM did not replace.
        "trial_tasks": list(DEFAULT_TRIAL_TASKS),
        # Issue 28, item 7: «а затем наступает заключительный этап: Судный День» — its hours after
        # the win (0: none, the show ends with its results).
        "doomsday_hours": 24,
    }
)

COIN_OPTIONS: tuple[str, ...] = (
    "entry_fee", "stage_fee_min", "stage_fee_max", "coma_fee", "burden_public", "burden_reptiloids", "burden_demon",
    "free_messages", "message_fee", "anonymous_fee", "observer_fee", "base_stake", "pass_fee",
)


def options_with_defaults(options: Mapping[str, Any] | None) -> dict[str, Any]:
    merged = {key: (dict(value) if isinstance(value, Mapping) else value) for key, value in OPTION_DEFAULTS.items()}
    for key, value in (options or {}).items():
        if key not in OPTION_DEFAULTS:
            raise ValueError(f"unknown show option {key!r}")
        if key == "stage_minutes":
            merged[key] = {**merged[key], **dict(value)}
        else:
            merged[key] = value
    for name, allowed in (("save_once", ("self", "each")), ("reptiloid_disagree", ("nobody", "lot")),
                          ("single_majority", ("cast", "voters")), ("suspicion_cut", ("each", "once")),
                          ("knowledge_lots", ("day", "day_stages")), ("judge_from", ("free", "all"))):
        if merged[name] not in allowed:
            raise ValueError(f"option {name} is one of {allowed}, not {merged[name]!r}")
    for name in COIN_OPTIONS:
        value = merged[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"option {name} is a whole number of coins, 0 or more, not {value!r}")
    if merged["stage_fee_min"] > merged["stage_fee_max"]:
        raise ValueError("option stage_fee_min may not exceed stage_fee_max")
    if merged["base_stake"] < 1:
        raise ValueError("option base_stake is at least 1 coin")
    grants = merged["grants"]
    if (not isinstance(grants, (list, tuple)) or not grants
            or any(not isinstance(g, int) or isinstance(g, bool) or g < 1 for g in grants)):
        raise ValueError(f"option grants is a list of whole positive amounts, not {grants!r}")
    merged["grants"] = sorted(set(grants))
    if not isinstance(merged["alliances"], bool):
        raise ValueError("option alliances is true or false")
    privileges = merged["privileges"]
    if not isinstance(privileges, list | tuple) or any(p not in PRIVILEGES for p in privileges):
        raise ValueError(f"option privileges lists some of {PRIVILEGES}, not {privileges!r}")
    if len(set(privileges)) != len(privileges):
        raise ValueError("option privileges names each privilege once")
    merged["privileges"] = [p for p in PRIVILEGES if p in privileges]  # the seed's order
    if merged["judge_public"] not in (True, False, "auto"):
        raise ValueError(f"option judge_public is true, false or \"auto\", not {merged['judge_public']!r}")
    if merged["judge_public"] == "auto":
        merged["judge_public"] = GENIUS not in merged["privileges"]
    if not isinstance(merged["carousel"], bool):
        raise ValueError("option carousel is true or false")
    if merged["carousel"] and not merged["privileges"]:
        raise ValueError("the carousel needs privileges in play")
    merged["trial_tasks"] = clean_tasks(merged["trial_tasks"])
    hours = merged["doomsday_hours"]
    if not isinstance(hours, int) or isinstance(hours, bool) or not 0 <= hours <= DOOMSDAY_MAX_HOURS:
        raise ValueError(f"option doomsday_hours is a whole number of hours from 0 to {DOOMSDAY_MAX_HOURS}, "
                         f"not {hours!r}")
    return merged


def clean_task(text: Any) -> str | None:
    """A task as kept: its whitespace collapsed; None when it is not a text, empty or too long."""
    if not isinstance(text, str):
        return None
    cleaned = " ".join(text.split())
    return cleaned if 0 < len(cleaned) <= TASK_MAX_LENGTH else None


def clean_tasks(tasks: Any) -> list[str]:
    """The GM's list of tasks (option `trial_tasks`, or the tasks still to come): each a text of at
    most TASK_MAX_LENGTH characters, at most TASKS_MAX of them; empty lines dropped. ValueError
    otherwise. An empty list is allowed: the GM then gives every task himself."""
    if not isinstance(tasks, list | tuple):
        raise ValueError(f"option trial_tasks is a list of texts, not {tasks!r}")
    out = []
    for task in tasks:
        if isinstance(task, str) and not task.strip():
            continue
        cleaned = clean_task(task)
        if cleaned is None:
            raise ValueError(f"a trial task is a text of 1 to {TASK_MAX_LENGTH} characters, not {task!r}")
        out.append(cleaned)
    if len(out) > TASKS_MAX:
        raise ValueError(f"at most {TASKS_MAX} trial tasks")
    return out


def parse_phase(phase: str) -> tuple[str, int]:
    """"greetings" -> ("greetings", 0); "day 2" -> ("day", 2)."""
    if phase == GREETINGS:
        return GREETINGS, 0
    kind, _sep, number = phase.partition(" ")
    if kind not in STAGE_KINDS or kind == GREETINGS or not number.isdigit() or int(number) < 1:
        raise ValueError(f"not a show stage: {phase!r}")
    return kind, int(number)


def stage_length(options: Mapping[str, Any], kind: str, free: int) -> timedelta:
    """The stage's timer for `free` free heroes: the minutes of `stage_minutes` times the percent of
    the first `timer_table` row whose threshold is reached."""
    minutes = float(options["stage_minutes"][kind])
    percent = 100
    for threshold, row_percent in options["timer_table"]:
        if free >= threshold:
            percent = row_percent
            break
    return timedelta(minutes=minutes * percent / 100)


def stage_deadline(options: Mapping[str, Any], kind: str, free: int, started: datetime) -> datetime:
    return started + stage_length(options, kind, free)
