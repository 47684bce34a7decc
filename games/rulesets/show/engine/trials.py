"""The slaves' trials and talents («Рабство: Испытания и Таланты», issue 19), and their daily task
(issue 28, item 6).

`memory["trial"]`: {"day", "slaves", "answers", "grants", "task"} — the trial set on a morning for
the slaves of that moment («Каждое утро раб получает общее для всех рабов задание на этот день»),
filled by each close's `extra["trial_answers"]` and `extra["grants"]`, and settled at the next
morning. `memory["talents"]`: {"day": N, "seats": [...]}, the Talents of day N.

The task: `memory["trial_queue"]` is the tasks still to come (the option `trial_tasks` at the deal;
the GM edits it while the show runs: `set_queue`); each morning that opens a trial takes its first
(`next_task`); `memory["trial_tasks"]` [{"day", "task"}] keeps each trial's task for the archive.
The GM may change the running trial's task until its first answer (`set_task`): the answers are
judged against it («оценить креативность и адекватность Ответа поставленному заданию»).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from games.engine.events import GM, PUBLIC, Event
from games.engine.orders import PhaseInputs
from games.engine.state import GameState
from games.rulesets.show.engine.coins import BANK, hero, split
from games.rulesets.show.engine.facts import SLAVE, id_map, ids
from games.rulesets.show.engine.stages import clean_task, clean_tasks
from games.rulesets.show.engine.trial_tasks import DEFAULT_TRIAL_TASKS

if TYPE_CHECKING:
    from games.rulesets.show.engine.closing import Closing
    from games.rulesets.show.engine.economy import Book

PASS = "pass"


def collect(close: Closing) -> None:
    """The stage's answers (a trial slave's one photo, video or sticker: `extra["trial_answers"]`)
    and grants (`extra["grants"]` {granter: {slave: amount} | "pass"}; a later grant for the same
    answer replaces the earlier one), kept until the morning's settlement."""
    trial = close.memory.get("trial")
    if not trial:
        return
    for slave in ids(close.inputs.extra.get("trial_answers")):
        if slave in trial["slaves"] and slave not in trial["answers"]:
            trial["answers"].append(slave)
    for granter, given in id_map(close.inputs.extra.get("grants")).items():
        if not close.start.has_seat(granter):
            continue
        mine = trial["grants"].setdefault(str(granter), {})
        if given == PASS:
            mine.clear()
            mine[PASS] = True
            continue
        if isinstance(given, dict):
            mine.pop(PASS, None)
            for slave, amount in id_map(given).items():
                mine[str(slave)] = amount


def settle(close: Closing, book: Book) -> tuple[dict[str, int], list[int]]:
    """«После каждой ночи, если рабов на этот момент больше одного, подводятся итоги рабских
    Испытаний. Те рабы, которые набирают сумму грантов выше средней, становятся на ближайшие сутки
    ТАЛАНТАМИ.» Decisions (A24): «больше одного» counts the slaves who got the task; the average is
    over the answers given; every hero but the answer's author is a participant for each answer;
    «Если участник пропускает Ответ и не отсылает никакого гранта, то автоматически платит базовый
    взнос (30㉿) и НЕ участвует в последующем дележе» — per skipped answer, into the bank, and not in
    any answer's sum; the grants are paid into the day's pool, which «спонсоры Талантов ... делят
    между собой ... пропорционально своему вкладу в рабов-победителей»; with no Talent the pool stays
    in the bank. Returns ({author's name: his sum}, the Talents)."""
    trial = close.memory.get("trial")
    close.memory["trial"] = None
    if not trial or len(trial["slaves"]) < 2 or not trial["answers"]:
        return {}, []
    options = close.start.options
    allowed = set(int(g) for g in options["grants"])
    answers = [a for a in close.seating(trial["answers"])]
    sums = dict.fromkeys(answers, 0)
    paid: dict[int, int] = {}
    excluded: set[int] = set()
    to_talents: dict[int, dict[int, int]] = {}
    for seat in close.start.seats:
        mine = trial["grants"].get(str(seat.id)) or {}
        for answer in answers:
            if answer == seat.id:
                continue
            amount = mine.get(str(answer))
            if isinstance(amount, int) and not isinstance(amount, bool) and amount in allowed:
                sums[answer] += amount
                paid[seat.id] = paid.get(seat.id, 0) + amount
                to_talents.setdefault(seat.id, {})[answer] = amount
            else:
                excluded.add(seat.id)
                # no detail: «получают его без указания имени автора, анонимно» — a ledger line
                # kept on the hero's «Баланс» page must not name the answer's author
                book.move(hero(seat.id), BANK, int(options["pass_fee"]), "trial_pass")
    for granter, amount in sorted(paid.items()):
        book.move(hero(granter), BANK, amount, "grant")
    pool = sum(paid.values())
    average = sum(sums.values()) / len(sums)
    talents = [a for a in answers if sums[a] > average]
    sponsors = {g: sum(v for a, v in given.items() if a in talents) for g, given in to_talents.items()
                if g not in excluded}
    for sponsor, share in sorted(split(pool, sponsors).items()):
        book.move(BANK, hero(sponsor), share, "grant_share")
    close.events.append(Event("trial_results", PUBLIC, {
        "sums": {close.name(a): s for a, s in sums.items()}, "talents": [close.name(t) for t in talents],
        "pool": pool, "shared": bool(talents and split(pool, sponsors))}))
    return {close.name(a): s for a, s in sums.items()}, talents


def open_trial(close: Closing, day: int) -> None:
    """«Каждое утро раб получает общее для всех рабов задание на этот день»: the morning's slaves get
    the trial and its task, the next of the tasks to come (`next_task`; none left: the GM gives it).
    The task is public (public `trial_task`, the morning post): the answers are posted in the common
    thread, anonymous, and everyone grants them against it."""
    slaves = [s.id for s in close.start.seats if close.status[s.id] == SLAVE]
    if not slaves:
        close.memory["trial"] = None
        return
    task = next_task(close.memory, close.start.options)
    close.memory["trial"] = {"day": day, "slaves": slaves, "answers": [], "grants": {}, "task": task}
    close.memory.setdefault("trial_tasks", []).append({"day": day, "task": task})
    close.events.append(Event("trial_task", PUBLIC, {"day": day, "task": task}))


# --- The task (issue 28, item 6) -----------------------------------------------------------------------
def tasks_to_come(memory: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
    """The tasks the next mornings take, in order: the GM's list at the deal, as he edited it since
    (a state from before the list existed: the option's list, or the default one)."""
    queue = memory.get("trial_queue")
    if queue is None:
        queue = options.get("trial_tasks", DEFAULT_TRIAL_TASKS)
    return [str(t) for t in queue or ()]


def next_task(memory: dict[str, Any], options: Mapping[str, Any]) -> str | None:
    """The next task to come, taken off the list (None when none is left: the list does not start
    again by itself, so a GM who emptied it gives each task himself)."""
    queue = tasks_to_come(memory, options)
    memory["trial_queue"] = queue[1:]
    return queue[0] if queue else None


def running_task(memory: Mapping[str, Any]) -> dict[str, Any] | None:
    """The running trial's day and task ({"day", "task"}), or None with no trial."""
    trial = memory.get("trial")
    return {"day": int(trial["day"]), "task": trial.get("task")} if trial else None


def answered(memory: Mapping[str, Any], inputs: PhaseInputs | None = None) -> bool:
    """Whether the running trial has an answer: kept by a close, or given in the running stage."""
    trial = memory.get("trial") or {}
    if trial.get("answers"):
        return True
    slaves = set(int(s) for s in trial.get("slaves") or ())
    return bool(inputs is not None and slaves & set(ids(inputs.extra.get("trial_answers"))))


def check_task(state: GameState, text: Any, inputs: PhaseInputs | None = None) -> str | None:
    """The GM's change of the running trial's task: allowed until its first answer («оценить
    креативность и адекватность Ответа поставленному заданию»: an answer is judged against the task
    its slave was given, so the task no longer changes once one is posted)."""
    if state.over:
        return "game_over"
    if not state.memory.get("trial"):
        return "no_trial"
    if answered(state.memory, inputs):
        return "trial_answered"
    if not isinstance(text, str) or not text.strip():
        return "task_empty"
    if clean_task(text) is None:
        return "task_too_long"
    return None


def set_task(state: GameState, text: str, inputs: PhaseInputs | None = None) -> tuple[dict, list[Event]] | None:
    """The running trial's task changed at once (None when `check_task` refuses): the thread hears
    it (public `trial_task` with `changed`), the archive keeps the new one."""
    if check_task(state, text, inputs) is not None:
        return None
    task = clean_task(text)
    memory = copy.deepcopy(dict(state.memory))
    trial = memory["trial"]
    trial["task"] = task
    history = memory.setdefault("trial_tasks", [])
    for item in history:
        if int(item.get("day") or 0) == int(trial["day"]):
            item["task"] = task
    if not any(int(item.get("day") or 0) == int(trial["day"]) for item in history):
        history.append({"day": int(trial["day"]), "task": task})
    return memory, [Event("trial_task", PUBLIC, {"day": int(trial["day"]), "task": task, "changed": True})]


def check_queue(state: GameState, tasks: Any) -> str | None:
    """The GM's list of the tasks to come (the first is the next morning's)."""
    if state.over:
        return "game_over"
    try:
        clean_tasks(tasks)
    except ValueError:
        return "tasks_bad"
    return None


def set_queue(state: GameState, tasks: Any) -> tuple[dict, list[Event]] | None:
    """The tasks to come replaced at once (None when `check_queue` refuses); told to the GMs only
    (`trial_queue_gm`): a task is public from the morning that gives it, not before."""
    if check_queue(state, tasks) is not None:
        return None
    memory = copy.deepcopy(dict(state.memory))
    memory["trial_queue"] = clean_tasks(tasks)
    queue = memory["trial_queue"]
    return memory, [Event("trial_queue_gm", GM, {"count": len(queue), "next": queue[0] if queue else None})]



def talents_today(memory: dict[str, Any], day: int) -> list[int]:
    talents = memory.get("talents") or {}
    return [int(h) for h in talents.get("seats") or ()] if int(talents.get("day") or 0) == day else []
