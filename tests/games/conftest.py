"""Fixtures of the game tests: a forum game with seven players, before and after the deal."""

import pytest

from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from tests.conftest import make_user

ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]
NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"]


@pytest.fixture
def forum_game(db):
    gm = make_user("Ведущий")
    game = game_create(title="Форумная", gm=gm, size=7)
    users = [make_user(name) for name in NAMES]
    for user in users:
        game_signup(game=game, user=user)
    return game


@pytest.fixture
def started(forum_game):
    game_start(game=forum_game, by=forum_game.gm, seed=5, roles_in_seat_order=ROLES)
    forum_game.refresh_from_db()
    return forum_game


@pytest.fixture
def thread(started):
    """The started game's thread with three posts (Вася, Кикимора, Негодяй: «Пост 0..2»), for the
    tests of the thread page and its caches."""
    for index, name in enumerate(["Вася", "Кикимора", "Негодяй"]):
        author = started.seats.select_related("user").get(user__display_name=name).user
        post_submit(thread=started.game_thread, author=author, body=f"[b]Пост {index}[/b]")
    return started.game_thread
