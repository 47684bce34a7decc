"""Automatic games (issue 31): the site hosts a game with no human GM, from the setup's queue and
the lobby to the archive, and a site moderator may take it over and hand it back."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.backends import MODERATORS_GROUP
from games.admin import AutoSetupForm
from games.models import AutoSetup, Game, GMAction, Phase, Replacement, Standby, Thread
from games.selectors.autohost import HOST_USERNAME, hosted_by_site, lobby_rows
from games.selectors.commitment import commitment_payload
from games.services import ActionRefused
from games.services.autohost import (
    autohost_hand_back,
    autohost_join,
    autohost_take_over,
    automatic_games_host,
    game_create_automatic,
    missed_in_a_row,
    setups_open_games,
    site_host,
    standby_join,
)
from games.services.posting import post_submit
from games.services.resolution import phases_close_due
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"]
ACCUSATIVE = {"Вася": "Васю", "Красная Шапочка": "Красную Шапочку", "Маленький Джон": "Маленького Джона",
              "Фроло": "Фроло", "Кикимора": "Кикимору", "Эсмеральда": "Эсмеральду", "Негодяй": "Негодяя"}


@pytest.fixture
def setup():
    return AutoSetup.objects.create(title="Автофорум на 7", ruleset="forum", size=7, phase_hours=24)


@pytest.fixture
def players():
    return [make_user(name) for name in NAMES]


def _open_game(setup) -> Game:
    setups_open_games()
    return setup.games.get(status=Game.Status.SIGNUPS)


def test_a_setup_keeps_a_game_in_signups_hosted_by_the_site(setup):
    assert setups_open_games() == 1
    game = setup.games.get()
    assert game.automatic and game.status == Game.Status.SIGNUPS and game.title == "Автофорум на 7 №1"
    assert game.gm.username == HOST_USERNAME and not game.gm.has_usable_password() and not game.gm.email
    assert hosted_by_site(game)
    assert setups_open_games() == 0 and setup.games.count() == 1  # one game in sign-ups, not two
    first = game.game_thread.posts.order_by("number").first()
    assert first.author == game.gm
    # The rules the site follows, in the site's language (Russian).
    assert "Эту игру ведёт сайт" in first.body and "жребий" in first.body
    assert GMAction.objects.filter(game=game, action="auto_create").exists()


def test_a_switched_off_setup_opens_no_game(setup):
    setup.active = False
    setup.save()
    assert setups_open_games() == 0 and not setup.games.exists()


def test_joining_needs_a_confirmed_address(setup, players):
    game = _open_game(setup)
    EmailAddress.objects.filter(user=players[0]).update(verified=False)
    with pytest.raises(ActionRefused) as refused:
        autohost_join(game=game, user=players[0])
    assert refused.value.code == "unverified" and not game.seats.exists()


def test_the_game_starts_when_the_table_fills_and_the_next_opens(setup, players):
    game = _open_game(setup)
    for user in players[:-1]:
        autohost_join(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.SIGNUPS
    autohost_join(game=game, user=players[-1])
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.commitment and game.current_phase is not None
    assert all(seat.role for seat in game.seats.all())
    following = setup.games.get(status=Game.Status.SIGNUPS)
    assert following.title == "Автофорум на 7 №2" and following.automatic
    assert GMAction.objects.filter(game=game, action="start", user=site_host()).exists()


def test_a_rule_set_that_needs_a_gm_is_refused(db):
    with pytest.raises(ActionRefused) as refused:
        game_create_automatic(title="Шоу", ruleset="show", size=10)
    assert refused.value.code == "needs_gm"
    form = AutoSetupForm(data={"title": "Шоу", "ruleset": "show", "size": 10, "phase_hours": 24, "options": "{}",
                               "prod_after_hours": 12, "missed_limit": 2, "active": True})
    assert not form.is_valid() and "ruleset" in form.errors


def test_the_cards_gm_tie_break_becomes_the_seeds_order(db):
    game = game_create_automatic(title="Карты", ruleset="cards", size=8, options={"tie_break": "gm"})
    assert game.options["tie_break"] == "overt"


def test_a_moderator_takes_an_automatic_game_over_and_hands_it_back(setup, players):
    game = _open_game(setup)
    moderator = make_user("Модератор", staff=True)
    with pytest.raises(ActionRefused):
        autohost_take_over(game=game, by=players[0])  # not a moderator
    autohost_take_over(game=game, by=moderator)
    game.refresh_from_db()
    assert game.gm == moderator and game.automatic and not hosted_by_site(game)
    with pytest.raises(ActionRefused) as refused:
        autohost_take_over(game=game, by=make_user("Другой модератор", staff=True))
    assert refused.value.code == "taken"
    autohost_hand_back(game=game, by=moderator)
    game.refresh_from_db()
    assert hosted_by_site(game)
    actions = list(GMAction.objects.filter(game=game).values_list("action", flat=True).order_by("pk"))
    assert actions[-2:] == ["take_over", "hand_back"]


def test_a_player_of_the_game_cannot_take_it_over(setup):
    """A moderator of the site (the Moderators group, not staff) may play; then he may not host."""
    game = _open_game(setup)
    moderator = make_user("Модератор")
    group, _created = Group.objects.get_or_create(name=MODERATORS_GROUP)
    moderator.groups.add(group)
    autohost_join(game=game, user=moderator)
    with pytest.raises(ActionRefused) as refused:
        autohost_take_over(game=game, by=moderator)
    assert refused.value.code == "player"


def test_the_lobby_lists_setups_with_places_left_and_joins_in_one_click(setup, players):
    game = _open_game(setup)
    autohost_join(game=game, user=players[0])
    page = client_for(None).get(reverse("games:lobby")).content.decode()
    assert "Автофорум на 7" in page and "1 из 7" in page and "осталось 6 мест" in page
    assert reverse("account_login") in page  # a visitor is asked to log in
    client = client_for(players[1])
    assert reverse("games:lobby_join", args=[game.pk]) in client.get(reverse("games:lobby")).content.decode()
    response = client.post(reverse("games:lobby_join", args=[game.pk]))
    assert response.status_code == 302 and game.seats.filter(user=players[1]).exists()
    assert "Вы в игре" in client.get(reverse("games:lobby")).content.decode()


def test_the_lobby_reads_in_a_fixed_number_of_queries(setup, players):
    _open_game(setup)
    for n in range(4):
        AutoSetup.objects.create(title=f"Клуб {n}", ruleset="club", size=10)
    setups_open_games()
    with CaptureQueriesContext(connection) as queries:
        rows = lobby_rows(players[0])
    assert len(rows) == 5 and len(queries) <= 3


def test_the_game_page_says_the_site_hosts_it_and_offers_a_moderator_the_take_over(setup):
    game = _open_game(setup)
    page = client_for(None).get(game.get_absolute_url()).content.decode()
    assert "сайт (автоматическая игра)" in page and reverse("games:autohost_control", args=[game.pk]) not in page
    moderator = make_user("Модератор", staff=True)
    page = client_for(moderator).get(game.get_absolute_url()).content.decode()
    assert reverse("games:autohost_control", args=[game.pk]) in page
    client_for(moderator).post(reverse("games:autohost_control", args=[game.pk]), {"action": "take"})
    game.refresh_from_db()
    assert game.gm == moderator


def test_a_forged_take_over_by_a_player_is_a_404(setup, players):
    game = _open_game(setup)
    response = client_for(players[0]).post(reverse("games:autohost_control", args=[game.pk]), {"action": "take"})
    assert response.status_code == 404
    game.refresh_from_db()
    assert hosted_by_site(game)


def test_a_whole_automatic_forum_game_plays_to_its_end_with_no_gm(setup, players):
    """Players only post and vote; every phase closes at its deadline; the site posts the results,
    ends the game, and the commitment checks."""
    game = _open_game(setup)
    for user in players:
        autohost_join(game=game, user=user)
    game.refresh_from_db()
    for _round in range(12):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        phase = game.current_phase
        if phase.kind == "day":
            alive = list(game.seats.filter(is_alive=True).select_related("user").order_by("number"))
            suspects = [s for s in alive if s.faction != "town"] or alive
            target = suspects[0]
            for seat in alive:
                post_submit(thread=game.game_thread, author=seat.user,
                            body=f"[b]В тюрьму {ACCUSATIVE[target.user.display_name]}[/b]")
        assert phases_close_due(now=phase.deadline_at + timedelta(seconds=1)) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner
    assert not GMAction.objects.filter(game=game).exclude(user=site_host()).exists()  # no human decided
    payload = commitment_payload(game, list(game.seats.select_related("user")))
    assert hashlib.sha256(payload.encode("utf-8")).hexdigest() == game.commitment
    anonymous = client_for(None)
    archive = anonymous.get(reverse("games:archive", args=[game.pk]))
    assert archive.status_code == 200 and "автоматическая игра" in archive.content.decode()
    assert Phase.objects.filter(game=game, closed_at__isnull=True).count() == 0
    # A day later the host locks the game thread (its first post says so); the discussion stays open.
    assert automatic_games_host(now=game.finished_at + timedelta(hours=23)) == 0
    assert not Thread.objects.get(pk=game.game_thread_id).is_locked
    assert automatic_games_host(now=game.finished_at + timedelta(hours=24, minutes=1)) == 1
    assert Thread.objects.get(pk=game.game_thread_id).is_locked
    assert not Thread.objects.get(pk=game.discussion_thread_id).is_locked
    assert GMAction.objects.get(game=game, action="auto_lock").data["rule"] == "locked a day after the end"


def test_the_new_game_form_creates_an_automatic_game(db):
    user = make_user("Организатор")
    response = client_for(user).post(reverse("games:game_new"), {
        "title": "Сама по себе", "ruleset": "forum", "size": 7, "phase_hours": 24, "automatic": "on"})
    game = Game.objects.get(title="Сама по себе")
    assert response.status_code == 302 and game.automatic and game.gm.username == HOST_USERNAME
    assert GMAction.objects.filter(game=game, action="auto_create", user=user).exists()


def test_the_new_game_form_refuses_an_automatic_show(db):
    response = client_for(make_user("Организатор")).post(reverse("games:game_new"), {
        "title": "Шоу само", "ruleset": "show", "size": 10, "phase_hours": 24, "automatic": "on"})
    assert response.status_code == 400 and not Game.objects.filter(title="Шоу само").exists()


def test_the_site_host_account_is_one_and_cannot_log_in(db):
    host = site_host()
    assert site_host() == host
    assert not host.has_usable_password() and not host.email
    response = client_for(None).post(reverse("account_login"), {"login": host.email or "x@example.com", "password": ""})
    assert "_auth_user_id" not in client_for(None).session and response.status_code in (200, 400)


def test_silent_players_are_replaced_from_the_standby_list_then_removed(setup, players):
    """«a player who misses N votes or orders in a row is replaced from the game's standby list
    or, with nobody standing by, removed»: two players never vote; with one player standing by,
    the first silent seat (in seat order) goes to him and the second is removed from play. The
    thread says so and the GM log holds the rule each act followed."""
    game = _open_game(setup)
    for user in players:
        autohost_join(game=game, user=user)
    game.refresh_from_db()
    spare = make_user("Запасной")
    standby_join(game=game, user=spare)
    silent = {"Фроло", "Эсмеральда"}
    for day in (1, 2):
        game.refresh_from_db()
        phase = game.current_phase
        alive = list(game.seats.select_related("user").filter(is_alive=True).order_by("number"))
        # The others agree on a townsman who is not silent (a day with no votes would jail by lot,
        # perhaps a silent player, and a jailed player owes nothing).
        target = next(s for s in alive if s.user.display_name not in silent and s.faction == "town")
        for seat in alive:
            if seat.user.display_name not in silent:
                post_submit(thread=game.game_thread, author=seat.user,
                            body=f"[b]В тюрьму {ACCUSATIVE[target.user.display_name]}[/b]")
        assert phases_close_due(now=phase.deadline_at + timedelta(seconds=1)) == 1
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        acted = automatic_games_host(now=phase.deadline_at + timedelta(minutes=1))
        assert acted == (0 if day == 1 else 2)
    frolo_seat = game.seats.get(dealt_name="Фроло")
    esmeralda_seat = game.seats.get(dealt_name="Эсмеральда")
    frolo_seat.refresh_from_db()
    esmeralda_seat.refresh_from_db()
    assert frolo_seat.user == spare and Replacement.objects.filter(seat=frolo_seat, new_user=spare).exists()
    assert esmeralda_seat.status == "removed" and not esmeralda_seat.is_alive
    assert not Standby.objects.filter(game=game).exists()
    logged = {a.action: a.data for a in GMAction.objects.filter(game=game, action__in=["auto_replace", "auto_modkill"])}
    assert logged["auto_replace"]["rule"] == "missed_limit" and logged["auto_replace"]["missed"] == 2
    assert logged["auto_modkill"]["player"] == "Эсмеральда"
    posts = " ".join(game.game_thread.posts.values_list("body", flat=True))
    assert "Сайт заменяет молчащего игрока" in posts and "Сайт убирает молчащего игрока" in posts
    # The new holder starts with a clean slate: the misses before him are not his.
    assert missed_in_a_row(game, frolo_seat) == 0


def test_a_game_a_moderator_hosts_has_no_automatic_removals(setup, players):
    game = _open_game(setup)
    for user in players:
        autohost_join(game=game, user=user)
    autohost_take_over(game=game, by=make_user("Модератор", staff=True))
    game.refresh_from_db()
    for _day in (1, 2):
        game.refresh_from_db()
        phase = game.current_phase
        phases_close_due(now=phase.deadline_at + timedelta(seconds=1))
        assert automatic_games_host(now=phase.deadline_at + timedelta(minutes=1)) == 0
    assert not game.seats.filter(status="removed").exists()


def test_standing_by_is_offered_when_the_table_is_full(setup, players):
    game = _open_game(setup)
    spare = make_user("Запасной")
    page = client_for(spare).get(game.get_absolute_url()).content.decode()
    assert reverse("games:standby", args=[game.pk]) not in page  # room at the table: sign up instead
    for user in players:
        autohost_join(game=game, user=user)
    client = client_for(spare)
    assert reverse("games:standby", args=[game.pk]) in client.get(game.get_absolute_url()).content.decode()
    client.post(reverse("games:standby", args=[game.pk]), {"action": "join"})
    assert Standby.objects.filter(game=game, user=spare).exists()
    assert "номер 1 в очереди" in client.get(game.get_absolute_url()).content.decode()
    client.post(reverse("games:standby", args=[game.pk]), {"action": "leave"})
    assert not Standby.objects.filter(game=game, user=spare).exists()
    with pytest.raises(ActionRefused):
        standby_join(game=game, user=players[0])  # a player of the game


CLUB_NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Игорь", "Кира", "Лев", "Мила"]
CLUB_ACCUSATIVE = {"Анна": "Анну", "Борис": "Бориса", "Вера": "Веру", "Глеб": "Глеба", "Дина": "Дину",
                   "Егор": "Егора", "Жанна": "Жанну", "Зоя": "Зою", "Игорь": "Игоря", "Кира": "Киру", "Лев": "Льва",
                   "Мила": "Милу"}
ALL_ACCUSATIVE = {**ACCUSATIVE, **CLUB_ACCUSATIVE, "Запасной": "Запасного"}
# rule set: (table size, players, the voted-out side, the side a target votes for instead (and
# the silent players'), the winner, a vote's text). The others vote each day for the first of the
# voted-out side; nobody sends a night order, builds a deck or plays a card.
GAMES = {
    "forum": (7, NAMES, lambda s: s.faction != "town", "town", "town", "[b]В тюрьму {name}[/b]"),
    "club": (12, CLUB_NAMES, lambda s: s.faction == "black", "red", "red", "Голосую за [b]{name}[/b]"),
    "cards": (8, [*NAMES, "Лев"], lambda s: s.faction == "mafia", "law", "law", "[b]Казнить {name}![/b]"),
}


def start_automatic(ruleset: str, *, silent_count: int):
    """An automatic game of `ruleset` from a setup, its table full and started, one user standing
    by; returns (game, the silent players' user ids: the first of the fallback side)."""
    size, names, _voted_out, fallback, _winner, _text = GAMES[ruleset]
    setup = AutoSetup.objects.create(title="Авто", ruleset=ruleset, size=size, phase_hours=24, missed_limit=2)
    game = _open_game(setup)
    for name in names:
        autohost_join(game=game, user=make_user(name))
    standby_join(game=game, user=make_user("Запасной"))
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    silent = game.seats.filter(faction=fallback).order_by("number").values_list("user_id", flat=True)[:silent_count]
    return game, set(silent)


def vote_the_day(game: Game, ruleset: str, silent: set[int]) -> None:
    """Everybody but the silent posts his vote for the first of the voted-out side (who votes for
    the first of the fallback side), in a voting phase."""
    _size, _names, voted_out, fallback, _winner, text = GAMES[ruleset]
    if game.current_phase.kind not in ("day", "revote"):
        return
    alive = list(game.seats.select_related("user").filter(is_alive=True).order_by("number"))
    target = next((s for s in alive if voted_out(s)), alive[0])
    for seat in alive:
        if seat.user_id in silent:
            continue
        choice = target if seat != target else next(s for s in alive if s != seat and s.faction == fallback)
        post_submit(thread=game.game_thread, author=seat.user, body=text.format(name=ALL_ACCUSATIVE[choice.user.display_name]))


def play_to_end(game: Game, ruleset: str, silent: set[int], close) -> Game:
    """Vote each day and let `close(phase)` close each phase (in process, or a real worker), until
    the game ends (40 phases at most)."""
    for _phase in range(40):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        vote_the_day(game, ruleset, silent)
        close(game.current_phase)
    game.refresh_from_db()
    return game


def close_in_process(phase) -> None:
    """The deadline passes: the sweep closes the phase, then the host's round (as beat sends them)."""
    assert phases_close_due(now=phase.deadline_at + timedelta(seconds=1)) == 1
    automatic_games_host(now=phase.deadline_at + timedelta(minutes=1))


@pytest.mark.parametrize("ruleset", ["club", "cards"])
def test_a_whole_automatic_game_plays_to_its_end_with_silent_players(ruleset, db):
    """A club game of 12 and a cards game of 8 (no deck built: the site deals them, as its first post
    says; no card played): nobody hosts, two players never speak. The site replaces the first
    silent player with the one standing by and removes the second, the game ends with its winner,
    and the archive and the commitment check. (Checked on ten club and eight cards deals.)"""
    game, silent = start_automatic(ruleset, silent_count=2)
    game = play_to_end(game, ruleset, silent, close_in_process)
    assert game.status == Game.Status.FINISHED and game.winner == GAMES[ruleset][4]
    actions = set(GMAction.objects.filter(game=game).values_list("action", flat=True))
    assert {"auto_replace", "auto_modkill"} <= actions
    assert not GMAction.objects.filter(game=game).exclude(user=site_host()).exists()
    payload = commitment_payload(game, list(game.seats.select_related("user")))
    assert hashlib.sha256(payload.encode("utf-8")).hexdigest() == game.commitment
    assert client_for(None).get(reverse("games:archive", args=[game.pk])).status_code == 200


def test_a_setup_chooses_the_forums_unordered_shot_by_lot(db):
    """A rule set's choices for automatic games (SiteRuleset.auto_host_choices): the forum's
    setup may aim a shot nobody ordered by lot; its first post says which rule it follows, and the
    admin refuses a value the rule set does not offer."""
    setup = AutoSetup.objects.create(title="Форум с жребием", ruleset="forum", size=7, options={"missing_shot": "lot"})
    game = _open_game(setup)
    assert game.options["missing_shot"] == "lot"
    first = game.game_thread.posts.order_by("number").first().body
    assert "жребий направляет его в игрока не из мафии" in first
    plain = _open_game(AutoSetup.objects.create(title="Форум", ruleset="forum", size=7))
    assert "Выстрел мафии, который никто не заказал, не происходит." in plain.game_thread.posts.first().body
    form = AutoSetupForm(data={"title": "Х", "ruleset": "forum", "size": 7, "phase_hours": 24,
                               "options": '{"missing_shot": "always"}', "prod_after_hours": 12, "missed_limit": 2,
                               "active": True})
    assert not form.is_valid() and "options" in form.errors
