"""Team chats, letters to the GM and the lounge: each readable and writable exactly by whom the
rules allow, checked per perspective (and guessed URLs are 404)."""

import pytest
from django.urls import reverse

from games.models import Thread
from games.services import ActionRefused
from games.services.posting import post_submit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named


def thread(game, kind, **filters):
    return Thread.objects.get(game=game, kind=kind, **filters)


def test_start_creates_the_private_threads(started):
    kinds = sorted(Thread.objects.filter(game=started).values_list("kind", flat=True))
    assert kinds.count("faction") == 1 and kinds.count("gm_chat") == 7 and kinds.count("lounge") == 1
    assert thread(started, "faction").faction == "mafia"


def test_team_chat_is_the_mafias_only(started):
    chat = thread(started, "faction")
    post_submit(thread=chat, author=user_named(started, "Кикимора"), body="Стреляем в Васю")
    url = chat.get_absolute_url()
    for name in ("Кикимора", "Эсмеральда"):
        assert "Стреляем в Васю" in client_for(user_named(started, name)).get(url).content.decode()
    assert "Стреляем в Васю" in client_for(started.gm).get(url).content.decode()
    for user in (None, make_user("Зритель"), user_named(started, "Вася"), user_named(started, "Негодяй")):
        assert client_for(user).get(url).status_code == 404
    with pytest.raises(ActionRefused):
        post_submit(thread=chat, author=user_named(started, "Вася"), body="впустите")


def test_letters_to_the_gm_are_between_the_seat_and_the_gm(started):
    letters = thread(started, "gm_chat", seat=seat_named(started, "Вася"))
    post_submit(thread=letters, author=user_named(started, "Вася"), body="Подтвердите проверку")
    post_submit(thread=letters, author=started.gm, body="Принято")
    url = letters.get_absolute_url()
    assert "Подтвердите проверку" in client_for(user_named(started, "Вася")).get(url).content.decode()
    for user in (None, make_user("Зритель"), user_named(started, "Кикимора"), user_named(started, "Фроло")):
        assert client_for(user).get(url).status_code == 404


def test_lounge_is_for_the_fallen_and_the_spectators(started):
    from games.models import Seat

    lounge = thread(started, "lounge")
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    spectator = make_user("Зритель")
    post_submit(thread=lounge, author=spectator, body="Болеем за мирных")
    post_submit(thread=lounge, author=user_named(started, "Фроло"), body="Меня убили")
    url = lounge.get_absolute_url()
    assert "Меня убили" in client_for(spectator).get(url).content.decode()
    # Logged out, nobody reads it: else a living player would by logging out.
    assert client_for(None).get(url).status_code == 404
    for name in ("Вася", "Кикимора"):
        assert client_for(user_named(started, name)).get(url).status_code == 404
    with pytest.raises(ActionRefused):
        post_submit(thread=lounge, author=user_named(started, "Вася"), body="я жив")


def test_everything_is_unsealed_after_the_game(started):
    chat = thread(started, "faction")
    post_submit(thread=chat, author=user_named(started, "Кикимора"), body="план")
    started.status = "finished"
    started.save()
    assert "план" in client_for(None).get(chat.get_absolute_url()).content.decode()


def test_lists_show_only_the_threads_one_may_read(started):
    role_url = reverse("games:role", args=[started.pk])
    mafia = client_for(user_named(started, "Кикимора")).get(role_url).content.decode()
    town = client_for(user_named(started, "Вася")).get(role_url).content.decode()
    chat = thread(started, "faction")
    assert chat.get_absolute_url() in mafia and chat.get_absolute_url() not in town
    vasya_letters = thread(started, "gm_chat", seat=seat_named(started, "Вася")).get_absolute_url()
    assert vasya_letters in town and vasya_letters not in mafia
    game_page = client_for(make_user("Зритель")).get(started.get_absolute_url()).content.decode()
    assert thread(started, "lounge").get_absolute_url() in game_page and chat.get_absolute_url() not in game_page
    profile = client_for(None).get(reverse("accounts:profile", args=[user_named(started, "Кикимора").pk]))
    post_submit(thread=chat, author=user_named(started, "Кикимора"), body="секретный план")
    assert "секретный план" not in client_for(None).get(reverse("accounts:profile", args=[user_named(started, "Кикимора").pk])).content.decode()
    assert profile.status_code == 200
