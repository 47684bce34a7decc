"""Destructive GM and moderator actions ask first (games/confirm.py): a POST without `confirm=yes`
(JavaScript off, or forged) changes nothing and answers with a page that asks the question,
naming the action's object; the same POST with `confirm=yes` does it."""

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GMAction, Post, Replacement, Report
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import _day_one, seat_named, user_named


def _question(response) -> str:
    """The question of a confirmation page, or '' if the response is not one."""
    text = response.content.decode()
    found = re.search(r'<p class="confirm-question">(.*?)</p>', text, re.S)
    return html.unescape(found.group(1)) if found else ""


def _resends(response, **fields) -> bool:
    """The confirmation page's form sends the same fields again, with confirm=yes."""
    text = response.content.decode()
    return 'name="confirm" value="yes"' in text and all(
        f'name="{name}" value="{html.escape(str(value))}"' in text for name, value in fields.items())


def test_gm_close_does_nothing_and_asks_naming_the_phase_when_not_confirmed(started):
    _day_one(started)
    phase = started.current_phase
    url = reverse("games:gm_action", args=[started.pk])
    response = client_for(started.gm).post(url, {"action": "close"})
    phase.refresh_from_db()
    assert response.status_code == 200 and phase.is_open
    question = _question(response)
    assert phase.label in question and "Негодяй" in question  # the phase, and who would be jailed
    assert _resends(response, action="close")
    client_for(started.gm).post(url, {"action": "close", "confirm": "yes"})
    phase.refresh_from_db()
    assert not phase.is_open


def test_gm_dashboard_close_button_carries_the_question_with_the_outcome_when_rendered(started):
    _day_one(started)
    page = client_for(started.gm).get(reverse("games:gm_dashboard", args=[started.pk])).content.decode()
    form = re.search(r'<form[^>]*data-confirm="([^"]*)"[^>]*>[^<]*<input[^>]*csrfmiddlewaretoken[^>]*>'
                     r'<button type="submit" name="action" value="close">', page)
    assert form is not None
    question = html.unescape(form.group(1))
    assert started.current_phase.label in question and "Негодяй" in question


def test_gm_modkill_does_nothing_and_asks_naming_the_player_when_not_confirmed(started):
    seat = seat_named(started, "Фроло")
    url = reverse("games:gm_action", args=[started.pk])
    data = {"action": "modkill", "seat": seat.pk, "reason": "пропал"}
    response = client_for(started.gm).post(url, data)
    seat.refresh_from_db()
    assert response.status_code == 200 and seat.status == "active"
    assert "Фроло" in _question(response) and "пропал" in _question(response)
    assert _resends(response, **data)
    client_for(started.gm).post(url, {**data, "confirm": "yes"})
    seat.refresh_from_db()
    assert seat.status != "active"


def test_gm_replace_does_nothing_and_asks_naming_both_when_not_confirmed(started):
    make_user("Запасной")
    seat = seat_named(started, "Маленький Джон")
    url = reverse("games:gm_action", args=[started.pk])
    data = {"action": "replace", "seat": seat.pk, "name": "Запасной", "reason": ""}
    response = client_for(started.gm).post(url, data)
    assert response.status_code == 200 and not Replacement.objects.exists()
    assert "Маленький Джон" in _question(response) and "Запасной" in _question(response)
    client_for(started.gm).post(url, {**data, "confirm": "yes"})
    assert Replacement.objects.filter(seat=seat).exists()


def test_gm_rollback_does_nothing_and_asks_naming_the_phase_when_not_confirmed(started):
    day = started.current_phase
    phase_close(phase_id=day.pk, now=day.deadline_at)
    url = reverse("games:gm_action", args=[started.pk])
    response = client_for(started.gm).post(url, {"action": "rollback", "reason": "ошибка"})
    started.refresh_from_db()
    assert response.status_code == 200 and started.current_phase_id != day.pk
    assert day.label in _question(response)
    client_for(started.gm).post(url, {"action": "rollback", "reason": "ошибка", "confirm": "yes"})
    started.refresh_from_db()
    assert started.current_phase_id == day.pk


@pytest.mark.parametrize("data", [
    {"action": "ban", "name": "Тролль", "reason": "флуд"},
    {"action": "forfeit", "faction": "mafia"},
    {"action": "foul", "seat": "Фроло"},
])
def test_gm_action_changes_nothing_without_confirmation_when_posted(started, data):
    make_user("Тролль")
    if data.get("seat"):
        data = {**data, "seat": seat_named(started, data["seat"]).pk}
    phase = started.current_phase
    before = (GMAction.objects.count(), dict(phase.gm_decisions or {}), started.status)
    response = client_for(started.gm).post(reverse("games:gm_action", args=[started.pk]), data)
    phase.refresh_from_db()
    started.refresh_from_db()
    assert response.status_code == 200 and _question(response)
    assert (GMAction.objects.count(), dict(phase.gm_decisions or {}), started.status) == before


def test_gm_confirmation_is_not_shown_to_a_player_when_he_posts_the_action(started):
    response = client_for(user_named(started, "Кикимора")).post(
        reverse("games:gm_action", args=[started.pk]), {"action": "modkill", "seat": seat_named(started, "Фроло").pk})
    assert response.status_code == 404


def test_game_start_does_nothing_and_asks_naming_the_players_when_not_confirmed(forum_game):
    url = reverse("games:game_start", args=[forum_game.pk])
    response = client_for(forum_game.gm).post(url)
    forum_game.refresh_from_db()
    assert response.status_code == 200 and forum_game.status == Game.Status.SIGNUPS
    assert "Фроло" in _question(response) and "7" in _question(response)
    page = client_for(forum_game.gm).get(forum_game.get_absolute_url()).content.decode()
    assert f'action="{url}" class="inline" data-confirm="' in page
    client_for(forum_game.gm).post(url, {"confirm": "yes"})
    forum_game.refresh_from_db()
    assert forum_game.status == Game.Status.RUNNING


def test_phase_control_close_does_nothing_and_asks_when_not_confirmed(started):
    phase = started.current_phase
    response = client_for(started.gm).post(reverse("games:phase_control", args=[started.pk]), {"action": "close"})
    phase.refresh_from_db()
    assert response.status_code == 200 and phase.is_open and phase.label in _question(response)


def test_post_hide_does_nothing_and_asks_naming_the_post_when_not_confirmed(started):
    post = post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="грубость")
    url = reverse("games:post_delete", args=[post.pk])
    response = client_for(started.gm).post(url, {"action": "delete", "reason": "правило"})
    post.refresh_from_db()
    assert response.status_code == 200 and not post.is_deleted
    question = _question(response)
    assert (f"№{post.number}" in question or f"#{post.number}" in question) and "Вася" in question
    page = client_for(started.gm).get(started.game_thread.get_absolute_url() + "?page=last").content.decode()
    assert 'value="delete" class="link danger" data-confirm="' in page
    # Restoring is not destructive: no question.
    client_for(started.gm).post(url, {"action": "delete", "reason": "правило", "confirm": "yes"})
    assert Post.objects.get(pk=post.pk).is_deleted
    assert client_for(started.gm).post(url, {"action": "restore"}).status_code == 302
    assert not Post.objects.get(pk=post.pk).is_deleted


def test_report_hide_and_ban_do_nothing_and_ask_when_not_confirmed(lobby_thread, spectator):
    troll = make_user("Тролль")
    post = post_submit(thread=lobby_thread, author=troll, body="гадость")
    client_for(spectator).post(reverse("games:post_report", args=[post.pk]), {"reason": "оскорбление"})
    report = Report.objects.get()
    moderator = make_user("Модератор сайта")
    moderator.groups.add(Group.objects.get(name="Moderators"))
    url = reverse("games:report_action", args=[report.pk])
    response = client_for(moderator).post(url, {"action": "hide", "reason": "правило 3"})
    assert response.status_code == 200 and "Тролль" in _question(response)
    until = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    response = client_for(moderator).post(url, {"action": "ban", "until": until, "reason": "спам"})
    assert response.status_code == 200 and "Тролль" in _question(response)
    post.refresh_from_db()
    troll.refresh_from_db()
    report.refresh_from_db()
    assert not post.is_deleted and troll.banned_until is None and report.resolved_by is None


def test_confirmation_page_escapes_the_names_it_repeats_when_a_name_has_markup(started):
    make_user('<b>"x"</b>')
    response = client_for(started.gm).post(reverse("games:gm_action", args=[started.pk]),
                                           {"action": "ban", "name": '<b>"x"</b>'})
    text = response.content.decode()
    assert '<b>"x"</b>' not in text and "&lt;b&gt;" in text


def test_anonymous_reject_does_nothing_and_asks_naming_the_recipient_when_not_confirmed(started):
    from games.communication.anonymous import anonymous_send

    started.options = {"anonymous_messages": {"limit": 3, "approval": True}}
    started.save()
    message = anonymous_send(game=started, user=user_named(started, "Вася"),
                             recipient=seat_named(started, "Фроло"), text="тайна")
    url = reverse("games:anonymous", args=[started.pk])
    response = client_for(started.gm).post(url, {"decide": message.pk, "approve": "0"})
    message.refresh_from_db()
    assert response.status_code == 200 and message.status == "pending" and "Фроло" in _question(response)
    assert "Вася" not in _question(response)  # the sender stays the GM's secret on the page too
    client_for(started.gm).post(url, {"decide": message.pk, "approve": "0", "confirm": "yes"})
    message.refresh_from_db()
    assert message.status != "pending"


def test_collection_reset_does_nothing_and_asks_when_not_confirmed(db):
    from games.rulesets.cards.services import game_set_collection
    from tests.games.test_game_setup import edited_collection_text, signups

    game, gm, _players = signups("cards", size=10)
    game_set_collection(game=game, by=gm, text=edited_collection_text())
    url = reverse("games:cards_collection", args=[game.pk])
    response = client_for(gm).post(url, {"text": "", "action": "reset"})
    game.refresh_from_db()
    assert response.status_code == 200 and _question(response) and "collection" in game.options


# --- Issue 29: the deadline, a manual event and a thread's lock ask first too ---------------------
def test_gm_deadline_does_nothing_and_asks_naming_the_phase_and_the_new_time_when_not_confirmed(started):
    phase = started.current_phase
    old = phase.deadline_at
    new = timezone.localtime(timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    data = {"action": "deadline", "deadline_at": new.strftime("%Y-%m-%dT%H:%M")}
    url = reverse("games:gm_action", args=[started.pk])
    response = client_for(started.gm).post(url, data)
    phase.refresh_from_db()
    assert response.status_code == 200 and phase.deadline_at == old
    question = _question(response)
    assert phase.label in question and new.strftime("%H:%M") in question
    assert _resends(response, **data)
    client_for(started.gm).post(url, {**data, "confirm": "yes"})
    phase.refresh_from_db()
    assert phase.deadline_at == new


def test_gm_event_does_nothing_and_asks_with_its_text_and_readers_when_not_confirmed(started):
    seat = seat_named(started, "Фроло")
    data = {"action": "event", "text": "Ночью выпал снег", "audience": f"seat:{seat.pk}"}
    url = reverse("games:gm_action", args=[started.pk])
    response = client_for(started.gm).post(url, data)
    assert response.status_code == 200 and not started.events.filter(kind="manual").exists()
    assert "Ночью выпал снег" in _question(response) and "Фроло" in _question(response)
    assert _resends(response, **data)
    client_for(started.gm).post(url, {**data, "confirm": "yes"})
    assert started.events.filter(kind="manual").count() == 1


def test_lock_now_does_nothing_and_asks_naming_the_thread_when_not_confirmed(started):
    thread = started.game_thread
    url = reverse("games:thread_moderate", args=[thread.pk])
    response = client_for(started.gm).post(url, {"action": "lock"})
    thread.refresh_from_db()
    assert response.status_code == 200 and not thread.is_locked
    assert thread.title in _question(response) and _resends(response, action="lock")
    client_for(started.gm).post(url, {"action": "lock", "confirm": "yes"})
    thread.refresh_from_db()
    assert thread.is_locked


def test_the_deadline_event_and_lock_forms_carry_their_questions(started):
    gm = client_for(started.gm)
    dashboard = html.unescape(gm.get(reverse("games:gm_dashboard", args=[started.pk])).content.decode())
    assert re.search(r'<form[^>]*data-confirm="[^"]*' + re.escape(started.current_phase.label) + r'[^"]*\{deadline_at\}', dashboard)
    assert re.search(r'<form[^>]*data-confirm="[^"]*\{text\}[^"]*\{audience\}', dashboard)
    thread_page = html.unescape(gm.get(started.game_thread.get_absolute_url()).content.decode())
    assert re.search(r'value="lock" data-confirm="[^"]*' + re.escape(started.game_thread.title), thread_page)
