"""The coins ledger's writes (issue 19): posting transfers, registrations with the referral bonus,
fines, the ИндиКоды, and the check of the cached balances against the ledger.

One rule holds everything together: a balance changes only by a ledger line, and a line moves
coins between two accounts, so the sum over all accounts is zero at every moment (the mint is
minus what registrations created). `post` is the one place that writes lines and balances.
"""

from __future__ import annotations

import random
import re
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils.translation import gettext as _

from coins.indicode import random_code
from coins.models import Account, Entry, Fine, IndiCode, code_key, game_key, user_key
from coins.selectors import balance_of

__all__ = ["MINT", "LedgerError", "Line", "account_for", "balance_of", "can_join", "check", "ensure_indicode", "fine",
           "code_key", "game_key", "post", "referral_owner", "register", "user_key"]

MINT = "mint"
START_CAPITAL = 1000  # «При регистрации нового пользователя для него в системе создаётся 1000㉿»
REFERRAL_BONUS = 100  # «100㉿ нужно отдать одному из уже имеющихся героев в качестве регистрационного бонуса»
FINE_AMOUNT = 1000  # «первый сообщивший об этом получит анонимно сумму в 1000㉿ с Баланса нарушителя»

# Reason codes of the site's own acts (a rule set's close brings its own: entry_fee, burden, ...).
REGISTRATION, REFERRAL, FINE = "registration", "referral", "fine"

# `mint`, `user:<id>`, and a game's own accounts: `game:<id>:bank`, `game:<id>:pot`,
# `game:<id>:escrow:<seat id>` (a rule set may name more of its game's, one word and a number at most).
KEY_PATTERN = re.compile(r"^(?:mint|user:(?P<user>\d+)|game:(?P<game>\d+):[a-z_]{1,20}(?::\d+)?)$")


class LedgerError(ValueError):
    """Refused input: the message is translated and nothing was written."""


@dataclass(frozen=True)
class Line:
    """A transfer as `post` takes it; the engine's Transfer (debit, credit, amount, reason, detail)
    does as well, with its accounts resolved to site keys or Account objects."""

    debit: Any
    credit: Any
    amount: int
    reason: str
    detail: str = ""


def account_for(key: str) -> Account:
    """The account of `key`, created on first use with its user or game set from the key."""
    match = KEY_PATTERN.match(key or "")
    if match is None:
        raise LedgerError(_("Unknown coin account: %(key)s") % {"key": key})
    account = Account.objects.filter(key=key).first()
    if account is not None:
        return account
    defaults = {"user_id": int(match["user"]) if match["user"] else None,
                "game_id": int(match["game"]) if match["game"] else None}
    # Foreign keys are checked at the commit (deferred): ask first, so a key of nobody is refused now.
    for name in ("user", "game"):
        owner = defaults[f"{name}_id"]
        if owner is not None and not Account._meta.get_field(name).related_model.objects.filter(pk=owner).exists():
            raise LedgerError(_("Unknown coin account: %(key)s") % {"key": key})
    account, _created = Account.objects.get_or_create(key=key, defaults=defaults)
    return account


def _account(side) -> Account:
    if isinstance(side, Account):
        if side.pk is None:
            raise LedgerError(_("Unknown coin account: %(key)s") % {"key": side.key})
        return side
    if isinstance(side, str):
        return account_for(side)
    raise LedgerError(_("Unknown coin account: %(key)s") % {"key": side})


def _checked_amount(amount) -> int:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise LedgerError(_("A transfer moves a positive whole number of coins, not %(amount)s.") % {"amount": amount})
    return amount


def post(transfers: Iterable, *, game=None, stage: str = "", action: str = "", batch: uuid.UUID | None = None,
         now=None) -> uuid.UUID:
    """Post the transfers as one act (one batch), all or nothing: every transfer is checked, the
    accounts are locked in the order of their keys (two posts over the same accounts wait for each
    other instead of deadlocking, and neither reads a balance the other is changing), the cached
    balances move by F() expressions and the lines are written. Returns the batch.

    A transfer is anything with .debit/.credit/.amount/.reason/.detail, its accounts given as site
    keys or Account objects (the show's plug-in maps the engine's `hero:<seat>` to `user:<id>`).
    Balances may go below zero: a hero may owe more than he has during a show (the seed's «из
    глубокого минуса»); who may start to owe is asked before (can_join)."""
    batch = batch or uuid.uuid4()
    game_id = getattr(game, "pk", game)
    with transaction.atomic():
        lines = []
        for transfer in transfers:
            amount = _checked_amount(getattr(transfer, "amount", None))
            reason = str(getattr(transfer, "reason", "") or "")
            if not reason or len(reason) > 40:
                raise LedgerError(_("A transfer needs a reason code."))
            debit, credit = _account(transfer.debit), _account(transfer.credit)
            if debit.pk == credit.pk:
                raise LedgerError(_("A transfer needs two different accounts."))
            lines.append((debit, credit, amount, reason, str(getattr(transfer, "detail", "") or "")[:300]))
        if not lines:
            return batch
        moves: dict[int, int] = defaultdict(int)
        for debit, credit, amount, _reason, _detail in lines:
            moves[debit.pk] -= amount
            moves[credit.pk] += amount
        # Locked in one query, in the order of the keys: PostgreSQL takes the row locks as the
        # sorted rows come out, so every post takes them in the same order.
        list(Account.objects.select_for_update().filter(pk__in=moves).order_by("key").values_list("pk", flat=True))
        for pk, delta in moves.items():
            if delta:
                Account.objects.filter(pk=pk).update(balance=F("balance") + delta)
        extra = {"created_at": now} if now is not None else {}
        Entry.objects.bulk_create([
            Entry(batch=batch, debit=debit, credit=credit, amount=amount, reason=reason, detail=detail,
                  game_id=game_id, stage=(stage or "")[:64], action=(action or "")[:64], **extra)
            for debit, credit, amount, reason, detail in lines
        ])
    return batch


# --- Registration and the referral bonus -------------------------------------------------------------

def register(user, referral=None) -> None:
    """A new user's coins: START_CAPITAL from the mint to him, then, if he picked or typed an
    ИндиКод (`referral`: the code's text, an IndiCode or its owner), REFERRAL_BONUS from him to its
    owner. Each part happens once per user whatever calls it again (the user's creation posts the
    capital; the signup form then adds the bonus)."""
    with transaction.atomic():
        mine = account_for(user_key(user))
        Account.objects.select_for_update().filter(pk=mine.pk).first()  # one registration at a time per user
        done = set(Entry.objects.filter(credit=mine, reason=REGISTRATION).values_list("reason", flat=True))
        done |= set(Entry.objects.filter(debit=mine, reason=REFERRAL).values_list("reason", flat=True))
        if REGISTRATION not in done:
            post([Line(MINT, mine, START_CAPITAL, REGISTRATION)])
        if referral is None or referral == "":
            return
        owner = referral_owner(referral)
        if owner is None:
            raise LedgerError(_("No hero has the IndiCode «%(code)s».") % {"code": referral})
        if owner.pk == user.pk:
            raise LedgerError(_("Your own IndiCode cannot bring you the referral bonus."))
        if REFERRAL in done:
            raise LedgerError(_("The referral bonus has already been given."))
        post([Line(mine, user_key(owner), REFERRAL_BONUS, REFERRAL)])


def referral_owner(referral):
    """The user a referral names: an IndiCode, its text (in any case, with ё or е, any separators)
    or the user himself; None for a code nobody has."""
    if isinstance(referral, IndiCode):
        return referral.user
    if isinstance(referral, str):
        found = IndiCode.objects.select_related("user").filter(key=code_key(referral)).first()
        return found.user if found is not None and found.user.is_active else None
    return referral if getattr(referral, "pk", None) else None


# --- ИндиКод --------------------------------------------------------------------------------------

_random = random.SystemRandom()


def ensure_indicode(user, *, rng: random.Random | None = None) -> IndiCode:
    """The user's ИндиКод, made on his first entry into a show («создаётся при его первом входе в
    любую сессию»): a fresh code of two adjectives and a noun; a third adjective after collisions."""
    existing = IndiCode.objects.filter(user=user).first()
    if existing is not None:
        return existing
    rng = rng or _random
    for attempt in range(40):
        code = random_code(rng, adjectives=2 if attempt < 20 else 3)
        if IndiCode.objects.filter(key=code_key(code)).exists():
            continue
        try:
            with transaction.atomic():
                return IndiCode.objects.create(user=user, code=code)
        except IntegrityError:
            existing = IndiCode.objects.filter(user=user).first()
            if existing is not None:  # made at the same moment by another request
                return existing
    raise LedgerError(_("No free IndiCode was found; try again."))


# --- Joining -------------------------------------------------------------------------------------

def can_join(user) -> str | None:
    """Why the user may not join a show now, or None: «Для участия в Шоу нужно иметь положительный Баланс»."""
    balance = balance_of(user)
    if balance <= 0:
        return _("A positive balance is needed to join a show (yours is %(balance)s ㉿).") % {"balance": balance}
    return None


# --- Fines ---------------------------------------------------------------------------------------

def fine(offender, reporter, *, by, game=None, report: str, decision: str, amount: int = FINE_AMOUNT) -> Fine:
    """Fine the offender for a forbidden act: `amount` from his balance to the first reporter,
    anonymously (the lines show no name; the Fine record is for the GMs and moderators), with the
    report and the decision kept. Whether `by` may decide is the caller's check (the show's view
    asks games.permissions)."""
    report, decision = (report or "").strip(), (decision or "").strip()
    if not report:
        raise LedgerError(_("Describe the report: what was found and where."))
    if not decision:
        raise LedgerError(_("Write the decision."))
    if offender is None or reporter is None:
        raise LedgerError(_("Name the offender and the reporter."))
    if offender.pk == reporter.pk:
        raise LedgerError(_("The offender cannot be his own reporter."))
    _checked_amount(amount)
    with transaction.atomic():
        batch = post([Line(user_key(offender), user_key(reporter), amount, FINE)], game=game, action=FINE)
        return Fine.objects.create(offender=offender, reporter=reporter, decided_by=by, game_id=getattr(game, "pk", game),
                                   amount=amount, report=report[:5000], decision=decision[:5000], batch=batch)


# --- The check -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    key: str
    cached: int
    ledger: int


def ledger_balances() -> dict[int, int]:
    """Account pk -> its balance as the ledger's lines add up."""
    totals: dict[int, int] = defaultdict(int)
    for row in Entry.objects.values("credit").annotate(total=Sum("amount")):
        totals[row["credit"]] += row["total"]
    for row in Entry.objects.values("debit").annotate(total=Sum("amount")):
        totals[row["debit"]] -= row["total"]
    return totals


def check() -> list[Difference]:
    """Every account whose cached balance differs from its ledger-derived one (none, when all is
    well), plus a `*` line if the accounts do not sum to zero."""
    totals = ledger_balances()
    differences = [Difference(key, cached, totals.get(pk, 0))
                   for pk, key, cached in Account.objects.order_by("key").values_list("pk", "key", "balance")
                   if cached != totals.get(pk, 0)]
    total = Account.objects.aggregate(total=Sum("balance"))["total"] or 0
    if total:
        differences.append(Difference("*", total, 0))
    return differences
