"""Players' statistics (games.selectors.stats): the profile's figures, the leaderboards, and that a running
game gives nothing away through them (docs/stats.md)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.selectors import stats
from games.wording import faction_label, role_label
from games.models import Game, Phase, Post, Seat, VoteRecord
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.selectors.votes import standing_votes, voting_kinds
from tests.conftest import client_for, make_user, play_kept

SCENARIOS = __import__("os").path.join(__import__("os").path.dirname(__file__), "..", "scenarios")


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def profile_of(user):
    return stats.player_profile(user)


def board(client, ruleset="forum", **params):
    url = reverse("games:leaderboard", args=[ruleset]) if ruleset else reverse("games:leaderboards")
    return client.get(url, params)


def board_names(response):
    return [line.display_name for _rank, line in response.context["rows"]]


# --- A synthetic finished game, written straight into the tables --------------------------------
_clock = [timezone.now() - timedelta(days=30)]


def finished(title, winner, seats, votes=(), *, ruleset="forum", gm=None):
    """seats: [(user, role, faction, status)]; votes: [(day, voter, kind, target, source)] in post
    order, each a post of its own in the game thread (source "gm" = a GM correction of the voter's
    previous post). The game ends `winner`."""
    gm = gm or make_user(f"GM {title}")
    game = game_create(title=title, gm=gm, ruleset=ruleset, size=len(seats))
    by_user = {}
    for number, (user, role, faction, status) in enumerate(seats, start=1):
        by_user[user.pk] = Seat.objects.create(game=game, user=user, number=number, role=role, faction=faction,
                                               status=status, is_alive=status == "active")
    _clock[0] += timedelta(hours=1)
    phases = {}
    last_post = {}
    for day, voter, kind, target, source in votes:
        if day not in phases:
            phases[day] = Phase.objects.create(game=game, kind="day", number=day, opened_at=_clock[0],
                                               closed_at=_clock[0] + timedelta(minutes=50))
        _clock[0] += timedelta(seconds=1)
        seat = by_user[voter.pk]
        if source == "gm":
            post = last_post[voter.pk]
        else:
            number = game.game_thread.post_count + 1
            post = Post.objects.create(thread=game.game_thread, number=number, author=voter, body="vote",
                                       html="<p>vote</p>", renderer_version=1, created_at=_clock[0])
            game.game_thread.post_count = number
            game.game_thread.save(update_fields=["post_count"])
            last_post[voter.pk] = post
        VoteRecord.objects.create(phase=phases[day], post=post, post_number=post.number, voter=seat, kind=kind,
                                  target=by_user[target.pk] if target else None, source=source, valid=True,
                                  is_final=True, recorded_at=_clock[0])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner=winner, started_at=_clock[0],
                                           finished_at=_clock[0] + timedelta(hours=1))
    game.refresh_from_db()
    return game


@pytest.fixture
def league(db):
    """Four finished forum games of Аня, Боря, Вера, Гоша (and Дима in one):

    game  winner  Аня               Боря              Вера              Гоша              Дима
    G1    town    town, alive, W    town, jailed, W   mafia, jailed     thief, alive      -
    G2    mafia   town, alive       mafia, jailed, W  mafia, alive, W   town, alive       -
    G3    thief   mafia, alive      town, jailed      town, jailed      thief, alive, W   -
    G4    none    town, alive, D    town, alive, D    mafia, alive, D   -                 mafia, jailed, D

    games / wins / survived: Аня 4/1/4, Боря 4/2/1, Вера 4/1/2, Гоша 3/1/3, Дима 1/0/0.

    Standing votes at each day's close (players' votes for a player, and which are for an enemy):
    Аня: G1 d1 Боря (town->town), G2 d1 Гоша (town->town), G3 d1 peace (not counted) -> 0 of 2.
    Боря: G1 d1 Вера (town->mafia, enemy); G2 d1 voted Аня, then unvoted (no vote) -> 1 of 1.
    Вера: G1 d1 Гоша (mafia->thief, enemy); G2 d1 first Аня, then Боря (mafia->mafia; the last
    ballot stands) -> 1 of 2; G4 d1 a post read as a vote for Аня that the GM corrected to
    "no vote" (the correction beats the post's reading: nothing counts).
    Гоша: no votes -> no rate.
    """
    ana, borya, vera, gosha, dima = (make_user(n) for n in ("Аня", "Боря", "Вера", "Гоша", "Дима"))
    finished("G1", "town", [(ana, "citizen", "town", "active"), (borya, "recruiter", "town", "jailed"),
                            (vera, "mafioso", "mafia", "jailed"), (gosha, "thief", "thief", "active")],
             [(1, ana, "vote", borya, "post"), (1, borya, "vote", vera, "post"), (1, vera, "vote", gosha, "post")])
    finished("G2", "mafia", [(ana, "citizen", "town", "active"), (borya, "mafioso", "mafia", "jailed"),
                             (vera, "killer", "mafia", "active"), (gosha, "citizen", "town", "active")],
             [(1, ana, "vote", gosha, "post"), (1, borya, "vote", ana, "post"), (1, vera, "vote", ana, "post"),
              (1, borya, "unvote", None, "post"), (1, vera, "vote", borya, "post")])
    finished("G3", "thief", [(ana, "mafioso", "mafia", "active"), (borya, "citizen", "town", "jailed"),
                             (vera, "reanimator", "town", "jailed"), (gosha, "thief", "thief", "active")],
             [(1, ana, "peace", None, "post")])
    finished("G4", "none", [(ana, "citizen", "town", "active"), (borya, "citizen", "town", "active"),
                            (vera, "mafioso", "mafia", "active"), (dima, "killer", "mafia", "jailed")],
             [(1, vera, "vote", ana, "post"), (1, vera, "none", None, "gm")])
    return {"Аня": ana, "Боря": borya, "Вера": vera, "Гоша": gosha, "Дима": dima}


# --- Reading the vote ledger in bulk -----------------------------------------------------------
def _per_phase(games):
    return {p.pk: standing_votes(p) for p in Phase.objects.filter(game__in=games, kind__in=voting_kinds(),
                                                                   voided_at__isnull=True, closed_at__isnull=False)}


def test_bulk_standing_votes_equal_the_close_phase_by_phase(finished_game, league):
    games = Game.objects.filter(status=Game.Status.FINISHED)
    expected = {pk: votes for pk, votes in _per_phase(games).items() if votes}
    assert stats.standing_votes_bulk(games) == expected
    assert len(expected) == 3 + 3  # the archive game's three days; G1-G3's day 1 (G4's only ballot was corrected away)


def test_bulk_standing_votes_on_club_games_with_a_revote(db):
    played = [play_kept(f"{SCENARIOS}/club/{name}.yaml") for name in ("revote_between_two", "red_wins")]
    games = Game.objects.filter(pk__in=[p.game.pk for p in played])
    assert Phase.objects.filter(game__in=games, kind="revote", closed_at__isnull=False).exists()
    expected = {pk: votes for pk, votes in _per_phase(games).items() if votes}
    assert stats.standing_votes_bulk(games) == expected


# --- The figures of the archive game -----------------------------------------------------------
def test_the_archive_game_figures(finished_game):
    """tests/scenarios/forum/whole_game_for_the_archive.yaml, won by the town (game.winner "town"):
    day 1 Глаша->Саша, Паша->Вася, Вася->Саша, Петя->Саша: Саша (thief) jailed;
    day 2 Маша->Паша, Вася->Паша, Паша->Маша: Паша (killer) jailed;
    day 3 Маша->Глаша, Глаша->Маша, Вася->Глаша: Глаша (mafioso) jailed, the town wins.
    Every standing vote is for another team: Вася 3/3, Маша 2/2 (days 2, 3), Глаша 2/2 (Саша is
    the thief's own team of one; Маша is town), Паша 2/2, Петя 1/1; Даша and Саша never voted."""
    assert finished_game.game.winner == "town"
    expected = {  # name: (wins, survived, enemy votes, votes for a player, role, faction)
        "Вася": (1, True, 3, 3, "recruiter", "town"),
        "Петя": (1, True, 1, 1, "reanimator", "town"),
        "Маша": (1, True, 2, 2, "citizen", "town"),
        "Даша": (1, True, 0, 0, "citizen", "town"),
        "Глаша": (0, False, 2, 2, "mafioso", "mafia"),
        "Паша": (0, False, 2, 2, "killer", "mafia"),
        "Саша": (0, False, 0, 0, "thief", "thief"),
    }
    for name, (wins, survived, enemy, for_player, role, faction) in expected.items():
        profile = profile_of(finished_game.users[name])
        t = profile.overall
        assert (t.games, t.wins, t.survived, t.enemy_votes, t.player_votes) == (1, wins, int(survived), enemy,
                                                                               for_player), name
        assert [(g.key, g.tally.games, g.tally.wins) for g in profile.by_ruleset] == [("forum", 1, wins)]
        assert [(g.key, g.tally.wins) for g in profile.by_faction] == [(faction, wins)]
        assert [(g.key, g.tally.wins) for g in profile.by_role] == [(role, wins)]
        (record,) = profile.games
        assert (record.role, record.faction, record.won, record.survived) == (role, faction, bool(wins), survived)
    assert profile_of(finished_game.users["Даша"]).overall.enemy_vote_rate is None
    assert profile_of(finished_game.gm).hosted == 1


def test_league_figures_thief_and_draw(league):
    rows = {name: profile_of(user).overall for name, user in league.items()}
    got = {name: (t.games, t.wins, t.draws, t.survived, t.enemy_votes, t.player_votes) for name, t in rows.items()}
    assert got == {
        "Аня": (4, 1, 1, 4, 0, 2),
        "Боря": (4, 2, 1, 1, 1, 1),
        "Вера": (4, 1, 1, 2, 1, 2),
        "Гоша": (3, 1, 0, 3, 0, 0),
        "Дима": (1, 0, 1, 0, 0, 0),
    }
    gosha = profile_of(league["Гоша"])
    assert [(g.key, g.tally.games, g.tally.wins) for g in gosha.by_faction] == [("thief", 2, 1), ("town", 1, 0)]
    assert [r.outcome for r in profile_of(league["Дима"]).games] == ["draw"]
    assert [r.outcome for r in gosha.games] == ["win", "loss", "loss"]  # newest first: G3, G2, G1


# --- Secrecy: a running game gives nothing away -------------------------------------------------
RUNNING_ROLES = {"Вася": "killer", "Петя": "mafioso", "Маша": "recruiter", "Даша": "thief",
                 "Глаша": "citizen", "Паша": "reanimator", "Саша": "citizen"}


@pytest.fixture
def running_too(finished_game):
    """The archive game's seven players in a second game, still running, dealt other roles; day 1
    closed with Глаша jailed on three votes (Вася, Петя, Маша), day 2 open."""
    users = finished_game.users
    gm = make_user("Ведущий бегущей")
    game = game_create(title="Бегущая игра", gm=gm, size=7)
    for name in RUNNING_ROLES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=list(RUNNING_ROLES.values()))
    game.refresh_from_db()
    now = timezone.now()
    for name in ("Вася", "Петя", "Маша"):
        post_submit(thread=game.game_thread, author=users[name], body="[b]В тюрьму Глашу[/b]", now=now)
    phase_close(phase_id=game.current_phase_id, now=now)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.seats.get(user=users["Глаша"]).status != "active"
    return game


def _perspectives(finished_game, running):
    users = finished_game.users
    return {
        "anonymous": None,
        "spectator": make_user("Зритель"),
        "himself": None,  # filled per profile
        "mafia team-mate in the running game": users["Петя"],
        "town player in the running game": users["Маша"],
        "the thief of the running game": users["Даша"],
        "jailed player in the running game": users["Глаша"],
        "GM of the running game": running.gm,
        "staff": make_user("Модератор", staff=True),
    }


def test_running_game_roles_never_show_on_profiles(finished_game, running_too):
    users = finished_game.users
    perspectives = _perspectives(finished_game, running_too)
    for name, running_role in RUNNING_ROLES.items():
        finished_role = finished_game.seat(name).role
        assert finished_role != running_role
        secret = role_label("forum", running_role)
        shown = role_label("forum", finished_role)
        for who, viewer in perspectives.items():
            viewer = users[name] if who == "himself" else viewer
            response = client_for(viewer).get(reverse("accounts:profile", args=[users[name].pk]))
            html = response.content.decode()
            assert response.status_code == 200
            assert secret not in html, (name, who)
            assert shown in html, (name, who)
            assert "Бегущая игра" in html  # "playing now", by its title
            profile = response.context["profile"]
            assert profile.overall.games == 1 and [g.title for g in profile.playing] == ["Бегущая игра"]
    # Вася's running day-1 vote for Глаша (a citizen there) changes nothing: still 3 of 3.
    t = profile_of(users["Вася"]).overall
    assert (t.games, t.enemy_votes, t.player_votes) == (1, 3, 3)
    # Team names of the running game: Вася plays for the mafia there, for the town in the archive
    # (read in English: the Russian "мафия" is also in the rule set's name).
    english = client_for(None)
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = english.get(reverse("accounts:profile", args=[users["Вася"].pk]))
    html = response.content.decode()
    assert "the mafia" not in html and "honest citizens" in html and "killer" not in html and "recruiter" in html
    assert [g.key for g in response.context["profile"].by_faction] == ["town"]


def test_a_player_of_a_running_game_only_has_no_figures(started):
    """The seven players of tests/games/conftest.py's `started` game (dealt, day 1 open)."""
    vasya = started.seats.get(number=1).user
    html = client_for(vasya).get(reverse("accounts:profile", args=[vasya.pk])).content.decode()
    for role in ("recruiter", "reanimator", "citizen", "mafioso", "killer", "thief"):
        assert role_label("forum", role) not in html
    for faction in ("town", "mafia", "thief"):
        assert faction_label(faction) not in html
    assert "Форумная" in html
    response = board(client_for(None), min=1)
    assert response.status_code == 200 and board_names(response) == []


def test_leaderboard_counts_finished_games_only(finished_game, running_too):
    for viewer in (None, finished_game.users["Вася"], running_too.gm):
        response = board(client_for(viewer), min=1)
        lines = {line.display_name: line.tally for _rank, line in response.context["rows"]}
        assert set(lines) == set(RUNNING_ROLES)
        assert all(t.games == 1 for t in lines.values())
        assert (lines["Вася"].enemy_votes, lines["Вася"].player_votes) == (3, 3)
        html = response.content.decode()
        for role in set(RUNNING_ROLES.values()):
            assert role_label("forum", role) not in html


# --- Leaderboards ------------------------------------------------------------------------------
def test_unknown_ruleset_is_404(db, client):
    assert board(client, "poker").status_code == 404
    for ruleset in ("forum", "club", "cards", "show"):
        assert board(client, ruleset).status_code == 200
    # A key no rule set registers (an old game's, a typo) has no board.
    assert board(client, "chess").status_code == 404
    assert board(client, None).status_code == 200


def test_min_games(league, client):
    assert board_names(board(client)) == ["Боря", "Гоша", "Аня", "Вера"]  # 3 games by default: not Дима
    assert "Дима" in board_names(board(client, min=1))
    assert board_names(board(client, min=4)) == ["Боря", "Аня", "Вера"]
    for bad in ("abc", "0", "101", "-2"):
        response = board(client, min=bad)
        assert response.status_code == 200 and response.context["min_games"] == 3 and response.context["notice"]
        assert board_names(response) == ["Боря", "Гоша", "Аня", "Вера"]


def test_sorting(league, client):
    # win rate: Боря 2/4, Гоша 1/3, then Аня and Вера 1/4 each with 4 games: by name.
    assert board_names(board(client, sort="win_rate")) == ["Боря", "Гоша", "Аня", "Вера"]
    assert board_names(board(client, None)) == ["Боря", "Гоша", "Аня", "Вера"]  # the forum's, by default
    assert board_names(board(client, sort="wins")) == ["Боря", "Аня", "Вера", "Гоша"]
    assert board_names(board(client, sort="games")) == ["Аня", "Боря", "Вера", "Гоша"]
    # survival: Аня 4/4 and Гоша 3/3 (more games first), Вера 2/4, Боря 1/4
    assert board_names(board(client, sort="survival")) == ["Аня", "Гоша", "Вера", "Боря"]
    # votes for an enemy: Боря 1/1, Вера 1/2, Аня 0/2, Гоша none (last)
    assert board_names(board(client, sort="enemy_votes")) == ["Боря", "Вера", "Аня", "Гоша"]
    for bad in ("nonsense", "rating", ""):  # rating is the club's only
        response = board(client, sort=bad)
        assert response.context["sort"] == "win_rate" and board_names(response) == ["Боря", "Гоша", "Аня", "Вера"]


def test_pagination(league, client, monkeypatch):
    monkeypatch.setattr(stats, "PAGE_SIZE", 3)
    first, second = board(client, min=1), board(client, min=1, page=2)
    assert board_names(first) == ["Боря", "Гоша", "Аня"]
    assert [(rank, line.display_name) for rank, line in second.context["rows"]] == [(4, "Вера"), (5, "Дима")]
    assert "page=2" in first.content.decode()


def test_club_board_with_ratings_and_a_draw(db, client):
    from games.rulesets.club.services import rating_table

    red = play_kept(f"{SCENARIOS}/club/red_wins.yaml")
    draw = play_kept(f"{SCENARIOS}/club/draw_when_nobody_is_left.yaml")
    assert (red.game.winner, draw.game.winner) == ("red", "none")
    response = board(client, "club", min=1)
    lines = {line.user_id: line for _rank, line in response.context["rows"]}
    assert len(lines) == 16 and response.context["with_rating"]
    for played in (red, draw):
        for row in rating_table(game=played.game):
            assert lines[row.seat.user_id].rating == row.total
    anna = red.users["Анна"]
    assert (lines[anna.pk].tally.games, lines[anna.pk].tally.wins) == (1, 1)
    dina = draw.users["Дина"]
    assert (lines[dina.pk].tally.wins, lines[dina.pk].tally.draws) == (0, 1)
    ranked = board(client, "club", min=1, sort="rating").context["rows"]
    ratings = [line.rating for _rank, line in ranked]
    assert ratings == sorted(ratings, reverse=True)


def test_leaderboard_sees_a_newly_finished_game_at_once(league, client):
    assert "Дима" not in board_names(board(client))
    extra = make_user("Ещё")
    for title in ("G5", "G6"):
        finished(title, "town", [(league["Дима"], "citizen", "town", "active"), (extra, "mafioso", "mafia", "jailed")])
    assert "Дима" in board_names(board(client))  # 3 games now, though the table was cached


# --- Cost: queries do not grow with the number of games ----------------------------------------
def _count(callable_):
    with CaptureQueriesContext(connection) as ctx:
        callable_()
    return len(ctx.captured_queries)


def test_profile_and_board_queries_do_not_grow_with_games(db, django_assert_max_num_queries):
    player, other = make_user("Игрок"), make_user("Соперник")
    viewer = client_for(make_user("Гость"))
    url = reverse("accounts:profile", args=[player.pk])

    def play(n):
        for _ in range(n):
            finished(f"Q{_clock[0].timestamp()}", "town",
                     [(player, "citizen", "town", "active"), (other, "mafioso", "mafia", "jailed")],
                     [(1, player, "vote", other, "post"), (2, player, "vote", other, "post"),
                      (1, other, "vote", player, "post")])

    play(1)
    cache.clear()  # both counts start cold: with cached sessions a cleared cache reloads the session
    one_profile = _count(lambda: viewer.get(url))
    cache.clear()
    one_board = _count(lambda: board(viewer, min=1))
    play(7)
    cache.clear()
    with django_assert_max_num_queries(one_profile):
        response = viewer.get(url)
    assert response.context["profile"].overall.games == 8
    assert response.context["profile"].overall.enemy_votes == 16
    with django_assert_max_num_queries(one_board):
        response = board(viewer, min=1)
    assert [line.tally.games for _rank, line in response.context["rows"]] == [8, 8]
    with django_assert_max_num_queries(1):  # cached: only the version query
        stats.board_lines("forum")


def test_profile_lists_finished_games_by_pages(league, client, monkeypatch):
    monkeypatch.setattr(stats, "PAGE_SIZE", 3)
    url = reverse("accounts:profile", args=[league["Аня"].pk])
    first, second = client.get(url), client.get(url, {"games": 2})
    assert [r.title for r in first.context["games_page"].object_list] == ["G4", "G3", "G2"]
    assert [r.title for r in second.context["games_page"].object_list] == ["G1"]
    html = second.content.decode()
    assert reverse("games:archive", args=[Game.objects.get(title="G1").pk]) in html
    assert first.context["profile"].overall.games == 4  # the figures count every page
