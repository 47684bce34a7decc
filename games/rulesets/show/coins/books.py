"""One show's coin books as a page reads them once (issue 30): the balances of the game's own
accounts (its bank, its winners' pot, the Demon's escrows) and every ledger line naming the game,
in one round trip, kept on the game instance for the page's other readers (the GM's card of the
coins, the preview's observer fees). Reads only."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import CharField, IntegerField, Value

from coins.models import Account, Entry
from games.models import Game


@dataclass(frozen=True)
class Books:
    balances: dict[str, int]  # the game's own accounts: key -> balance
    # every line naming the game: (debited account's key, credited account's key, amount, reason, stage)
    lines: list[tuple[str, str, int, str, str]]


def game_books(game: Game) -> Books:
    """The game's books (see the module), read once per game instance: a UNION ALL of its
    accounts' balances and its ledger lines in one shape."""
    books = game.__dict__.get("_show_books")
    if books is not None:
        return books
    accounts = (Account.objects.filter(key__startswith=f"game:{game.pk}:").order_by()
                .annotate(book_source=Value(0, output_field=IntegerField()), book_credit=Value("", output_field=CharField()),
                          book_reason=Value("", output_field=CharField()), book_stage=Value("", output_field=CharField()))
                .values_list("book_source", "key", "book_credit", "balance", "book_reason", "book_stage"))
    lines = (Entry.objects.filter(game=game).order_by()
             .annotate(book_source=Value(1, output_field=IntegerField()))
             .values_list("book_source", "debit__key", "credit__key", "amount", "reason", "stage"))
    balances, read = {}, []
    for source, key, credit, amount, reason, stage in accounts.union(lines, all=True):
        if source == 0:
            balances[key] = amount
        else:
            read.append((key, credit, amount, reason, stage))
    books = game.__dict__["_show_books"] = Books(balances=balances, lines=read)
    return books
