"""The archive and the replay of a game (issue 7): public and unsealed once the game is over; a
sealed preview for the GMs while it runs; 404 for everyone else and before the deal."""

import re
import xml.etree.ElementTree as ET
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games.selectors.archive import _post_range, game_archive, post_ranges
from games.models import Game, Phase, Post, Replacement, Seat, Thread, VoteRecord
from games.services.games import game_create
from games.services.moderation import resolution_rollback, seat_modkill, seat_replace
from games.services.orders import order_submit
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.votes import vote_correct
from games.selectors.votes import vote_count
from tests.conftest import client_for, make_user

# Role names as the Russian UI shows them (games.wording.role_label).
ROLE_NAMES = ["рекрутёр", "реаниматор", "честный житель", "мафиози", "киллер", "жулик"]
PRIVATE_TEXTS = ["Я рекрутёр, проверю Машу.", "Голосуем за Сашу."]
ORDER_TEXT = "Проверяю Машу."
SVG = "{http://www.w3.org/2000/svg}"


def _urls(game) -> dict[str, str]:
    return {name: reverse(f"games:{name}", args=[game.pk]) for name in ("archive", "replay", "export")}


def _finished_perspectives(finished_game) -> dict:
    other_gm = make_user("Чужой ведущий")
    game_create(title="Другая игра", gm=other_gm)
    people = {"anonymous": None, "spectator": make_user("Зритель"), "gm": finished_game.gm, "other_gm": other_gm}
    people.update(finished_game.users)  # every player: Вася … Саша, the mafia (Глаша, Паша) and the thief too
    return people


# --- A finished game: everything, for everybody --------------------------------------------------
def test_finished_archive_is_unsealed_for_every_perspective(finished_game):
    game = finished_game.game
    team_chat = game.private_threads.get(kind=Thread.Kind.FACTION)
    letters = game.private_threads.get(kind=Thread.Kind.GM_CHAT, seat__user=finished_game.users["Вася"])
    expected = [*ROLE_NAMES, *PRIVATE_TEXTS, ORDER_TEXT, f'href="{team_chat.get_absolute_url()}"',
                f'href="{letters.get_absolute_url()}"', 'data-action="start"',
                '<strong class="ok" id="commitment-site-verdict">']
    for who, user in _finished_perspectives(finished_game).items():
        response = client_for(user).get(_urls(game)["archive"])
        assert response.status_code == 200, who
        content = response.content.decode()
        missing = [s for s in expected if s not in content]
        assert not missing, (who, missing)
        assert "archive-sealed" not in content, who
        assert game.commitment_salt in content  # the revealed payload
        for name in ("replay", "export"):
            assert client_for(user).get(_urls(game)[name]).status_code == 200, (who, name)


def test_archive_shows_every_kind_of_record(finished_game):
    game = finished_game.game
    content = client_for(None).get(_urls(game)["archive"]).content.decode()
    # Private messages: sender → recipient, with a link to the post.
    vasya_post = Post.objects.get(thread=game.game_thread, number=2)
    assert "Вася → Маша" in content and f'href="{vasya_post.get_absolute_url()}"' in content
    assert "Глаша → Паша" in content
    # The room, its members and its link; the lounge and the GM chats with post counts.
    room = game.private_threads.get(kind=Thread.Kind.ROOM)
    assert f'href="{room.get_absolute_url()}"' in content
    lounge = game.private_threads.get(kind=Thread.Kind.LOUNGE)
    assert f'href="{lounge.get_absolute_url()}"' in content
    # Every event, the secret ones with their audience: a seat, a team, the GM.
    assert "Проверка: Маша — честный житель." in content and "Ваша команда: Глаша и Паша." in content
    assert "Вася проверка Маша" in content  # the GM's order report
    # The final counts of each day (the vote count partial) and the winner.
    assert content.count('class="vote-count') == 3
    assert "честные жители" in content


def test_archive_read_model_in_english(finished_game):
    game = finished_game.game
    with translation.override("en"):
        archive = game_archive(finished_game.gm, game)
        fates = {row.seat.user.display_name: row.fate for row in archive.seats}
        audiences = {row.audience for block in archive.phases for row in block.events}
        assert fates["Саша"] == "jailed in day 1" and fates["Паша"] == "jailed in day 2"
        assert fates["Вася"] == "in play at the end"
        assert {"everyone", "GM only", "seat 1: Вася"} <= audiences
        assert any(row.audience == "team: the mafia" for row in archive.loose_events)
        assert archive.winner_label == "honest citizens"
        assert archive.gm_log[0].label == "dealt the roles and started the game"
        assert archive.gm_log[0].details == [("number of players", "7")]
        assert archive.commitment["matches"] and not archive.voided


def test_refused_orders_show_with_their_reason(finished_game):
    from games.models import Order

    game = finished_game.game
    day = game.phases.get(number=2)
    dasha = finished_game.seat("Даша")
    Order.objects.create(phase=day, actor=dasha, action="", text="Проверяю Волан-де-Морта", source=Order.Source.TEXT,
                         valid=False, reason="name_unknown", recorded_at=day.opened_at, recorded_by=dasha.user)
    content = client_for(None).get(_urls(game)["archive"]).content.decode()
    assert "«Проверяю Волан-де-Морта»" in content and "нет игрока с таким именем" in content


def test_commitment_is_verified_with_the_names_at_the_deal_after_a_replacement(finished_game):
    game = finished_game.game
    seat = finished_game.seat("Даша")
    newcomer = make_user("Новенькая")
    Replacement.objects.create(seat=seat, old_user=seat.user, new_user=newcomer, reason="уехала",
                               created_at=game.started_at, created_by=finished_game.gm)
    Seat.objects.filter(pk=seat.pk).update(user=newcomer)
    content = client_for(None).get(_urls(game)["archive"]).content.decode()
    assert '<strong class="ok" id="commitment-site-verdict">' in content
    assert "Новенькая" in content and "уехала" in content


def test_a_role_changed_after_the_deal_keeps_the_commitment_and_is_shown_beside_it(finished_game):
    """Issue 28, item 1, for every rule set: a rule that changes a role later (the Show's
    Змеёныш, a card) changes the stored seat (games.services.resolution._seats_follow); the
    reveal is still the deal as committed, and the change is listed beside it."""
    game = finished_game.game
    seat = finished_game.seat("Даша")
    Seat.objects.filter(pk=seat.pk).update(role="mafioso", faction="mafia")
    for url in (_urls(game)["archive"], reverse("games:commitment", args=[game.pk])):
        content = client_for(None).get(url).content.decode()
        assert re.search(r'<strong class="ok"( id="commitment-site-verdict")?>✔', content), url
        assert f'[{seat.number},&quot;Даша&quot;,&quot;citizen&quot;]' in content
        changes = content[content.index('id="commitment-changes"'):]
        assert f'<li data-seat="{seat.number}">№{seat.number} Даша: при раздаче — ' in changes


def test_a_forged_commitment_does_not_match(finished_game):
    game = finished_game.game
    Game.objects.filter(pk=game.pk).update(commitment="0" * 64)
    content = client_for(None).get(_urls(game)["archive"]).content.decode()
    assert '<strong class="error" id="commitment-site-verdict">' in content
    assert "commitment-browser-verdict" in content  # the browser checks the same text again


# --- A running game: the GMs' sealed preview, 404 for everyone else ------------------------------
C_PRIVATE = "канарейкаархивприват"
C_ORDER = "канарейкаархивприказ"


@pytest.fixture
def running_with_secrets(started):
    game = started
    vasya = game.seats.get(user__display_name="Вася").user
    post_submit(thread=game.game_thread, author=vasya, body=f'Привет. [private="Маленький Джон"]{C_PRIVATE}[/private]')
    order_submit(game=game, user=vasya, text=f"Проверяю Негодяя. {C_ORDER}")
    seat_modkill(game=game, seat=game.seats.get(user__display_name="Фроло"), by=game.gm, reason="ушёл")
    game.refresh_from_db()
    return game


def test_running_game_archive_is_404_for_everyone_but_its_gms(running_with_secrets):
    """(An anonymous visitor is sent to log in instead, issue 29: its GMs have the page.)"""
    game = running_with_secrets
    other_gm = make_user("Чужой ведущий")
    game_create(title="Другая игра", gm=other_gm)
    people = {"anonymous": None, "spectator": make_user("Зритель"), "other_gm": other_gm}
    people.update({seat.user.display_name: seat.user for seat in game.seats.select_related("user")})
    assert game.seats.get(user__display_name="Фроло").status == "removed"  # a dead player among them
    for who, user in people.items():
        for name, url in _urls(game).items():
            response = client_for(user).get(url)
            if user is None:
                assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
            else:
                assert response.status_code == 404, (who, name)
            assert C_PRIVATE not in response.content.decode()


def test_running_game_archive_is_a_sealed_preview_for_the_gms(running_with_secrets):
    game = running_with_secrets
    co_gm = make_user("Соведущий")
    game.co_gms.add(co_gm)
    for user in (game.gm, co_gm):
        content = client_for(user).get(_urls(game)["archive"]).content.decode()
        assert "archive-sealed" in content
        assert C_PRIVATE in content and C_ORDER in content and "мафиози" in content
        assert game.commitment_salt not in content and "commitment-site-verdict" not in content
        replay = client_for(user).get(_urls(game)["replay"])
        assert replay.status_code == 200 and "archive-sealed" in replay.content.decode()
        assert client_for(user).get(_urls(game)["export"]).status_code == 200


def test_signups_have_no_archive_even_for_the_gm(forum_game):
    for name, url in _urls(forum_game).items():
        assert client_for(forum_game.gm).get(url).status_code == 404, name
        assert client_for(None).get(url).status_code == 404, name


def test_unknown_game_is_404(db):
    for name in ("archive", "replay", "export"):
        assert client_for(None).get(reverse(f"games:{name}", args=[999999])).status_code == 404


def test_preview_marks_voided_phases_and_replacements(started):
    game = started
    day1 = game.current_phase
    phase_close(phase_id=day1.pk, by=game.gm)
    game.refresh_from_db()
    voided_phase = game.current_phase
    resolution_rollback(game=game, by=game.gm, reason="ошибка подсчёта")
    frolo = game.seats.get(user__display_name="Фроло")
    seat_replace(game=game, seat=frolo, new_user=make_user("Сменщик"), by=game.gm, reason="занят")
    game.refresh_from_db()
    assert Phase.objects.get(pk=voided_phase.pk).voided_at is not None
    client = client_for(game.gm)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        archive = game_archive(game.gm, game)
        assert [b.phase.pk for b in archive.voided] == [voided_phase.pk]
        assert voided_phase.pk not in [b.phase.pk for b in archive.phases]
        actions = [row.action.action for row in archive.gm_log]
        assert {"start", "close_now", "rollback", "replace"} <= set(actions)
        replace = next(row for row in archive.gm_log if row.action.action == "replace")
        assert ("replaced player", "Фроло") in replace.details and ("replacement", "Сменщик") in replace.details
    content = client.get(_urls(game)["archive"]).content.decode()
    assert 'class="card archive-voided"' in content and "Сменщик replaced Фроло" in content
    replay = client_for(game.gm).get(_urls(game)["replay"]).content.decode()
    assert 'class="card archive-voided"' in replay


# --- The replay ---------------------------------------------------------------------------------
def _charts(content: str) -> dict[int, ET.Element]:
    found = {}
    for match in re.finditer(r'<svg xmlns="http://www.w3.org/2000/svg" class="vote-chart".*?</svg>', content, re.S):
        root = ET.fromstring(match.group(0))
        found[int(root.get("id").removeprefix("chart-"))] = root
    return found


def _finals(root: ET.Element) -> dict[str, int]:
    return {g.get("data-key"): int(g.get("data-final")) for g in root.iter(f"{SVG}g") if g.get("class") == "wagon-series"}


def _count_finals(phase) -> dict[str, int]:
    return {(f"seat-{w.target.pk}" if w.target else "peace"): w.weight for w in vote_count(phase=phase).wagons}


def test_replay_has_a_chart_per_day_agreeing_with_the_count(finished_game):
    game = finished_game.game
    content = client_for(None).get(_urls(game)["replay"]).content.decode()
    charts = _charts(content)
    days = list(game.phases.filter(kind="day").order_by("opened_at"))
    assert sorted(charts) == sorted(d.pk for d in days) and len(days) == 3
    for day in days:
        root = charts[day.pk]
        assert root.get("role") == "img" and root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
        assert _finals(root) == _count_finals(day)
        count = vote_count(phase=day)  # a majority line only where a majority ends the day
        assert (root.get("data-majority") or None) == (None if count.plurality else str(count.majority))
    # Day 1 by name: Саша 3 (Глаша, Вася, Петя), Вася 1 (Паша).
    sasha, vasya = finished_game.seat("Саша"), finished_game.seat("Вася")
    assert _finals(charts[days[0].pk]) == {f"seat-{sasha.pk}": 3, f"seat-{vasya.pk}": 1}
    assert "<script" not in "".join(ET.tostring(c, encoding="unicode") for c in charts.values())


def test_each_days_post_range_is_the_lowest_and_highest_number_of_its_posts(finished_game):
    """The replay's day ranges (archive.post_ranges, issue 30: FILTERed MIN/MAX read from the
    day's index entries, not the planner's walk of the thread by number) are exactly the lowest
    and highest numbers of the posts written in the day, a post numbered out of time order too
    (a post's time is taken before its number)."""
    game = finished_game.game
    days = list(game.phases.filter(kind="day").order_by("opened_at"))
    thread = game.game_thread
    late = Post.objects.create(thread=thread, number=thread.post_count + 1, author=game.gm, body="x", html="<p>x</p>",
                               search_text="x", renderer_version=1, created_at=days[0].opened_at + timedelta(seconds=1))
    Thread.objects.filter(pk=thread.pk).update(post_count=late.number)
    ranges = post_ranges(game, days)
    for day in days:
        posts = Post.objects.filter(thread=thread, created_at__gte=day.opened_at)
        if day.closed_at is not None:
            posts = posts.filter(created_at__lt=day.closed_at)
        numbers = sorted(posts.values_list("number", flat=True))
        expected = (numbers[0], numbers[-1]) if numbers else (None, None)
        assert ranges[day.pk] == expected == _post_range(game, day)
    assert ranges[days[0].pk][1] == late.number  # the first day's range reaches the late-numbered post


def test_replay_chart_follows_gm_corrections(finished_game):
    game = finished_game.game
    day1 = game.phases.get(number=1)
    pasha_post = Post.objects.get(thread=game.game_thread, number=6)  # Паша: «В тюрьму Васю»
    vote_correct(post=pasha_post, gm=finished_game.gm, kind="vote", target=finished_game.seat("Саша"), note="опечатка")
    charts = _charts(client_for(None).get(_urls(game)["replay"]).content.decode())
    sasha = finished_game.seat("Саша")
    assert _finals(charts[day1.pk]) == _count_finals(day1) == {f"seat-{sasha.pk}": 4}


def test_replay_lists_public_events_then_secret_ones(finished_game):
    game = finished_game.game
    content = client_for(None).get(_urls(game)["replay"]).content.decode()
    day1 = content[content.index(f'id="phase-{game.phases.get(number=1).pk}"'):content.index(f'id="phase-{game.phases.get(number=2).pk}"')]
    public, secret = day1.split('class="events replay-secret"')
    assert "Отправляется в тюрьму: Саша (жулик)." in public and "Проверка: Маша — честный житель." not in public
    assert "Проверка: Маша — честный житель." in secret and "Вася проверка Маша" in secret


def test_replay_queries_do_not_grow_with_the_ballots(finished_game):
    game = finished_game.game
    url = _urls(game)["replay"]
    client = client_for(None)
    with CaptureQueriesContext(connection) as before:
        client.get(url)
    day3 = game.phases.get(number=3)
    seats = list(game.seats.all())
    author = finished_game.users["Вася"]
    for i in range(40):
        number = game.game_thread.post_count + 1 + i
        post = Post.objects.create(thread=game.game_thread, number=number, author=author, body="[b]В тюрьму[/b]", html="",
                                   renderer_version=1, created_at=day3.opened_at)
        VoteRecord.objects.create(phase=day3, post=post, post_number=number, voter=seats[i % 4], kind="vote",
                                  target=seats[4 + i % 2], valid=True, is_final=True, recorded_at=day3.opened_at)
    with CaptureQueriesContext(connection) as after:
        response = client.get(url)
    assert len(after.captured_queries) == len(before.captured_queries)
    assert _finals(_charts(response.content.decode())[day3.pk]) == _count_finals(day3)
