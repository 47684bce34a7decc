"""A sympathy's deferred message (issue 28, item 9): «Он выбирает в меню одного из других
участников и отправляет ему отложенное сообщение, подкрепляющее его намерение заключить Альянс»;
«В конце первого дня наступает этап "Выбор Союзника", все получают отправленные им ранее
сообщения-Симпатии». Written on the sympathy form, checked and sanitised as a post's body; read by
its sender and the GMs, by its receiver from the «Выбор Союзника» stage on, by nobody else while the
show runs (games.permissions.filter_visible_deferred_messages): one test per perspective."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.urls import reverse

from games.models import Game, Order
from games.services.resolution import phase_close
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "show" / "coins-first-day-alliances-bets-burdens.yaml"
MESSAGE = "[b]Давай[/b] дружить до конца <script>alert(1)</script>"
SHOWN = "<strong>Давай</strong> дружить до конца"


def _show(tmp_path):
    """The file's greetings and day 1 played through the site and kept: defence 1 is open, the
    first sympathies' window still."""
    from games import scenarios

    data = yaml.safe_load(SCENARIO.read_text("utf-8"))
    data["phases"] = data["phases"][:2]
    data.pop("expect", None)
    path = tmp_path / "show.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = scenarios.play(str(path), keep=True)
    assert report.ok, [p.diffs for p in report.phases]
    game = Game.objects.filter(ruleset="show").latest("pk")
    assert game.current_phase.kind == "defence"
    seats = {s.dealt_name: s for s in game.seats.select_related("user")}
    return game, seats


def _send(game, seat, to, message):
    return client_for(seat.user).post(reverse("games:show_act", args=[game.pk]),
                                      {"act": "sympathy", "target": to.pk, "message": message}, follow=True)


def _about(game, viewer, seat) -> tuple[int, str]:
    response = client_for(viewer).get(reverse("games:show_about", args=[game.pk, seat.pk]))
    return response.status_code, response.content.decode()


def _close(game):
    game.refresh_from_db()
    phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at)
    game.refresh_from_db()


def test_the_sender_writes_a_message_kept_with_his_sympathy_and_reads_it_sanitised(tmp_path):
    game, seats = _show(tmp_path)
    _send(game, seats["Вера"], seats["Гоша"], MESSAGE)
    row = Order.objects.get(phase=game.current_phase, action="sympathy", actor=seats["Вера"])
    assert row.valid and row.target == seats["Гоша"] and row.detail == {"message": MESSAGE}
    panel = client_for(seats["Вера"].user).get(game.get_absolute_url()).content.decode()
    assert SHOWN in panel and "<script>alert" not in panel
    code, page = _about(game, seats["Вера"].user, seats["Вера"])
    assert code == 200 and SHOWN in page and "<script>alert" not in page


def test_the_receiver_reads_nothing_before_the_choice_of_an_ally_and_the_message_then(tmp_path):
    game, seats = _show(tmp_path)
    _send(game, seats["Вера"], seats["Гоша"], MESSAGE)
    gosha = seats["Гоша"].user
    assert "дружить" not in client_for(gosha).get(game.get_absolute_url()).content.decode()
    assert "дружить" not in _about(game, gosha, seats["Гоша"])[1]
    _close(game)  # defence 1
    _close(game)  # revote 1: «В конце первого дня наступает этап "Выбор Союзника"»
    assert game.current_phase.kind == "allies"
    panel = client_for(gosha).get(game.get_absolute_url()).content.decode()
    letters = panel[panel.index("show-letters"):]
    assert "Вера" in letters and SHOWN in letters
    assert SHOWN in _about(game, gosha, seats["Гоша"])[1]


def test_the_gm_reads_every_message_at_once_on_the_heroes_pages(tmp_path):
    game, seats = _show(tmp_path)
    _send(game, seats["Вера"], seats["Гоша"], MESSAGE)
    for seat in (seats["Вера"], seats["Гоша"]):
        code, page = _about(game, game.gm, seat)
        assert code == 200 and SHOWN in page
    assert "не доставлена" in _about(game, game.gm, seats["Гоша"])[1]


def test_no_other_hero_nor_anyone_else_reads_it_while_the_show_runs(tmp_path):
    game, seats = _show(tmp_path)
    _send(game, seats["Вера"], seats["Гоша"], MESSAGE)
    _close(game)
    _close(game)
    dasha = seats["Даша"].user
    assert _about(game, dasha, seats["Гоша"])[0] == 404 and _about(game, dasha, seats["Вера"])[0] == 404
    assert "дружить" not in _about(game, dasha, seats["Даша"])[1]
    for viewer in (dasha, None):
        for url in (game.get_absolute_url(), reverse("games:show_status", args=[game.pk]),
                    reverse("games:thread", args=[game.game_thread_id])):
            assert "дружить" not in client_for(viewer).get(url).content.decode(), (viewer, url)


def test_a_superseded_sympathy_carries_nothing_to_its_first_receiver(tmp_path):
    """«the last one in its window stands»: Вера changes her mind within the window."""
    game, seats = _show(tmp_path)
    _send(game, seats["Вера"], seats["Гоша"], MESSAGE)
    _send(game, seats["Вера"], seats["Даша"], "Лучше с тобой")
    _close(game)
    _close(game)
    assert "дружить" not in _about(game, seats["Гоша"].user, seats["Гоша"])[1]
    assert "Лучше с тобой" in _about(game, seats["Даша"].user, seats["Даша"])[1]


@pytest.mark.parametrize("message, code", [("я" * 1001, "too_long"), ("[b][/b]", "nothing_visible")])
def test_a_bad_message_is_refused_with_its_reason_and_writes_nothing(tmp_path, message, code):
    game, seats = _show(tmp_path)
    before = Order.objects.filter(phase=game.current_phase).count()
    page = _send(game, seats["Вера"], seats["Гоша"], message).content.decode()
    assert Order.objects.filter(phase=game.current_phase).count() == before
    assert {"too_long": "слишком длинное", "nothing_visible": "ничего не показывает"}[code] in page


def test_a_sympathy_without_words_is_still_a_sympathy(tmp_path):
    game, seats = _show(tmp_path)
    _send(game, seats["Вера"], seats["Гоша"], "   ")
    row = Order.objects.get(phase=game.current_phase, action="sympathy", actor=seats["Вера"])
    assert row.valid and row.detail is None
