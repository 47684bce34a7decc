"""The show's money under concurrent requests (issue 19): «Concurrent actions (two stages' fees, a
burden and a bet at the same moment) lock and never double-spend: a test with threads on
PostgreSQL.» tests/coins/test_concurrency.py races the ledger's `post` itself; this test races the
show's real services at once: the first night's close (the bets into the pot, the morning's
burdens, the stage fees), a second close of the same stage (the deadline task and the GM's button),
a hero's paid message in the game thread and an anonymous message with its fee. The balances must
equal the serial result, each line be written once, and the engine's bank agree with the ledger's.

PostgreSQL only (SQLite has one writer at a time, which proves nothing): fails, not skips, when
CI=true and PostgreSQL is missing."""

from __future__ import annotations

import threading
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from django.db import connection, connections
from django.db.models import Sum

from coins import services as coins
from coins.models import Account, Entry
from games.models import Game, Phase
from games.rulesets.show import services
from games.rulesets.show.coins.ledger import account_key
from games.selectors.state import game_state
from games.services.resolution import phase_close
from tests.conftest import require_service

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "show" / "coins-first-day-alliances-bets-burdens.yaml"
FEE, ANONYMOUS_FEE = 3, 5  # the options below: every message in the common thread costs 3; the show's anonymous fee


def _to_the_first_night(tmp_path):
    """The scenario file's first five stages played through the site (greetings to the «Выбор
    Союзника»), every common-thread message paid (free limit 0), then the night's choices made."""
    # The scenario player loads every rule set's site plug-in: imported when a test asks for it.
    from games import scenarios

    data = yaml.safe_load(SCENARIO.read_text("utf-8"))
    night = data["phases"][5]
    data["phases"] = data["phases"][:5]
    data["options"] = {**data["options"], "free_messages": 0, "message_fee": FEE}
    path = tmp_path / "show.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = scenarios.play(str(path), keep=True)
    assert all(not p.diffs for p in report.phases), [p.diffs for p in report.phases]
    game = Game.objects.filter(ruleset="show").latest("pk")
    seats = {s.dealt_name: s for s in game.seats.select_related("user")}
    for item in night["orders"]:
        result = services.show_order(game=game, user=seats[item["by"]].user, action=item["action"],
                                     target=seats[item["target"]], early_close=False)
        assert result.accepted, result
    game.refresh_from_db()
    assert (game.current_phase.kind, game.current_phase.number) == ("night", 1)
    return game, seats


def _balances() -> dict[str, int]:
    return dict(Account.objects.values_list("key", "balance"))


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_close_racing_a_second_close_and_two_message_fees_never_double_spends(tmp_path, monkeypatch):
    """«Все рабы каждое утро выплачивают своё Бремя»; «в первую ночь каждый герой ... делает Ставку»;
    «превышая который участник начинает платить в Банк за каждое новое сообщение в общий чат»; «За
    каждое анонимное сообщение берётся небольшая плата в Банк» — all at the same moment."""
    require_service("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL must name PostgreSQL")
    # The posting and anonymous services load the rule sets' plug-ins: imported once the test runs.
    from games.communication.anonymous import anonymous_send
    from games.services.posting import post_submit

    # The stages' deadline tasks are this test's own closes: the scenario plays in simulated time
    # that ended before now, so a committed stage's task (run at once in tests) would close the
    # night before the race (a non-transactional test never commits, so never sends them).
    monkeypatch.setattr("games.services.phases.send_task_on_commit", lambda name, **options: None)
    game, seats = _to_the_first_night(tmp_path)
    night = game.current_phase
    writer, sender = seats["Вера"].user, seats["Егор"].user
    before, lines_before = _balances(), Entry.objects.count()
    start = threading.Barrier(4)
    closed: list[bool] = []
    errors: list[BaseException] = []

    def run(work) -> None:
        try:
            start.wait()
            work()
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    def close() -> None:
        closed.append(phase_close(phase_id=night.pk, now=night.deadline_at))

    def message() -> None:
        post_submit(thread=game.game_thread, author=writer, body="Кто-то здесь лжёт, и я знаю кто.")

    def anonymous() -> None:
        anonymous_send(game=Game.objects.get(pk=game.pk), user=sender, recipient=seats["Аня"], text="Я тебя вижу.")

    workers = [threading.Thread(target=run, args=(w,)) for w in (close, close, message, anonymous)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors
    assert sorted(closed) == [False, True]  # one close did the work, the other saw it done

    # The serial result: the close's transfers as the engine decided them, plus the two fees.
    night.refresh_from_db()
    transfers = night.outcome["transfers"]
    users_by_seat = {s.pk: s.user_id for s in seats.values()}
    expected: dict[str, int] = defaultdict(int, before)
    for t in transfers:
        expected[account_key(game, t["debit"], users_by_seat)] -= t["amount"]
        expected[account_key(game, t["credit"], users_by_seat)] += t["amount"]
    bank = coins.game_key(game, "bank")
    for user, fee in ((writer, FEE), (sender, ANONYMOUS_FEE)):
        expected[coins.user_key(user)] -= fee
        expected[bank] += fee
    assert _balances() == {k: v for k, v in expected.items() if k in _balances()}
    assert set(expected) - set(_balances()) == set()

    # Each line once: the close's batch, one message fee, one anonymous fee.
    new = Entry.objects.filter(pk__gt=0).count() - lines_before
    assert new == len(transfers) + 2
    closing = Entry.objects.filter(game=game, stage="night 1", action="close")
    assert closing.count() == len(transfers) and closing.values("batch").distinct().count() == 1
    assert Entry.objects.filter(reason="message_fee", debit__key=coins.user_key(writer)).count() == 1
    assert Entry.objects.filter(reason="message_fee", debit__key=coins.user_key(sender)).count() == 1
    # What the file says of this morning, independent of the outcome: ten bets of 25, three burdens of 20.
    assert Account.objects.get(key=coins.game_key(game, "pot")).balance == 250
    assert closing.filter(reason="bet").count() == 10
    paid: dict[str, int] = defaultdict(int)
    for key, amount in closing.filter(reason="burden").values_list("debit__key", "amount"):
        paid[key] += amount
    assert paid == {coins.user_key(seats[n].user): 20 for n in ("Зина", "Гоша", "Даша")}
    assert (Account.objects.aggregate(t=Sum("balance"))["t"] or 0) == 0
    assert coins.check() == []

    # The next close counts the fees in the engine's bank, whichever stage they landed in.
    game.refresh_from_db()
    day = game.current_phase
    assert (day.kind, day.number) == ("day", 2)
    assert phase_close(phase_id=day.pk, now=day.deadline_at)
    game.refresh_from_db()
    assert Account.objects.get(key=bank).balance == game_state(game).memory["coins"]["accounts"]["bank"]
    assert Phase.objects.filter(game=game, closed_at__isnull=True).count() <= 1
    assert coins.check() == []
