"""Card messages through the private-communication service (issue 9: «Card messages (001: the
target gets it at the end of the phase from the GM, without the sender) go through the
private-communication service and are refused if they contain a link»), and the mafia's message."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import AnonymousMessage, GameEvent, GMAction, Notification, Post, Seat, Thread
from games.services import ActionRefused
from games.rulesets.cards.services import card_gm_effect_add
from games.rulesets.cards.messages import card_message_check, card_message_schedule, card_messages_screen
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.test_cards_services import cards_game, submit

CANARY = "Канарейка семь два девять"


def letters(game, name) -> Thread:
    return Thread.objects.get(game=game, kind=Thread.Kind.GM_CHAT, seat__user__display_name=name)


def close(game):
    phase = game.current_phase
    phase_close(phase_id=phase.pk)
    game.refresh_from_db()
    phase.refresh_from_db()
    return phase


def letter_played(text=CANARY):
    """Вася (the sheriff) plays «Письмо» at Петя (the boss) by night 1; the night closes."""
    game, gm, users, seats = cards_game()
    _order, confirmation = submit(game, users["Вася"], "play", card="Письмо", target=seats["Петя"].pk,
                                  message=text, **{"from": "hand"})
    assert confirmation.accepted
    phase = close(game)
    return game, gm, users, seats, phase


@pytest.mark.django_db
def test_card_message_reaches_the_target_in_his_gm_thread_without_the_sender():
    """«Некоторые карты позволяют отправить цели сообщение. В таком случае цель получит его в конце
    фазы в сообщении от мастера. Цель не узнает, кто отправил сообщение.»"""
    game, gm, users, seats, phase = letter_played()
    [post] = [p for p in letters(game, "Петя").posts.all() if CANARY in p.body]
    assert post.author == gm and post.created_at == phase.closed_at
    assert "Вася" not in post.body and "Письмо" not in post.body
    message = AnonymousMessage.objects.get()
    assert (message.kind, message.status, message.sender, message.recipient, message.phase, message.text) == (
        "card", "delivered", seats["Вася"], seats["Петя"], phase, CANARY)
    # The role page still shows it, as before.
    role = client_for(users["Петя"]).get(reverse("games:role", args=[game.pk])).content.decode()
    assert CANARY in role


@pytest.mark.django_db
def test_card_message_letter_is_read_by_its_recipient_and_the_gm_only():
    game, gm, users, seats, phase = letter_played()
    Seat.objects.filter(pk=seats["Глаша"].pk).update(status="dead", is_alive=False)
    url = letters(game, "Петя").get_absolute_url()
    for user in (users["Петя"], gm):
        assert CANARY in client_for(user).get(url).content.decode()
    # The sender, the Law (Маша), the boss's own team-mate (Паша, the killer), the dead, a spectator,
    # the anonymous: all 404.
    for user in (users["Вася"], users["Маша"], users["Паша"], users["Глаша"], make_user("Зритель"), None):
        assert client_for(user).get(url).status_code == 404


@pytest.mark.django_db
def test_card_message_text_appears_nowhere_else_when_others_look():
    """The canary: the message is in Петя's letters (and the GMs' pages) only — not in the game
    thread, the discussion, their feeds, the sender's own letters, anyone else's search results
    or anybody's notifications."""
    game, gm, users, seats, phase = letter_played()
    assert not Post.objects.filter(body__contains=CANARY).exclude(thread=letters(game, "Петя")).exists()
    pages = [game.game_thread.get_absolute_url(), game.discussion_thread.get_absolute_url(),
             reverse("games:thread_feed", args=[game.game_thread_id]),
             reverse("games:thread_feed", args=[game.discussion_thread_id]),
             reverse("games:search") + "?q=" + CANARY.split()[0], game.get_absolute_url(),
             letters(game, "Вася").get_absolute_url()]
    for viewer in (None, make_user("Зритель"), users["Вася"], users["Маша"], users["Паша"]):
        client = client_for(viewer)
        for url in pages:
            response = client.get(url)
            assert CANARY not in response.content.decode(), (viewer, url)
        if viewer is not None:
            assert CANARY not in client.get(reverse("games:notifications")).content.decode()
    found = client_for(users["Петя"]).get(reverse("games:search") + "?q=" + CANARY.split()[0]).content.decode()
    assert letters(game, "Петя").get_absolute_url() in found  # the control: the recipient finds it
    assert not Notification.objects.filter(text__contains=CANARY.split()[0]).exists()


@pytest.mark.django_db
def test_card_message_rings_the_recipients_bell_without_sender_or_text():
    game, gm, users, seats, phase = letter_played()
    [post] = [p for p in letters(game, "Петя").posts.all() if CANARY in p.body]
    [note] = Notification.objects.filter(kind=Notification.Kind.PRIVATE_MESSAGE, url=post.get_absolute_url())
    assert note.user == users["Петя"] and "Вася" not in note.text and "Канарейка" not in note.text


@pytest.mark.django_db
def test_card_message_is_listed_with_its_sender_in_the_archive_and_the_export():
    """The GMs see who sent it while the game runs (the archive's sealed preview), everyone after
    the game; a player's archive and export are 404 while it runs, and an anonymous visitor is
    sent to log in (issue 29, item 13: the GMs' page of a public game)."""
    game, gm, users, seats, phase = letter_played()
    archive = client_for(gm).get(reverse("games:archive", args=[game.pk])).content.decode()
    assert CANARY in archive and "Вася → Петя" in archive
    data = json.loads(client_for(gm).get(reverse("games:export", args=[game.pk])).content)
    [row] = [m for m in data["anonymous_messages"] if m["kind"] == "card"]
    assert (row["text"], row["sender_seat"], row["recipient_seat"], row["status"]) == (
        CANARY, seats["Вася"].number, seats["Петя"].number, "delivered")
    assert any(CANARY in (m["body"] or "") and m["thread_kind"] == "gm_chat" for m in data["messages"])
    for user in (users["Петя"], users["Вася"]):
        assert client_for(user).get(reverse("games:archive", args=[game.pk])).status_code == 404
        assert client_for(user).get(reverse("games:export", args=[game.pk])).status_code == 404
    for name in ("games:archive", "games:export"):
        response = client_for(None).get(reverse(name, args=[game.pk]))
        assert response.status_code == 302 and response.url.startswith(reverse("account_login"))
    game.status = "finished"
    game.save(update_fields=["status"])
    archive = client_for(None).get(reverse("games:archive", args=[game.pk])).content.decode()
    assert CANARY in archive and "Вася → Петя" in archive


# --- Links ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["см. https://example.com", "пиши в t.me/boss", "[url]x[/url]", "ищи @bosshandle"])
def test_card_message_check_refuses_a_link_with_a_translated_reason(text):
    """«Сообщение не должно содержать ссылок (в т.ч. и косвенных, вроде "посмотри на страницу
    такого-то модуля") - это приравнивается к тайной коммуникации.»"""
    with pytest.raises(ActionRefused) as refused:
        card_message_check(text=text)
    assert refused.value.code == "card_link"
    with translation.override("ru"):
        assert "ссыл" in str(refused.value.message)
    with translation.override("en"):
        assert "link" in str(refused.value.message)


def test_card_message_schedule_refuses_a_link_and_stores_nothing(started):
    from tests.games.test_lifecycle import seat_named

    with pytest.raises(ActionRefused):
        card_message_schedule(game=started, sender=seat_named(started, "Вася"), recipient=seat_named(started, "Фроло"),
                              text="смотри www.example.org")
    assert not AnonymousMessage.objects.exists()


@pytest.mark.django_db
def test_card_message_by_the_gm_with_a_link_is_refused_at_the_close():
    """Defence in depth: a message the GM applies by hand is not checked by the engine; the service
    refuses it at the close — no letter, no event for the target, the GM log says why."""
    game, gm, users, seats = cards_game()
    card_gm_effect_add(phase=game.current_phase, gm=gm,
                       effect={"op": "message", "target": seats["Маша"].pk, "text": "читай http://example.com"})
    close(game)
    assert not Post.objects.filter(body__contains="example.com").exists()
    assert not GameEvent.objects.filter(kind="message").exclude(audience="gm").exists()
    note = GameEvent.objects.get(kind="message", audience="gm")
    assert note.data["delivered"] is False and note.data["refused"] == "card_link"
    log = GMAction.objects.get(action="card_message_refused")
    assert log.data["target"] == seats["Маша"].pk and log.data["reason"] == "card_link"
    from games.selectors.archive import CARD_MESSAGE_REFUSALS, GM_ACTION_LABELS

    archive = client_for(gm).get(reverse("games:archive", args=[game.pk])).content.decode()
    with translation.override("ru"):
        assert str(GM_ACTION_LABELS["card_message_refused"]) in archive
        assert str(CARD_MESSAGE_REFUSALS["card_link"]) in archive


@pytest.mark.django_db
def test_card_message_by_the_gm_without_a_link_is_delivered_without_a_row():
    game, gm, users, seats = cards_game()
    card_gm_effect_add(phase=game.current_phase, gm=gm,
                       effect={"op": "message", "target": seats["Маша"].pk, "text": CANARY})
    close(game)
    assert any(CANARY in p.body for p in letters(game, "Маша").posts.all())
    assert not AnonymousMessage.objects.exists()  # no sender to keep


@pytest.mark.django_db
def test_card_messages_screen_drops_a_linked_message_and_keeps_the_attempt():
    from games.engine.events import GM, Event

    game, gm, users, seats = cards_game()
    sender, target = seats["Вася"], seats["Петя"]
    text = "ответ на example.com"
    events = [Event("message", f"seat:{target.pk}", {"card": "Письмо", "text": text}),
              Event("message", GM, {"sender": sender.pk, "sender_name": "Вася", "target": target.pk,
                                    "target_name": "Петя", "text": text, "delivered": True}),
              Event("hand_sizes", "public", {"sizes": []})]
    kept = card_messages_screen(game=game, phase=game.current_phase, events=events, now=game.current_phase.opened_at)
    assert [e.kind for e in kept] == ["message", "hand_sizes"] and kept[0].audience == GM
    assert kept[0].data["delivered"] is False
    message = AnonymousMessage.objects.get()
    assert (message.status, message.sender, message.recipient) == ("rejected", sender, target)


# --- The mafia's message ----------------------------------------------------------------------------
@pytest.mark.django_db
def test_mafia_message_reaches_the_other_mafioso_in_his_gm_thread_naming_the_sender():
    """«Один раз каждый мафиози может прислать сообщение другому мафу.» The mafia know each other
    («члены Мафии узнают личности друг друга»), so the letter names the sender; it is not an
    anonymous message (no AnonymousMessage row: the engine's events keep it for the archive)."""
    game, gm, users, seats = cards_game()
    _order, confirmation = submit(game, users["Петя"], "mafia_message", to=seats["Паша"].pk, text=CANARY)
    assert confirmation.accepted
    close(game)
    [post] = [p for p in letters(game, "Паша").posts.all() if CANARY in p.body]
    assert post.author == gm and "Петя" in post.body
    assert not AnonymousMessage.objects.exists()
    assert Notification.objects.filter(user=users["Паша"], url=post.get_absolute_url()).exists()
    for name in ("Вася", "Маша", "Глаша", "Петя"):
        assert not any(CANARY in p.body for p in letters(game, name).posts.all())
        assert client_for(users[name]).get(letters(game, "Паша").get_absolute_url()).status_code == 404


@pytest.mark.django_db
def test_mafia_message_with_a_link_is_still_delivered():
    """The link rule is the card messages' («Некоторые карты позволяют отправить цели сообщение ...
    Сообщение не должно содержать ссылок»); the next rule exempts the mafia's own message («не
    относится к сообщениям от способности Мафии»): secret talk between mafiosi is theirs."""
    game, gm, users, seats = cards_game()
    submit(game, users["Петя"], "mafia_message", to=seats["Паша"].pk, text="пиши в t.me/mafia")
    close(game)
    assert any("t.me/mafia" in p.body for p in letters(game, "Паша").posts.all())


# --- Scheduled card messages (card_message_schedule) --------------------------------------------------
def test_scheduled_card_message_is_a_letter_in_the_recipients_gm_thread(started):
    from tests.games.test_lifecycle import seat_named

    card_message_schedule(game=started, sender=seat_named(started, "Вася"), recipient=seat_named(started, "Фроло"),
                          text=CANARY)
    phase = started.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    thread = Thread.objects.get(game=started, kind=Thread.Kind.GM_CHAT, seat=seat_named(started, "Фроло"))
    [post] = [p for p in thread.posts.all() if CANARY in p.body]
    assert post.author == started.gm and "Вася" not in post.body
    assert AnonymousMessage.objects.get().status == "delivered"
    [note] = Notification.objects.filter(kind=Notification.Kind.PRIVATE_MESSAGE, user=seat_named(started, "Фроло").user)
    assert note.url == post.get_absolute_url()
