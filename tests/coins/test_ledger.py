"""The coins ledger (issue 19): immutable lines, all-or-nothing posts, registrations with the
referral bonus, the check of the cached balances."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction

from coins import services
from coins.models import Account, Entry, ImmutableEntry, IndiCode
from coins.services import MINT, LedgerError, Line, account_for, post
from games.rulesets.show.engine.coins import Transfer
from tests.conftest import make_user


def balance(key: str) -> int:
    return Account.objects.get(key=key).balance


def total() -> int:
    return sum(Account.objects.values_list("balance", flat=True))


def test_new_user_gets_the_starting_capital_from_the_mint(db):
    """«При регистрации нового пользователя для него в системе создаётся 1000㉿»."""
    before = Account.objects.filter(key=MINT).values_list("balance", flat=True).first() or 0
    user = make_user("Новичок")
    assert services.balance_of(user) == 1000
    assert balance(MINT) == before - 1000
    line = Entry.objects.get(credit__key=f"user:{user.pk}")
    assert (line.debit.key, line.amount, line.reason) == (MINT, 1000, "registration")
    assert total() == 0


def test_register_twice_creates_the_capital_once(db):
    user = make_user("Новичок")
    services.register(user)
    services.register(user)
    assert services.balance_of(user) == 1000
    assert Entry.objects.filter(reason="registration", credit__key=f"user:{user.pk}").count() == 1


def test_referral_gives_the_code_owner_the_bonus_when_the_newcomer_types_his_code(db):
    """«Тот, чей ИндиКод будет выбран/указан, немедленно получит регистрационный бонус 100㉿»."""
    old = make_user("Старожил")
    IndiCode.objects.create(user=old, code="весёлый-синий-кит")
    newcomer = make_user("Новичок")
    services.register(newcomer, referral="Веселый синий КИТ")
    assert services.balance_of(newcomer) == 900
    assert services.balance_of(old) == 1100
    assert total() == 0
    with pytest.raises(LedgerError):
        services.register(newcomer, referral="весёлый-синий-кит")  # the bonus is given once
    assert services.balance_of(old) == 1100


def test_referral_with_an_unknown_code_is_refused_and_pays_nothing(db):
    newcomer = make_user("Новичок")
    with pytest.raises(LedgerError, match="ИндиКод|IndiCode"):
        services.register(newcomer, referral="никакой-такой-код")
    assert services.balance_of(newcomer) == 1000


def test_post_moves_coins_and_records_each_line(db):
    a, b = make_user("А"), make_user("Б")
    batch = post([Line(f"user:{a.pk}", f"user:{b.pk}", 30, "bet", "ставка")], stage="night-1", action="bet")
    assert (services.balance_of(a), services.balance_of(b)) == (970, 1030)
    line = Entry.objects.get(batch=batch)
    assert (line.amount, line.reason, line.detail, line.stage, line.action) == (30, "bet", "ставка", "night-1", "bet")


def test_post_takes_the_engines_transfers_with_resolved_keys(game):
    a = make_user("А")
    post([Transfer(f"user:{a.pk}", f"game:{game.pk}:bank", 50, "entry_fee")], game=game, stage="greetings")
    bank = Account.objects.get(key=f"game:{game.pk}:bank")
    assert bank.balance == 50 and bank.game_id == game.pk
    assert Entry.objects.get(credit=bank).game_id == game.pk


def test_post_with_one_bad_transfer_posts_nothing(db):
    a, b = make_user("А"), make_user("Б")
    lines_before = Entry.objects.count()
    with pytest.raises(LedgerError):
        post([Line(f"user:{a.pk}", f"user:{b.pk}", 30, "bet"), Line(f"user:{a.pk}", "nowhere", 10, "bet")])
    with pytest.raises(LedgerError):
        post([Line(f"user:{a.pk}", f"user:{b.pk}", 30, "bet"), Line(f"user:{a.pk}", f"user:{b.pk}", 0, "bet")])
    with pytest.raises(LedgerError):
        post([Line(f"user:{a.pk}", f"user:{b.pk}", 30, "bet"), Line(f"user:{a.pk}", f"user:{a.pk}", 5, "bet")])
    with pytest.raises(LedgerError):
        post([Line(f"user:{a.pk}", f"user:{b.pk}", 30, "bet"), Line(f"user:{a.pk}", f"user:{b.pk}", 2.5, "bet")])
    assert Entry.objects.count() == lines_before
    assert (services.balance_of(a), services.balance_of(b)) == (1000, 1000)


def test_account_for_refuses_a_key_of_nobody(db):
    with pytest.raises(LedgerError):
        account_for("user:999999")
    with pytest.raises(LedgerError):
        account_for("bank")
    assert not Account.objects.filter(key="user:999999").exists()


def test_a_written_line_cannot_be_changed_or_deleted(db):
    user = make_user("А")
    line = Entry.objects.get(credit__key=f"user:{user.pk}")
    line.amount = 5
    with pytest.raises(ImmutableEntry):
        line.save()
    with pytest.raises(ImmutableEntry):
        line.delete()
    with pytest.raises(ImmutableEntry):
        Entry.objects.filter(pk=line.pk).update(amount=5)
    with pytest.raises(ImmutableEntry):
        Entry.objects.filter(pk=line.pk).delete()
    assert Entry.objects.get(pk=line.pk).amount == 1000


def test_the_database_refuses_a_line_of_no_coins(db):
    a, b = make_user("А"), make_user("Б")
    debit, credit = account_for(f"user:{a.pk}"), account_for(f"user:{b.pk}")
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(batch="00000000-0000-0000-0000-000000000001", debit=debit, credit=credit, amount=0, reason="x")


def test_check_finds_a_balance_changed_without_a_ledger_line(db):
    user = make_user("А")
    assert services.check() == []
    call_command("coins_check")
    Account.objects.filter(key=f"user:{user.pk}").update(balance=5000)
    differences = services.check()
    assert [(d.key, d.cached, d.ledger) for d in differences if d.key != "*"] == [(f"user:{user.pk}", 5000, 1000)]
    with pytest.raises(CommandError):
        call_command("coins_check")


def test_a_game_whose_coins_moved_cannot_be_deleted(game):
    from django.db.models import ProtectedError

    user = make_user("А")
    post([Line(f"user:{user.pk}", f"game:{game.pk}:bank", 5, "entry_fee")], game=game)
    with pytest.raises(ProtectedError):
        game.delete()
    assert Entry.objects.filter(game=game).count() == 1


def test_the_data_migration_gives_existing_users_their_capital_once(db):
    """Users made before the ledger (no registration line) get 1,000 from the mint; the others nothing."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("coins.migrations.0002_existing_users_capital")
    old, new = make_user("Старый"), make_user("Новый")
    Entry.objects.filter(credit__key=f"user:{old.pk}")._raw_delete(Entry.objects.db)  # as before the ledger
    Account.objects.filter(key=f"user:{old.pk}").update(balance=0)
    Account.objects.filter(key=MINT).update(balance=-1000 * (Account.objects.filter(key__startswith="user:").count() - 1))
    migration.capital_for_existing_users(apps, None)
    assert (services.balance_of(old), services.balance_of(new)) == (1000, 1000)
    assert services.check() == []
