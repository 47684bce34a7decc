"""A whole 10-player `cards` game through the site's services (issue 9: «A GM can run a whole
10-player `cards` game on the site, from applications and deck building to a winner»): signups with
«Класс» and «Внешность», the start, deck building (decks submitted by some, dealt for the others),
nights with card plays, days with the Veche in posts, to a winner."""

import random

import pytest
from django.utils import translation

from games.rulesets.cards.engine import CARDS, collection_of, starter_deck
from games.engine.state import GameState
from games.models import Game, GameEvent, Order, Seat
from games.rulesets.cards.services import card_gm_effect_add, card_input_submit, card_view
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close, phase_preview
from games.services.votes import vote_button_text
from tests.conftest import make_user

NAMES = ["Вася", "Петя", "Маша", "Глаша", "Паша", "Даша", "Саша", "Миша", "Гоша", "Люба"]
CLASSES = ["Патрульный", "Богач", "Качок", "Параноик", "Гадалка", "Боец", "Наркоман", "Секретарша", "Охранник",
           "Звездочёт"]


def _state(game) -> GameState:
    game.refresh_from_db()
    return GameState.from_json(game.state)


def _night(game, users, seats):
    """Each living player plays a targeted Hand card at someone of another faction if he can, else
    a card without a target; one discards instead."""
    state = _state(game)
    alive = [s for s in seats if state.seat(s.pk).is_active]
    for seat in alive:
        view = card_view(game=game, seat=seat)
        enemies = [s for s in alive if (s.faction == "mafia") != (seat.faction == "mafia")]
        for card in view.hand:
            target = enemies[0].pk if card.target in ("other",) and enemies else None
            if card.target in ("two", "dead") or (card.target == "other" and target is None):
                continue
            detail = {"card": card.name, "from": "hand"}
            if target is not None:
                detail["target"] = target
            _order, confirmation = card_input_submit(game=game, user=users[seat.user.display_name], action="play",
                                                     detail=detail)
            if confirmation.accepted:
                break


def _day(game, users, seats):
    """The law votes to execute a living mafioso (the mafia votes for peace)."""
    state = _state(game)
    alive = [s for s in seats if state.seat(s.pk).is_active]
    mafia = [s for s in alive if s.faction == "mafia"]
    for seat in alive:
        if seat.faction == "mafia" or not mafia:
            body = "[b]За мир[/b]"
        else:
            body = vote_button_text(mafia[0].user.display_name, "cards")
        post_submit(thread=game.game_thread, author=users[seat.user.display_name], body=body)


@pytest.mark.django_db
def test_a_whole_ten_player_game_to_a_winner():
    gm = make_user("Ведущий")
    game = game_create(title="Карточная мафия", gm=gm, ruleset="cards", size=10)
    users = {name: make_user(name) for name in NAMES}
    for name, overt in zip(NAMES, CLASSES):
        game_signup(game=game, user=users[name], overt_role=overt, contacts=f"tg @{name}")
    game_start(game=game, by=gm, seed=2024)
    game.refresh_from_db()
    seats = list(game.seats.select_related("user").order_by("number"))
    assert game.current_phase.kind == "deckbuilding"
    assert sorted(s.faction for s in seats).count("mafia") == 3  # «В игре всегда 3 мафии»
    assert all(s.role not in ("law", "joker_or_traitor") for s in seats)

    # Deck building: half submit a legal deck, the others are dealt one at the deadline.
    collection = collection_of(_state(game))
    submitted = seats[:5]
    for index, seat in enumerate(submitted):
        deck = starter_deck(seat.role, collection, random.Random(index))
        _order, confirmation = card_input_submit(game=game, user=seat.user, action="deck", detail={"cards": deck})
        assert confirmation.accepted, confirmation.message
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    assert game.current_phase.kind == "night" and game.current_phase.number == 1
    auto = set(GameEvent.objects.filter(game=game, kind="deck_auto", audience="gm").values_list("data__seat", flat=True))
    assert auto == {s.pk for s in seats[5:]}
    assert CARDS.hand_sizes(_state(game)) == {s.pk: 6 + (1 if CLASSES[i] == "Здоровяк" else 0)
                                              for i, s in enumerate(seats)}

    for _round in range(40):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        phase = game.current_phase
        if phase.kind == "night":
            _night(game, users, seats)
        else:
            _day(game, users, seats)
        if _round >= 16:  # the GM hurries a long game along: damage by hand to a mafioso
            state = _state(game)
            living_mafia = [s for s in seats if s.faction == "mafia" and state.seat(s.pk).is_active]
            if living_mafia:
                card_gm_effect_add(phase=phase, gm=gm, effect={"op": "damage", "target": living_mafia[0].pk, "n": 9})
        preview = phase_preview(phase=phase)
        assert preview is not None and "hand_sizes" in preview.resolution.outcome
        assert phase_close(phase_id=phase.pk)
        phase.refresh_from_db()
        if phase.kind == "day":
            assert phase.outcome["votes"]  # the Veche was read from the posts
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner == "law", game.winner  # seeded: the Law executes the mafia
    assert Order.objects.filter(phase__game=game, action="play", valid=True).exists()
    assert Order.objects.filter(phase__game=game, action="measure", source="text").exists()
    assert GameEvent.objects.filter(game=game, kind="game_over").exists()
    # The seats mirror the state; the dead are marked.
    state = _state(game)
    for seat in Seat.objects.filter(game=game):
        assert seat.status == state.seat(seat.pk).status
    with translation.override("en"):
        last = game.game_thread.posts.order_by("-number").first().body
    assert "SHA-256" in last
