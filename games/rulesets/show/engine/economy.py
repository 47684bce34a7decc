"""The show's coins during a show (issue 19): the book of the show's own accounts, the fees (entry,
stage, coma, messages) and the morning's burdens. Bets, trials, ratings, alliances and the final
settlement have their own modules; `after_stage` (called by every close) runs them in order.

The engine never holds a hero's balance (coins.py). It keeps, in `memory["coins"]`:
- `accounts`: the show's own accounts (`bank`, `pot`, `escrow:<seat>`), which the final settlement
  empties;
- `net`: each hero's net change in this show so far (what the alliances split at the end, and the
  scenarios' `balances`);
- `escrow_from`: {slave: coins} what each slave has paid into the Demon's escrow (returned to him
  if the Demon's role is revealed before the end);
- `entry_due`: the entry fee is still to be charged (by the first close).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from games.engine.events import PUBLIC, Event
from games.engine.rulesets.common import ref
from games.engine.state import ACTIVE, GameState
from games.rulesets.show.engine.coins import BANK, Transfer, escrow, hero, seat_of, split
from games.rulesets.show.engine.facts import SLAVE, id_map
from games.rulesets.show.engine.keys import is_revealed
from games.rulesets.show.engine.privileges import burden_collectors, demon_seats, is_mole
from games.rulesets.show.engine.roles import DEMONS, REPTILOIDS

if TYPE_CHECKING:
    from games.rulesets.show.engine.closing import Closing

PUBLIC_OWNER = "public"


def new_coins_memory() -> dict[str, Any]:
    return {"accounts": {}, "net": {}, "escrow_from": {}, "entry_due": True}


# -- fees the site charges at posting time, shown before the user pays ---------------------------


def message_fee(options: Mapping[str, Any], sent_in_stage: int, *, anonymous: bool = False,
                observer: bool = False) -> int:
    """The fee for one more message in the show's common thread, `sent_in_stage` being how many
    this writer has already posted there in this stage. «На каждом этапе есть лимит бесплатных
    сообщений, превышая который участник начинает платить в Банк за каждое новое сообщение в общий
    чат. Приватные персональные сообщения всегда бесплатны» (the site does not call this for them).
    «За каждое анонимное сообщение берётся небольшая плата в Банк» (on top of the limit's fee).
    «Наблюдатели во время Шоу могут писать в общий чат за плату» (every message, no free limit)."""
    if sent_in_stage < 0:
        raise ValueError("sent_in_stage is 0 or more")
    if observer:
        return int(options["observer_fee"])
    fee = int(options["message_fee"]) if sent_in_stage >= int(options["free_messages"]) else 0
    if anonymous:
        fee += int(options["anonymous_fee"])
    return fee


def stage_fee(options: Mapping[str, Any], elapsed: float, length: float) -> int:
    """«На каждом этапе все свободные герои платят взнос в Банк, при этом чем позже они это делают -
    тем выше этот Взнос. Максимальный взнос платят те, кто тянет со своим действием до конца этапа.»
    fee = min + (max - min) × elapsed / length, rounded down; elapsed is clamped to [0, length] (a
    stage of length 0 charges the maximum). `elapsed` and `length` in the same unit (seconds)."""
    low, high = int(options["stage_fee_min"]), int(options["stage_fee_max"])
    if length <= 0:
        return high
    if not math.isfinite(float(elapsed)):  # a time beyond any clock: the start (-inf) or the end
        return low if float(elapsed) < 0 else high
    # Exact arithmetic: (max - min) × elapsed / length in floats rounds 100 × 1740 / 3000 = 58 down to 57.
    total = _exact(length)
    fraction = min(max(_exact(elapsed), Fraction(0)), total) / total
    return low + math.floor((high - low) * fraction)


def _exact(seconds: float) -> Fraction:
    """A number of seconds as an exact fraction: an int as it is, a float by its shortest decimal
    text (64800.0, 0.1), not its binary approximation."""
    return Fraction(seconds) if isinstance(seconds, int) else Fraction(repr(float(seconds)))


def entry_transfers(state: GameState) -> list[Transfer]:
    """«Перед раздачей Ролей все участники отправляют в Банк со своих Балансов первоначальный сбор»:
    what the first close charges (the site may show it before the start); [] once charged."""
    coins = state.memory.get("coins") or {}
    amount = int(state.options.get("entry_fee", 0))
    if not coins.get("entry_due") or amount <= 0:
        return []
    return [Transfer(hero(s.id), BANK, amount, "entry_fee") for s in state.seats]


# -- the book ------------------------------------------------------------------------------------


class Book:
    """The close's movements: each `move` is a Transfer, and updates the show's accounts and the
    heroes' net in memory."""

    def __init__(self, memory: dict[str, Any], adjust: Callable[[list[Transfer]], list[Transfer]] | None = None
                 ) -> None:
        self.coins = memory.setdefault("coins", new_coins_memory())
        self.transfers: list[Transfer] = []
        # part 3: the privileges' change of each movement (privileges.adjust_transfers)
        self.adjust = adjust

    def balance(self, account: str) -> int:
        return int(self.coins["accounts"].get(account, 0))

    def _add(self, account: str, amount: int) -> None:
        kind = account.partition(":")[0]
        if kind == "hero":
            net = self.coins["net"]
            net[str(seat_of(account))] = int(net.get(str(seat_of(account)), 0)) + amount
        else:
            accounts = self.coins["accounts"]
            accounts[account] = int(accounts.get(account, 0)) + amount
            if accounts[account] < 0:
                raise ValueError(f"the show's account {account} would go below zero")

    def move(self, debit: str, credit: str, amount: int, reason: str, detail: str = "") -> list[Transfer]:
        """The movements made (the privileges may drop, double or redirect one: part 3)."""
        # Nothing moves for 0 coins, nor from a hero to himself (a Reptiloid enslaved by his partner
        # keeps his own share of the Reptiloids' burden).
        if amount <= 0 or debit == credit:
            return []
        transfers = [Transfer(debit, credit, int(amount), reason, detail)]
        if self.adjust is not None:
            transfers = self.adjust(transfers)
        for transfer in transfers:
            self._add(transfer.debit, -transfer.amount)
            self._add(transfer.credit, transfer.amount)
            self.transfers.append(transfer)
        return transfers

    def paid_by_site(self, seat: int | None, amount: int) -> None:
        """Coins the site already moved into the bank (message fees): counted, not moved again."""
        if amount <= 0:
            return
        if seat is not None:
            self._add(hero(seat), -amount)
        self._add(BANK, amount)

    def net(self, seat: int) -> int:
        return int(self.coins["net"].get(str(seat), 0))


# -- fees of a close -----------------------------------------------------------------------------


def charge_entry(close: Closing, book: Book) -> None:
    for transfer in entry_transfers(close.start):
        book.move(transfer.debit, transfer.credit, transfer.amount, transfer.reason)
    book.coins["entry_due"] = False


def count_site_fees(close: Closing, book: Book) -> None:
    """`extra["message_fees"]` {seat: coins} and `extra["observer_fees"]` (coins): what the site
    charged into the bank for messages during the stage (message_fee), so the bank split counts it."""
    for seat, amount in id_map(close.inputs.extra.get("message_fees")).items():
        if close.start.has_seat(seat) and isinstance(amount, int) and amount > 0:
            book.paid_by_site(seat, amount)
    observers = close.inputs.extra.get("observer_fees")
    if isinstance(observers, int) and not isinstance(observers, bool) and observers > 0:
        book.paid_by_site(None, observers)


def charge_stage_fees(close: Closing, book: Book) -> dict[int, int]:
    """Every hero free when the stage began pays: the stage fee by when he did the stage's action
    (`extra["acted_at"]`, seconds into the stage; an action with no time counts as done at the
    timer's end), the maximum if he owed it and did not do it, the coma fee if he was in coma; a
    free hero who owed nothing in this stage (not a defendant in the defence, not the judge) pays
    the minimum: «На каждом этапе все свободные герои платят взнос в Банк»."""
    state, options = close.start, close.start.options
    length = close.rules.stage_length(state).total_seconds()
    acted_at = id_map(close.inputs.extra.get("acted_at"))
    owing = set(close.rules.owing(state))
    coma = set(int(k) for k in (state.memory.get("coma") or {}))
    fees: dict[int, int] = {}
    for seat in state.active():
        if seat.id in coma:
            fee, reason = int(options["coma_fee"]), "coma_fee"
        elif seat.id in owing:
            done = close.rules.has_acted(state, close.inputs, seat.id)
            when = acted_at.get(seat.id)
            elapsed = float(when) if done and isinstance(when, (int, float)) and not isinstance(when, bool) else length
            fee, reason = stage_fee(options, elapsed, length), "stage_fee"
        else:
            fee, reason = int(options["stage_fee_min"]), "stage_fee"
        if fee > 0:
            book.move(hero(seat.id), BANK, fee, reason, state.phase)
            fees[seat.id] = fee
    return fees


# -- burdens ---------------------------------------------------------------------------------------


def demon_revealed(state: GameState, memory: Mapping[str, Any]) -> bool:
    return any(is_revealed(dict(memory), seat) for seat in demon_seats(state))


def pay_burdens(close: Closing, book: Book, talents: list[int]) -> dict[str, int]:
    """«Все рабы каждое утро выплачивают своё Бремя: общественные рабы в Банк, а остальные своим
    рабовладельцам: Рептилоидам сразу или Демону, если его Роль не будет вскрыта до конца Шоу.»
    Every slave at the morning (this night's new ones too: A16, the first burden is the morning
    right after), except the relieved (the Saviour's relief) and today's Talents («обнуляют своё
    ближайшее рабское Бремя»). A slave of both teams (A4) pays both owners. The Reptiloids' burden is
    split equally between the Reptiloids; the Demon's goes to his escrow (C6: held until the end) and
    is not charged once his role is revealed (it would be returned). Returns {name: coins paid};
    `close.facts["burdens_due"]` {name: coins} is what each owed before the privileges' change."""
    state, memory, options = close.start, close.memory, close.start.options
    relieved = set(memory.get("relieved") or ())
    reptiloids = burden_collectors(state)  # the Змеёныш alone after his turn (part 3)
    demons = demon_seats(state)
    revealed = demon_revealed(state, memory)
    paid: dict[str, int] = {}
    due = close.facts.setdefault("burdens_due", {})
    for seat in state.seats:
        if close.status[seat.id] != SLAVE:
            continue
        if seat.id in relieved or seat.id in talents:
            paid[seat.name] = due[seat.name] = 0
            continue
        owners = (memory["slaves"].get(str(seat.id)) or {}).get("owners") or []
        total = owed = 0
        if PUBLIC_OWNER in owners:
            amount = int(options["burden_public"])
            owed += amount
            total += sum(t.amount for t in book.move(hero(seat.id), BANK, amount, "burden", PUBLIC_OWNER))
        if REPTILOIDS in owners and reptiloids:
            amount = int(options["burden_reptiloids"])
            for owner, share in split(amount, dict.fromkeys(reptiloids, 1)).items():
                owed += share if owner != seat.id else 0  # a Reptiloid keeps his own share
                # «Крот не знает свою Роль»: a Mole Reptiloid's share is held for him until the end
                # (his escrow, paid at the settlement), so no line of his money tells him his role
                # (issue 28, item 2)
                credit = escrow(owner) if owner != seat.id and is_mole(state, owner) else hero(owner)
                total += sum(t.amount for t in book.move(hero(seat.id), credit, share, "burden", REPTILOIDS))
        if DEMONS in owners and demons and not revealed:
            amount = int(options["burden_demon"])
            owed += amount
            moved = book.move(hero(seat.id), escrow(demons[0]), amount, "burden", DEMONS)
            into = sum(t.amount for t in moved if t.credit == escrow(demons[0]))
            if into > 0:  # what reached the escrow (the Заяц pays none, the Бинго double: part 3)
                escrow_from = book.coins["escrow_from"]
                escrow_from[str(seat.id)] = int(escrow_from.get(str(seat.id), 0)) + into
            total += sum(t.amount for t in moved)
        paid[seat.name], due[seat.name] = total, owed
    return paid


def return_demon_escrow(close: Closing, book: Book) -> bool:
    """«Если Роль Демона раскрывается до конца Шоу, он возвращает все отобранные монеты назад своим
    рабам»: at the close where his role is revealed, each slave gets back what he paid."""
    demons = demon_seats(close.start)
    if not demons or not demon_revealed(close.start, close.memory) or book.balance(escrow(demons[0])) <= 0:
        return False
    returned = {}
    for slave, amount in sorted(book.coins["escrow_from"].items(), key=lambda kv: int(kv[0])):
        book.move(escrow(demons[0]), hero(int(slave)), int(amount), "demon_return")
        returned[close.name(int(slave))] = int(amount)
    book.coins["escrow_from"] = {}
    close.events.append(Event("demon_returned", PUBLIC, {**ref(close.start.seat(demons[0])), "returned": returned}))
    return True


def free_at_start(state: GameState) -> list[int]:
    return [s.id for s in state.seats if s.status == ACTIVE]
