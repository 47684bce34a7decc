"""A club game on the site: the deal, night 0, votes with no self-vote and re-votes through the
ledger, fouls and forfeit from the dashboard, the lone putana's combined order, the rating."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import BestPlayerVote, Game, Order, VoteRecord
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.orders import order_submit
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Игорь", "Кира", "Лев", "Мила"]
ROLES = ["civilian", "don", "commissar", "civilian", "mafioso", "doctor", "putana", "civilian", "maniac",
         "mafioso", "civilian", "civilian"]


@pytest.fixture
def club(db):
    gm = make_user("Судья")
    game = game_create(title="Клуб", gm=gm, ruleset="club", size=12)
    for name in NAMES:
        game_signup(game=game, user=make_user(name))
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    return game


def seat(game, name):
    return game.seats.select_related("user").get(user__display_name=name)


def close(game):
    game.refresh_from_db()
    phase = game.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    game.refresh_from_db()
    phase.refresh_from_db()
    return phase


def say(game, name, text):
    game.refresh_from_db()
    return post_submit(thread=game.game_thread, author=seat(game, name).user, body=text,
                       now=game.current_phase.opened_at + timedelta(minutes=1))


def test_night_zero_introduces_the_blacks_only(club):
    assert (club.current_phase.kind, club.current_phase.number) == ("night", 0)
    url = reverse("games:role", args=[club.pk])
    don_page = client_for(seat(club, "Борис").user).get(url).content.decode()
    assert "Дина" in don_page and "Кира" in don_page and "Жанна" in don_page
    red_page = client_for(seat(club, "Анна").user).get(url).content.decode()
    assert "мафиози" not in red_page and "дон" not in red_page.split("Ваша команда")[0].lower() or "Дина" not in red_page
    close(club)
    assert (club.current_phase.kind, club.current_phase.number) == ("day", 1)


def test_self_vote_is_refused_with_a_reason(club):
    close(club)
    post = say(club, "Анна", "Голосую за [b]Анну[/b]")
    row = VoteRecord.objects.get(post=post)
    assert (row.valid, row.reason) == (False, "self_vote_forbidden")
    assert post.vote_confirmation.message == "Голос не засчитан: нельзя голосовать за себя"


def test_tie_goes_to_a_revote_where_votes_are_read_too(club):
    close(club)
    for voter, target in [("Анна", "Бориса"), ("Вера", "Бориса"), ("Борис", "Анну"), ("Дина", "Анну")]:
        say(club, voter, f"Голосую за [b]{target}[/b]")
    close(club)
    assert (club.current_phase.kind, club.current_phase.number) == ("revote", 1)
    # In a two-way re-vote the two leaders do not vote; the others vote between them only.
    refused = say(club, "Анна", "Голосую за [b]Бориса[/b]")
    assert VoteRecord.objects.get(post=refused).reason == "voter_not_allowed"
    outsider = say(club, "Вера", "Голосую за [b]Глеба[/b]")
    assert VoteRecord.objects.get(post=outsider).reason == "target_not_allowed"
    for voter in ("Вера", "Глеб", "Егор"):
        say(club, voter, "Голосую за [b]Бориса[/b]")
    page = client_for(None).get(reverse("games:votes", args=[club.pk])).content.decode()
    assert "Борис" in page
    revote = close(club)
    assert revote.outcome["executed"] == ["Борис"]


def test_gm_fouls_and_the_fourth_removes(club):
    close(club)
    client = client_for(club.gm)
    url = reverse("games:gm_action", args=[club.pk])
    for _ in range(4):
        client.post(url, {"action": "foul", "seat": seat(club, "Глеб").pk, "confirm": "yes"})
    phase = close(club)
    assert phase.outcome["removed"] == ["Глеб"]
    assert seat(club, "Глеб").status == "removed"
    assert "Глеб" in club.game_thread.posts.order_by("-number").first().body


def test_forfeit_ends_the_game_at_once(club):
    close(club)
    client_for(club.gm).post(reverse("games:gm_action", args=[club.pk]), {"action": "forfeit", "faction": "black", "confirm": "yes"})
    club.refresh_from_db()
    assert club.status == Game.Status.FINISHED and club.winner == "red"
    assert club.gm_actions.filter(action="forfeit").exists()


def test_fouls_and_forfeit_are_404_for_players(club):
    response = client_for(seat(club, "Борис").user).post(reverse("games:gm_action", args=[club.pk]),
                                                         {"action": "forfeit", "faction": "red", "confirm": "yes"})
    assert response.status_code == 404


def test_night_orders_by_form_and_text(club):
    close(club)
    close(club)  # day 1: nobody voted, a peaceful day
    assert club.current_phase.kind == "night"
    order, confirmation = order_submit(game=club, user=seat(club, "Вера").user, text="Проверяю Бориса")
    assert confirmation.accepted and order.action == "check"
    _o, confirmation = order_submit(game=club, user=seat(club, "Анна").user, text="Убиваю Бориса")
    assert not confirmation.accepted


def test_rating_after_the_game(club):
    close(club)
    client_for(club.gm).post(reverse("games:gm_action", args=[club.pk]), {"action": "forfeit", "faction": "black", "confirm": "yes"})
    club.refresh_from_db()
    url = reverse("games:rating", args=[club.pk])
    anna = client_for(seat(club, "Анна").user)
    anna.post(url, {"action": "best", "chosen": seat(club, "Вера").pk})
    anna.post(url, {"action": "best", "chosen": seat(club, "Глеб").pk})  # once only
    assert BestPlayerVote.objects.count() == 1
    client_for(seat(club, "Борис").user).post(url, {"action": "best", "chosen": seat(club, "Борис").pk})
    assert BestPlayerVote.objects.count() == 1
    gm = client_for(club.gm)
    gm.post(url, {"action": "gm", f"points_{seat(club, 'Вера').pk}": "4"})  # over the table's limit of 3
    gm.post(url, {"action": "gm", f"points_{seat(club, 'Вера').pk}": "2", f"points_{seat(club, 'Дина').pk}": "-1"})
    page = client_for(None).get(url).content.decode()
    assert "Вера" in page
    from games.rulesets.club.services import rating_table

    vera = next(r for r in rating_table(game=club) if r.seat.user.display_name == "Вера")
    assert (vera.best_votes, vera.gm_points, vera.total) == (1, 2.0, vera.automatic + 3)
    # Players cannot give GM points.
    client_for(seat(club, "Анна").user).post(url, {"action": "gm", f"points_{seat(club, 'Анна').pk}": "3"})
    anna_row = next(r for r in rating_table(game=club) if r.seat.user.display_name == "Анна")
    assert anna_row.gm_points == 0


def test_rating_is_404_while_the_game_runs(club):
    assert client_for(club.gm).get(reverse("games:rating", args=[club.pk])).status_code == 404


def test_club_game_from_the_form_with_newcomers(db):
    gm = make_user("Судья")
    client_for(gm).post(reverse("games:game_new"), {"title": "Новички", "ruleset": "club", "size": 12, "roles": "",
                                                     "phase_hours": 12, "newcomers": "Анна, Борис"})
    game = Game.objects.get(title="Новички")
    assert game.ruleset == "club" and game.options == {"newcomer_immunity": ["Анна", "Борис"]}
    for name in NAMES:
        game_signup(game=game, user=make_user(name))
    game_start(game=game, by=gm, seed=3)
    game.refresh_from_db()
    assert sorted(s.role for s in game.seats.all()) == sorted(ROLES)
    close(game)  # night 0 has no speeches; day 1 does
    assert "Порядок выступлений" in client_for(None).get(game.get_absolute_url()).content.decode()


def test_lone_putana_kills_and_freezes_with_one_form(db, tmp_path):
    """«у черных осталась только путана, то у нее есть возможность и убивать, и морозить.»"""
    from pathlib import Path

    from games.scenarios import play

    source = Path(__file__).resolve().parents[1] / "scenarios" / "club" / "putana_alone_kills.yaml"
    text = source.read_text(encoding="utf-8").split("  - phase: night 2")[0]
    path = tmp_path / "to-night-2.yaml"
    path.write_text(text, encoding="utf-8")
    report = play(str(path), keep=True, password="pw-123456")
    assert report.ok
    game = Game.objects.get()
    putana = game.seats.select_related("user").get(role="putana")
    client = client_for(putana.user)
    page = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert 'name="also_freeze"' in page
    anna = game.seats.get(user__display_name="Анна")
    vera = game.seats.get(user__display_name="Вера")
    response = client.post(reverse("games:order", args=[game.pk]), {"action": "kill", "target": anna.pk,
                                                                     "also_freeze": vera.pk}, follow=True)
    content = response.content.decode()
    assert "Приказ принят" in content, content[content.find('class="messages"'):][:400]
    order = Order.objects.filter(actor=putana, valid=True).latest("pk")
    assert order.detail == {"freeze": vera.pk}
    phase = close(game)
    assert phase.outcome["killed"] == ["Анна"]
    assert phase.outcome["frozen"]


def test_a_rolled_back_revote_is_named_as_the_days_revote(club):
    """The correction names the phase by its label («день 1, переголосование»), never as
    «переголосование 1» (issue 14: rollback wording)."""
    from games.services.moderation import resolution_rollback

    close(club)
    for voter, target in [("Анна", "Бориса"), ("Вера", "Бориса"), ("Борис", "Анну"), ("Дина", "Анну")]:
        say(club, voter, f"Голосую за [b]{target}[/b]")
    close(club)
    for voter in ("Вера", "Глеб", "Егор"):
        say(club, voter, "Голосую за [b]Бориса[/b]")
    close(club)
    phase = resolution_rollback(game=club, by=club.gm, reason="ошибка")
    assert phase.kind == "revote"
    correction = club.game_thread.posts.order_by("-number").first().body
    assert "день 1, переголосование" in correction and "переголосование 1" not in correction
