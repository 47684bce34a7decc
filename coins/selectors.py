"""Reads of the coins ledger: a user's history and balance, the ИндиКоды offered to a newcomer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from coins.models import Account, Entry, IndiCode, user_key
from coins.wording import line_text, other_side


def account_of(user) -> Account | None:
    return Account.objects.filter(key=user_key(user)).first()


def balance_of(user) -> int:
    """The user's balance (0 before his account exists)."""
    account = Account.objects.filter(key=user_key(user)).only("balance").first()
    return account.balance if account is not None else 0


def history(user) -> QuerySet[Entry]:
    """Every ledger line of the user's own account, newest first."""
    return (Entry.objects.filter(Q(debit__key=user_key(user)) | Q(credit__key=user_key(user)))
            .select_related("debit__user", "debit__game", "credit__user", "credit__game", "game")
            .order_by("-created_at", "-pk"))


@dataclass(frozen=True)
class HistoryRow:
    created_at: datetime
    amount: int  # signed: + coins in, - coins out
    reason: Any
    detail: str
    other: Any
    game: Any
    stage: str


def history_rows(user, entries) -> list[HistoryRow]:
    """The lines of one page as the owner reads them."""
    key = user_key(user)
    rows = []
    for entry in entries:
        incoming = entry.credit.key == key
        other = entry.debit if incoming else entry.credit
        words = line_text(entry, incoming=incoming)  # a game's line in its rule set's words
        rows.append(HistoryRow(entry.created_at, entry.amount if incoming else -entry.amount,
                               words.reason, words.detail, other_side(other, entry), entry.game, words.stage))
    return rows


def indicode_of(user) -> IndiCode | None:
    return IndiCode.objects.filter(user=user).first()


def indicodes_of(users: QuerySet, *, limit: int = 12) -> list[str]:
    """The ИндиКоды of `users` (the heroes now in play, as the caller knows them), newest first."""
    return list(IndiCode.objects.filter(user__in=users, user__is_active=True)
                .order_by("-created_at").values_list("code", flat=True)[:limit])
