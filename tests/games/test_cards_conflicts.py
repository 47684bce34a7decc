"""Issue 14, item 15: «A night discard of two cards and a card play are both answered «принято», then
the discard is dropped at the close.» The seed: «Ночью, вместо того, чтобы играть карты, можно
сбросить две карты из Руки.» and «Каждую фазу (День или Ночь) можно сыграть не более одной карты из
Руки и не более одной карты из Рукава.»

The class, not the example: for every pair of inputs a player may send in one night, the engine's
close is asked (with both inputs standing) which one it drops; the site must refuse exactly those
pairs when the second input is sent, naming the one that stands, and then the close drops nothing."""

from __future__ import annotations

import itertools
from datetime import datetime, timezone

import pytest
from django.utils import translation

from games.engine.orders import PhaseInputs
from games.rulesets.cards.engine import CARDS
from games.engine.state import GameState
from games.models import GameEvent, Order
from games.rulesets.cards.services import card_input_submit, card_inputs_standing
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.resolution import phase_close
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

HAND = ["Бункер", "Нож", "Кофе", "Осторожность", "Запас", "Пистолет"]
SLEEVE = ["Бронежилет"]
PLAYERS = [("Вася", "sheriff"), ("Петя", "boss"), ("Маша", "doctor")]

# The inputs of one night, as the cards page sends them.
INPUTS = {
    "hand play": ("play", {"card": "Бункер", "from": "hand"}),
    "sleeve play": ("play", {"card": "Бронежилет", "from": "sleeve"}),
    "discard": ("discard", {"cards": ["Нож", "Кофе"]}),
    "other discard": ("discard", {"cards": ["Осторожность", "Запас"]}),
    "other hand play": ("play", {"card": "Осторожность", "from": "hand"}),
}


def _night_game():
    gm = make_user("Ведущий")
    game = game_create(title="Сброс", gm=gm, ruleset="cards", size=len(PLAYERS))
    users = {}
    for name, _role in PLAYERS:
        users[name] = make_user(name)
        game_signup(game=game, user=users[name])
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {seats[name].pk: {"deck": ["Совет"] * 9, "hand": list(HAND), "sleeve": list(SLEEVE)} for name, _ in PLAYERS}
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=[r for _n, r in PLAYERS], seat_data=data)
    game.refresh_from_db()
    assert game.current_phase.kind == "night"
    return game, users, seats, gm


def _engine_drops(state: GameState, seat: int, first, second) -> bool:
    """Would the close, given both inputs standing, refuse one of them?"""
    plays, discards = [], {}
    for action, detail in (first, second):
        if action == "play":
            plays.append({"by": seat, **detail})
        else:
            discards[seat] = list(detail["cards"])
    result = CARDS.resolve(state, PhaseInputs(extra={"plays": plays, "discards": discards}), seed=1,
                           now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    refused = [e for e in result.events if e.kind in ("play", "discard") and e.data.get("result") == "refused"]
    return bool(refused)


@pytest.mark.parametrize("first,second", list(itertools.permutations(INPUTS, 2)))
def test_cards_second_input_is_refused_when_the_close_would_drop_one_of_the_pair(first, second):
    game, users, seats, _gm = _night_game()
    vasya = seats["Вася"]
    state = GameState.from_json(game.state)
    drops = _engine_drops(state, vasya.pk, INPUTS[first], INPUTS[second])
    _order, one = card_input_submit(game=game, user=users["Вася"], action=INPUTS[first][0],
                                    detail=dict(INPUTS[first][1]))
    assert one.accepted, one.message
    with translation.override("en"):
        _order, two = card_input_submit(game=game, user=users["Вася"], action=INPUTS[second][0],
                                        detail=dict(INPUTS[second][1]))
        message = two.message
    assert two.accepted is not drops, (first, second, message)
    if drops:
        # The refusal says which one stands.
        stands = "your play stands" if INPUTS[first][0] == "play" else "the discard stands"
        assert stands in message, message
    # Whatever stands now, the close takes all of it: nothing accepted is dropped.
    extra = card_inputs_standing(phase=game.current_phase)
    result = CARDS.resolve(state, PhaseInputs(extra=extra), seed=1, now=datetime(2026, 1, 1, tzinfo=timezone.utc))
    refused = [e.data for e in result.events if e.kind in ("play", "discard") and e.data.get("result") == "refused"]
    assert refused == []


def test_cards_discard_after_a_play_is_refused_and_the_play_survives_the_close():
    """The issue's example, through the real close: the play was answered «принято», the later
    discard is refused at once, and at the close the play is done."""
    game, users, seats, gm = _night_game()
    vasya = seats["Вася"]
    _o, play = card_input_submit(game=game, user=users["Вася"], action="discard", detail={"cards": ["Нож", "Кофе"]})
    assert play.accepted
    _o, refused = card_input_submit(game=game, user=users["Вася"], action="play",
                                    detail={"card": "Бункер", "from": "hand"})
    assert not refused.accepted and refused.reason == "discard_instead"
    assert Order.objects.filter(actor=vasya, action="play", valid=False, reason="discard_instead").exists()
    phase = game.current_phase
    assert phase_close(phase_id=phase.pk, by=gm)
    notes = GameEvent.objects.filter(phase=phase, kind="discard", audience="gm")
    assert [n.data["result"] for n in notes] == ["done"]


def test_role_page_names_the_card_of_a_play_when_the_player_played_one():
    """«a play reads «Сыграть Негодяй» without the card's name»: the order list says which card,
    from where, at whom."""
    from django.conf import settings
    from django.urls import reverse

    from tests.conftest import client_for
    from tests.games.test_cards_texts import visible_text

    game, users, seats, _gm = _night_game()
    _o, confirmation = card_input_submit(game=game, user=users["Вася"], action="play",
                                         detail={"card": "Нож", "from": "hand", "target": seats["Петя"].pk})
    assert confirmation.accepted, confirmation.message
    client = client_for(users["Вася"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    text = visible_text(client.get(reverse("games:role", args=[game.pk])).content.decode())
    assert "Нож (Рука) → Петя" in text, text
