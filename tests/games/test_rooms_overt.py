"""Overt roles of the cards rule set (001) that change who may talk to whom: the Manager's rooms
of two or four, the Conspirator's once-a-game room of any size that lasts to the end, and the
Postman's one private message a day beyond his neighbours.

The room and private-message services are the same for every rule set; these tests play them in
the forum fixture game with the overt role lookup pointed at the seats under test (and the forum
adapter asking the cards adapter's overt-role capabilities), and one test reads the overt role
from a real cards engine state."""

import pytest

from games.communication.rooms import rooms_close_all
from games.engine.rulesets import get_ruleset
from games.models import PrivateMessage, Thread
from games.rulesets import registry
from games.rulesets.cards import messages
from games.services import ActionRefused
from tests.games.test_lifecycle import seat_named
from tests.games.test_private_messages import write
from tests.games.test_rooms import close, propose


@pytest.fixture
def overt(monkeypatch):
    """{display name: overt role} for the seats under test."""
    given: dict[str, str] = {}

    def lookup(game, seat_pk):
        seat = game.seats.select_related("user").get(pk=seat_pk)
        return given.get(seat.user.display_name, "")

    monkeypatch.setattr(messages, "overt_role_of", lookup)
    forum, cards = registry.site("forum"), registry.site("cards")
    for capability in ("room_sizes", "may_call_conspiracy", "may_write_beyond_neighbours"):
        monkeypatch.setattr(forum, capability, getattr(cards, capability))
    return given


@pytest.fixture
def rooms_game(started):
    started.options = {"rooms": True, "private_messages": "neighbours"}
    started.save()
    return started


def members(room):
    return sorted(room.members.values_list("user__display_name", flat=True))


def test_overt_role_is_read_from_the_cards_state(db):
    """«Менеджер», «менеджер» and «Мeнеджер ё»-style spellings resolve to the registered role; a
    custom name has no ability."""
    from games.models import Game

    state, _events = get_ruleset("cards").new_game(
        [(1, "Вася", "boss"), (2, "Петя", "sheriff"), (3, "Маша", "doctor")],
        seat_data={1: {"overt": "менеджер"}, 2: {"overt": "Пекарь"}})
    game = Game(ruleset="cards", state=state.to_json())
    assert messages.overt_role_of(game, 1) == "Менеджер"
    assert messages.overt_role_of(game, 2) == ""
    assert messages.overt_role_of(game, 3) == ""
    assert messages.overt_role_of(Game(ruleset="forum", state=state.to_json()), 1) == ""


def test_manager_room_of_two_and_of_four(rooms_game, overt):
    """«Менеджер: Может создавать чат-комнаты на двух или четырех персонажей.»"""
    overt["Вася"] = "Менеджер"
    propose(rooms_game, "Вася", "комната: Фроло")
    propose(rooms_game, "Фроло", "комната: Вася")
    propose(rooms_game, "Красная Шапочка", "комната: Вася, Маленький Джон, Негодяй")  # a four with the Manager, but he chose Фроло
    close(rooms_game)
    assert [members(r) for r in Thread.objects.filter(kind="room")] == [["Вася", "Фроло"]]
    for name, comment in [("Вася", "комната: Фроло, Негодяй, Красная Шапочка"),
                          ("Фроло", "комната: Вася, Негодяй, Красная Шапочка"),
                          ("Негодяй", "комната: Вася, Фроло, Красная Шапочка"),
                          ("Красная Шапочка", "комната: Вася, Фроло, Негодяй")]:
        propose(rooms_game, name, comment)
    close(rooms_game)
    rooms = list(Thread.objects.filter(kind="room").order_by("pk"))
    assert members(rooms[1]) == ["Вася", "Красная Шапочка", "Негодяй", "Фроло"]
    assert rooms[0].is_locked and not rooms[1].is_locked


def test_rooms_of_two_or_four_need_the_manager(rooms_game, overt):
    """Without the Manager a room is for three: a pair is refused with the reason, nothing is stored."""
    with pytest.raises(ActionRefused) as refused:
        propose(rooms_game, "Вася", "комната: Фроло")
    assert refused.value.code == "room_size"
    with pytest.raises(ActionRefused):
        propose(rooms_game, "Вася", "комната: Фроло, Негодяй, Кикимора")


def test_conspiracy_room_of_any_size_lasts_to_the_end_beside_other_rooms(rooms_game, overt):
    """«Заговорщик: Один раз за игру при создании чат-комнаты днем может создать ее на любое
    количество персонажей. Эта чат-комната не уничтожается до конца игры и может существовать
    параллельно с другими чат-комнатами этого персонажа.»"""
    overt["Вася"] = "Заговорщик"
    plot = "Вася, Фроло, Негодяй, Красная Шапочка, Маленький Джон"
    propose(rooms_game, "Вася", "заговор: Фроло, Негодяй, Красная Шапочка, Маленький Джон")
    for name in ("Фроло", "Негодяй", "Красная Шапочка", "Маленький Джон"):
        propose(rooms_game, name, "комната: " + plot.replace(name + ", ", "").replace(", " + name, ""))
    close(rooms_game)
    conspiracy = Thread.objects.get(kind="room")
    assert members(conspiracy) == ["Вася", "Красная Шапочка", "Маленький Джон", "Негодяй", "Фроло"]
    assert conspiracy.closes_with is None
    # The next day he joins an ordinary room as well; the conspiracy stays open after it closes.
    for name, comment in [("Вася", "комната: Фроло, Негодяй"), ("Фроло", "комната: Вася, Негодяй"),
                          ("Негодяй", "комната: Вася, Фроло")]:
        propose(rooms_game, name, comment)
    close(rooms_game)
    close(rooms_game)
    conspiracy.refresh_from_db()
    ordinary = Thread.objects.filter(kind="room").exclude(pk=conspiracy.pk).get()
    assert ordinary.is_locked and not conspiracy.is_locked
    # Once a game.
    with pytest.raises(ActionRefused) as refused:
        propose(rooms_game, "Вася", "заговор: Фроло")
    assert refused.value.code == "room_conspiracy_used"


def test_only_the_conspirator_calls_a_conspiracy(rooms_game, overt):
    with pytest.raises(ActionRefused) as refused:
        propose(rooms_game, "Вася", "заговор: Фроло, Негодяй, Кикимора, Эсмеральда")
    assert refused.value.code == "room_not_conspirator"


def test_conspiracy_opens_only_by_full_agreement(rooms_game, overt):
    overt["Вася"] = "Заговорщик"
    propose(rooms_game, "Вася", "заговор: Фроло, Негодяй, Кикимора")
    propose(rooms_game, "Фроло", "комната: Вася, Негодяй, Кикимора")
    propose(rooms_game, "Негодяй", "комната: Вася, Фроло, Кикимора")
    close(rooms_game, jail="Эсмеральда")
    assert not Thread.objects.filter(kind="room").exists()


def test_conspiracy_room_is_locked_when_the_game_ends(rooms_game, overt):
    overt["Вася"] = "Заговорщик"
    propose(rooms_game, "Вася", "заговор: Фроло")
    propose(rooms_game, "Фроло", "комната: Вася")
    close(rooms_game)
    assert rooms_close_all(game=rooms_game) == 1
    assert Thread.objects.get(kind="room").is_locked


def test_postman_sends_one_private_a_day_beyond_his_neighbours(rooms_game, overt):
    """«Почтальон: Раз в день может отправить днём приватное сообщение любому игроку, указав
    публично получателя.» Seats: 1 Вася, 2 Красная Шапочка, ..., 7 Негодяй (a ring)."""
    overt["Вася"] = "Почтальон"
    write(rooms_game, "Вася", '[private="Кикимору"]далеко[/private] [private="Негодяя"]сосед[/private]')
    assert PrivateMessage.objects.filter(sender=seat_named(rooms_game, "Вася")).count() == 2
    with pytest.raises(ActionRefused) as refused:
        write(rooms_game, "Вася", '[private="Фроло"]ещё раз далеко[/private]')
    assert refused.value.code == "private_not_neighbour"
    with pytest.raises(ActionRefused):  # two far ones in one post: the second is refused, the post is not stored
        write(rooms_game, "Красная Шапочка", '[private="Кикимору"]a[/private]')
    overt["Красная Шапочка"] = "Почтальон"
    with pytest.raises(ActionRefused):
        write(rooms_game, "Красная Шапочка", '[private="Кикимору"]a[/private][private="Фроло"]b[/private]')
    assert not PrivateMessage.objects.filter(sender=seat_named(rooms_game, "Красная Шапочка")).exists()
    close(rooms_game)
    close(rooms_game)  # the night; a new day gives the Postman a new message
    write(rooms_game, "Вася", '[private="Фроло"]новый день[/private]')
