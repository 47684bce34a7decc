"""The slaves' trials and talents («Рабство: Испытания и Таланты», issue 19).

`memory["trial"]`: {"day", "slaves", "answers", "grants"} — the trial set on a morning for the
slaves of that moment («Каждое утро раб получает общее для всех рабов задание на этот день»),
filled by each close's `extra["trial_answers"]` and `extra["grants"]`, and settled at the next
morning. `memory["talents"]`: {"day": N, "seats": [...]}, the Talents of day N.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engine.events import PUBLIC, Event
from games.rulesets.show.engine.coins import BANK, hero, split
from games.rulesets.show.engine.facts import SLAVE, id_map, ids

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
    slaves = [s.id for s in close.start.seats if close.status[s.id] == SLAVE]
    close.memory["trial"] = {"day": day, "slaves": slaves, "answers": [], "grants": {}} if slaves else None


def talents_today(memory: dict[str, Any], day: int) -> list[int]:
    talents = memory.get("talents") or {}
    return [int(h) for h in talents.get("seats") or ()] if int(talents.get("day") or 0) == day else []
