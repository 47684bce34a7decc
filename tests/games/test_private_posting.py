"""Who may write where in a game's threads (games.permissions.can_post), per rule set: the private
threads after the game, the dead of each rule set (forum, club, cards), [private] by night, and
the refusal's reason shown instead of the reply form (issue 6, "Private communication")."""

from __future__ import annotations

from datetime import timedelta

import html

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import translation

from games.models import Game, Post, Seat, Thread
from games.permissions import MODERATORS_GROUP, can_post
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.test_club import club  # noqa: F401 - the twelve-seat club game fixture
from tests.games.test_club import close as club_close
from tests.games.test_lifecycle import seat_named, user_named

def site_moderator(name="Модератор"):
    """A member of the Moderators group: moderates every thread, is no game's GM."""
    user = make_user(name)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user


def room_of(game, *names, conspiracy=False):
    room = Thread.objects.create(kind=Thread.Kind.ROOM, game=game, title="Комната", created_by=game.gm,
                                 opened_by=game.current_phase, closes_with=None if conspiracy else game.current_phase)
    room.members.set([seat_named(game, n) for n in names])
    return room


def reply_page(user, thread) -> str:
    return html.unescape(client_for(user).get(thread.get_absolute_url()).content.decode())


def reason(user, thread, language="en") -> str:
    """can_post's refusal in a language ("" when allowed)."""
    with translation.override(language):
        verdict = can_post(user, thread)
        return "" if verdict else str(verdict.reason)


def shows_reason_instead_of_the_form(user, thread) -> bool:
    """The thread page (in the site's Russian) shows can_post's reason where the reply form was."""
    page = reply_page(user, thread)
    return bool(reason(user, thread, "ru")) and reason(user, thread, "ru") in page and 'name="body"' not in page


# --- After the game: the private threads are the archive ------------------------------------------
def test_private_threads_are_read_only_for_players_when_the_game_is_finished(started):
    room = room_of(started, "Вася", "Красная Шапочка", "Маленький Джон")
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    threads = {
        "faction": (started.private_threads.get(kind="faction"), "Кикимора"),
        "gm_chat": (started.private_threads.get(kind="gm_chat", seat=seat_named(started, "Вася")), "Вася"),
        "room": (room, "Вася"),
        "lounge": (started.private_threads.get(kind="lounge"), "Фроло"),
    }
    for thread, writer in threads.values():
        assert can_post(user_named(started, writer), thread), thread.kind  # while the game runs
    Game.objects.filter(pk=started.pk).update(status=Game.Status.FINISHED, winner="town")
    spectator = make_user("Зритель")
    for kind, (thread, writer) in threads.items():
        thread = Thread.objects.get(pk=thread.pk)
        for user in (user_named(started, writer), user_named(started, "Эсмеральда"), spectator):
            assert "read-only" in reason(user, thread), (kind, user)
        with pytest.raises(ActionRefused):
            post_submit(thread=thread, author=user_named(started, writer), body="После игры")
        # The archive stays readable by everybody, with the reason where the reply form was.
        assert shows_reason_instead_of_the_form(spectator, thread)
        assert can_post(started.gm, thread) and can_post(site_moderator(f"Модератор {kind}"), thread)


def test_public_threads_stay_open_after_the_game(started):
    Game.objects.filter(pk=started.pk).update(status=Game.Status.FINISHED, winner="town")
    started.refresh_from_db()
    spectator = make_user("Зритель")
    for thread in (started.game_thread, started.discussion_thread):
        for user in (spectator, user_named(started, "Вася")):
            assert can_post(user, thread)
    post_submit(thread=started.game_thread, author=spectator, body="Хорошая была игра")


def test_every_room_still_open_is_locked_when_the_game_ends(club):
    """«Заговорщик: ... чат-комнату ... которая не уничтожается до конца игры» — and at the end it
    is locked with the rest (docs/architecture.md). The club game ends by forfeit through the real
    close."""
    game, gm = club, club.gm
    conspiracy = room_of(game, "Анна", "Борис", "Вера", "Глеб", conspiracy=True)
    assert not conspiracy.is_locked
    response = client_for(gm).post(reverse("games:gm_action", args=[game.pk]), {"action": "forfeit", "faction": "black", "confirm": "yes"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    conspiracy.refresh_from_db()
    assert conspiracy.is_locked


def test_a_site_moderator_who_is_not_the_gm_does_not_post_in_a_running_games_private_threads(started):
    moderator = site_moderator()
    room = room_of(started, "Вася", "Красная Шапочка", "Маленький Джон")
    for thread in (started.private_threads.get(kind="faction"), room,
                   started.private_threads.get(kind="gm_chat", seat=seat_named(started, "Вася"))):
        assert not can_post(moderator, thread)
        with pytest.raises(ActionRefused):
            post_submit(thread=thread, author=moderator, body="Проверка")
    assert can_post(moderator, started.game_thread)


# --- Forum (002): the jailed and the killed ------------------------------------------------------
@pytest.mark.parametrize("status", ["jailed", "killed"])
def test_forum_players_out_of_play_post_in_the_game_thread_but_not_in_rooms_or_team_chat_when_out(started, status):
    """002: talking in the game thread — «эта возможность доступна всем игрокам»; «Даже будучи
    посаженным или убитым, вы остаетесь членом своей команды... Игра для вас посадкой или убийством
    не заканчивается». The team chat and the rooms are for those still in play."""
    room = room_of(started, "Вася", "Кикимора", "Маленький Джон")
    for name in ("Кикимора", "Вася"):
        Seat.objects.filter(pk=seat_named(started, name).pk).update(status=status, is_alive=False)
    mafioso, townie = user_named(started, "Кикимора"), user_named(started, "Вася")
    assert can_post(mafioso, started.game_thread) and can_post(townie, started.game_thread)
    post_submit(thread=started.game_thread, author=mafioso, body="Я всё ещё с вами")
    for user, thread in ((mafioso, started.private_threads.get(kind="faction")), (mafioso, room), (townie, room)):
        assert not can_post(user, thread)
        with pytest.raises(ActionRefused):
            post_submit(thread=thread, author=user, body="пустите")
    assert "Only the room" in reason(townie, room) and shows_reason_instead_of_the_form(townie, room)
    assert can_post(user_named(started, "Маленький Джон"), room)


# --- Club (003): one farewell after a day's death --------------------------------------------------


def club_say(game, name, text):
    game.refresh_from_db()
    return post_submit(thread=game.game_thread, author=seat_named(game, name).user, body=text,
                       now=game.current_phase.opened_at + timedelta(minutes=1 + Post.objects.count()))


def club_day_one_executes(game, target="Глеба"):
    club_close(game)  # night 0 → day 1
    for voter in ("Анна", "Борис", "Вера", "Дина", "Егор", "Жанна", "Зоя"):
        club_say(game, voter, f"Голосую за [b]{target}[/b]")


def test_club_player_voted_out_writes_one_farewell_until_the_night_closes(club):
    """003: «Убитый днём игрок имеет 30 секунд на прощание с городом, чтобы помочь своей красной или
    черной команде.» On the forum: one post in the game thread before the next phase closes."""
    club_day_one_executes(club)
    day = club_close(club)
    assert day.outcome["executed"] == ["Глеб"] and club.current_phase.kind == "night"
    gleb = seat_named(club, "Глеб").user
    assert can_post(gleb, club.game_thread)
    club_say(club, "Глеб", "Прощайте! Анна — мирная.")
    assert "said your farewell" in reason(gleb, club.game_thread)
    with pytest.raises(ActionRefused):
        club_say(club, "Глеб", "И ещё одно")
    assert shows_reason_instead_of_the_form(gleb, club.game_thread)
    # the lounge and his letters to the GM are not the table
    assert can_post(gleb, club.private_threads.get(kind="lounge"))


def test_club_farewell_time_ends_with_the_phase_after_the_death(club):
    """The thirty seconds do not wait: a farewell not written before the night closes is not written."""
    club_day_one_executes(club)
    club_close(club)
    club_close(club)  # the night closes unsaid
    assert "farewell time is over" in reason(seat_named(club, "Глеб").user, club.game_thread)


def test_club_player_taken_by_the_don_also_says_farewell(club):
    """003: «убитый днём дон ... имеет право забрать с собой в могилу (убить) любого игрока» and
    «У игрока, которого забирает дон, так же есть 30 секунд на прощание с городом.»"""
    from games.services.orders import order_submit

    club_day_one_executes(club, target="Бориса")  # Борис is the don
    club.refresh_from_db()
    _order, confirmation = order_submit(game=club, user=seat_named(club, "Борис").user, text="Забираю с собой Веру")
    assert confirmation.accepted, confirmation
    day = club_close(club)
    assert day.outcome["executed"] == ["Борис"] and day.outcome["taken"] == "Вера"
    for name in ("Борис", "Вера"):
        assert can_post(seat_named(club, name).user, club.game_thread), name
        club_say(club, name, "Прощайте")
        assert not can_post(seat_named(club, name).user, club.game_thread), name


def test_club_players_killed_at_night_or_removed_do_not_post_in_the_game_thread(club):
    """003: «У игроков, убитых ночью нет 30 секунд для прощания с городом. Они покидают стол без
    звуков и без жестов.» «В случае вскрытия карты из-за четырех фолов человек не имеет 30 секунд на
    прощание.»"""
    from games.services.orders import order_submit

    club_close(club)  # day 1
    url = reverse("games:gm_action", args=[club.pk])
    for _ in range(4):
        client_for(club.gm).post(url, {"action": "foul", "seat": seat_named(club, "Лев").pk, "confirm": "yes"})
    day = club_close(club)
    assert day.outcome["removed"] == ["Лев"] and club.current_phase.kind == "night"
    lev = seat_named(club, "Лев").user
    assert "without a word" in reason(lev, club.game_thread)
    assert shows_reason_instead_of_the_form(lev, club.game_thread)
    for name in ("Борис", "Дина", "Кира"):  # the don and the mafia
        _order, confirmation = order_submit(game=club, user=seat_named(club, name).user, text="Убиваю Милу")
        assert confirmation.accepted
    night = club_close(club)
    assert night.outcome["killed"] == ["Мила"] and club.current_phase.kind == "day"
    assert "without a word" in reason(seat_named(club, "Мила").user, club.game_thread)
    with pytest.raises(ActionRefused):
        club_say(club, "Мила", "Меня убили!")
    assert can_post(seat_named(club, "Анна").user, club.game_thread)
    assert can_post(seat_named(club, "Мила").user, club.private_threads.get(kind="lounge"))


# --- Cards (001): the Avenger keeps talking ------------------------------------------------------
def test_cards_dead_avenger_keeps_the_game_thread_the_discussion_and_his_rooms(db):
    """001: «Мститель: Будучи мертвым, может продолжать публично общаться с другими игроками и
    участвовать в старых и новых чат-комнатах.» Any other dead player «не должны продолжать общение
    со все еще участвующими в игре»; the team chat is neither public nor a room."""
    from games.rulesets.cards.services import card_gm_effect_add
    from games.communication.rooms import room_check
    from tests.games.test_cards_services import cards_game

    game, gm, users, seats = cards_game(overt={"Петя": "мститель", "Маша": "Почтальон"})
    for name in ("Петя", "Маша"):
        card_gm_effect_add(phase=game.current_phase, gm=gm, effect={"op": "damage", "target": seats[name].pk, "n": 6})
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    room = room_of(game, "Петя", "Вася", "Маша")  # a room of theirs that lives through this phase
    assert Seat.objects.get(pk=seats["Петя"].pk).status == "dead"
    avenger, postman = users["Петя"], users["Маша"]
    for thread in (game.game_thread, game.discussion_thread, room):
        thread = Thread.objects.get(pk=thread.pk)
        assert can_post(avenger, thread), thread.kind
        assert "dead do not talk" in reason(postman, thread) or "room's members" in reason(postman, thread)
    post_submit(thread=Thread.objects.get(pk=room.pk), author=avenger, body="Я отомщу")
    # Петя is the boss; the team chat (if the game has one) is not his any more.
    team, _created = Thread.objects.get_or_create(kind=Thread.Kind.FACTION, game=game, faction="mafia",
                                                  defaults={"title": "Мафия", "created_by": gm})
    assert "dead do not talk" in reason(avenger, team) or "still in play" in reason(avenger, team)
    assert can_post(avenger, game.private_threads.get(kind="lounge"))
    # Joining a new room while dead («и новых чат-комнатах», issue 17): he may propose one; the dead
    # Postman may not.
    game.refresh_from_db()
    if game.current_phase.kind == "day":
        assert room_check(thread=game.game_thread, author=avenger, comment="комната: Вася, Глаша") is not None
        with pytest.raises(ActionRefused) as refused:
            room_check(thread=game.game_thread, author=postman, comment="комната: Вася, Глаша")
        assert refused.value.code == "room_not_player"


def test_cards_dead_avenger_joins_new_rooms_and_other_dead_are_refused_with_the_reason(db):
    """«участвовать в старых и новых чат-комнатах» (issue 17): a dead Avenger proposes a room and is
    named in one; any other dead player proposing or named gets the reason, not an error."""
    from games.rulesets.cards.services import card_gm_effect_add
    from games.communication.rooms import room_check
    from tests.games.test_cards_services import cards_game, to_day

    game, gm, users, seats = cards_game(overt={"Петя": "Мститель"})
    for name in ("Петя", "Маша"):
        card_gm_effect_add(phase=game.current_phase, gm=gm, effect={"op": "damage", "target": seats[name].pk, "n": 6})
    to_day(game)
    game.refresh_from_db()
    proposal = room_check(thread=game.game_thread, author=users["Петя"], comment="комната: Вася, Глаша")
    assert set(proposal.members) == {seats["Петя"].pk, seats["Вася"].pk, seats["Глаша"].pk}
    assert room_check(thread=game.game_thread, author=users["Вася"], comment="комната: Петя, Глаша") is not None
    with pytest.raises(ActionRefused) as refused:
        room_check(thread=game.game_thread, author=users["Маша"], comment="комната: Вася, Глаша")
    assert refused.value.code == "room_not_player"
    with pytest.raises(ActionRefused) as refused:
        room_check(thread=game.game_thread, author=users["Вася"], comment="комната: Маша, Глаша")
    assert refused.value.code == "room_dead"


# --- [private] by night -------------------------------------------------------------------------------
def test_private_message_is_refused_by_night_with_the_reason_shown(db):
    """001: «Днем персонаж может включить в свой пост в игровой ветке приватное сообщение другому
    игроку, комната которого находится рядом с вашей» — by night the post is refused before it is
    stored, and the poster reads why where he wrote it."""
    from games.models import PrivateMessage
    from tests.games.test_cards_services import cards_game

    game, _gm, users, _seats = cards_game()
    assert game.current_phase.kind == "night"
    before = Post.objects.count()
    # Петя sits next to Вася: the neighbour rule would let the message through by day.
    response = client_for(users["Вася"]).post(reverse("games:thread_reply", args=[game.game_thread.pk]),
                                              {"body": 'Ночь. [private="Пете"]тайна[/private]'})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Личные сообщения отправляют днём." in page and 'name="body"' in page
    assert Post.objects.count() == before and not PrivateMessage.objects.exists()
    with pytest.raises(ActionRefused) as refused:
        post_submit(thread=game.game_thread, author=users["Вася"], body='[private="Пете"]тайна[/private]')
    assert refused.value.code == "private_not_day"
