"""Smaller forum tables through the site (issue 14, item 11): the game-creation form and the deal
accept a role table the GM writes for 5 or 6 players; without one the automatic table still
needs 7, and the form says how to play smaller (docs/rulesets/forum.md)."""

import pytest
from django.urls import reverse

from games.models import Game
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.conftest import client_for, make_user

SIX = "рекрутёр, реаниматор, мафиози, киллер, честный житель, честный житель"


def _create(gm, **payload):
    data = {"title": "Малая", "ruleset": "forum", "size": 6, "roles": SIX, "phase_hours": 24, **payload}
    return client_for(gm).post(reverse("games:game_new"), data)


def test_game_form_accepts_a_six_player_table_when_the_gm_writes_it(db):
    gm = make_user("Ведущий")
    _create(gm)
    game = Game.objects.get(title="Малая")
    assert game.size == 6 and sorted(game.role_table) == sorted(
        ["recruiter", "reanimator", "mafioso", "killer", "citizen", "citizen"])
    for n in range(6):
        game_signup(game=game, user=make_user(f"Игрок{n}"))
    game_start(game=game, by=gm, seed=3)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.seats.count() == 6


def test_game_form_refuses_six_players_without_a_table_and_says_why(db):
    gm = make_user("Ведущий")
    response = _create(gm, roles="")
    assert response.status_code == 400 and not Game.objects.filter(title="Малая").exists()
    errors = response.context["form"].errors["size"]
    assert any("7" in str(e) and "20" in str(e) for e in errors)


def test_game_form_refuses_a_table_when_the_game_would_be_over_at_the_start(db):
    gm = make_user("Ведущий")
    response = _create(gm, size=5, roles="мафиози, мафиози, киллер, мафиози, мафиози")
    assert response.status_code == 400 and not Game.objects.filter(title="Малая").exists()
    assert "roles" in response.context["form"].errors


def test_start_refuses_five_players_when_the_automatic_table_is_used(db):
    gm = make_user("Ведущий")
    game = game_create(title="Без таблицы", gm=gm, size=5)
    for n in range(5):
        game_signup(game=game, user=make_user(f"Игрок{n}"))
    with pytest.raises(ActionRefused) as refused:
        game_start(game=game, by=gm, seed=3)
    assert refused.value.code == "too_few"
    game.refresh_from_db()
    assert game.status == Game.Status.SIGNUPS
