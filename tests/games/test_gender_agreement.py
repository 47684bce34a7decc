"""A sentence about a player agrees with the player's gender (issue 29, item 6): the profile's
«Пол» (мужской, женский, не указан), a confident guess from the display name's first name until
it is given (pymorphy3: Вася, Маша; never a nickname: Кикимора, Негодяй), neutral wording when
it is unknown. «у игрока Кикимора… ей выдана … её роли», «Убита: Кикимора.»"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.engine.events import PUBLIC, Event
from games.models import GameEvent, Notification, Seat
from games.services import ActionRefused
from games.services.journal import store_events
from games.text.names import guess_gender
from games.wording import event_text, gender_of, speaking_of
from tests.conftest import client_for
from tests.games.test_lifecycle import seat_named, user_named
from tests.games.test_private_messages import write

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_i18n import ALL_ENTRIES  # noqa: E402  (the .po, parsed once)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("name", "gender"), [
    ("Вася", "m"), ("Маша", "f"), ("Эсмеральда", "f"), ("Иван Грозный", "m"),
    # nicknames, names of either gender, unknown or Latin words and two names that disagree: no guess
    ("Кикимора", ""), ("Негодяй", ""), ("Саша", ""), ("Женя", ""), ("Фроло", ""), ("SleepWalker", ""),
    ("Красная Шапочка", ""), ("Маша и Вася", ""),
])
def test_a_gender_is_guessed_only_from_a_first_name_pymorphy_is_sure_of(name, gender):
    assert guess_gender(name) == gender


def test_the_profiles_gender_wins_over_the_guess_and_unset_falls_back_to_it(db):
    user = User.objects.create_user(username="v", email="v@example.com", password="x", display_name="Вася")
    assert user.grammatical_gender == "m"
    user.gender = User.Gender.FEMALE
    assert user.grammatical_gender == "f"
    user.display_name, user.gender = "Кикимора", User.Gender.UNSET
    assert user.grammatical_gender == ""


def test_the_profile_asks_the_gender_in_russian_and_saves_it(started):
    kikimora = user_named(started, "Кикимора")
    client = client_for(kikimora)
    page = client.get(reverse("accounts:profile_edit"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Пол" in page and "женский" in page and "мужской" in page and "не указан" in page
    response = client.post(reverse("accounts:profile_edit"), {
        "display_name": "Кикимора", "time_zone": kikimora.time_zone, "language": "ru", "gender": "f"})
    assert response.status_code == 302
    kikimora.refresh_from_db()
    assert kikimora.gender == "f"


def _set_gender(game, name: str, gender: str) -> None:
    User.objects.filter(pk=user_named(game, name).pk).update(gender=gender)


def test_a_stored_event_about_a_player_agrees_with_the_seats_users_gender(started):
    _set_gender(started, "Кикимора", "f")
    _set_gender(started, "Негодяй", "m")
    events = [Event("killed", PUBLIC, {"name": name}) for name in ("Кикимора", "Негодяй", "Вася", "Фроло")]
    with translation.override("ru"):
        texts = [e.text for e in store_events(game=started, phase=None, events=events, now=started.created_at)]
    assert texts == ["Убита: Кикимора.", "Убит: Негодяй.", "Убит: Вася.", "Погибает: Фроло."]


def test_the_cards_random_deck_says_ей_and_её_for_a_female_player():
    data = {"name": "Кикимора", "deck": ["Пистолет"]}
    with translation.override("ru"):
        with speaking_of({"Кикимора": "f"}):
            female = event_text("cards", "deck_auto", data)
        with speaking_of({"Кикимора": ""}):
            neutral = event_text("cards", "deck_auto", data)
    assert "ей выдана" in female and "её роли" in female and "его" not in female and "ему" not in female
    assert "игроку выдана" in neutral and "роли игрока" in neutral and "его" not in neutral


def test_the_roster_is_asked_before_the_guess():
    assert gender_of("Вася") == "m"
    with speaking_of({"Вася": "f"}):
        assert gender_of("Вася") == "f"
    with speaking_of({"Вася": ""}):  # a player who gave no gender and whose name is not guessed
        assert gender_of("Вася") == ""
    assert gender_of("Вася") == "m"


def test_a_private_message_to_a_player_out_of_the_game_agrees_with_her(started):
    _set_gender(started, "Кикимора", "f")
    Seat.objects.filter(pk=seat_named(started, "Кикимора").pk).update(status="killed", is_alive=False)
    with translation.override("ru"), pytest.raises(ActionRefused) as refused:
        write(started, "Вася", '[private="Кикиморе"]привет[/private]')
    assert "Кикимора выбыла из игры" in str(refused.value)


def test_the_private_message_bell_says_написала_for_a_female_sender(started):
    _set_gender(started, "Кикимора", "f")
    write(started, "Кикимора", '[private="Васе"]привет[/private]')
    [note] = Notification.objects.filter(kind=Notification.Kind.PRIVATE_MESSAGE, user=user_named(started, "Вася"))
    assert note.text.startswith("Кикимора написала вам личное сообщение")


def test_every_agreeing_message_has_its_neutral_masculine_and_feminine_russian():
    """The class: a message marked under msgctxt masculine has a feminine form and a neutral one
    (the plain msgid), all different, and the neutral one names no gendered pronoun."""
    plain = {e.msgid: e.msgstr.get(0, "") for e in ALL_ENTRIES if e.msgctxt is None}
    by_context = {(e.msgctxt, e.msgid): e.msgstr.get(0, "") for e in ALL_ENTRIES if e.msgctxt in ("masculine", "feminine")}
    msgids = {msgid for _context, msgid in by_context}
    assert len(msgids) >= 25
    for msgid in msgids:
        masculine, feminine = by_context.get(("masculine", msgid)), by_context.get(("feminine", msgid))
        neutral = plain.get(msgid)
        assert masculine and feminine and neutral, msgid
        assert len({masculine, feminine, neutral}) == 3, msgid
        assert not re.search(r"(?<![а-яё])(его|ему|него|он|она|её|ей)(?![а-яё])|\(а\)", neutral, re.I), neutral


def test_no_russian_sentence_hedges_a_players_gender_with_a_bracket():
    """«закопан(а)», «написал(а)» guess at nobody: such a message agrees (games.wording.agreed)."""
    hedged = [e.msgid for e in ALL_ENTRIES if any(re.search(r"[а-яё]\((а|ла|на)\)", form) for form in e.msgstr.values())]
    assert hedged == []
