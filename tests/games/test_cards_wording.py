"""Issue 14, item 15's smaller defects: «6,5 in the count but 6.5 in the results (one number format for
the locale); «под запретом (фаз: 4)» printed twice; a blank public event line after a night; «Выгнан
голосованием: Петя. (мафиози)»; an empty vote-count box after the game ends.»"""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games.wording import event_text, results_bbcode
from games.models import Game, Phase
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.votes import vote_count_bbcode
from games.selectors.votes import vote_count
from tests.conftest import make_user


def test_vote_weights_print_in_the_locales_number_format_when_a_politician_votes(db):
    """«Политик +0,5 к силе голоса (голос считается за 1,5)»: his 1.5 reads «1,5» in Russian in the
    count on the page, in the posted count and in the results post alike."""
    gm = make_user("Ведущий")
    game = game_create(title="Вече", gm=gm, ruleset="cards", size=3)
    users = {name: make_user(name) for name in ("Вася", "Петя", "Маша")}
    for name, user in users.items():
        game_signup(game=game, user=user, overt_role="Политик" if name == "Вася" else "")
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {s.pk: {"deck": ["Совет"] * 9, "hand": ["Нож", "Бункер", "Кофе"]} for s in seats.values()}
    game_start(game=game, by=gm, seed=1, roles_in_seat_order=["sheriff", "boss", "doctor"], seat_data=data)
    game.refresh_from_db()
    assert phase_close(phase_id=game.current_phase.pk, by=gm)  # night 1 → day 1
    game.refresh_from_db()
    assert game.current_phase.kind == "day"
    post_submit(thread=game.game_thread, author=users["Вася"], body="[b]Казнить Петю[/b]")
    phase = game.current_phase
    with translation.override("ru"):
        page = render_to_string("games/_vote_count.html", {"game": game, "count": vote_count(phase=phase)})
        posted = vote_count_bbcode(vote_count(phase=phase))
    assert re.search(r'wagon-weight">1,5<', page), page
    assert "— 1,5" in posted and "1.5" not in posted
    assert phase_close(phase_id=phase.pk, by=gm)
    phase = Phase.objects.get(pk=phase.pk)
    with translation.override("ru"):
        results = results_bbcode(game, phase, phase.events.all().order_by("created_at", "pk"))
    assert "1,5" in results and "1.5" not in results


def test_prison_restriction_is_said_once_when_a_player_is_imprisoned():
    with translation.override("en"):
        text = event_text("cards", "phase_report", {"prison": {"lost": ["Нож"], "phases": 4}, "restricted": 4})
        containers = event_text("cards", "containers", {"hand": ["Нож"], "sleeve": [], "deck_size": 3,
                                                        "restricted": 4})
    assert text.count("targeted cards") == 1, text
    assert "targeted" not in containers


def test_role_goes_before_the_full_stop_when_a_player_is_voted_out():
    with translation.override("en"):
        assert event_text("forum", "executed", {"name": "Петя", "role": "mafioso"}) == "Петя is voted out (mafioso)."


def test_events_without_words_leave_no_blank_line_when_listed():
    rows = [{"event": {"kind": "night_result"}, "text": "", "audience": "all"},
            {"event": {"kind": "killed"}, "text": "Петя убит.", "audience": "all"}]
    html = render_to_string("games/_archive_events.html", {"rows": rows})
    assert html.count("<li") == 1
    with translation.override("en"):
        assert event_text("forum", "night_result", {"killed": [1], "retracted": True}) == ""


@pytest.mark.django_db
def test_vote_count_box_shows_the_last_count_when_the_game_is_over():
    gm = make_user("Ведущий")
    game = game_create(title="Конец", gm=gm, ruleset="cards", size=3)
    users = {name: make_user(name) for name in ("Вася", "Петя", "Маша")}
    for user in users.values():
        game_signup(game=game, user=user)
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {s.pk: {"deck": [], "hand": ["Нож", "Бункер"]} for s in seats.values()}
    game_start(game=game, by=gm, seed=1, roles_in_seat_order=["sheriff", "boss", "doctor"], seat_data=data)
    game.refresh_from_db()
    assert phase_close(phase_id=game.current_phase.pk, by=gm)  # night 1 → day 1
    game.refresh_from_db()
    post_submit(thread=game.game_thread, author=users["Вася"], body="[b]Казнить Петю[/b]")
    post_submit(thread=game.game_thread, author=users["Маша"], body="[b]В тюрьму Петю[/b]")
    assert phase_close(phase_id=game.current_phase.pk, by=gm)  # day 1: Петя goes to prison
    game.refresh_from_db()
    night = game.current_phase
    assert night.kind == "night"
    night.gm_decisions = {"damage": {str(seats["Петя"].pk): 9}}  # the only mafioso dies at night 2
    night.save(update_fields=["gm_decisions"])
    assert phase_close(phase_id=night.pk, by=gm)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.current_phase.kind == "night"
    body = Client().get(game.game_thread.get_absolute_url()).content.decode()
    box = re.search(r'id="vote-count"[^>]*>(.*?)</section>', body, re.S)
    assert box is not None and "wagon" in box.group(1)


def test_gm_order_column_reads_action_target_then_the_words_when_an_order_is_typed(db):
    """«the maniac's order column reads «убийство Убиваю Ольгу Ольга»»: the action, its target, then
    what the player wrote, marked as his words."""
    from games.services.orders import order_submit
    from tests.games.test_cards_texts import visible_text

    gm = make_user("Ведущий")
    names = ["Вася", "Ольга", "Маша", "Глаша", "Паша", "Даша", "Саша"]
    game = game_create(title="Приказы", gm=gm, size=len(names))
    users = {name: make_user(name) for name in names}
    for user in users.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=1, roles_in_seat_order=["recruiter", "citizen", "citizen", "reanimator",
                                                              "mafioso", "killer", "thief"])
    game.refresh_from_db()
    _order, confirmation = order_submit(game=game, user=users["Вася"], text="Проверяю Ольгу.")
    assert confirmation.accepted, confirmation.message
    client = Client()
    client.force_login(gm)
    text = visible_text(client.get(f"/games/{game.pk}/gm/").content.decode())
    with translation.override("ru"):
        check = str(translation.gettext("check"))
        written = str(translation.gettext("as written"))
    assert f"{check} → Ольга ({written}: «Проверяю Ольгу.»)" in text, text[:3000]
