"""The show's settlement at its end (issue 19): the Demon's escrow, the bank split by rating, the
winners' pot, the alliances' split; the show's accounts end at exactly 0.

«Далее объявляются подробные результаты, то есть набранные Рейтинги, делится Банк, распределяется
Куш Победителей, подводятся итоги сотрудничества Альянсов».
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.engine.events import PUBLIC, Event
from games.rulesets.show.engine.coins import BANK, POT, Transfer, escrow, hero, seat_of, split
from games.rulesets.show.engine.economy import return_demon_escrow
from games.rulesets.show.engine.privileges import adjust_settlement, demon_seats
from games.rulesets.show.engine.privileges import bank_winners as privileged_bank_winners
from games.rulesets.show.engine.ratings import percents, rating_of, weights
from games.rulesets.show.engine.roles import DEMONS, MASONS, REPTILOIDS

if TYPE_CHECKING:
    from games.rulesets.show.engine.closing import Closing
    from games.rulesets.show.engine.economy import Book


def bank_winners(close: Closing) -> list[int]:
    """A19: «победившая команда делит между собой Банк» — every member of the winning team, free or
    not. The Demon alone: «Побеждая, он забирает себе весь Банк». No winning team (the draw `none`):
    nobody, and the bank goes to all the heroes by rating (C5's «суммарно у всех героев»)."""
    if close.winner in (MASONS, REPTILOIDS, DEMONS):
        return [s.id for s in close.start.seats if s.faction == close.winner]
    return []


def pot_winners(close: Closing) -> list[int]:
    """A19: for the bets the winner is «тот, кто из героев ... останется на свободе до конца Шоу и
    чья команда победит остальных»: the free heroes of the winning team at the end."""
    if close.winner not in (MASONS, REPTILOIDS, DEMONS):
        return []
    return [s.id for s in close.start.seats if s.faction == close.winner and close.status[s.id] == "active"]


def settle(close: Closing, book: Book) -> dict[str, Any]:
    memory = close.memory
    seats = [s.id for s in close.start.seats]
    ratings = {h: rating_of(memory, h) for h in seats}
    result: dict[str, Any] = {}
    # 1. The Demon's escrow: returned if his role was revealed before the end, else his.
    demons = demon_seats(close.start)
    if demons:
        if not return_demon_escrow(close, book):
            held = book.balance(escrow(demons[0]))
            book.move(escrow(demons[0]), hero(demons[0]), held, "demon_burdens")
        book.coins["escrow_from"] = {}
    # 1b. A Mole Reptiloid's burden shares, held for him while he did not know his role (issue 28, item 2)
    for seat in seats:
        held = book.balance(escrow(seat)) if seat not in demons else 0
        if held > 0:
            book.move(escrow(seat), hero(seat), held, "mole_burdens")
    # 2. The pot (before the bank: the Бинго's «общий результат (до Судного Дня)» that the bank's
    # split settles counts his pot share; the two splits do not depend on each other): «все герои,
    # сделавшие Ставки на реальных Победителей, делят между собой Куш пропорционально размеру своих
    # Ставок. Если оказывается, что никто из героев не поставил ни на одного из Победителей, то
    # весь Куш делится поровну между ними (A20: the Winners). Если Победителей нет, то Ставки
    # возвращаются назад.»
    bets = memory.get("bets") or {}
    pot = book.balance(POT)
    free_winners = pot_winners(close)
    if pot > 0:
        if free_winners:
            right = {int(s): int(b["stake"]) for s, b in bets.items() if int(b["pick"]) in free_winners}
            pot_shares = split(pot, right) if right else split(pot, dict.fromkeys(free_winners, 1))
            reason = "pot_share" if right else "pot_even"
        else:
            pot_shares = {int(s): int(b["stake"]) for s, b in bets.items() if int(b["stake"]) > 0}
            reason = "stake_returned"
        for seat in sorted(pot_shares):
            book.move(POT, hero(seat), pot_shares[seat], reason)
        result["pot_shares"] = {close.name(h): v for h, v in pot_shares.items()}
    # 3. The bank: «победившая команда делит между собой Банк пропорционально заработанным Рейтингам».
    # part 3: a winning Змеёныш takes it alone; the Бинго's share or result doubles (privileges.py).
    # They ask the state who won: the close's, not its start's (which has no winner yet).
    ended = replace(close.current(), over=close.over, winner=close.winner)
    winners = privileged_bank_winners(ended, bank_winners(close)) or seats
    bank = book.balance(BANK)
    shares = split(bank, weights({h: ratings[h] for h in winners}))
    moves = adjust_settlement(ended, [Transfer(BANK, hero(s), shares[s], "bank_share") for s in sorted(shares)],
                              net={h: book.net(h) for h in seats})
    for move in moves:
        book.move(move.debit, move.credit, move.amount, move.reason)
    result["bank_shares"] = {close.name(seat_of(m.credit)): m.amount for m in moves if m.reason == "bank_share"}
    # 4. The alliances: «все Союзники делят между собой заработанные монеты (в том числе и убытки)
    # пропорционально заработанным Рейтингам» — the pair's net of the whole show, split by their
    # ratings' weights (a loss too: A35); the one above his share pays the other the difference.
    allies = memory.get("allies") or {}
    moved = []
    for seat, partner in sorted(allies.items(), key=lambda kv: int(kv[0])):
        a, b = int(seat), int(partner)
        if a > b:
            continue
        total = book.net(a) + book.net(b)
        w = weights({a: ratings[a], b: ratings[b]})
        if total >= 0:
            target = split(total, w).get(a, 0)
        else:
            target = -split(-total, w).get(a, 0)
        diff = target - book.net(a)
        if diff > 0:
            book.move(hero(b), hero(a), diff, "ally_split")
        elif diff < 0:
            book.move(hero(a), hero(b), -diff, "ally_split")
        moved.append({"pair": sorted([close.name(a), close.name(b)]), "moved": abs(diff)})
    result["alliances"] = moved
    left = {k: v for k, v in book.coins["accounts"].items() if v}
    if left:
        raise AssertionError(f"the show's accounts are not empty after the settlement: {left}")
    result["percents"] = {close.name(h): p for h, p in percents(ratings).items()}
    result["ratings"] = {close.name(h): r for h, r in ratings.items()}
    close.events.append(Event("show_results", PUBLIC, {
        **result, "net": {close.name(h): book.net(h) for h in seats},
        "history": [{**item, "name": close.name(int(item["seat"]))} for item in memory.get("rating_history") or ()],
    }))
    return result
