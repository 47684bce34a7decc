"""Part 2's steps of every stage's close (issue 19), in their order: the entry fee, the fees the site
charged, the stage fees, the trial's answers and grants, sympathies, ratings, the defence's raises,
the first night's bets, the morning (trial results, talents, burdens), the bets' opening, the
ally's copied knowledge, the Demon's return, the final settlement; then the outcome keys."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.engine.events import GM, Event
import games.rulesets.show.engine.alliances as alliances
import games.rulesets.show.engine.bets as bets
import games.rulesets.show.engine.settlement as settlement
import games.rulesets.show.engine.trials as trials
from games.rulesets.show.engine.coins import BANK, POT
from games.rulesets.show.engine.economy import (
    Book,
    charge_entry,
    charge_stage_fees,
    count_site_fees,
    pay_burdens,
    return_demon_escrow,
)
from games.rulesets.show.engine.privileges import adjust_transfers
from games.rulesets.show.engine.ratings import Rater
from games.rulesets.show.engine.roles import DEMONS, MASON, REPTILOID, REPTILOIDS, SAVIOUR, SUSPECT
from games.rulesets.show.engine.stages import DAY, DEFENCE, JUDGE, NIGHT, REVOTE, SPARE, TO_SLAVERY

if TYPE_CHECKING:
    from games.rulesets.show.engine.closing import Closing


def rate(close: Closing, rater: Rater) -> None:
    facts = close.facts
    if close.kind in (DAY, REVOTE):
        bench = facts.get("bench") or []
        ballots = sorted((facts.get("ballots") or {}).items())
        if facts.get("extra_ballot"):
            # «За каждый тайный голос Авторитет получает Рейтинг в общем порядке» (part 3)
            ballots.append(tuple(facts["extra_ballot"]))
        for voter, target in ballots:
            if target == TO_SLAVERY and len(bench) == 1:
                rater.ballot(voter, bench[0])
            elif target != SPARE and isinstance(target, int):
                rater.ballot(voter, target)
    elif close.kind == JUDGE and facts.get("judged"):
        judge, target = facts["judged"]
        rater.judged(judge, target)
    elif close.kind == NIGHT:
        auto = facts.get("auto") or set()
        choices = facts.get("choices") or {}
        taken = facts.get("taken") or {}
        for hero, (action, target) in sorted(choices.items()):
            if hero in auto or target is None:
                continue
            role = close.start.seat(hero).role
            if role == MASON and action == SUSPECT and close.start.seat(target).role in ("reptiloid", "demon"):
                rater.add(hero, "mason_suspects_bad", close.name(target) or "")
            owner = REPTILOIDS if role == REPTILOID else DEMONS if role == "demon" else None
            if owner and target in taken and owner in taken[target]:
                victim = close.start.seat(target).role
                from_rows = {REPTILOIDS: ("demon", SAVIOUR), DEMONS: (SAVIOUR, REPTILOID)}[owner]
                if victim in from_rows:
                    rater.add(hero, "bad_takes_enemy", close.name(target) or "")
        saviour = facts.get("saviour_saved")
        if saviour is not None and saviour not in auto:
            rater.add(saviour, "saviour_saves", close.outcome.get("saved") or "")


def fill_morning(close: Closing, paid: dict[str, int]) -> None:
    """«Также публикуется актуальный размер Бремени для всех рабов»: the morning's burden lines get
    their amounts (0 for the relieved and today's Talents) as they are due, before the privileges
    change what is really paid (part 3: the Заяц's none, the Бинго's double — «Визуально при этом
    остальным это не видно»: a line showing 0 or twice the burden would name the holder)."""
    due = close.facts.get("burdens_due") or {}
    for index, event in enumerate(close.events):
        if event.kind == "morning":
            data = dict(event.data)
            data["burdens"] = [{**line, "amount": due.get(line["name"], paid.get(line["name"], 0))}
                               for line in data.get("burdens") or ()]
            close.events[index] = replace(event, data=data)


def after_stage(close: Closing) -> None:
    memory = close.memory
    # part 3: the privileges change each movement (Заяц, Говорун, Бинго)
    book = Book(memory, adjust=lambda transfers: adjust_transfers(close.current(), transfers))
    if book.coins.get("entry_due"):
        charge_entry(close, book)
    count_site_fees(close, book)
    charge_stage_fees(close, book)
    trials.collect(close)
    alliances.record_sympathies(close)
    rater = Rater(close.start, memory)
    rate(close, rater)
    out: dict[str, Any] = {"burdens": {}, "grants": {}, "talents": [], "raised": []}
    if close.kind == DEFENCE:
        out["raised"] = bets.talent_raises(close, book, trials.talents_today(memory, close.number))
    if close.kind == NIGHT:
        bets.charge_bets(close, book)
        grants, talents = trials.settle(close, book)
        memory["talents"] = {"day": close.number + 1, "seats": talents}
        out["grants"], out["talents"] = grants, [close.name(t) for t in talents]
        out["burdens"] = pay_burdens(close, book, talents)
        fill_morning(close, out["burdens"])
        trials.open_trial(close, close.number + 1)
    if not close.over and close.next_phase.startswith(NIGHT) and memory.get("bets") is None:
        bets.open_bets(close, close.seed_text)
    alliances.share_knowledge(close.start, memory, alliances.key_counts(dict(close.start.memory)), close.events)
    return_demon_escrow(close, book)
    if close.over:
        out["settlement"] = settlement.settle(close, book)
    if rater.changes:
        close.events.append(Event("ratings_gm", GM, {"changes": [
            {**c.to_dict(), "name": close.name(c.seat)} for c in rater.changes]}))
    close.outcome.update({
        "transfers": [t.to_dict() for t in book.transfers],
        "ratings": [c.to_dict() for c in rater.changes],
        "rating": {s.name: int((memory.get("ratings") or {}).get(str(s.id), 0)) for s in close.start.seats},
        "bank": book.balance(BANK),
        "pot": book.balance(POT),
        "balances": {s.name: book.net(s.id) for s in close.start.seats},
        **out,
    })
