"""A forum game's life on the site: creation, signups, the deal with its commitment, the role
page and the GM dashboard per perspective, orders, and the close (exactly once)."""

import hashlib
import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameEvent, Order, Phase, Seat
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start, game_withdraw
from games.selectors.commitment import commitment_payload
from games.services.orders import order_submit
from games.services.phases import phase_set_deadline
from games.services.posting import post_submit
from games.services.resolution import phase_close, phase_preview, phases_close_due
from tests.conftest import client_for, make_user

from tests.games.conftest import NAMES, ROLES


def seat_named(game, name) -> Seat:
    return game.seats.select_related("user").get(user__display_name=name)


def user_named(game, name):
    return seat_named(game, name).user


# --- Creating and signing up --------------------------------------------------------------------
def test_gm_creates_a_game_from_the_form(db):
    gm = make_user("Ведущий")
    response = client_for(gm).post(reverse("games:game_new"), {"title": "Новая", "ruleset": "forum", "size": 8,
                                                                  "roles": "", "phase_hours": 48})
    game = Game.objects.get(title="Новая")
    assert response["Location"] == game.get_absolute_url()
    assert (game.gm, game.size, game.phase_hours, game.status) == (gm, 8, 48, "signups")


@pytest.mark.parametrize("payload", [
    {"roles": "recruiter, wizard, citizen, citizen, citizen, mafioso, killer"},
    {"roles": "recruiter, citizen"},
    {"size": 3},
    {"ruleset": "poker"},
])
def test_game_form_refuses_bad_input_and_creates_nothing(db, payload):
    gm = make_user("Ведущий")
    data = {"title": "Плохая", "ruleset": "forum", "size": 7, "roles": "", "phase_hours": 24, **payload}
    response = client_for(gm).post(reverse("games:game_new"), data)
    assert response.status_code == 400
    assert not Game.objects.filter(title="Плохая").exists()


def test_signup_rules(forum_game):
    outsider = make_user("Опоздавший")
    with pytest.raises(ActionRefused):
        game_signup(game=forum_game, user=outsider)  # full
    with pytest.raises(ActionRefused):
        game_signup(game=forum_game, user=forum_game.gm)
    game_withdraw(game=forum_game, user=user_named(forum_game, "Фроло"))
    game_signup(game=forum_game, user=outsider)
    with pytest.raises(ActionRefused):
        game_signup(game=forum_game, user=outsider)


def test_signup_and_withdraw_through_the_game_page(db):
    gm = make_user("Ведущий")
    game = game_create(title="Набор", gm=gm, size=7)
    player = make_user("Игрок")
    client = client_for(player)
    client.post(reverse("games:game_join", args=[game.pk]), {"action": "join"})
    assert game.seats.filter(user=player).exists()
    client.post(reverse("games:game_join", args=[game.pk]), {"action": "withdraw"})
    assert not game.seats.exists()


# --- The deal -------------------------------------------------------------------------------------
def test_start_deals_roles_commits_and_opens_day_one(forum_game):
    now = timezone.now()
    game_start(game=forum_game, by=forum_game.gm, now=now, seed=11)
    forum_game.refresh_from_db()
    seats = list(forum_game.seats.select_related("user"))
    assert sorted(s.role for s in seats) == sorted(ROLES)  # the default 7-player table
    payload = commitment_payload(forum_game, seats)
    assert hashlib.sha256(payload.encode()).hexdigest() == forum_game.commitment
    first_post = forum_game.game_thread.posts.order_by("number").first()
    assert forum_game.commitment in first_post.body
    phase = forum_game.current_phase
    assert (phase.kind, phase.number, phase.deadline_at) == ("day", 1, now + timedelta(hours=24))
    assert GameEvent.objects.filter(game=forum_game, audience__startswith="seat:").count() >= 7


def test_start_is_deterministic_for_a_seed(db):
    deals = []
    for attempt in range(2):
        gm = make_user(f"Ведущий {attempt}")
        game = game_create(title=f"Г{attempt}", gm=gm, size=7)
        for name in NAMES:
            game_signup(game=game, user=make_user(f"{name} {attempt}"))
        game_start(game=game, by=gm, seed=42)
        deals.append([s.role for s in game.seats.order_by("number")])
    assert deals[0] == deals[1]


def test_only_the_gm_starts_and_only_once(forum_game):
    with pytest.raises(ActionRefused):
        game_start(game=forum_game, by=user_named(forum_game, "Вася"))
    game_start(game=forum_game, by=forum_game.gm, seed=1)
    with pytest.raises(ActionRefused):
        game_start(game=forum_game, by=forum_game.gm, seed=1)


# --- Secrets per perspective -----------------------------------------------------------------------
def test_role_page_per_perspective(started):
    url = reverse("games:role", args=[started.pk])
    assert client_for(None).get(url).status_code == 302  # to log in (issue 29): the game is public
    assert client_for(make_user("Зритель")).get(url).status_code == 404
    town = client_for(user_named(started, "Маленький Джон")).get(url).content.decode()
    assert "честный житель" in town
    assert "Кикимора" not in town.split("Your team")[0] or "мафиози" not in town
    mafia = client_for(user_named(started, "Кикимора")).get(url).content.decode()
    assert "мафиози" in mafia and "Эсмеральда" in mafia  # the mafia know each other
    gm_response = client_for(started.gm).get(url)
    assert gm_response.status_code == 302 and gm_response["Location"].endswith("/gm/")


def test_game_page_shows_roles_only_where_the_rules_allow(started):
    url = started.get_absolute_url()
    secrets = ["мафиози", "киллер", "жулик", "рекрутёр", "реаниматор"]
    for user in (None, make_user("Зритель"), user_named(started, "Маленький Джон")):
        page = client_for(user).get(url).content.decode()
        assert not any(word in page for word in secrets), user
    mafia_page = client_for(user_named(started, "Кикимора")).get(url).content.decode()
    assert "киллер" in mafia_page and "рекрутёр" not in mafia_page
    gm_page = client_for(started.gm).get(url).content.decode()
    assert all(word in gm_page for word in secrets)


def test_gm_dashboard_is_404_for_everyone_but_the_gms(started):
    url = reverse("games:gm_dashboard", args=[started.pk])
    for user in (make_user("Зритель"), user_named(started, "Кикимора"), user_named(started, "Вася")):
        assert client_for(user).get(url).status_code == 404
    assert client_for(started.gm).get(url).status_code == 200
    co_gm = make_user("Соведущий")
    started.co_gms.add(co_gm)
    assert client_for(co_gm).get(url).status_code == 200


# --- Orders --------------------------------------------------------------------------------------
def test_text_order_is_read_and_confirmed(started):
    order, confirmation = order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Кикимору.")
    assert confirmation.accepted and order.valid
    assert confirmation.message == "Приказ принят: проверка — Кикимора"
    assert order.target == seat_named(started, "Кикимора")


def test_order_refused_with_reason_when_not_your_action(started):
    order, confirmation = order_submit(game=started, user=user_named(started, "Маленький Джон"), text="Проверяю Кикимору")
    assert not confirmation.accepted and order.reason == "not_your_action"
    assert confirmation.message.startswith("Приказ не принят")


def test_order_refused_after_the_deadline(started):
    late = started.current_phase.deadline_at + timedelta(seconds=1)
    _order, confirmation = order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Кикимору", now=late)
    assert confirmation.reason == "after_deadline"


def test_order_form_on_the_role_page(started):
    client = client_for(user_named(started, "Красная Шапочка"))
    target = seat_named(started, "Маленький Джон")
    response = client.post(reverse("games:order", args=[started.pk]), {"action": "protect", "target": target.pk}, follow=True)
    assert "Приказ принят" in response.content.decode()
    forged = client.post(reverse("games:order", args=[started.pk]), {"action": "shoot", "target": target.pk}, follow=True)
    assert "Приказ не принят" in forged.content.decode()
    assert Order.objects.filter(valid=True).count() == 1


def test_orders_are_secret_to_other_players(started):
    order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Эсмеральду.")
    url = reverse("games:role", args=[started.pk])
    assert "Проверяю Эсмеральду" in client_for(user_named(started, "Вася")).get(url).content.decode()
    for name in ("Кикимора", "Маленький Джон", "Негодяй"):
        assert "Проверяю Эсмеральду" not in client_for(user_named(started, name)).get(url).content.decode()
    for user in (started.gm,):
        dashboard = client_for(user).get(reverse("games:gm_dashboard", args=[started.pk])).content.decode()
        assert "Эсмеральда" in dashboard


# --- The close ---------------------------------------------------------------------------------------
def _day_one(game):
    now = game.current_phase.opened_at
    for name, text in [("Вася", "[b]В тюрьму Негодяя[/b]"), ("Маленький Джон", "[b]В тюрьму Негодяя[/b]"),
                       ("Фроло", "[b]В тюрьму Негодяя[/b]"), ("Кикимора", "[b]В тюрьму Васю[/b]")]:
        now += timedelta(minutes=1)
        post_submit(thread=game.game_thread, author=user_named(game, name), body=text, now=now)
    order_submit(game=game, user=user_named(game, "Вася"), text="Проверяю Кикимору.", now=now)
    order_submit(game=game, user=user_named(game, "Кикимора"), text="Стреляю в Фроло", now=now)


def test_close_resolves_publishes_and_opens_the_next_day(started):
    _day_one(started)
    phase = started.current_phase
    preview = phase_preview(phase=phase)
    assert phase_close(phase_id=phase.pk, now=phase.deadline_at, only_if_due=True)
    phase.refresh_from_db()
    assert phase.outcome["jailed"] == ["Негодяй"] and phase.outcome["killed"] == ["Фроло"]
    from games.services.resolution import _jsonable

    # The GM's dry run and the real close are the same computation with the same lots.
    assert _jsonable(dict(preview.resolution.outcome)) == phase.outcome
    published = list(GameEvent.objects.filter(phase=phase).order_by("pk").values_list("kind", "audience", "data"))
    assert published == [(e.kind, e.audience, _jsonable(dict(e.data))) for e in preview.resolution.events]
    started.refresh_from_db()
    assert (started.current_phase.kind, started.current_phase.number) == ("day", 2)
    results = started.game_thread.posts.order_by("-number").first()
    assert "Негодяй" in results.body and "Фроло" in results.body
    assert seat_named(started, "Фроло").status == "killed" and not seat_named(started, "Фроло").is_alive


def test_check_result_reaches_only_the_checker(started):
    _day_one(started)
    phase = started.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    url = reverse("games:role", args=[started.pk])
    checker = client_for(user_named(started, "Вася")).get(url).content.decode()
    assert "Проверка: Кикимора" in checker
    for name in ("Кикимора", "Маленький Джон", "Эсмеральда", "Фроло"):
        assert "Проверка: Кикимора" not in client_for(user_named(started, name)).get(url).content.decode()
    assert "Проверка: Кикимора" not in client_for(None).get(started.game_thread.get_absolute_url()).content.decode()


def test_close_happens_once_whoever_calls_it(started):
    phase = started.current_phase
    assert phase_close(phase_id=phase.pk, now=phase.deadline_at)
    assert not phase_close(phase_id=phase.pk, now=phase.deadline_at)
    assert phases_close_due(now=phase.deadline_at) == 0
    assert Phase.objects.filter(game=started).count() == 2


def test_stale_eta_task_is_a_no_op_after_the_deadline_moves(started):
    phase = started.current_phase
    old = phase.deadline_at
    phase_set_deadline(phase=phase, by=started.gm, deadline_at=old + timedelta(hours=12), now=old - timedelta(hours=1))
    assert not phase_close(phase_id=phase.pk, now=old, only_if_due=True)
    assert phase_close(phase_id=phase.pk, now=old + timedelta(hours=12), only_if_due=True)


@pytest.mark.django_db(transaction=True)
def test_two_connections_closing_at_once_resolve_once(db):
    gm = make_user("Ведущий")
    game = game_create(title="Гонка", gm=gm, size=7)
    for name in NAMES:
        game_signup(game=game, user=make_user(name))
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    phase = game.current_phase
    results, barrier = [], threading.Barrier(2)

    def close():
        try:
            barrier.wait()
            results.append(phase_close(phase_id=phase.pk, now=phase.deadline_at, only_if_due=True))
        finally:
            connections.close_all()

    workers = [threading.Thread(target=close) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(results) == [False, True]
    assert Phase.objects.filter(game=game).count() == 2
    assert game.game_thread.posts.filter(body__contains="Итоги").count() == 1


def test_gm_closes_now_and_the_log_keeps_it(started):
    client_for(started.gm).post(reverse("games:gm_action", args=[started.pk]), {"action": "close", "confirm": "yes"})
    started.refresh_from_db()
    assert started.current_phase.number == 2
    assert started.gm_actions.filter(action="close_now").exists()


def test_gm_tie_break_and_manual_event_and_override(started):
    client = client_for(started.gm)
    url = reverse("games:gm_action", args=[started.pk])
    frolo = seat_named(started, "Фроло")
    client.post(url, {"action": "tie_break", "seat": frolo.pk})
    started.current_phase.refresh_from_db()
    assert started.current_phase.gm_decisions == {"tie_break": frolo.pk}
    client.post(url, {"action": "event", "text": "Город засыпает", "audience": "public", "confirm": "yes"})
    client.post(url, {"action": "event", "text": "подсказка", "audience": "faction:wizards", "confirm": "yes"})
    assert GameEvent.objects.filter(kind="manual").count() == 1
    client.post(url, {"action": "override", "seat": seat_named(started, "Красная Шапочка").pk, "order_action": "protect",
                      "target": seat_named(started, "Вася").pk})
    assert Order.objects.filter(source="gm", valid=True).count() == 1
    assert set(started.gm_actions.values_list("action", flat=True)) >= {"tie_break", "manual_event", "order_override"}


def test_gm_actions_are_404_for_players(started):
    response = client_for(user_named(started, "Кикимора")).post(reverse("games:gm_action", args=[started.pk]), {"action": "close"})
    assert response.status_code == 404
    started.refresh_from_db()
    assert started.current_phase.number == 1


def test_game_form_accepts_russian_role_names(db):
    gm = make_user("Ведущий")
    roles = "рекрутёр, реаниматор, мафиози, киллер, жулик, честный житель, Честный житель"
    client_for(gm).post(reverse("games:game_new"), {"title": "Роли", "ruleset": "forum", "size": 7, "roles": roles,
                                                     "phase_hours": 24})
    game = Game.objects.get(title="Роли")
    assert game.role_table == ["recruiter", "reanimator", "mafioso", "killer", "thief", "citizen", "citizen"]


def test_gm_adds_a_co_gm_who_then_sees_the_dashboard(started):
    co = make_user("Соведущая")
    client_for(started.gm).post(reverse("games:co_gm", args=[started.pk]), {"name": "соведущая", "action": "add"})
    assert list(started.co_gms.all()) == [co]
    assert client_for(co).get(reverse("games:gm_dashboard", args=[started.pk])).status_code == 200
    # a co-GM cannot appoint others, a player cannot be co-GM
    client_for(co).post(reverse("games:co_gm", args=[started.pk]), {"name": "Зритель", "action": "add"})
    client_for(started.gm).post(reverse("games:co_gm", args=[started.pk]), {"name": "Вася", "action": "add"})
    assert list(started.co_gms.all()) == [co]
    client_for(started.gm).post(reverse("games:co_gm", args=[started.pk]), {"name": "Соведущая", "action": "remove"})
    assert not started.co_gms.exists()
    assert client_for(co).get(reverse("games:gm_dashboard", args=[started.pk])).status_code == 404


def test_role_page_explains_the_goal_and_abilities(started):
    page = client_for(user_named(started, "Красная Шапочка")).get(reverse("games:role", args=[started.pk])).content.decode()
    assert "реаниматор" in page and "честные жители" in page


def test_application_is_recorded_at_signup(db):
    gm = make_user("Ведущий")
    game = game_create(title="Заявки", gm=gm, size=7)
    player = make_user("Игрок")
    client_for(player).post(reverse("games:game_join", args=[game.pk]), {"action": "join", "application": "Класс: Почтальон"})
    assert game.seats.get(user=player).application == "Класс: Почтальон"
    assert "Класс: Почтальон" in client_for(gm).get(game.get_absolute_url()).content.decode()
    assert "Класс: Почтальон" not in client_for(player).get(game.get_absolute_url()).content.decode()


def test_commitment_survives_a_rename_and_a_replacement(started):
    """The commitment names the players as dealt: a player renaming himself or a replacement
    later must not make the revealed list disagree with the published hash."""
    from games.services.moderation import seat_replace
    from tests.conftest import make_user

    seats = list(started.seats.select_related("user"))
    renamed = seats[0].user
    renamed.display_name = "Совсем другое имя"
    renamed.save()
    seat_replace(game=started, seat=seats[1], new_user=make_user("Сменщик"), by=started.gm, reason="уехал")
    seats = list(started.seats.select_related("user"))
    payload = commitment_payload(started, seats)
    assert hashlib.sha256(payload.encode()).hexdigest() == started.commitment
    assert "Совсем другое имя" not in payload and "Сменщик" not in payload


@pytest.mark.parametrize("name", ["games:gm_dashboard", "games:role", "games:gm_cards"])
def test_an_anonymous_visitor_of_a_gm_or_role_page_is_sent_to_log_in_and_back(started, name):
    """Issue 29: the game is public, so its GM's and players' pages send an anonymous visitor to
    the login page (with next=) instead of a 404; a signed-in user they are not for keeps the 404;
    a game that does not exist is a 404 for everyone."""
    from urllib.parse import parse_qs, urlsplit

    url = reverse(name, args=[started.pk]) + "?pov=1"
    response = client_for(None).get(url)
    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert location.path == reverse("account_login") and parse_qs(location.query)["next"] == [url]
    assert client_for(make_user("Прохожий")).get(url).status_code == 404
    assert client_for(None).get(reverse(name, args=[started.pk + 1000])).status_code == 404
