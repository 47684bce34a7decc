"""The JSON export of a game (docs/export.md): valid against docs/export.schema.json, a JSON
round trip, every ledger line of the database, secrets only for those the archive is for."""

import hashlib
import json
import pathlib
from datetime import datetime

import pytest
from django.urls import reverse
from jsonschema import Draft202012Validator, FormatChecker

from games.models import AnonymousMessage, GameEvent, GMAction, Order, Post, PrivateMessage, Thread, VoteRecord
from games.services.export import game_export
from games.services.orders import order_submit
from games.services.posting import post_submit
from games.services.votes import vote_correct
from tests.conftest import client_for, make_user

SCHEMA = json.loads((pathlib.Path(__file__).resolve().parents[2] / "docs" / "export.schema.json").read_text())


def _validator() -> Draft202012Validator:
    formats = FormatChecker()

    @formats.checks("date-time", raises=ValueError)
    def _iso(value) -> bool:  # jsonschema checks date-time only with extra packages; check it here
        return not isinstance(value, str) or datetime.fromisoformat(value).tzinfo is not None

    return Draft202012Validator(SCHEMA, format_checker=formats)


def _valid(data: dict) -> None:
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]


def test_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.fixture
def richer_game(finished_game):
    """The finished game with one of each record the scenario lacks: a GM correction of a vote,
    a refused order, an anonymous message, a deleted post."""
    game = finished_game.game
    day2 = game.phases.get(number=2)
    vote_correct(post=Post.objects.get(thread=game.game_thread, number=12), gm=finished_game.gm, kind="none", note="шутка")
    dasha = finished_game.seat("Даша")
    Order.objects.create(phase=day2, actor=dasha, text="Проверяю кого-то", source=Order.Source.TEXT, valid=False,
                         reason="name_missing", recorded_at=day2.opened_at, recorded_by=dasha.user)
    AnonymousMessage.objects.create(game=game, sender=dasha, recipient=finished_game.seat("Вася"), text="Берегись.",
                                    status=AnonymousMessage.Status.DELIVERED, created_at=day2.opened_at)
    Post.objects.filter(thread=game.game_thread, number=3).update(is_deleted=True)
    return finished_game


def test_export_is_schema_valid_and_round_trips(richer_game):
    data = game_export(richer_game.game)
    _valid(data)
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data


def test_export_holds_every_ledger_line(richer_game):
    game = richer_game.game
    data = game_export(game)
    threads = [game.game_thread_id, game.discussion_thread_id, *game.private_threads.values_list("pk", flat=True)]
    assert len(data["votes"]) == VoteRecord.objects.filter(phase__game=game).count() == 11
    assert len(data["orders"]) == Order.objects.filter(phase__game=game).count() == 3
    assert len(data["events"]) == GameEvent.objects.filter(game=game).count()
    assert len(data["gm_log"]) == GMAction.objects.filter(game=game).count()
    assert len(data["messages"]) == Post.objects.filter(thread_id__in=threads).count()
    assert len(data["private_messages"]) == PrivateMessage.objects.filter(post__thread=game.game_thread).count() == 2
    assert len(data["anonymous_messages"]) == 1 and data["anonymous_messages"][0]["text"] == "Берегись."
    assert len(data["rooms"]) == game.private_threads.filter(kind=Thread.Kind.ROOM).count() == 1
    assert len(data["phases"]) == 3 and len(data["roster"]) == 7
    kinds = {m["thread_kind"] for m in data["messages"]}
    assert {"game", "faction", "gm_chat"} <= kinds
    correction = next(v for v in data["votes"] if v["source"] == "gm")
    assert correction["kind"] == "none" and correction["note"] == "шутка" and correction["post_number"] == 12
    refused = next(o for o in data["orders"] if not o["valid"])
    assert refused["reason"] == "name_missing" and refused["text"] == "Проверяю кого-то"
    deleted = next(m for m in data["messages"] if m["thread"] == game.game_thread_id and m["number"] == 3)
    assert deleted["deleted"] and deleted["body"] is None


def test_export_speaks_in_seat_numbers_and_reveals_the_commitment(richer_game):
    game = richer_game.game
    data = game_export(game)
    by_number = {r["number"]: r for r in data["roster"]}
    first_vote = data["votes"][0]  # Глаша votes for Саша in post #5
    assert by_number[first_vote["voter_seat"]]["player"]["display_name"] == "Глаша"
    assert by_number[first_vote["target_seat"]]["player"]["display_name"] == "Саша"
    assert {r["player"]["display_name"]: r["role"] for r in data["roster"]}["Вася"] == "recruiter"
    assert data["rooms"][0]["members"] == [1, 2, 3]
    assert data["game"]["rng_seed"] == 7 and data["sealed"] is False
    # The export alone is enough to check the commitment.
    roles = [[r["number"], r["player"]["display_name"], r["dealt_role"]] for r in data["roster"]]
    payload = f"{data['game']['commitment_salt']}:" + json.dumps(roles, ensure_ascii=False, separators=(",", ":"))
    assert hashlib.sha256(payload.encode()).hexdigest() == data["game"]["commitment"]


def test_export_view_is_a_json_download(finished_game):
    game = finished_game.game
    response = client_for(None).get(reverse("games:export", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.json"'
    data = json.loads(response.content)
    _valid(data)
    assert "Я рекрутёр, проверю Машу." in {m["html"] for m in data["private_messages"]}


def test_running_game_export_is_the_gms_sealed_preview(started):
    game = started
    vasya = game.seats.get(user__display_name="Вася").user
    post_submit(thread=game.game_thread, author=vasya, body='[private="Маленький Джон"]тайна[/private]')
    order_submit(game=game, user=vasya, text="Проверяю Негодяя.")
    url = reverse("games:export", args=[game.pk])
    for user in (make_user("Зритель"), vasya):
        assert client_for(user).get(url).status_code == 404
    assert client_for(None).get(url)["Location"].startswith(reverse("account_login"))  # issue 29: log in first
    response = client_for(game.gm).get(url)
    assert response.status_code == 200
    data = json.loads(response.content)
    _valid(data)
    assert data["sealed"] is True and data["game"]["commitment_salt"] is None and data["game"]["rng_seed"] is None
    assert data["game"]["commitment"] == game.commitment
    assert len(data["orders"]) == 1 and len(data["private_messages"]) == 1


def test_export_without_a_viewer_is_refused_while_the_game_runs(started):
    from django.http import Http404

    with pytest.raises(Http404):
        game_export(started)


def test_export_checks_the_commitment_after_a_role_changed_by_the_rules(richer_game):
    """Issue 28, item 1: a role a rule changed after the deal (the Show's Змеёныш, a card) is the
    roster's `role`; `dealt_role` is what the commitment hashed, so the export alone still checks it."""
    game = richer_game.game
    seat = game.seats.order_by("number").first()
    dealt = seat.role
    type(seat).objects.filter(pk=seat.pk).update(role="mafioso" if dealt != "mafioso" else "citizen")
    data = game_export(game)
    first = next(r for r in data["roster"] if r["number"] == seat.number)
    assert first["dealt_role"] == dealt != first["role"]
    roles = [[r["number"], r["player"]["display_name"], r["dealt_role"]] for r in data["roster"]]
    payload = f"{data['game']['commitment_salt']}:" + json.dumps(roles, ensure_ascii=False, separators=(",", ":"))
    assert hashlib.sha256(payload.encode()).hexdigest() == data["game"]["commitment"]
