"""The engine's side of the show's money (issue 19) and ratings: the records a stage's close hands
to the site, which posts them to the coins ledger in the same transaction as the close.

The engine never holds balances: a hero's balance lives in the site's ledger, across all his
games, and may go below zero during a show («успешный Союзник вполне может вытащить своего
партнёра из глубокого минуса»). The engine decides *movements*: each `Transfer` moves a whole
number of coins (㉿) from one account to another, so the sum of all accounts cannot change by
anything the engine does. The show's own accounts (the bank, the winners' pot, the Demon's escrow)
must be empty when a show's settlement is done.

Account references are strings, so they survive the state's JSON round trip:
- `hero:<seat id>`: the balance of the user in that seat;
- `bank`: the show's bank («Банк»);
- `pot`: the winners' pot («Куш Победителей»);
- `escrow:<seat id>`: coins held for that seat until the end (the Demon's burdens, returned to the
  slaves if his role is revealed before the end).

A close hands its movements in `Resolution.outcome["transfers"]` (a list of `Transfer.to_dict()`)
and its rating changes in `Resolution.outcome["ratings"]` (a list of `RatingChange.to_dict()`); the
state's memory keeps the running ratings and their history for the end.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

BANK, POT = "bank", "pot"


def hero(seat: int) -> str:
    return f"hero:{int(seat)}"


def escrow(seat: int) -> str:
    return f"escrow:{int(seat)}"


def seat_of(account: str) -> int | None:
    """The seat a `hero:` or `escrow:` account belongs to; None for the show's own accounts."""
    kind, _, rest = account.partition(":")
    return int(rest) if kind in ("hero", "escrow") and rest.isdigit() else None


# Every reason a transfer of the show may carry: the site words each one (wording.LEDGER_WORDS, on
# the «Баланс» page, «Обо мне» and the results; issue 28, item 13, and
# tests/test_wording_complete.py). A transfer with any other reason is refused when it is made, so
# a new reason cannot reach a player's page as a code.
TRANSFER_REASONS: frozenset[str] = frozenset({
    # the bank's fees (economy.py, trials.py; privileges.py names them for the Заяц and the Говорун)
    "entry_fee", "stage_fee", "coma_fee", "message_fee", "anonymous_fee", "trial_pass",
    # the slaves' burdens (economy.py, settlement.py)
    "burden", "demon_burdens", "mole_burdens", "demon_return",
    # the bets and the winners' pot (bets.py, settlement.py)
    "bet", "bet_raise", "pot_share", "pot_even", "stake_returned",
    # the bank's split, the Бинго's doubling, the alliances' split, the trial's grants
    "bank_share", "bingo", "ally_split", "grant", "grant_share",
})


@dataclass(frozen=True)
class Transfer:
    debit: str  # the account the coins leave
    credit: str  # the account they reach
    amount: int  # whole coins, > 0
    reason: str  # a code, e.g. "entry_fee", "stage_fee", "burden", "bet", "pot_share"; wording on the site
    detail: str = ""  # what the site shows beside the reason (a hero's name, a stage)

    def __post_init__(self) -> None:
        if not isinstance(self.amount, int) or isinstance(self.amount, bool) or self.amount <= 0:
            raise ValueError(f"a transfer moves a positive whole number of coins, not {self.amount!r}")
        if self.debit == self.credit:
            raise ValueError("a transfer needs two different accounts")
        if self.reason not in TRANSFER_REASONS:
            raise ValueError(f"a transfer's reason is one the site words (TRANSFER_REASONS), not {self.reason!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Transfer:
        return cls(**data)


@dataclass(frozen=True)
class RatingChange:
    seat: int
    delta: int  # may be negative
    reason: str  # a code, e.g. "vote_against_bad", "judge_enslaved_bad"; wording on the site
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RatingChange:
        return cls(**data)


def _key_order(key: Any) -> tuple[int, Any]:
    # Seats (ints) in their numeric order (seat 2 before seat 10), any other key by its text.
    return (0, key) if isinstance(key, int) and not isinstance(key, bool) else (1, str(key))


def split(amount: int, weights: dict[Any, int | float]) -> dict[Any, int]:
    """Split whole coins by weights so that the shares sum to `amount` exactly: each gets the floor
    of his share, the coins left go one each by the largest remainder (ties by the key's order: a
    seat's number). Exact arithmetic (fractions), so equal remainders are equal (4/3 and 1/3 leave
    the same third) and no float rounding decides who gets a coin. Zero or negative weights get
    nothing; with no positive weight nobody gets anything ({})."""
    positive = {k: Fraction(w) for k, w in weights.items() if w > 0}
    total = sum(positive.values(), Fraction(0))
    if amount <= 0 or not positive:
        return {}
    exact = {k: amount * w / total for k, w in positive.items()}
    shares = {k: math.floor(v) for k, v in exact.items()}
    left = amount - sum(shares.values())
    order = sorted(positive, key=lambda k: (-(exact[k] - shares[k]), _key_order(k)))
    for k in order[:left]:
        shares[k] += 1
    return {k: v for k, v in shares.items() if v}
