"""The GM's and moderators' tools: replacement, modkill, prods, V/LA, point of view, rollback,
reports, hiding and bans — each per perspective where it shows secrets."""

from datetime import date, timedelta

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.models import Absence, GameEvent, Phase, Prod, Replacement, Report, VoteRecord
from games.services import ActionRefused
from games.selectors.moderation import inactivity_table
from games.services.moderation import absence_add, prods_send, resolution_rollback, seat_modkill, seat_replace
from games.services.orders import order_submit
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import _day_one, seat_named, user_named


def test_replacement_hands_the_seat_with_its_history(started):
    order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Кикимору")
    seat = seat_named(started, "Вася")
    newcomer = make_user("Новенький")
    seat_replace(game=started, seat=seat, new_user=newcomer, by=started.gm, reason="пропал")
    seat.refresh_from_db()
    assert seat.user == newcomer and "Вася" in seat.aliases
    role_page = client_for(newcomer).get(reverse("games:role", args=[started.pk])).content.decode()
    assert "рекрутёр" in role_page and "Проверяю Кикимору" in role_page  # the slot's role card and history
    assert client_for(user_named_any("Вася")).get(reverse("games:role", args=[started.pk])).status_code == 404
    # Votes naming the old name still reach the seat.
    post_submit(thread=started.game_thread, author=user_named(started, "Кикимора"), body="[b]В тюрьму Васю[/b]")
    assert VoteRecord.objects.filter(target=seat, valid=True).exists()
    post = post_submit(thread=started.game_thread, author=newcomer, body="Я здесь")
    page = client_for(None).get(started.game_thread.get_absolute_url() + "?page=last").content.decode()
    assert "вместо Васи" in page and f'id="p{post.number}"' in page  # «вместо» takes the genitive
    assert started.gm_actions.filter(action="replace").exists()


def user_named_any(name):
    from accounts.models import User

    return User.objects.get(display_name=name)


def test_replacement_refuses_a_player_already_in_the_game(started):
    with pytest.raises(ActionRefused):
        seat_replace(game=started, seat=seat_named(started, "Вася"), new_user=user_named(started, "Фроло"), by=started.gm)
    with pytest.raises(ActionRefused):
        seat_replace(game=started, seat=seat_named(started, "Вася"), new_user=make_user("Кто-то"),
                     by=user_named(started, "Фроло"))


def test_modkill_removes_with_reason_and_role_in_the_thread(started):
    seat = seat_named(started, "Эсмеральда")
    seat_modkill(game=started, seat=seat, by=started.gm, reason="оскорбления")
    seat.refresh_from_db()
    started.refresh_from_db()
    assert seat.status == "removed" and not seat.is_alive
    last = started.game_thread.posts.order_by("-number").first()
    assert "Эсмеральда" in last.body and "оскорбления" in last.body and "киллер" in last.body
    _o, confirmation = order_submit(game=started, user=seat.user, text="Стреляю в Васю")
    assert not confirmation.accepted
    with pytest.raises(ActionRefused):
        seat_modkill(game=started, seat=seat_named(started, "Вася"), by=started.gm, reason="")


def test_prods_remind_silent_players_once_per_phase(started):
    phase = started.current_phase
    later = phase.opened_at + timedelta(hours=25)
    post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="я тут", now=later - timedelta(hours=1))
    Absence.objects.create(user=user_named(started, "Фроло"), starts_on=date(2000, 1, 1), ends_on=date(2100, 1, 1))
    sent = prods_send(now=later)
    prodded = set(Prod.objects.filter(kind="silent").values_list("seat__user__display_name", flat=True))
    assert "Вася" not in prodded and "Фроло" not in prodded and "Кикимора" in prodded
    assert sent == Prod.objects.count() and len(mail.outbox) == sent
    assert prods_send(now=later) == 0
    role_page = client_for(user_named(started, "Кикимора")).get(reverse("games:role", args=[started.pk])).content.decode()
    assert "Напоминание" in role_page


def test_prods_remind_players_who_owe_an_order_near_the_deadline(started):
    phase = started.current_phase
    order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Кикимору")
    prods_send(now=phase.deadline_at - timedelta(hours=1))
    owing = set(Prod.objects.filter(kind="no_action").values_list("seat__user__display_name", flat=True))
    assert "Вася" not in owing and "Кикимора" in owing and "Маленький Джон" not in owing


def test_inactivity_table_counts_posts_and_actions(started):
    post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="раз")
    post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="два")
    order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Кикимору")
    row = next(a for a in inactivity_table(game=started) if a.seat.user.display_name == "Вася")
    assert (row.posts_in_phase, row.posts_total) == (2, 2) and row.last_action_at is not None


def test_vla_is_shown_in_the_roster_and_to_the_gm(started):
    user = user_named(started, "Фроло")
    client = client_for(user)
    tomorrow = timezone.localdate() + timedelta(days=1)
    client.post(reverse("games:absences"), {"starts_on": tomorrow.isoformat(), "ends_on": (tomorrow + timedelta(days=3)).isoformat(),
                                            "note": "в отпуске"})
    assert Absence.objects.filter(user=user).exists()
    assert "V/LA" in client_for(None).get(started.get_absolute_url()).content.decode()
    assert "в отпуске" in client_for(started.gm).get(reverse("games:gm_dashboard", args=[started.pk])).content.decode()
    bad = client.post(reverse("games:absences"), {"starts_on": "2030-01-10", "ends_on": "2030-01-01"})
    assert bad.status_code == 400
    with pytest.raises(ActionRefused):
        absence_add(user=user, starts_on=date(2001, 1, 1), ends_on=date(2001, 1, 2))


def test_point_of_view_shows_exactly_what_the_player_sees(started):
    mafia = seat_named(started, "Кикимора")
    town = seat_named(started, "Маленький Джон")
    gm = client_for(started.gm)
    as_mafia = gm.get(reverse("games:role", args=[started.pk]), {"pov": mafia.pk}).content.decode()
    assert "мафиози" in as_mafia and "Эсмеральда" in as_mafia
    as_town = gm.get(started.get_absolute_url(), {"pov": town.pk}).content.decode()
    assert "мафиози" not in as_town and "киллер" not in as_town
    assert "Маленький Джон" in as_town
    # Nobody else can borrow someone's eyes.
    player = client_for(town.user)
    assert player.get(reverse("games:role", args=[started.pk]), {"pov": mafia.pk}).content.decode().count("Эсмеральда") <= 1
    assert "киллер" not in player.get(started.get_absolute_url(), {"pov": mafia.pk}).content.decode()


def test_rollback_restores_the_state_and_keeps_the_record(started):
    _day_one(started)
    day1 = started.current_phase
    phase_close(phase_id=day1.pk, now=day1.deadline_at)
    started.refresh_from_db()
    day2 = started.current_phase
    post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="[b]В тюрьму Кикимору[/b]",
                now=day2.opened_at + timedelta(minutes=1))
    assert seat_named(started, "Фроло").status == "killed"
    resolution_rollback(game=started, by=started.gm, reason="ошибка с защитой")
    started.refresh_from_db()
    day1.refresh_from_db()
    day2.refresh_from_db()
    assert started.current_phase == day1 and day1.is_open and day1.deadline_at is None
    assert day2.voided_at is not None
    assert seat_named(started, "Фроло").status == "active" and seat_named(started, "Негодяй").status == "active"
    assert VoteRecord.objects.filter(phase=day2).exists()  # nothing is deleted
    assert "ошибка с защитой" in started.game_thread.posts.order_by("-number").first().body
    assert GameEvent.objects.filter(phase=day1, data__retracted=True).exists()
    # Closing again publishes again and opens a fresh day 2.
    phase_close(phase_id=day1.pk, now=timezone.now())
    started.refresh_from_db()
    assert started.current_phase.number == 2 and started.current_phase.pk != day2.pk
    assert Phase.objects.filter(game=started, kind="day", number=2).count() == 2
    assert started.gm_actions.filter(action="rollback").exists()


def test_rollback_needs_a_resolution_and_the_gm(started):
    with pytest.raises(ActionRefused):
        resolution_rollback(game=started, by=started.gm)
    phase = started.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    with pytest.raises(ActionRefused):
        resolution_rollback(game=started, by=user_named(started, "Вася"))


def test_moderation_buttons_are_404_for_players(started):
    url = reverse("games:gm_action", args=[started.pk])
    for action in ("replace", "modkill", "rollback", "ban"):
        response = client_for(user_named(started, "Кикимора")).post(url, {"action": action, "seat": seat_named(started, "Вася").pk,
                                                                           "reason": "x", "name": "Вася"})
        assert response.status_code == 404
    assert not Replacement.objects.exists()


def test_gm_bans_a_user_from_the_game_threads(started):
    troll = make_user("Тролль")
    client_for(started.gm).post(reverse("games:gm_action", args=[started.pk]), {"action": "ban", "name": "тролль", "reason": "флуд", "confirm": "yes"})
    response = client_for(troll).post(reverse("games:thread_reply", args=[started.discussion_thread.pk]), {"body": "ха"})
    assert response.status_code == 400
    assert not started.discussion_thread.posts.filter(author=troll).exists()


def test_report_queue_hide_with_reason_and_site_ban(lobby_thread, spectator):
    troll = make_user("Тролль")
    post = post_submit(thread=lobby_thread, author=troll, body="гадость")
    client_for(spectator).post(reverse("games:post_report", args=[post.pk]), {"reason": "оскорбление"})
    report = Report.objects.get()
    moderator = make_user("Модератор сайта")
    moderator.groups.add(Group.objects.get(name="Moderators"))
    assert client_for(spectator).get(reverse("games:reports")).status_code == 404
    queue = client_for(moderator).get(reverse("games:reports")).content.decode()
    assert "оскорбление" in queue
    client_for(moderator).post(reverse("games:report_action", args=[report.pk]), {"action": "hide", "reason": "правило 3", "confirm": "yes"})
    post.refresh_from_db()
    report.refresh_from_db()
    assert post.is_deleted and post.deleted_reason == "правило 3" and report.resolved_by == moderator
    page = client_for(None).get(lobby_thread.get_absolute_url()).content.decode()
    assert "гадость" not in page and "правило 3" in page
    second = post_submit(thread=lobby_thread, author=troll, body="ещё")
    client_for(spectator).post(reverse("games:post_report", args=[second.pk]), {"reason": "снова"})
    until = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    client_for(moderator).post(reverse("games:report_action", args=[Report.objects.get(post=second).pk]),
                               {"action": "ban", "until": until, "reason": "спам", "confirm": "yes"})
    troll.refresh_from_db()
    assert troll.banned_until is not None
    response = client_for(troll).post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "я вернулся"})
    assert response.status_code == 400 and "спам" in response.content.decode()


def test_report_refuses_empty_reason_and_duplicates(lobby_thread, spectator):
    post = lobby_thread.posts.get()
    assert client_for(spectator).post(reverse("games:post_report", args=[post.pk]), {"reason": ""}).status_code == 400
    client_for(spectator).post(reverse("games:post_report", args=[post.pk]), {"reason": "спам"})
    assert client_for(spectator).post(reverse("games:post_report", args=[post.pk]), {"reason": "спам"}).status_code == 400
    assert Report.objects.count() == 1


def test_a_modkilled_player_no_longer_posts_in_the_game_thread_as_a_replaced_one(started):
    """Issue 29: a modkill takes the player out of the game as a replacement does; before, only
    his vote was refused. A player who died by the rules still talks as his rule set says."""
    from games import permissions

    thread = started.game_thread
    removed, replaced = seat_named(started, "Эсмеральда").user, seat_named(started, "Вася").user
    seat_modkill(game=started, seat=seat_named(started, "Эсмеральда"), by=started.gm, reason="оскорбления")
    seat_replace(game=started, seat=seat_named(started, "Вася"), new_user=make_user("Новенький"), by=started.gm)
    before = thread.posts.count()
    for user in (removed, replaced):
        verdict = permissions.can_post(user, thread)
        assert not verdict
        with pytest.raises(ActionRefused):
            post_submit(thread=thread, author=user, body="А я всё равно скажу")
        page = client_for(user).get(thread.get_absolute_url()).content.decode()
        assert 'class="post-form"' not in page
    assert "Ведущий исключил вас из игры" in str(permissions.can_post(removed, thread).reason)
    response = client_for(removed).post(reverse("games:thread_reply", args=[thread.pk]), {"body": "Ну пожалуйста"})
    assert response.status_code in (200, 302, 400, 403)
    assert thread.posts.count() == before
    # The others still post.
    post_submit(thread=thread, author=user_named(started, "Фроло"), body="Продолжаем")
    assert thread.posts.count() == before + 1


def test_the_activity_table_s_last_order_is_the_player_s_last_accepted_one(started):
    """Issue 29: «Последний приказ» counted a refused order (and the GM's override)."""
    phase = started.current_phase
    vasya, kiki = seat_named(started, "Вася"), seat_named(started, "Кикимора")
    accepted_at = phase.opened_at + timedelta(minutes=5)
    _o, ok = order_submit(game=started, user=vasya.user, text="Проверяю Кикимору", now=accepted_at)
    assert ok.accepted
    _o, refused = order_submit(game=started, user=vasya.user, text="Стреляю в Кикимору",
                               now=phase.opened_at + timedelta(minutes=9))
    assert not refused.accepted
    _o, refused = order_submit(game=started, user=kiki.user, text="Проверяю Васю", now=phase.opened_at + timedelta(minutes=7))
    assert not refused.accepted
    rows = {row.seat.pk: row for row in inactivity_table(game=started)}
    assert rows[vasya.pk].last_action_at == accepted_at
    assert rows[kiki.pk].last_action_at is None
    page = client_for(started.gm).get(reverse("games:gm_dashboard", args=[started.pk])).content.decode()
    assert page.count('data-label="Последний приказ">—</td>') == len(rows) - 1
