"""Chat rooms (001) by agreement in the post comment field: who may read and write, when a room
opens and when it closes."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games import permissions
from games.models import Game, RoomProposal, Seat, Thread
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.lifecycle import game_set_co_gm
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named


@pytest.fixture
def rooms_game(started):
    started.options = {"rooms": True}
    started.save()
    return started


def propose(game, name, comment, body="..."):
    return post_submit(thread=game.game_thread, author=user_named(game, name), body=body, comment=comment)


def close(game, jail="Кикимора"):
    """Close the day with a jail away from the rooms under test (a tie would jail at random)."""
    game.refresh_from_db()
    if game.current_phase.kind == "day":
        for voter in ("Эсмеральда", "Маленький Джон", "Фроло"):
            if voter != jail:
                post_submit(thread=game.game_thread, author=user_named(game, voter), body=f"[b]В тюрьму {jail}[/b]")
    phase = game.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    game.refresh_from_db()
    return phase


def test_room_opens_by_agreement_and_is_secret(rooms_game):
    propose(rooms_game, "Вася", "комната: Красная Шапочка, Маленький Джон")
    propose(rooms_game, "Красная Шапочка", "комната: Вася и Маленький Джон")
    propose(rooms_game, "Маленький Джон", "Комната — Васю, Красную Шапочку")
    assert not Thread.objects.filter(kind="room").exists()  # rooms open at the day's close
    close(rooms_game)
    room = Thread.objects.get(kind="room")
    assert sorted(room.members.values_list("user__display_name", flat=True)) == ["Вася", "Красная Шапочка", "Маленький Джон"]
    post_submit(thread=room, author=user_named(rooms_game, "Вася"), body="Наш план")
    url = room.get_absolute_url()
    for name in ("Вася", "Маленький Джон"):
        assert "Наш план" in client_for(user_named(rooms_game, name)).get(url).content.decode()
    assert "Наш план" in client_for(rooms_game.gm).get(url).content.decode()
    for user in (None, make_user("Зритель"), user_named(rooms_game, "Кикимора"), user_named(rooms_game, "Фроло")):
        assert client_for(user).get(url).status_code == 404
    with pytest.raises(ActionRefused):
        post_submit(thread=room, author=user_named(rooms_game, "Кикимора"), body="впустите")


def test_room_closes_after_the_phase_it_lives_through(rooms_game):
    for name, comment in [("Вася", "комната: Фроло, Негодяй"), ("Фроло", "комната: Вася, Негодяй"),
                          ("Негодяй", "комната: Вася, Фроло")]:
        propose(rooms_game, name, comment)
    close(rooms_game)
    room = Thread.objects.get(kind="room")
    post_submit(thread=room, author=user_named(rooms_game, "Фроло"), body="пока открыто")
    close(rooms_game)
    room.refresh_from_db()
    assert room.is_locked
    with pytest.raises(ActionRefused):
        post_submit(thread=room, author=user_named(rooms_game, "Фроло"), body="поздно")
    assert "пока открыто" in client_for(user_named(rooms_game, "Вася")).get(room.get_absolute_url()).content.decode()


def test_no_room_without_full_agreement(rooms_game):
    propose(rooms_game, "Вася", "комната: Фроло, Негодяй")
    propose(rooms_game, "Фроло", "комната: Вася, Негодяй")
    propose(rooms_game, "Негодяй", "комната: Вася, Кикимора")
    close(rooms_game)
    assert not Thread.objects.filter(kind="room").exists()


@pytest.mark.parametrize("comment,code", [
    ("комната: Фроло", "room_size"),
    ("комната: Фроло, Негодяй, Кикимора", "room_size"),
    ("комната: Фроло, Воланд", "room_unknown"),
])
def test_bad_room_proposals_refuse_the_post(rooms_game, comment, code):
    before = rooms_game.game_thread.posts.count()
    with pytest.raises(ActionRefused) as refused:
        propose(rooms_game, "Вася", comment)
    assert refused.value.code == code
    assert rooms_game.game_thread.posts.count() == before and not RoomProposal.objects.exists()


def test_rooms_off_unless_the_game_has_them(started):
    with pytest.raises(ActionRefused) as refused:
        propose(started, "Вася", "комната: Фроло, Негодяй")
    assert refused.value.code == "rooms_off"
    post = propose(started, "Вася", "просто комментарий")
    assert post.comment == "просто комментарий"


def test_comment_field_goes_through_the_reply_form(rooms_game):
    client = client_for(user_named(rooms_game, "Вася"))
    page = client.get(rooms_game.game_thread.get_absolute_url()).content.decode()
    assert 'name="comment"' in page
    client.post(reverse("games:thread_reply", args=[rooms_game.game_thread.pk]),
                {"body": "Привет", "comment": "комната: Фроло, Негодяй"})
    assert RoomProposal.objects.count() == 1


@pytest.mark.parametrize("finished", [False, True], ids=["running", "finished"])
def test_one_game_s_thread_filter_agrees_with_can_see_thread_for_every_viewer(rooms_game, finished):
    """permissions.filter_visible_game_threads (the archive's list of a game's private threads,
    issue 30: from the viewer's seat in this game alone) keeps exactly the threads can_see_thread
    lets each viewer read, as filter_visible_threads does: every player (in a room or not, in the
    team or not, fallen: the lounge), the GM, a co-GM, a spectator, a site moderator, the anonymous."""
    propose(rooms_game, "Вася", "комната: Красная Шапочка, Маленький Джон")
    propose(rooms_game, "Красная Шапочка", "комната: Вася и Маленький Джон")
    propose(rooms_game, "Маленький Джон", "Комната — Васю, Красную Шапочку")
    close(rooms_game)
    Seat.objects.filter(pk=seat_named(rooms_game, "Фроло").pk).update(status="killed", is_alive=False)
    co_gm = make_user("Соведущий")
    game_set_co_gm(game=rooms_game, by=rooms_game.gm, name=co_gm.display_name, add=True)
    if finished:
        Game.objects.filter(pk=rooms_game.pk).update(status=Game.Status.FINISHED)
    viewers = [None, make_user("Зритель"), make_user("Модератор", staff=True), rooms_game.gm, co_gm,
               *(s.user for s in rooms_game.seats.select_related("user"))]
    assert Thread.objects.filter(game=rooms_game, kind="room").exists()
    for user in viewers:
        user = user or AnonymousUser()
        game = Game.objects.get(pk=rooms_game.pk)  # a fresh instance: nothing remembered between viewers
        threads = game.private_threads.all()
        readable = {t.pk for t in threads if permissions.can_see_thread(user, t)}
        assert {t.pk for t in permissions.filter_visible_game_threads(user, game, threads)} == readable, user
        assert {t.pk for t in permissions.filter_visible_threads(user, Thread.objects.filter(game=game))} == readable, user
        if not finished and user.is_authenticated and not user.is_staff and user != rooms_game.gm and user != co_gm:
            assert readable != {t.pk for t in threads}, user  # a real filter: nobody but the GMs reads them all
