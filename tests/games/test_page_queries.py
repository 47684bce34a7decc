"""What the pages of a game and of a user cost in SQL queries as the site grows (issue 30 part 1;
docs/performance.md, "Growth"): the GM dashboard, the archive and the replay of a game of twenty
players, the personal desk of a user in many games, the games list with many finished games.

Budgets, not timings (query counts are deterministic; a machine's speed is not): each page at most
`BUDGET` queries, and the same count however long the game (one day or three) and however big the
site (few games or many), for every viewer the page is shown to. A page is measured as the site
serves it to a browser that has just opened a page: the session's user and the bell kept
(games.caching.pagecache), everything the page shows of the game read afresh from the database.
A failing budget lists each query with the project's code that sent it (tests/games/query_origins.py).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bench.votes import ledger_lines
from games.caching import pagecache
from games.models import Absence, AnonymousMessage, Game, Post, Seat, Thread, VoteRecord
from games.services.games import game_create
from games.services.lifecycle import game_finish, game_set_co_gm, game_signup, game_start
from games.services.moderation import seat_replace
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.query_origins import page_queries

pytestmark = pytest.mark.django_db

BUDGET = 10  # the goal for each of these pages
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _served(client, url: str, data: dict | None = None):
    """The page's queries as the site serves it: once to keep the session's user and bell, then
    measured with the game's counter moved (every read of the game afresh)."""
    client.get(url, data or {})
    game_id = _game_id_of(url)
    if game_id is not None:
        pagecache.changed(game=game_id)
    return page_queries(client, url, data)


def _game_id_of(url: str) -> int | None:
    parts = url.strip("/").split("/")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "games" and parts[1].isdigit() else None


def _cold(client, url: str, data: dict | None = None):
    """The page with the cache emptied (nothing kept: the session, the user, the bell read too)."""
    cache.clear()
    return page_queries(client, url, data)


# --- A forum game of twenty players, N days long ----------------------------------------------
def _forum_game(days: int, *, finished: bool, extras: bool = False, tag: str = "") -> SimpleNamespace:
    """A forum game of 20 players played through the real services for `days` days and nights,
    each day's votes bulk-loaded as bench/seed.py loads them (30 posts, each a vote in the ledger),
    the phases closed by the deadline's own service, and ended (`finished`) as the close ends a
    game. `extras`: every section most games have none of, filled (a co-GM, a replacement, an
    anonymous message waiting for the GM, an absent player)."""
    gm = make_user(f"Ведущий{tag}")
    players = [make_user(f"Игрок {n}{tag}") for n in range(20)]
    game = game_create(title=f"Большая игра{tag}", gm=gm, size=20)
    for user in players:
        game_signup(game=game, user=user)
    start = timezone.now() - timedelta(days=2 * days + 3)
    game_start(game=game, by=gm, now=start, seed=8)
    co_gm = make_user(f"Соведущий{tag}")
    if extras:
        game_set_co_gm(game=Game.objects.get(pk=game.pk), by=gm, name=co_gm.display_name, add=True, now=start)
    for _day in range(days):
        game = Game.objects.select_related("current_phase").get(pk=game.pk)
        phase = game.current_phase
        seats = list(game.seats.select_related("user").filter(is_alive=True).order_by("number"))
        thread = game.game_thread
        first = thread.post_count + 1
        posts = Post.objects.bulk_create([
            Post(thread=thread, number=first + i, author=seats[i % len(seats)].user, body="[b]В тюрьму[/b]",
                 html="<p><b>В тюрьму</b></p>", renderer_version=1, created_at=phase.opened_at + timedelta(minutes=i + 1))
            for i in range(30)])
        VoteRecord.objects.bulk_create(ledger_lines(phase, posts, seats))
        Thread.objects.filter(pk=thread.pk).update(post_count=first + 29)
        phase_close(phase_id=phase.pk, now=phase.deadline_at)  # the day
        night = Game.objects.get(pk=game.pk).current_phase
        phase_close(phase_id=night.pk, now=night.deadline_at)  # and its night
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.RUNNING and game.phases.count() == 2 * days + 1
    if extras:
        seat = game.seats.filter(is_alive=True).order_by("number").first()
        seat_replace(game=game, seat=seat, new_user=make_user(f"Запасной{tag}"), by=gm, now=game.current_phase.opened_at)
        sender, recipient = game.seats.filter(is_alive=True).order_by("number")[1:3]
        AnonymousMessage.objects.create(game=game, sender=sender, recipient=recipient, phase=game.current_phase,
                                        text="Я знаю, кто ты.", created_at=game.current_phase.opened_at)
        today = timezone.localdate()
        Absence.objects.create(user=recipient.user, starts_on=today, ends_on=today + timedelta(days=3))
    if finished:
        game_finish(game=game, winner="town", now=game.current_phase.opened_at + timedelta(hours=1))
        game = Game.objects.get(pk=game.pk)
    viewers = {"gm": gm, "player": game.seats.order_by("number").last().user, "spectator": make_user(f"Зритель{tag}"),
               "anonymous": None}
    if extras:
        viewers["co-GM"] = co_gm
    return SimpleNamespace(game=game, viewers=viewers)


PAGES = {"gm_dashboard": ("gm", "co-GM"), "archive": None, "replay": None}  # None: every viewer


def _pages(played, *, finished: bool):
    """(page, viewer, url) of every page of the game shown to that viewer: the GM dashboard to the
    GMs; the archive and the replay to everyone once the game is over, to the GMs while it runs."""
    for page, only in PAGES.items():
        for who, user in played.viewers.items():
            if (only is not None and who not in only) or (not finished and who not in ("gm", "co-GM")):
                continue
            yield page, who, client_for(user), reverse(f"games:{page}", args=[played.game.pk])


@pytest.mark.parametrize("extras", [False, True], ids=["plain", "every-rare-section"])
@pytest.mark.parametrize("finished", [True, False], ids=["finished", "running"])
def test_a_game_s_pages_cost_the_same_queries_however_long_it_was(finished, extras):
    """The issue's game (a finished game of thousands of posts: the seats' rows as many as the
    forum seats, 20): its GM dashboard, archive and replay, one day long and three days long. With
    `extras`, every section most games leave empty filled (a co-GM, who sees the pages too, a
    replacement, an anonymous message waiting, an absent player): each probed in the game's own
    query, each costs its one read when filled, and the pages still keep the budget."""
    short = _forum_game(1, finished=finished, extras=extras)
    long = _forum_game(3, finished=finished, extras=extras, tag="-3")
    for (page, who, client, url), (_p, _w, long_client, long_url) in zip(_pages(short, finished=finished),
                                                                          _pages(long, finished=finished)):
        one, three = _served(client, url), _served(long_client, long_url)
        assert len(three) <= BUDGET, f"{page} as {who} (3 days):\n{three}"
        assert len(one) == len(three), f"{page} as {who}: 1 day\n{one}\n3 days\n{three}"
        assert len(_cold(client, url)) == len(_cold(long_client, long_url)), (page, who)
    if extras and finished:
        archive = client_for(None).get(reverse("games:archive", args=[long.game.pk])).content.decode()
        assert "Соведущий-3" in archive and "Запасной-3" in archive and "Я знаю, кто ты." in archive
    elif extras:
        html = client_for(long.viewers["co-GM"]).get(reverse("games:gm_dashboard", args=[long.game.pk])).content.decode()
        today = timezone.localdate()
        assert "Я знаю, кто ты." in html and "Запасной-3" in html and f"{today.day}.{today:%m}–" in html  # the V/LA


def test_the_budget_counts_every_empty_section_as_free_only_when_it_is_empty():
    """The facts the game's query probes are true facts: a game with none of the rare rows reads
    none of them, and adding one (here an anonymous message) adds exactly its one read."""
    played = _forum_game(1, finished=False)
    client = client_for(played.viewers["gm"])
    url = reverse("games:gm_dashboard", args=[played.game.pk])
    before = _served(client, url)
    game = played.game
    sender, recipient = game.seats.order_by("number")[0:2]
    AnonymousMessage.objects.create(game=game, sender=sender, recipient=recipient, phase=game.current_phase,
                                    text="Письмо без подписи.", created_at=timezone.now())
    after = _served(client, url)
    assert len(after) == len(before) + 1, f"{before}\n{after}"
    assert "Письмо без подписи." in after.response.content.decode()


# --- Every rule set: its own panels ----------------------------------------------------------------
def _kept_scenario(tmp_path, relative: str, stages: int | None = None):
    """A scenario file's first `stages` phases (all by default) played through the site and kept."""
    from games import scenarios

    data = yaml.safe_load((SCENARIOS / relative).read_text("utf-8"))
    if stages is not None:
        data["phases"] = data["phases"][:stages]
        data.pop("expect", None)
    path = tmp_path / f"{relative.replace('/', '-')}-{stages}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = scenarios.play(str(path), keep=True)
    game = Game.objects.get(pk=int(report.game_url.rstrip("/").rsplit("/", 1)[1]))
    users = {name: User.objects.get(username=username) for name, username in report.users.items()}
    gm = users.pop("gm")
    return SimpleNamespace(game=game, viewers={"gm": gm, "player": next(iter(users.values())),
                                               "spectator": make_user(f"Зритель {stages or 'все'}"), "anonymous": None})


# (scenario, a running prefix, a longer running prefix): each rule set's GM panels while it runs,
# and its archive and replay once it is over.
RULESETS = {
    "forum": ("forum/whole_game_for_the_archive.yaml", 1, 2),
    "club": ("club/red_wins.yaml", 2, 3),
    "cards": ("cards/mafia-wins-with-the-traitor.yaml", 1, 2),
    "show": ("show/small-show-demon-wins.yaml", 6, 9),
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rule_set_s_pages_keep_the_budget(ruleset, tmp_path):
    relative, shorter, longer = RULESETS[ruleset]
    finished = _kept_scenario(tmp_path, relative)
    assert finished.game.status == Game.Status.FINISHED and finished.game.ruleset == ruleset
    for page, who, client, url in _pages(finished, finished=True):
        served = _served(client, url)
        assert len(served) <= BUDGET, f"{ruleset}: {page} as {who}:\n{served}"
    early, late = _kept_scenario(tmp_path, relative, shorter), _kept_scenario(tmp_path, relative, longer)
    assert early.game.status == late.game.status == Game.Status.RUNNING
    for (page, who, client, url), (_p, _w, late_client, late_url) in zip(_pages(early, finished=False),
                                                                          _pages(late, finished=False)):
        one, other = _served(client, url), _served(late_client, late_url)
        assert len(one) <= BUDGET and len(other) <= BUDGET, f"{ruleset}: {page} as {who}:\n{one}\n{other}"
        if page != "gm_dashboard":  # the dashboard's sections differ by the kind of the open phase
            assert len(one) == len(other), f"{ruleset}: {page} as {who}:\n{one}\n{other}"


# --- The desk of a user in many games, the games list of a big site ---------------------------------
def _site(running: int, finished: int, *, tag: str):
    """A user seated in `running` running forum games of seven (through the services) and in
    `finished` finished games (bulk rows, as bench/site_growth.py makes the archive's)."""
    user = make_user(f"Завсегдатай{tag}")
    others = [make_user(f"Сосед {i}{tag}") for i in range(6)]
    gm = make_user(f"Ведущий стола{tag}")
    for n in range(running):
        game = game_create(title=f"Стол {n}{tag}", gm=gm, size=7)
        for member in (user, *others):
            game_signup(game=game, user=member)
        game_start(game=game, by=gm, seed=n)
    now = timezone.now()
    threads = Thread.objects.bulk_create([Thread(kind=kind, title=f"Архивная игра {n}{tag}", created_by=gm)
                                          for n in range(finished)
                                          for kind in (Thread.Kind.GAME, Thread.Kind.DISCUSSION)])
    games = Game.objects.bulk_create([
        Game(title=f"Архивная игра {n}{tag}", gm=gm, status=Game.Status.FINISHED, game_thread=threads[2 * n],
             discussion_thread=threads[2 * n + 1], size=7, winner="town" if n % 3 else "mafia",
             started_at=now - timedelta(days=n + 10), finished_at=now - timedelta(days=n + 3)) for n in range(finished)])
    Seat.objects.bulk_create([Seat(game=game, user=member, number=i + 1, role="citizen", faction="town")
                              for game in games for i, member in enumerate((user, *others))])
    return user


def test_the_desk_costs_the_same_queries_in_one_game_as_in_twenty():
    small, big = _site(1, 5, tag=""), _site(20, 50, tag="-big")
    url = reverse("games:dashboard")
    one, twenty = _served(client_for(small), url), _served(client_for(big), url)
    assert len(twenty) <= BUDGET, twenty
    assert len(one) == len(twenty), f"{one}\n{twenty}"
    # Cold: every open day's live count read too, all of them at once (not one count per game).
    assert len(_cold(client_for(small), url)) == len(_cold(client_for(big), url))
    assert twenty.response.content.decode().count("Стол ") >= 20


@pytest.mark.parametrize("viewer", ["user", "anonymous"])
def test_the_games_list_costs_the_same_queries_with_five_finished_games_as_with_fifty(viewer):
    small_gm = _site(0, 5, tag="")
    list_url = reverse("games:games")
    client = client_for(make_user("Читатель") if viewer == "user" else None)
    few = _served(client, list_url, {"status": "finished"})
    _site(0, 45, tag="-more")
    many = _served(client, list_url, {"status": "finished"})
    assert len(many) <= BUDGET, many
    assert len(few) == len(many), f"{few}\n{many}"
    assert small_gm is not None
