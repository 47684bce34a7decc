"""Notifications: every hook tells exactly the right user, preferences and keys, the bell and the
list per perspective, the e-mail digests, replacement requests."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.context_processors import notifications as bell_context
from games.models import AnonymousMessage, Notification, Phase, Seat
from games.services import ActionRefused
from games.services.lifecycle import game_set_co_gm
from games.services.moderation import seat_replace
from games.selectors.notifications import unread_count
from games.services.notifications import digests_send, notify, notify_due_soon, replacement_request
from games.services.posting import post_submit
from games.communication.anonymous import anonymous_decide, anonymous_send
from games.rulesets.cards.messages import card_message_schedule
from games.services.resolution import phase_close
from games.services.votes import vote_button_text
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named

K = Notification.Kind


def kinds_of(user, kind=None):
    rows = Notification.objects.filter(user=user)
    return list(rows.filter(kind=kind) if kind else rows)


def vote(game, voter, target):
    return post_submit(thread=game.game_thread, author=user_named(game, voter), body=vote_button_text(target))


# --- Phases --------------------------------------------------------------------------------------
def test_phase_opened_reaches_every_player_and_nobody_else(started):
    phase = started.current_phase
    outsider = make_user("Зритель")
    for seat in started.seats.select_related("user"):
        [n] = kinds_of(seat.user, K.PHASE_OPENED)
        assert n.key == f"phase_opened:{phase.pk}" and n.game_id == started.pk
        assert n.url == reverse("games:thread", args=[started.game_thread_id])
        assert started.title in n.text
    assert kinds_of(started.gm) == [] and kinds_of(outsider) == []


def test_phase_close_tells_every_player_including_the_fallen_then_the_next_phase(started):
    day = started.current_phase
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    assert phase_close(phase_id=day.pk, now=timezone.now())
    night = Phase.objects.filter(game=started, closed_at__isnull=True).get()
    for seat in started.seats.select_related("user"):
        keys = {n.key for n in kinds_of(seat.user)}
        assert {f"phase_closed:{day.pk}", f"phase_opened:{night.pk}"} <= keys
    assert kinds_of(started.gm) == []


def test_phase_texts_are_in_each_recipients_language(started):
    english = user_named(started, "Вася")
    english.language = "en"
    english.save(update_fields=["language"])
    phase_close(phase_id=started.current_phase.pk, now=timezone.now())
    closed_en = Notification.objects.get(user=english, kind=K.PHASE_CLOSED).text
    closed_ru = Notification.objects.get(user=user_named(started, "Кикимора"), kind=K.PHASE_CLOSED).text
    assert "Day 1" in closed_en and "is over" in closed_en
    assert "День 1" in closed_ru and "Day 1" not in closed_ru


# --- Votes --------------------------------------------------------------------------------------
def test_a_counted_vote_tells_its_target_only(started):
    post = vote(started, "Вася", "Кикимора")
    target = seat_named(started, "Кикимора")
    [n] = kinds_of(target.user, K.VOTE_ON_ME)
    assert n.key == f"vote:{post.pk}:{target.pk}" and n.url == post.get_absolute_url()
    assert "Вася" in n.text and f"#{post.number}" in n.text
    assert Notification.objects.filter(kind=K.VOTE_ON_ME).count() == 1


def test_no_vote_notification_for_unvotes_self_votes_or_refused_votes(started):
    vote(started, "Вася", "Вася")  # the forum rules allow it; nobody is told
    post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="[b]Снимаю голос[/b]")
    post_submit(thread=started.game_thread, author=user_named(started, "Кикимора"),
                body="[b]В тюрьму Пушкина[/b]")  # nobody has that name: not counted
    post_submit(thread=started.game_thread, author=started.gm, body=vote_button_text("Кикимора"))  # narration
    assert Notification.objects.filter(kind=K.VOTE_ON_ME).count() == 0


def test_a_vote_costs_one_insert_more_than_a_silent_vote(started):
    """The vote-posting path: a vote that notifies costs exactly one more statement (the INSERT)
    than the same path without a notification (a vote for oneself)."""
    vote(started, "Эсмеральда", "Эсмеральда")  # warm-up (caches of the first post)
    with CaptureQueriesContext(connection) as silent:
        vote(started, "Вася", "Вася")
    with CaptureQueriesContext(connection) as notifying:
        vote(started, "Маленький Джон", "Кикимора")
    extra = len(notifying.captured_queries) - len(silent.captured_queries)
    inserts = [q["sql"] for q in notifying.captured_queries if "games_notification" in q["sql"]]
    assert extra == 1 and len(inserts) == 1 and inserts[0].startswith("INSERT")


# --- Private messages ---------------------------------------------------------------------------
SECRET = "Проверяю Эсмеральду этой ночью"


def test_private_message_tells_the_recipient_without_the_text(started):
    post = post_submit(thread=started.game_thread, author=user_named(started, "Вася"),
                       body=f'Всем привет. [private="Кикимора"]{SECRET}[/private]')
    recipient = seat_named(started, "Кикимора")
    [n] = kinds_of(recipient.user, K.PRIVATE_MESSAGE)
    assert SECRET not in n.text and "Вася" in n.text and f"#{post.number}" in n.text
    assert n.url == post.get_absolute_url() and n.key == f"private:{post.pk}:{recipient.pk}"
    assert Notification.objects.filter(kind=K.PRIVATE_MESSAGE).count() == 1
    assert not Notification.objects.filter(text__contains=SECRET).exists()


def test_anonymous_message_tells_the_recipient_without_sender_or_text(started):
    anonymous_send(game=started, user=user_named(started, "Вася"), recipient=seat_named(started, "Кикимора"),
                   text=SECRET)
    [n] = kinds_of(user_named(started, "Кикимора"), K.PRIVATE_MESSAGE)
    assert SECRET not in n.text and "Вася" not in n.text
    assert n.url == reverse("games:role", args=[started.pk])
    assert Notification.objects.filter(kind=K.PRIVATE_MESSAGE).count() == 1


def test_anonymous_message_waiting_for_the_gm_tells_nobody_until_approved(started):
    started.options = {**(started.options or {}), "anonymous_messages": {"limit": 5, "approval": True}}
    started.save(update_fields=["options"])
    message = anonymous_send(game=started, user=user_named(started, "Вася"),
                             recipient=seat_named(started, "Кикимора"), text=SECRET)
    assert not Notification.objects.filter(kind=K.PRIVATE_MESSAGE).exists()
    anonymous_decide(message=message, by=started.gm, approve=True)
    assert [n.user for n in Notification.objects.filter(kind=K.PRIVATE_MESSAGE)] == [user_named(started, "Кикимора")]


def test_card_messages_tell_their_recipient_at_the_close(started):
    card_message_schedule(game=started, sender=seat_named(started, "Негодяй"), recipient=seat_named(started, "Фроло"),
                          text=SECRET)
    assert not Notification.objects.filter(kind=K.PRIVATE_MESSAGE).exists()
    phase_close(phase_id=started.current_phase.pk, now=timezone.now())
    assert AnonymousMessage.objects.get().status == "delivered"
    [n] = Notification.objects.filter(kind=K.PRIVATE_MESSAGE)
    assert n.user == user_named(started, "Фроло") and SECRET not in n.text and "Негодяй" not in n.text


# --- Due soon -----------------------------------------------------------------------------------
def test_due_soon_tells_who_owes_a_vote_or_an_order_once(started):
    phase = started.current_phase
    vote(started, "Фроло", "Кикимора")  # Фроло owes nothing any more
    assert notify_due_soon(now=phase.deadline_at - timedelta(hours=4)) == 0
    now = phase.deadline_at - timedelta(hours=2)
    written = notify_due_soon(now=now)
    due = Notification.objects.filter(kind=K.ORDER_DUE)
    assert written == due.count() > 0
    recruiter = seat_named(started, "Вася")
    assert set(due.filter(user=recruiter.user).values_list("key", flat=True)) == {
        f"due:{phase.pk}:{recruiter.pk}:vote", f"due:{phase.pk}:{recruiter.pk}:order"}
    assert not due.filter(user=user_named(started, "Фроло")).exists()
    assert not due.filter(user=started.gm).exists()
    citizen = seat_named(started, "Маленький Джон")
    assert list(due.filter(user=citizen.user).values_list("key", flat=True)) == [f"due:{phase.pk}:{citizen.pk}:vote"]
    assert notify_due_soon(now=now + timedelta(minutes=15)) == 0  # once per phase, seat and kind
    assert notify_due_soon(now=phase.deadline_at + timedelta(minutes=1)) == 0


def test_due_soon_task_is_scheduled(settings):
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.tasks.send_digests", "games.tasks.notify_due_soon"} <= tasks


# --- The writer: preferences and keys ----------------------------------------------------------
def test_keys_deduplicate_per_user(db):
    a, b = make_user("Аня"), make_user("Боря")
    now = timezone.now()
    assert notify(users=[a, b], kind=K.REPLACEMENT, text="x", key="k:1", now=now) == 2
    assert notify(users=[a, b], kind=K.REPLACEMENT, text="x", key="k:1", now=now) == 0
    assert notify(users=[a], kind=K.REPLACEMENT, text="x", key="k:2", now=now) == 1
    assert notify(users=[a], kind=K.REPLACEMENT, text="no key", now=now) == 1
    assert notify(users=[a], kind=K.REPLACEMENT, text="no key", now=now) == 1  # an empty key never de-duplicates
    assert Notification.objects.filter(user=a).count() == 4 and Notification.objects.filter(user=b).count() == 1


def test_unknown_kind_is_a_programming_error(db):
    with pytest.raises(ValueError):
        notify(users=[make_user("Аня")], kind="gossip", text="x", now=timezone.now())


def test_a_kind_off_on_both_channels_is_not_written(started):
    target = user_named(started, "Кикимора")
    target.notify_site_off, target.notify_email_off = [K.VOTE_ON_ME], [K.VOTE_ON_ME, K.PHASE_CLOSED]
    target.save(update_fields=["notify_site_off", "notify_email_off"])
    vote(started, "Вася", "Кикимора")
    phase_close(phase_id=started.current_phase.pk, now=timezone.now())
    assert kinds_of(target, K.VOTE_ON_ME) == []
    assert len(kinds_of(target, K.PHASE_CLOSED)) == 1  # still wanted on the site


def test_site_off_hides_from_the_bell_and_the_list_but_email_keeps_it(started):
    user = user_named(started, "Кикимора")
    user.notify_site_off = [K.PHASE_OPENED]
    user.save(update_fields=["notify_site_off"])
    assert len(kinds_of(user, K.PHASE_OPENED)) == 1  # written before: the e-mail channel still wants it
    assert unread_count(user) == 0
    vote(started, "Вася", "Кикимора")
    assert unread_count(user) == 1
    page = client_for(user).get(reverse("games:notifications")).content.decode()
    assert "Вася" in page and started.current_phase.kind_label not in page.split("<h1>")[1].split("</ul>")[0]


# --- The bell, the list, opening ----------------------------------------------------------------
def test_list_needs_login_and_shows_only_ones_own(started):
    url = reverse("games:notifications")
    response = Client().get(url)
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    vote(started, "Вася", "Кикимора")
    post_submit(thread=started.game_thread, author=user_named(started, "Фроло"),
                body=f'[private="Негодяй"]{SECRET}[/private]')
    kikimora = client_for(user_named(started, "Кикимора")).get(url).content.decode()
    negodyai = client_for(user_named(started, "Негодяй")).get(url).content.decode()
    assert "Вася" in kikimora and "Фроло" not in kikimora
    assert "Фроло" in negodyai and "проголосовал" not in negodyai and "voted" not in negodyai
    dead = seat_named(started, "Маленький Джон")
    Seat.objects.filter(pk=dead.pk).update(status="killed", is_alive=False)
    for user in (make_user("Зритель"), started.gm, user_named(started, "Эсмеральда"), dead.user):
        page = client_for(user).get(url).content.decode()
        assert "Фроло" not in page and SECRET not in page


def test_open_marks_read_and_redirects_to_ones_own_only(started):
    post = vote(started, "Вася", "Кикимора")
    n = Notification.objects.get(kind=K.VOTE_ON_ME)
    url = reverse("games:notification_open", args=[n.pk])
    assert client_for(user_named(started, "Вася")).get(url).status_code == 404
    assert client_for(started.gm).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to the login
    n.refresh_from_db()
    assert n.read_at is None
    response = client_for(n.user).get(url)
    assert response.status_code == 302 and response["Location"] == post.get_absolute_url()
    n.refresh_from_db()
    assert n.read_at is not None
    assert client_for(n.user).get(reverse("games:notification_open", args=[n.pk + 1000])).status_code == 404


@pytest.mark.parametrize("bad", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"])
def test_open_never_redirects_off_site(db, bad):
    user = make_user("Аня")
    notify(users=[user], kind=K.REPLACEMENT, text="x", url=bad, now=timezone.now())
    n = Notification.objects.get(user=user)
    response = client_for(user).get(reverse("games:notification_open", args=[n.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("games:notifications")


def test_mark_all_read_is_a_post_with_csrf(started):
    user = user_named(started, "Кикимора")
    vote(started, "Вася", "Кикимора")
    url = reverse("games:notifications_read")
    assert client_for(user).get(url).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(url).status_code == 403
    assert unread_count(user) == 2
    other = user_named(started, "Вася")
    assert client_for(user).post(url).status_code == 302
    assert unread_count(user) == 0 and unread_count(other) == 1


def test_bell_counts_own_unread(started):
    bell = reverse("games:notifications_bell")
    user = user_named(started, "Кикимора")
    assert client_for(user).get(bell).content.decode() == "1"  # the day opened
    vote(started, "Вася", "Кикимора")
    assert client_for(user).get(bell).content.decode() == "2"
    assert client_for(started.gm).get(bell).content.decode() == ""
    client_for(user).post(reverse("games:notifications_read"))
    assert client_for(user).get(bell).content.decode() == ""


def test_bell_costs_the_anonymous_no_query(db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = Client().get(reverse("games:notifications_bell"))
    assert response.status_code == 200 and response.content == b""


def test_header_bell_polls_and_shows_the_count(started):
    page = client_for(user_named(started, "Кикимора")).get(reverse("games:index")).content.decode()
    assert 'hx-get="%s"' % reverse("games:notifications_bell") in page and 'hx-trigger="every 60s"' in page
    assert '<span class="bell-count"' in page and ">1</span>" in page
    assert reverse("games:notifications_bell") not in Client().get(reverse("games:index")).content.decode()


def test_context_processor_one_query_for_users_none_for_the_anonymous(started):
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    with CaptureQueriesContext(connection) as queries:
        assert bell_context(request) == {}
    assert len(queries) == 0
    request.user = user_named(started, "Кикимора")
    with CaptureQueriesContext(connection) as queries:
        unread = bell_context(request)["notifications_unread"]
        assert unread() == 1 and unread() == 1
        assert bell_context(request)["notifications_unread"]() == 1
    assert len(queries) == 1


# --- Preferences in the settings ----------------------------------------------------------------
PROFILE = {"display_name": "Аня", "time_zone": "Europe/Moscow", "language": "ru"}


def test_settings_grid_switches_kinds_and_the_digest(db):
    user = make_user("Аня")
    client = client_for(user)
    page = client.get(reverse("accounts:profile_edit")).content.decode()
    assert 'name="notify_site" value="vote_on_me" checked' in page and 'name="email_digest"' in page
    keep = [k for k in K.values if k != K.PHASE_OPENED]
    response = client.post(reverse("accounts:profile_edit"), {
        **PROFILE, "notify_grid": "1", "notify_site": keep, "notify_email": [K.VOTE_ON_ME], "email_digest": "hourly"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.notify_site_off == [K.PHASE_OPENED]
    assert user.notify_email_off == [k for k in K.values if k != K.VOTE_ON_ME]
    assert user.email_digest == "hourly"
    # A post without the grid (an older form, a script) leaves the choices alone.
    assert client.post(reverse("accounts:profile_edit"), PROFILE).status_code == 302
    user.refresh_from_db()
    assert user.notify_site_off == [K.PHASE_OPENED] and user.email_digest == "hourly"


@pytest.mark.parametrize("forged", [{"notify_site": ["gossip"]}, {"notify_email": ["phase_opened", "x"]},
                                    {"email_digest": "weekly"}])
def test_settings_grid_refuses_forged_values(db, forged):
    user = make_user("Аня")
    data = {**PROFILE, "notify_grid": "1", "notify_site": [K.VOTE_ON_ME], "email_digest": "daily", **forged}
    response = client_for(user).post(reverse("accounts:profile_edit"), data)
    assert response.status_code == 400
    assert "Выберите корректный вариант" in response.content.decode()
    user.refresh_from_db()
    assert user.notify_site_off == [] and user.notify_email_off == [] and user.email_digest == "daily"


# --- E-mail digests -----------------------------------------------------------------------------
def _digest_user(name, frequency, **fields):
    user = make_user(name)
    user.email_digest = frequency
    for field, value in fields.items():
        setattr(user, field, value)
    user.save()
    return user


def test_hourly_digest_once_then_after_the_hour(db, settings):
    settings.MAFIA_SITE_URL = "https://mafia.example"
    user = _digest_user("Аня", "hourly")
    t0 = timezone.now()
    notify(users=[user], kind=K.VOTE_ON_ME, text="Боря voted for you", url="/threads/1/posts/3/", now=t0)
    notify(users=[user], kind=K.PHASE_OPENED, text="Day 2 has begun", url="/threads/1/", now=t0)
    assert digests_send(now=t0 + timedelta(minutes=1)) == 1
    [message] = mail.outbox
    assert message.to == [user.email] and "2" in message.subject
    assert "Боря voted for you" in message.body and "Day 2 has begun" in message.body
    assert "https://mafia.example/me/notifications/" in message.body
    assert "Боря voted for you" in message.alternatives[0][0]
    assert not Notification.objects.filter(user=user, emailed_at__isnull=True).exists()
    user.refresh_from_db()
    assert user.last_digest_at == t0 + timedelta(minutes=1)
    assert digests_send(now=t0 + timedelta(minutes=16)) == 0  # nothing new
    notify(users=[user], kind=K.PHASE_CLOSED, text="Day 2 is over", now=t0 + timedelta(minutes=20))
    assert digests_send(now=t0 + timedelta(minutes=31)) == 0  # the hour has not passed
    assert digests_send(now=t0 + timedelta(minutes=61)) == 1
    assert len(mail.outbox) == 2 and "Day 2 is over" in mail.outbox[1].body and "Day 2 has begun" not in mail.outbox[1].body


def test_daily_never_read_and_switched_off_kinds(db):
    daily = _digest_user("Аня", "daily", notify_email_off=[K.PHASE_OPENED])
    never = _digest_user("Боря", "never")
    t0 = timezone.now()
    for user in (daily, never):
        notify(users=[user], kind=K.VOTE_ON_ME, text=f"vote for {user.display_name}", now=t0)
        notify(users=[user], kind=K.PHASE_OPENED, text=f"opened for {user.display_name}", now=t0)
        notify(users=[user], kind=K.PHASE_CLOSED, text=f"read by {user.display_name}", now=t0)
    Notification.objects.filter(kind=K.PHASE_CLOSED).update(read_at=t0)
    assert digests_send(now=t0 + timedelta(minutes=1)) == 1
    [message] = mail.outbox
    assert message.to == [daily.email]
    assert "vote for Аня" in message.body and "opened for Аня" not in message.body and "read by Аня" not in message.body
    notify(users=[daily], kind=K.VOTE_ON_ME, text="second vote", now=t0 + timedelta(hours=2))
    assert digests_send(now=t0 + timedelta(hours=3)) == 0
    assert digests_send(now=t0 + timedelta(hours=24, minutes=1)) == 1
    assert "second vote" in mail.outbox[1].body
    assert Notification.objects.filter(user=never, emailed_at__isnull=False).count() == 0


def test_digest_skips_unverified_addresses_and_speaks_the_users_language(db):
    from allauth.account.models import EmailAddress

    unverified = _digest_user("Аня", "hourly")
    EmailAddress.objects.filter(user=unverified).update(verified=False)
    english = _digest_user("Боря", "hourly", language="en")
    now = timezone.now()
    notify(users=[unverified, english], kind=K.VOTE_ON_ME, text="x", now=now)
    assert digests_send(now=now) == 1
    assert mail.outbox[0].to == [english.email] and mail.outbox[0].subject == "Мафия: 1 new notification"  # MAFIA_SITE_NAME
    assert "Hello, Боря!" in mail.outbox[0].body


def test_send_digests_task_runs_the_service(db):
    from games.tasks import send_digests

    user = _digest_user("Аня", "hourly")
    notify(users=[user], kind=K.VOTE_ON_ME, text="x", now=timezone.now())
    assert send_digests() == 1 and len(mail.outbox) == 1


# --- Replacement requests -----------------------------------------------------------------------
def test_player_asks_for_a_replacement_and_the_gms_are_told(started):
    co_gm = make_user("Помощник")
    game_set_co_gm(game=started, by=started.gm, name="Помощник", add=True)
    player = user_named(started, "Фроло")
    url = reverse("games:replacement_request", args=[started.pk])
    response = client_for(player).post(url, {"reason": "Уезжаю в отпуск без интернета"})
    assert response.status_code == 302 and response["Location"] == reverse("games:role", args=[started.pk])
    seat = seat_named(started, "Фроло")
    assert seat.replacement_requested_at is not None and seat.replacement_reason == "Уезжаю в отпуск без интернета"
    for gm in (started.gm, co_gm):
        [n] = kinds_of(gm, K.REPLACEMENT)
        assert "Фроло" in n.text and n.url == reverse("games:gm_dashboard", args=[started.pk])
    assert Notification.objects.filter(kind=K.REPLACEMENT).count() == 2
    dashboard = client_for(started.gm).get(reverse("games:gm_dashboard", args=[started.pk])).content.decode()
    assert "Уезжаю в отпуск без интернета" in dashboard
    role = client_for(player).get(reverse("games:role", args=[started.pk])).content.decode()
    assert "Уезжаю в отпуск без интернета" in role and 'value="withdraw"' in role
    other = client_for(user_named(started, "Вася")).get(reverse("games:role", args=[started.pk])).content.decode()
    assert "Уезжаю в отпуск" not in other and 'value="request"' in other
    client_for(player).post(url, {"reason": "Передумал, но всё же"})  # asking again: the reason only
    assert Notification.objects.filter(kind=K.REPLACEMENT).count() == 2


def test_replacement_request_refusals(started):
    url = reverse("games:replacement_request", args=[started.pk])
    assert client_for(make_user("Зритель")).post(url, {"reason": "x"}).status_code == 404
    assert client_for(started.gm).post(url, {"reason": "x"}).status_code == 404
    assert Client().post(url, {"reason": "x"}).status_code == 302  # to the login
    player = user_named(started, "Фроло")
    assert client_for(player).get(url).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(url, {"reason": "x"}).status_code == 403
    body = client_for(player).post(url, {"reason": "я" * 301}, follow=True).content.decode()
    assert "The reason is too long" in body or "Причина слишком длинная" in body
    dead = seat_named(started, "Негодяй")
    Seat.objects.filter(pk=dead.pk).update(status="killed", is_alive=False)
    with pytest.raises(ActionRefused):
        replacement_request(game=started, user=dead.user, reason="")
    assert 'value="request"' not in client_for(dead.user).get(reverse("games:role", args=[started.pk])).content.decode()
    assert not Seat.objects.filter(game=started, replacement_requested_at__isnull=False).exists()
    assert not Notification.objects.filter(kind=K.REPLACEMENT).exists()


def test_replacement_clears_the_request_and_tells_both_players(started):
    seat = seat_named(started, "Фроло")
    old = seat.user
    replacement_request(game=started, user=old, reason="Устал")
    newcomer = make_user("Новичок")
    seat_replace(game=started, seat=seat, new_user=newcomer, by=started.gm)
    seat.refresh_from_db()
    assert seat.user == newcomer and seat.replacement_requested_at is None and seat.replacement_reason == ""
    [taken] = kinds_of(newcomer, K.REPLACEMENT)
    assert f"{seat.number}" in taken.text and started.title in taken.text
    assert taken.url == reverse("games:role", args=[started.pk])
    [gone] = kinds_of(old, K.REPLACEMENT)
    assert started.title in gone.text and gone.url == started.get_absolute_url()
    others = Notification.objects.filter(kind=K.REPLACEMENT).exclude(user__in=[newcomer, old, started.gm])
    assert not others.exists()
    assert "Устал" not in client_for(started.gm).get(reverse("games:gm_dashboard", args=[started.pk])).content.decode()


def test_withdrawing_a_request(started):
    player = user_named(started, "Фроло")
    url = reverse("games:replacement_request", args=[started.pk])
    client_for(player).post(url, {"reason": "Устал"})
    client_for(player).post(url, {"action": "withdraw"})
    assert seat_named(started, "Фроло").replacement_requested_at is None
