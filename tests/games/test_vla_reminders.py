"""V/LA stops every reminder (issue 14, item 3): a player whose absence covers the day, in HIS time
zone, gets no "less than three hours left" notice, no prod and no e-mail digest; the page
promises «no reminders are sent to you then»."""

from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.core import mail

from games.models import Absence, Notification, Phase, Prod
from games.services.moderation import prods_send
from games.services.notifications import digests_send, notify, notify_due_soon, users_away
from tests.games.test_lifecycle import seat_named, user_named
from tests.games.test_notifications import _digest_user

# 2026-11-24 20:00 UTC: 23:00 on the 24th in Moscow (the site's zone), 06:00 on the 25th in
# Vladivostok, 12:00 on the 24th in Los Angeles.
NOW = datetime(2026, 11, 24, 20, 0, tzinfo=dt_timezone.utc)


def away(user, starts_on, ends_on, zone):
    user.time_zone = zone
    user.save(update_fields=["time_zone"])
    return Absence.objects.create(user=user, starts_on=starts_on, ends_on=ends_on)


@pytest.fixture
def due_soon(started):
    """The current day ends two hours after NOW."""
    Phase.objects.filter(pk=started.current_phase_id).update(opened_at=NOW - timedelta(days=1),
                                                              deadline_at=NOW + timedelta(hours=2))
    started.refresh_from_db()
    return started


def test_users_away_reads_the_date_in_each_users_time_zone_when_it_differs_from_the_sites(db):
    from tests.conftest import make_user

    east, west, home = make_user("Восток"), make_user("Запад"), make_user("Дома")
    away(east, date(2026, 11, 25), date(2026, 11, 28), "Asia/Vladivostok")  # already the 25th there
    away(west, date(2026, 11, 20), date(2026, 11, 24), "America/Los_Angeles")  # still the 24th there
    away(home, date(2026, 11, 25), date(2026, 11, 28), "Europe/Moscow")  # still the 24th in Moscow
    assert users_away([east.pk, west.pk, home.pk], now=NOW) == {east.pk, west.pk}


def test_due_soon_tells_nobody_on_vla_when_the_absence_covers_the_day(due_soon):
    """The issue's case: V/LA for 25–28 November, and still «less than three hours left»."""
    vasya = user_named(due_soon, "Вася")
    away(vasya, date(2026, 11, 25), date(2026, 11, 28), "Asia/Vladivostok")
    assert notify_due_soon(now=NOW) > 0
    due = Notification.objects.filter(kind=Notification.Kind.ORDER_DUE)
    assert not due.filter(user=vasya).exists()
    assert due.filter(user=user_named(due_soon, "Кикимора")).exists()


def test_due_soon_tells_the_player_when_his_vla_has_not_begun_in_his_time_zone(due_soon):
    vasya = user_named(due_soon, "Вася")
    away(vasya, date(2026, 11, 25), date(2026, 11, 28), "America/Los_Angeles")  # the 24th there
    notify_due_soon(now=NOW)
    assert Notification.objects.filter(kind=Notification.Kind.ORDER_DUE, user=vasya).exists()


def test_prods_skip_a_player_on_vla_when_his_time_zone_is_ahead_of_the_sites(due_soon):
    vasya = user_named(due_soon, "Вася")
    away(vasya, date(2026, 11, 25), date(2026, 11, 28), "Asia/Vladivostok")
    prods_send(now=NOW)
    prodded = set(Prod.objects.values_list("seat__user__display_name", flat=True))
    assert "Вася" not in prodded and "Кикимора" in prodded
    assert vasya.email not in {to for m in mail.outbox for to in m.to}


def test_prods_remind_a_player_when_his_vla_is_over_in_his_time_zone(due_soon):
    vasya = user_named(due_soon, "Вася")
    away(vasya, date(2026, 11, 20), date(2026, 11, 24), "Asia/Vladivostok")  # the 25th there: back
    prods_send(now=NOW)
    assert Prod.objects.filter(seat=seat_named(due_soon, "Вася")).exists()


def test_digest_waits_until_the_vla_is_over_when_the_user_is_away(db):
    user = _digest_user("Аня", "hourly")
    away(user, date(2026, 11, 25), date(2026, 11, 28), "Europe/Moscow")
    notify(users=[user], kind=Notification.Kind.PHASE_OPENED, text="Day 2 has begun", now=NOW)
    during = datetime(2026, 11, 26, 12, 0, tzinfo=dt_timezone.utc)
    assert digests_send(now=during) == 0 and not mail.outbox
    back = datetime(2026, 11, 28, 21, 30, tzinfo=dt_timezone.utc)  # 00:30 on the 29th in Moscow
    assert digests_send(now=back) == 1 and "Day 2 has begun" in mail.outbox[0].body
