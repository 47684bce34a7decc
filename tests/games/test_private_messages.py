"""[private="Name"] messages in the game thread: refused before posting when invalid, and their
text seen by the recipient, the sender and the GMs only — per perspective."""

import pytest
from django.urls import reverse

from games.models import Post, PrivateMessage, Seat
from games.services import ActionRefused
from games.services.posts import post_create, post_edit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named

SECRET = "явка под мостом в полночь"


def write(game, name, body):
    return post_create(thread=game.game_thread, author=user_named(game, name), body=body)


def test_private_message_is_seen_by_recipient_sender_and_gm_only(started):
    post = write(started, "Вася", f'Всем привет. [private="Кикимору"]{SECRET}[/private]')
    message = PrivateMessage.objects.get(post=post)
    assert message.recipient == seat_named(started, "Кикимора")
    url = started.game_thread.get_absolute_url()
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    for user in (user_named(started, "Кикимора"), user_named(started, "Вася"), started.gm):
        page = client_for(user).get(url).content.decode()
        assert SECRET in page and "Личное сообщение для Кикимора" in page
    for user in (None, make_user("Зритель"), user_named(started, "Маленький Джон"), user_named(started, "Эсмеральда"),
                 user_named(started, "Фроло")):
        page = client_for(user).get(url).content.decode()
        assert SECRET not in page, user
        assert "Личное сообщение для Кикимора" in page  # the public sees that there is one, and to whom
    for endpoint in (reverse("games:post_quote", args=[started.game_thread.pk, post.number]),
                     reverse("games:post", args=[started.game_thread.pk, post.number])):
        assert SECRET not in client_for(None).get(endpoint, follow=True).content.decode()


def test_everyone_reads_private_messages_after_the_game(started):
    write(started, "Вася", f'[private="Кикимора"]{SECRET}[/private]')
    started.status = "finished"
    started.save()
    assert SECRET in client_for(None).get(started.game_thread.get_absolute_url()).content.decode()


@pytest.mark.parametrize("body,reason", [
    ('[private="Волан-де-Морт"]x[/private]', "private_unknown"),
    ('[private="Васе"]x[/private]', "private_self"),
    ('[private]x[/private]', "private_unknown"),
])
def test_invalid_private_message_refuses_the_whole_post(started, body, reason):
    before = Post.objects.count()
    with pytest.raises(ActionRefused) as refused:
        write(started, "Вася", body)
    assert refused.value.code == reason
    assert Post.objects.count() == before


def test_private_message_to_a_dead_player_is_refused_with_the_reason(started):
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    response = client_for(user_named(started, "Вася")).post(
        reverse("games:thread_reply", args=[started.game_thread.pk]), {"body": '[private="Фроло"]привет[/private]'})
    assert response.status_code == 400
    assert "выбыл" in response.content.decode()


def test_neighbours_only_when_the_game_says_so(started):
    started.options = {"private_messages": "neighbours"}
    started.save()
    # Seats: 1 Вася, 2 Красная Шапочка, 3 Маленький Джон, ... 7 Негодяй (a ring).
    write(started, "Вася", '[private="Негодяя"]сосед слева[/private] [private="Красную Шапочку"]справа[/private]')
    with pytest.raises(ActionRefused) as refused:
        write(started, "Вася", '[private="Кикимору"]далеко[/private]')
    assert refused.value.code == "private_not_neighbour"


def test_private_messages_off_and_outside_game_threads(started, lobby_thread, spectator):
    started.options = {"private_messages": "off"}
    started.save()
    with pytest.raises(ActionRefused):
        write(started, "Вася", '[private="Кикимору"]x[/private]')
    with pytest.raises(ActionRefused):
        post_create(thread=lobby_thread, author=spectator, body='[private="Вася"]x[/private]')


def test_quoted_private_tags_are_not_new_messages(started):
    write(started, "Вася", '[quote="Кто-то"][private="Кикимору"]старое[/private][/quote] Согласен')
    assert not PrivateMessage.objects.exists()


def test_posts_with_private_messages_cannot_be_edited(started):
    post = write(started, "Вася", '[private="Кикимору"]x[/private]')
    with pytest.raises(ActionRefused):
        post_edit(post=post, editor=user_named(started, "Вася"), body="[private=\"Фроло\"]y[/private]")
