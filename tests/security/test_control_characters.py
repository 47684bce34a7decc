"""Control characters in inputs (docs/security.md, "Control characters in inputs"): a NUL byte or
another C0 control posted into any text field is removed before any view sees it, so nothing is
stored raw and PostgreSQL (which refuses NUL in text) never turns it into a server error.

Run on PostgreSQL with DATABASE_URL; on SQLite they check that the text is stored cleaned."""

from __future__ import annotations

import pytest
from django.urls import reverse

from config.input_sanitising import strip_control_characters
from games.models import AnonymousMessage, GameEvent, Post, Report, Seat, Thread
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from tests.conftest import client_for, make_user
from tests.games.conftest import NAMES, ROLES

DIRTY = "до\x00по\x01сле\x7f"
CLEAN = "допосле"


def test_strip_control_characters_keeps_tab_newline_and_return_when_removing_the_others():
    assert strip_control_characters("a\x00b\tc\nd\re\x1bf\x0bg\x0ch\x7f") == "ab\tc\nd\ref" "gh"


@pytest.fixture
def world(db):
    gm = make_user("Ведущий")
    game = game_create(title="Игра", gm=gm, size=7)
    users = {name: make_user(name) for name in NAMES}
    for user in users.values():
        game_signup(game=game, user=user)
    game.options = {**game.options, "anonymous_messages": {"limit": 3, "approval": False}}
    game.save(update_fields=["options"])
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    thread = game.game_thread
    post = post_submit(thread=thread, author=users["Вася"], body="Привет всем.")
    return gm, game, users, post


@pytest.mark.django_db
def test_nul_is_removed_when_posted_into_any_text_field(world):
    gm, game, users, post = world
    gm_client, vasya, john = client_for(gm), client_for(users["Вася"]), client_for(users["Маленький Джон"])
    recipient = Seat.objects.get(game=game, user=users["Фроло"])
    responses = {
        "anonymous message": vasya.post(reverse("games:anonymous", args=[game.pk]),
                                        {"recipient": recipient.pk, "text": DIRTY}),
        "GM event": gm_client.post(reverse("games:gm_action", args=[game.pk]),
                                   {"action": "event", "audience": "public", "text": DIRTY, "confirm": "yes"}),
        "replacement reason": john.post(reverse("games:replacement_request", args=[game.pk]), {"reason": DIRTY}),
        "report reason": john.post(reverse("games:post_report", args=[post.pk]), {"reason": DIRTY}),
        "deletion reason": gm_client.post(reverse("games:post_delete", args=[post.pk]),
                                          {"action": "delete", "reason": DIRTY, "confirm": "yes"}),
    }
    assert {what: r.status_code for what, r in responses.items() if r.status_code >= 500} == {}
    assert AnonymousMessage.objects.get(game=game).text == CLEAN
    assert GameEvent.objects.filter(game=game, text=CLEAN).exists()
    assert Seat.objects.get(game=game, user=users["Маленький Джон"]).replacement_reason == CLEAN
    assert Report.objects.get(post=post).reason == CLEAN
    assert Post.objects.get(pk=post.pk).deleted_reason == CLEAN


@pytest.mark.django_db
def test_nul_is_removed_when_posted_into_a_signup_application_or_a_post():
    gm = make_user("Ведущий")
    game = game_create(title="Игра", gm=gm, size=7)
    player = make_user("Вася")
    response = client_for(player).post(reverse("games:game_join", args=[game.pk]), {"application": DIRTY})
    assert response.status_code < 500
    assert Seat.objects.get(game=game, user=player).application == CLEAN
    response = client_for(player).post(reverse("games:thread_new", args=["lobby"]),
                                       {"title": "За\x00головок", "body": DIRTY})
    assert response.status_code < 500
    assert Thread.objects.filter(title="Заголовок").exists()
    assert Post.objects.filter(body=CLEAN).exists()


@pytest.mark.django_db
def test_control_characters_are_removed_when_sent_in_a_query_string(client):
    response = client.get(reverse("games:search"), {"q": "зяб\x00лик"})
    assert response.status_code < 500
    assert response.wsgi_request.GET["q"] == "зяблик"
