"""The commissar's note written as its own order right after the check (issue 14): «Записку можно
оставить только сразу после проверки» — a note with no name of its own is the note of that check,
read by the club's order words (games.text.orders) and played through the pure engine."""

from __future__ import annotations

from games.engine.events import PUBLIC
from games.engine.orders import Order
from games.text.names import RosterMatcher
from games.rulesets.club.wording import CLUB_VOCABULARY
from games.text.orders import FORUM_VOCABULARY, parse_order
from tests.engine.test_club_rules import CLUB, NAMES, events_of, night1, resolve, sid

MATCHER = RosterMatcher([(name, []) for name in NAMES])


def read(text, after=None):
    return parse_order(text, MATCHER, vocabulary=CLUB_VOCABULARY, actor_name="Вера", after=after)


def test_note_without_a_name_is_the_note_of_the_check_when_written_right_after_it():
    """«Записку можно оставить только сразу после проверки, показав ведущему будто ты что-то
    пишешь невидимым карандашом.»"""
    for text in ("Проверяю Дину. Оставляю записку.", "Проверяю Дину и оставляю записку",
                 "Проверяю Дину, записка", "Проверяю Дину.\nПишу записку."):
        order = read(text)
        assert (order.action, order.target, order.valid) == ("note", "Дина", True), text


def test_note_without_a_name_follows_the_standing_check_when_sent_as_the_next_order():
    """«Записку можно оставить только сразу после проверки»: «Оставляю записку.» sent after an
    accepted «Проверяю Дину.» is the note about Дина."""
    order = read("Оставляю записку.", after=("check", "Дина"))
    assert (order.action, order.target, order.valid) == ("note", "Дина", True)


def test_note_without_a_name_is_refused_when_no_check_comes_before_it():
    """A note is the night's check with the note left: with no check before it, it names nobody."""
    assert (read("Оставляю записку.").valid, read("Оставляю записку.").reason) == (False, "name_missing")
    healed = read("Оставляю записку.", after=("heal", "Дина"))
    assert (healed.valid, healed.reason) == (False, "name_missing")
    assert not read("Лечу Дину. Оставляю записку.").action == "note"


def test_note_with_a_name_of_its_own_keeps_it_when_written_after_a_check():
    """«Комиссар имеет право проверять одного и того же игрока несколько раз» — and the note
    names the player it is about when the writer says so."""
    order = read("Проверяю Дину. Записку про Киру.")
    assert (order.action, order.target) == ("note", "Кира")
    wrong = read("Оставляю записку про Динку", after=("check", "Дина"))
    assert (wrong.valid, wrong.reason) == (False, "name_unknown")


def test_forum_orders_are_read_as_before_when_the_vocabulary_has_no_note():
    order = parse_order("Проверяю Кикимору. Оставляю записку.", RosterMatcher([("Кикимора", [])]),
                        vocabulary=FORUM_VOCABULARY)
    assert (order.action, order.target) == ("check", "Кикимора")


def test_note_read_from_the_text_is_read_in_the_morning_when_the_commissar_is_killed():
    """«Комиссар имеет возможность оставить ведущему записку (результат проверки в эту ночь),
    которая будет оглашена ведущим днем только в том случае, если комиссар был убит.»"""
    state = night1()
    order = read("Проверяю Дину. Оставляю записку.")
    commissar = sid(state, "Вера")
    assert CLUB.check_order(state, Order(commissar, order.action, sid(state, order.target))) is None
    r = resolve(state, ("Вера", order.action, order.target), ("Борис", "kill", "Вера"))
    assert r.outcome["note"] == {"Дина": "black"}
    (note,) = events_of(r, "note")
    assert note.audience == PUBLIC and note.data["target_name"] == "Дина"
