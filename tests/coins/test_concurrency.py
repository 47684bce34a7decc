"""Concurrent posts on the same accounts (issue 19): two stages' fees, a burden and a bet at the
same moment. Each post locks its accounts in the order of their keys, so none deadlocks, none is
lost and none is counted twice: the balances equal the serial sum. PostgreSQL only (SQLite has one
writer at a time, which proves nothing): fails, not skips, when CI=true and PostgreSQL is missing."""

from __future__ import annotations

import threading
from collections import defaultdict

import pytest
from django.db import connection, connections

from coins import services
from coins.models import Account
from coins.services import Line, post
from games.services.games import game_create
from tests.conftest import make_user, require_service

THREADS, ROUNDS = 6, 15


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_on_the_same_accounts_equal_the_serial_sum():
    require_service("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL must name PostgreSQL")
    gm = make_user("Ведущий")
    game = game_create(title="Шоу", gm=gm, ruleset="show", size=10)
    heroes = [make_user(f"Герой {n}") for n in range(4)]
    keys = [services.user_key(h) for h in heroes]
    bank, pot = services.game_key(game, "bank"), services.game_key(game, "pot")
    services.account_for(bank), services.account_for(pot)
    start = threading.Barrier(THREADS)
    errors: list[Exception] = []

    def batch(worker: int, n: int) -> list[Line]:
        """Lines over overlapping accounts, in an order that differs between workers: unordered
        locks would deadlock here."""
        a, b = keys[(worker + n) % 4], keys[(worker + n + 1) % 4]
        lines = [Line(a, bank, 1 + n % 5, "stage_fee"), Line(b, pot, 2, "bet"), Line(a, b, 3, "burden")]
        return lines if worker % 2 else list(reversed(lines))

    def run(worker: int) -> None:
        try:
            start.wait()
            for n in range(ROUNDS):
                post(batch(worker, n), game=game, stage=f"day {n}")
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=run, args=(w,)) for w in range(THREADS)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors

    expected: dict[str, int] = defaultdict(int, {k: 1000 for k in keys})
    for worker in range(THREADS):
        for n in range(ROUNDS):
            for line in batch(worker, n):
                expected[line.debit] -= line.amount
                expected[line.credit] += line.amount
    actual = dict(Account.objects.filter(key__in=expected).values_list("key", "balance"))
    assert actual == dict(expected)
    assert services.check() == []
