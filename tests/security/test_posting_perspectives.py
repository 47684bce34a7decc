"""Who may WRITE in each thread of the seeded game (tests/security/conftest.py), from every
perspective, while it runs and after it: games.permissions.can_post against a table of the rules,
both ways, and the reply URL for the cases that matter most (a dead member of a room, a site
moderator who is not the GM).

The reading side is test_url_perspectives.py; this is its twin for posting (issue 6: "Dead
players cannot post in the game thread or in rooms"; private threads are the archive after the
game)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Post, Thread
from games.permissions import can_post
from tests.security.conftest import C_ROOM, GMS, PERSPECTIVES

pytestmark = pytest.mark.django_db

LOGGED_IN = set(PERSPECTIVES) - {"anonymous"}
MODERATORS = GMS | {"moderator"}  # site moderators moderate every thread they can read
# Living players: Вася, Маленький Джон, Красная Шапочка, Кикимора (mafia), Негодяй; Фроло was
# modkilled after the room of Вася, Красная Шапочка and Фроло opened; Эсмеральда is jailed.
PLAYERS = {"vasya", "john", "shapka", "kikimora", "thief", "frolo"}

RUNNING_WRITERS = {
    # 002: talking in the game thread «доступна всем игрокам», the jailed and the dead included;
    # not the modkilled Фроло, out of the game as a replaced player is (issue 29).
    "game": (PLAYERS - {"frolo"}) | MODERATORS,
    "discussion": LOGGED_IN,
    "faction": {"kikimora"} | GMS,          # the mafia still in play; not a site moderator: he cannot read it
    "gm_chat": {"vasya"} | GMS,              # Вася's letters
    "room": {"vasya", "shapka"} | GMS,       # Фроло reads his old room and no longer writes in it
    "lounge": {"spectator", "frolo", "other_gm", "moderator"} | GMS,
}
# After the game the private threads are the archive: read by all, written by the moderators only;
# the public threads stay open for the post-game talk.
FINISHED_WRITERS = {
    "game": LOGGED_IN,
    "discussion": LOGGED_IN,
    "faction": MODERATORS,
    "gm_chat": MODERATORS,
    "room": MODERATORS,
    "lounge": MODERATORS,
}


def threads(world) -> dict[str, Thread]:
    game = Game.objects.get(pk=world.game.pk)
    return {
        "game": game.game_thread,
        "discussion": game.discussion_thread,
        "faction": game.private_threads.get(kind=Thread.Kind.FACTION),
        "gm_chat": game.private_threads.get(kind=Thread.Kind.GM_CHAT, seat=world.seats["vasya"]),
        "room": game.private_threads.get(kind=Thread.Kind.ROOM),
        "lounge": game.private_threads.get(kind=Thread.Kind.LOUNGE),
    }


def writers(world) -> dict[str, set[str]]:
    from django.contrib.auth.models import AnonymousUser

    found = {}
    for name, thread in threads(world).items():
        found[name] = {who for who in PERSPECTIVES
                       if can_post(world.user(who) or AnonymousUser(), Thread.objects.get(pk=thread.pk))}
    return found


def test_each_perspective_writes_exactly_where_the_rules_allow_while_the_game_runs(shared_world):
    assert writers(shared_world) == RUNNING_WRITERS


def test_after_the_game_the_private_threads_are_read_only_but_for_the_moderators(shared_world):
    from django.utils import timezone

    from games.services.lifecycle import game_finish

    game_finish(game=Game.objects.get(pk=shared_world.game.pk), winner="town", now=timezone.now())
    assert writers(shared_world) == FINISHED_WRITERS
    # Every room still open was locked by the end of the game.
    assert threads(shared_world)["room"].is_locked


def test_a_dead_room_member_reads_his_room_and_cannot_post_in_it(shared_world):
    world = shared_world
    room = threads(world)["room"]
    client = world.client("frolo")
    page = client.get(room.get_absolute_url())
    assert page.status_code == 200 and C_ROOM in page.content.decode()
    before = Post.objects.filter(thread=room).count()
    response = client.post(reverse("games:thread_reply", args=[room.pk]), {"body": "Я ещё здесь"})
    assert response.status_code == 400
    assert Post.objects.filter(thread=room).count() == before
    assert 'name="body"' not in page.content.decode().split('id="reply"', 1)[-1]


def test_a_site_moderator_who_is_not_the_gm_cannot_reach_a_running_games_private_threads(shared_world):
    world = shared_world
    client = world.client("moderator")
    for name in ("faction", "gm_chat", "room"):
        thread = threads(world)[name]
        before = Post.objects.filter(thread=thread).count()
        assert client.get(thread.get_absolute_url()).status_code == 404, name
        assert client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": "Проверка"}).status_code == 404
        assert Post.objects.filter(thread=thread).count() == before
