"""Anonymous messages through the GM (002): the recipient reads the text without the sender's
name; the sender and the GMs know who sent it; limits, approval queue and refusals."""

import pytest
from django.urls import reverse

from games.models import AnonymousMessage, Seat
from games.services import ActionRefused
from games.communication.anonymous import anonymous_decide, anonymous_send
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named

TEXT = "Кикимора врёт, присмотрись"


def send(game, sender, recipient, text=TEXT):
    return anonymous_send(game=game, user=user_named(game, sender), recipient=seat_named(game, recipient), text=text)


def test_recipient_reads_the_text_without_the_sender(started):
    send(started, "Вася", "Красная Шапочка")
    role = reverse("games:role", args=[started.pk])
    import re

    from games.models import GameEvent

    recipient_page = client_for(user_named(started, "Красная Шапочка")).get(role).content.decode()
    delivered = re.search(r'<li class="event anonymous_message">(.*?)</li>', recipient_page, re.S).group(1)
    assert TEXT in delivered and "Вася" not in delivered
    event = GameEvent.objects.get(kind="anonymous_message")
    assert set(event.data) == {"text"} and event.audience == f"seat:{seat_named(started, 'Красная Шапочка').pk}"
    sender_page = client_for(user_named(started, "Вася")).get(role).content.decode()
    assert TEXT in sender_page and "Красная Шапочка" in sender_page
    for name in ("Кикимора", "Маленький Джон"):
        assert TEXT not in client_for(user_named(started, name)).get(role).content.decode()
    assert client_for(None).get(role).status_code == 302  # to log in (issue 29)
    for user in (None, make_user("Зритель")):
        assert user is None or client_for(user).get(role).status_code == 404
        assert TEXT not in client_for(user).get(started.game_thread.get_absolute_url()).content.decode()


def test_limit_per_game(started):
    started.options = {"anonymous_messages": {"limit": 2, "approval": False}}
    started.save()
    send(started, "Вася", "Фроло")
    send(started, "Вася", "Фроло")
    with pytest.raises(ActionRefused) as refused:
        send(started, "Вася", "Фроло")
    assert refused.value.code == "anon_limit"


def test_approval_queue(started):
    started.options = {"anonymous_messages": {"limit": 3, "approval": True}}
    started.save()
    message = send(started, "Вася", "Фроло")
    role = reverse("games:role", args=[started.pk])
    assert TEXT not in client_for(user_named(started, "Фроло")).get(role).content.decode()
    dashboard = client_for(started.gm).get(reverse("games:gm_dashboard", args=[started.pk])).content.decode()
    assert TEXT in dashboard and "Вася" in dashboard
    with pytest.raises(ActionRefused):
        anonymous_decide(message=message, by=user_named(started, "Фроло"), approve=True)
    client_for(started.gm).post(reverse("games:anonymous", args=[started.pk]), {"decide": message.pk, "approve": "1"})
    message.refresh_from_db()
    assert message.status == "delivered"
    assert TEXT in client_for(user_named(started, "Фроло")).get(role).content.decode()
    rejected = send(started, "Вася", "Фроло", "второе")
    anonymous_decide(message=rejected, by=started.gm, approve=False)
    assert "второе" not in client_for(user_named(started, "Фроло")).get(role).content.decode()


@pytest.mark.parametrize("recipient,code", [("Вася", "anon_self"), ("Фроло", "anon_dead")])
def test_refusals(started, recipient, code):
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    with pytest.raises(ActionRefused) as refused:
        send(started, "Вася", recipient)
    assert refused.value.code == code
    assert not AnonymousMessage.objects.exists()


def test_forged_recipient_from_another_game_changes_nothing(started):
    from games.services.games import game_create
    from games.services.lifecycle import game_signup

    other = game_create(title="Другая", gm=make_user("Другой ведущий"), size=7)
    stranger = game_signup(game=other, user=make_user("Чужак"))
    response = client_for(user_named(started, "Вася")).post(reverse("games:anonymous", args=[started.pk]),
                                                            {"recipient": stranger.pk, "text": "x"}, follow=True)
    assert response.status_code == 200 and not AnonymousMessage.objects.exists()


def test_club_has_no_anonymous_messages(db):
    from games.services.games import game_create

    game = game_create(title="Клуб", gm=make_user("Судья"), ruleset="club", size=12)
    from games.selectors.communication import anonymous_rules

    assert anonymous_rules(game) is None


def test_card_messages_are_delivered_at_the_close_without_the_sender(started):
    from games.models import GameEvent
    from games.rulesets.cards.messages import card_message_schedule
    from games.services.resolution import phase_close

    card_message_schedule(game=started, sender=seat_named(started, "Вася"), recipient=seat_named(started, "Фроло"),
                          text="Карта говорит: берегись")
    role = reverse("games:role", args=[started.pk])
    assert "берегись" not in client_for(user_named(started, "Фроло")).get(role).content.decode()
    phase = started.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    page = client_for(user_named(started, "Фроло")).get(role).content.decode()
    assert "берегись" in page
    event = GameEvent.objects.get(kind="anonymous_message")
    assert set(event.data) == {"text"}
    assert "берегись" not in client_for(user_named(started, "Кикимора")).get(role).content.decode()


def test_a_delivered_message_is_also_a_letter_in_the_recipients_gm_thread(started):
    """«...отправлять анонимные сообщения через ведущего»: the recipient finds it among his letters
    to the GM, posted by the GM, without the sender's name; nobody else reads it there."""
    from games.models import Post, Thread

    sender, recipient = seat_named(started, "Вася"), seat_named(started, "Фроло")
    anonymous_send(game=started, user=sender.user, recipient=recipient, text="Берегись рекрутёра")
    letters = Thread.objects.get(game=started, kind=Thread.Kind.GM_CHAT, seat=recipient)
    post = Post.objects.filter(thread=letters).order_by("-number").first()
    assert post is not None and post.author_id == started.gm_id and "Берегись рекрутёра" in post.body
    assert "Вася" not in post.body
    assert not Post.objects.filter(thread__kind=Thread.Kind.GM_CHAT, thread__seat=sender,
                                   body__contains="Берегись").exists()
