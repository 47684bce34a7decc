"""The game list (games:games): status tabs with counts, rule-set and title filters, sorts,
pages of 25, the row of each game, and a query count that does not grow with the games."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from games.wording import faction_label
from games.models import Game, Phase, Thread
from games.rulesets import registry
from games.selectors import GameListFilters
from games.services.games import game_create, seat_add
from tests.conftest import client_for, make_user

URL = reverse("games:games")


def listed(params=None, user=None) -> list[str]:
    """The titles of the games on the page, in order."""
    response = client_for(user).get(URL, params or {})
    assert response.status_code == 200
    return re.findall(r'class="game-title">([^<]*)</a>', response.content.decode())


def page(params=None, user=None) -> str:
    response = client_for(user).get(URL, params or {})
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def gm(db):
    return make_user("Ведущий")


def make_game(gm, title, *, status=Game.Status.SIGNUPS, ruleset="forum", players=0, size=9, created=None):
    # A key no rule set registers («show»: an old game's) cannot be created any more, yet its
    # games are still listed: such a game is stored with its key as it is.
    registered = registry.find(ruleset) is not None
    game = game_create(title=title, gm=gm, ruleset=ruleset if registered else None, size=size)
    for n in range(players):
        seat_add(game=game, user=make_user(f"{title} игрок {n}"))
    changes = {"status": status} if registered else {"status": status, "ruleset": ruleset}
    if created is not None:
        changes["created_at"] = created
    Game.objects.filter(pk=game.pk).update(**changes)
    game.refresh_from_db()
    return game


@pytest.fixture
def assorted(gm):
    now = timezone.now()
    return {
        "signups": make_game(gm, "Весенний турнир", players=2, created=now - timedelta(days=3)),
        "running": make_game(gm, "Ёжики в тумане", status=Game.Status.RUNNING, ruleset="club", players=5,
                             size=10, created=now - timedelta(days=2)),
        "finished": make_game(gm, "альфа и омега", status=Game.Status.FINISHED, ruleset="cards", players=1,
                              created=now - timedelta(days=1)),
        "show": make_game(gm, "Бета-шоу", ruleset="show", players=3, created=now),
    }


# --- Filters -------------------------------------------------------------------------------------
def test_every_game_by_default_newest_first(assorted):
    assert listed() == ["Бета-шоу", "альфа и омега", "Ёжики в тумане", "Весенний турнир"]


def test_status_tabs_filter_and_count(assorted):
    assert listed({"status": "signups"}) == ["Бета-шоу", "Весенний турнир"]
    assert listed({"status": "running"}) == ["Ёжики в тумане"]
    assert listed({"status": "finished"}) == ["альфа и омега"]
    html = page({"status": "running"})
    tabs = re.findall(r'class="tab[^"]*"[^>]*>[^<]*<span class="count">(\d+)</span>', html)
    assert tabs == ["2", "1", "1", "4"]  # signups, running, finished, all
    assert re.search(r'aria-current="page">[^<]*<span class="count">1</span>', html)
    with translation.override("ru"):
        assert str(Game.Status.RUNNING.label) in html


def test_counts_follow_the_other_filters(assorted):
    from games.selectors import game_status_counts

    assert game_status_counts(GameListFilters(ruleset="forum")) == {"signups": 1, "running": 0, "finished": 0, "all": 1}
    html = page({"q": "ёжики"})
    assert re.findall(r'class="tab[^"]*"[^>]*>[^<]*<span class="count">(\d+)</span>', html) == ["0", "1", "0", "1"]


def test_rule_set_filter(assorted):
    assert listed({"ruleset": "club"}) == ["Ёжики в тумане"]
    assert listed({"ruleset": "cards", "status": "running"}) == []
    with translation.override("ru"):
        assert gettext("No games match these filters.") in page({"ruleset": "cards", "status": "running"})


def test_title_search_ignores_case_and_yo_in_cyrillic(assorted):
    assert listed({"q": "ЁЖИКИ"}) == ["Ёжики в тумане"]
    assert listed({"q": "ежики"}) == ["Ёжики в тумане"]
    assert listed({"q": "АЛЬФА омега"}) == ["альфа и омега"]
    assert listed({"q": "альфа бета"}) == []
    assert listed({"q": "тУрНиР", "status": "signups"}) == ["Весенний турнир"]


def test_sorts(assorted, gm):
    assert listed({"sort": "old"}) == ["Весенний турнир", "Ёжики в тумане", "альфа и омега", "Бета-шоу"]
    # by title without regard to case (ё sorts as е)
    assert listed({"sort": "title"}) == ["альфа и омега", "Бета-шоу", "Весенний турнир", "Ёжики в тумане"]
    assert listed({"sort": "players"}) == ["Ёжики в тумане", "Бета-шоу", "Весенний турнир", "альфа и омега"]
    Thread.objects.filter(pk=assorted["signups"].discussion_thread_id).update(last_post_at=timezone.now() + timedelta(hours=1))
    Thread.objects.filter(pk=assorted["finished"].game_thread_id).update(last_post_at=timezone.now() + timedelta(minutes=5))
    assert listed({"sort": "active"}) == ["Весенний турнир", "альфа и омега", "Бета-шоу", "Ёжики в тумане"]


@pytest.mark.parametrize("params", [
    {"status": "nonsense"}, {"ruleset": "chess"}, {"sort": "-pk; drop"}, {"page": "x"}, {"page": "999"},
    {"q": "x" * 5000}, {"status": ""}, {"ruleset": ["club", "forum"]},
])
def test_invalid_values_fall_back_to_the_defaults(assorted, params):
    response = client_for(None).get(URL, params)
    assert response.status_code == 200


def test_invalid_values_are_ignored_not_applied(assorted):
    assert listed({"status": "nonsense", "ruleset": "chess", "sort": "bad"}) == listed()
    assert GameListFilters.from_query({"status": "x", "ruleset": "y", "sort": "z"}) == GameListFilters()


def _tab_counts(params=None) -> list[str]:
    return re.findall(r'class="tab[^"]*"[^>]*>[^<]*<span class="count">(\d+)</span>', page(params))


def test_the_kept_counts_follow_every_change_of_a_games_row(assorted, gm, django_assert_num_queries):
    """Issue 30: «the games list with 5,000 finished games — … flat in the site's size». The tab
    counts (and the pages counted from them) are kept until a game's row is written: a reload
    counts nothing, a game created, started, finished or deleted, by a service or any statement,
    shows at once."""
    assert _tab_counts() == ["2", "1", "1", "4"]
    with django_assert_num_queries(1):  # the page of games alone: the counts are kept
        client_for(None).get(URL)
    assert _tab_counts({"ruleset": "club"}) == ["0", "1", "0", "1"]
    game = game_create(title="Новая", gm=gm, size=9)
    assert _tab_counts() == ["3", "1", "1", "5"]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert _tab_counts() == ["2", "1", "2", "5"]
    assert _tab_counts({"ruleset": "club"}) == ["0", "1", "0", "1"]
    Game.objects.filter(pk=assorted["running"].pk).update(status=Game.Status.FINISHED)
    assert _tab_counts({"ruleset": "club"}) == ["0", "0", "1", "1"]
    Game.objects.filter(pk=game.pk).delete()
    assert _tab_counts() == ["2", "0", "2", "4"]


def test_a_title_search_counts_its_matches_each_time(assorted, gm):
    assert _tab_counts({"q": "ёжики"}) == ["0", "1", "0", "1"]
    make_game(gm, "Ёжики возвращаются", status=Game.Status.FINISHED)
    assert _tab_counts({"q": "ёжики"}) == ["0", "1", "1", "2"]


# --- Pages -------------------------------------------------------------------------------------------
def test_pages_of_twenty_five_keep_the_filters(gm):
    now = timezone.now()
    for n in range(30):
        make_game(gm, f"Игра {n:02d}", created=now - timedelta(minutes=n))
    first = page({"ruleset": "forum"})
    assert len(re.findall('class="game-title"', first)) == 25
    assert "ruleset=forum&amp;page=2" in first
    assert listed({"ruleset": "forum", "page": "2"}) == [f"Игра {n:02d}" for n in range(25, 30)]


# --- Rows -------------------------------------------------------------------------------------------
def test_a_running_games_row_shows_its_phase(started):
    html = page({"status": "running"})
    phase = started.current_phase
    assert phase is not None
    with translation.override("ru"):
        assert f"{phase.kind_label} {phase.number}" in html
        assert str(registry.site("forum").label) in html
    assert f"{started.seats.count()}/{started.size}" in html
    assert started.gm.display_name in html
    assert reverse("games:archive", args=[started.pk]) not in html


def test_a_finished_games_row_shows_the_winner_and_the_archive(finished_game):
    game = finished_game.game
    html = page({"status": "finished"})
    with translation.override("ru"):
        assert faction_label(game.winner) in html
    assert reverse("games:archive", args=[game.pk]) in html
    assert game.get_absolute_url() in html and game.game_thread.get_absolute_url() in html


def test_the_htmx_request_gets_the_list_region_only(assorted):
    response = client_for(None).get(URL, {"status": "running"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="game-list-region")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'id="game-list-region"' in html
    assert "Ёжики в тумане" in html and "Весенний турнир" not in html


def test_the_main_page_still_lists_games(assorted):
    html = client_for(None).get(reverse("games:index")).content.decode()
    assert "Ёжики в тумане" in html and "Весенний турнир" in html


# --- Cost ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("viewer", ["anonymous", "user"])
def test_the_query_count_does_not_grow_with_the_games(gm, django_assert_max_num_queries, viewer):
    user = make_user("Читатель") if viewer == "user" else None
    client = client_for(user)

    def queries_for_the_page():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert client.get(URL, {"sort": "players"}).status_code == 200
        return len(ctx)

    make_game(gm, "Одна", players=2, status=Game.Status.FINISHED)
    few = queries_for_the_page()
    for n in range(30):
        make_game(gm, f"Игра {n}", players=n % 4, status=[Game.Status.SIGNUPS, Game.Status.RUNNING][n % 2])
    with django_assert_max_num_queries(few):
        client.get(URL, {"sort": "players"})
    with django_assert_max_num_queries(few):
        client.get(URL, {"status": "finished", "sort": "active", "page": "2"})
