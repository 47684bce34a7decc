"""Issue 14, item 15: «Target lists offer dead players and oneself (refused only on submit): offer only
valid targets.» The seed: «Целью можно выбрать любого живого персонажа, кроме себя.» (Аутопсия's
target is a dead character: the card says otherwise.) For each target kind of the collection
(other, two, dead), the cards page offers exactly the seats the engine's own check accepts, and
each one offered is accepted when sent."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from games.rulesets.cards.engine import CARDS
from games.engine.state import GameState
from games.models import Game
from games.rulesets.cards.services import card_input_submit
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

PLAYERS = [("Вася", "sheriff"), ("Петя", "boss"), ("Маша", "doctor"), ("Фроло", "commissioner"), ("Глаша", "killer")]
# One card of each target kind: other (Пистолет), two (Подмена, Price 1), dead (Аутопсия).
HAND = ["Пистолет", "Подмена", "Аутопсия", "Нож", "Бункер", "Кофе"]


def _options(body: str, card: str, name: str) -> set[str]:
    """The seat ids offered in the `name` select of the card's play form."""
    start = body.index(f'name="card" value="{card}"')
    form = body[start:body.index("</form>", start)]
    match = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', form, re.S)
    return set(re.findall(r'<option value="(\d+)"', match.group(1))) if match else set()


def _game_with_a_dead_player():
    gm = make_user("Ведущий")
    game = game_create(title="Цели", gm=gm, ruleset="cards", size=len(PLAYERS))
    users = {}
    for name, _role in PLAYERS:
        users[name] = make_user(name)
        game_signup(game=game, user=users[name])
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {s.pk: {"deck": ["Совет"] * 9, "hand": list(HAND), "sleeve": ["Пустышка"]} for s in seats.values()}
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=[r for _n, r in PLAYERS], seat_data=data)
    game.refresh_from_db()
    phase = game.current_phase
    phase.gm_decisions = {"damage": {str(seats["Маша"].pk): 30}}  # Маша dies in night 1
    phase.save(update_fields=["gm_decisions"])
    assert phase_close(phase_id=phase.pk, by=gm)
    assert phase_close(phase_id=Game.objects.get(pk=game.pk).current_phase.pk, by=gm)  # a quiet day 1
    game.refresh_from_db()
    assert game.current_phase.kind == "night"
    return game, users, seats


def test_cards_target_lists_offer_only_what_the_engine_accepts_when_a_player_is_dead():
    game, users, seats = _game_with_a_dead_player()
    vasya = seats["Вася"]
    state = GameState.from_json(game.state)
    assert state.seat(seats["Маша"].pk).status == "dead"
    client = client_for(users["Вася"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    living_others = {str(seats[n].pk) for n in ("Петя", "Фроло", "Глаша")}
    expected = {
        ("Пистолет", "target"): living_others,
        ("Подмена", "target"): living_others,
        ("Подмена", "target2"): living_others,
        ("Аутопсия", "target"): {str(seats["Маша"].pk)},
    }
    for (card, field), seats_expected in expected.items():
        offered = _options(body, card, field)
        assert offered == seats_expected, (card, field, offered)
        first, second = CARDS.valid_targets(state, vasya.pk, card)
        assert offered == {str(i) for i in (second if field == "target2" else first)}
    # Every seat offered is accepted when sent, and those left out are refused.
    for card, target in (("Пистолет", seats["Петя"].pk), ("Аутопсия", seats["Маша"].pk)):
        _o, confirmation = card_input_submit(game=game, user=users["Вася"], action="play",
                                             detail={"card": card, "from": "hand", "target": target})
        assert confirmation.accepted, confirmation.message
    for target in (vasya.pk, seats["Маша"].pk):
        _o, confirmation = card_input_submit(game=game, user=users["Вася"], action="play",
                                             detail={"card": "Пистолет", "from": "hand", "target": target})
        assert not confirmation.accepted
    _o, confirmation = card_input_submit(game=game, user=users["Вася"], action="play",
                                         detail={"card": "Подмена", "from": "hand", "target": seats["Петя"].pk,
                                                 "target2": seats["Глаша"].pk})
    assert confirmation.accepted, confirmation.message
