"""The site's pages as the site grows (issue 30, part 1, the rows past the thread): seeded beside
bench/growth.py's game thread in the same kept database, one tier per thread size.

For a tier of N posts:
- a finished forum game of 20 players (the forum's largest table; the issue's 30 seats no rule set)
  whose game thread holds N posts, the last DAY_VOTES of them counted votes of its day (the same
  day at every size: what grows is the thread), played through the real services: its day closed
  by `phase_close` (the deadline's task) — the close is timed first, inside a transaction rolled
  back after each timing, so it can be repeated — then ended (`game_finish`); its GM dashboard,
  archive and replay are measured as information (how they grow with a game's length); the
  close of bench/growth.py's game, whose every post is a
  vote of its day, is timed the same way (`timed_close`): the close against the day's votes;
- N / 20 finished games besides it (50 / 500 / 5,000 for the default sizes; a tier past 100,000
  posts, seeded for the search at 1,000,000, keeps the 100,000 tier's game and list), bulk-made rows as
  the archive keeps them, for the games list («Завершённые»);
- a finished forum game of 20 players and GAME_POSTS (10,000) posts, the same at every tier: its
  GM dashboard, archive and replay against the site's size (the issue's goal rows);
- a user seated in 20 running games and DESK_FINISHED (50) of the finished ones (the personal
  desk, /me/); the other finished games are other people's.

Each page: the median of the timings, its ratio to the empty view, its SQL queries. The goals:
at most 10 queries and the same cost at every size (flat), the close at most 2 s and flat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

# «a finished game of 10,000 posts and 30 players»: no rule set seats 30 (the forum's tables end at
# 20, FORUM_MAX, and the engine refuses a GM's table past it), so the largest forum table.
PLAYERS = 20
DESK_GAMES = 20  # «the personal desk of a user in 20 running games»
FINISHED_PER_POST = 20  # finished games in the list: one per 20 posts of the tier (5,000 at 100,000)
# The issue sets the site's rows at a 10,000-post game and 5,000 finished games; a tier past 100,000
# posts (the search's 1,000,000) keeps the 100,000 tier's site rather than seeding 50,000 games.
SITE_MAX_POSTS = 100_000
# «the GM dashboard, the archive page and the replay of a finished game of 10,000 posts … flat in
# the site's size»: the same game at every tier, while the site around it grows.
GAME_POSTS = 10_000
# The desk's user played in this many of the finished games (a regular); the rest are other
# people's: the site grows, not his history.
DESK_FINISHED = 50
# The same pages of the tier's game, whose thread holds the tier's posts: how they grow with a
# game's length (information: the goal is the fixed game's).
BIG_PREFIX = "game of the tier's size: "
# The votes of the finished game's day, the same at every size, so its close is measured against
# the thread's size alone (bench/growth.py's game, every post a vote, gives it against the votes).
DAY_VOTES = 1_000
QUERY_GOAL = 10
CLOSE_GOAL_MS = 2000.0


@dataclass
class SiteTier:
    big_game_id: int
    big_phase_id: int
    big_gm_id: int
    game_id: int  # the finished game of GAME_POSTS posts, the same at every tier
    game_phase_id: int
    game_gm_id: int
    spectator_id: int
    desk_user_id: int
    finished_games: int


def seed_site(posts: int) -> SiteTier:
    """The tier's games (see the module's docstring); needs the tier's database, migrated."""
    from django.utils import timezone

    from accounts.models import User
    from bench.seed import seed
    from config.celery import app
    from games.models import Game, Seat, Thread
    from games.services.games import game_create
    from games.services.lifecycle import game_signup, game_start

    app.conf.task_always_eager = True
    posts = min(posts, SITE_MAX_POSTS)
    big = seed(posts=posts, players=PLAYERS, tag="big", counted=DAY_VOTES)
    big_game = Game.objects.get(pk=big.game_id)
    fixed = seed(posts=GAME_POSTS, players=PLAYERS, tag="fixed", counted=DAY_VOTES)
    spectator = User.objects.create_user(username="bench-spectator", email="s@bench.invalid", password=None,
                                         display_name="Зритель")
    # The desk: one user at 20 running tables of seven.
    desk_user = User.objects.create_user(username="bench-desk", email="d@bench.invalid", password=None,
                                         display_name="Завсегдатай")
    others = [User.objects.create_user(username=f"bench-desk{i}", email=f"d{i}@bench.invalid", password=None,
                                       display_name=f"Сосед {i}") for i in range(6)]
    desk_gm = User.objects.create_user(username="bench-desk-gm", email="dg@bench.invalid", password=None,
                                       display_name="Ведущий стола")
    for n in range(DESK_GAMES):
        game = game_create(title=f"Стол {n + 1}", gm=desk_gm, size=7)
        for user in (desk_user, *others):
            game_signup(game=game, user=user)
        game_start(game=game, by=desk_gm, now=timezone.now(), seed=n)
    # The finished games of the list, as rows: two threads each, seven seats, a winner.
    count = max(1, posts // FINISHED_PER_POST)
    now = timezone.now()
    threads = Thread.objects.bulk_create(
        [Thread(kind=kind, title=f"Архивная игра {n}", created_by=desk_gm)
         for n in range(count) for kind in (Thread.Kind.GAME, Thread.Kind.DISCUSSION)], batch_size=2000)
    games = Game.objects.bulk_create(
        [Game(title=f"Архивная игра {n}", gm=desk_gm, status=Game.Status.FINISHED, game_thread=threads[2 * n],
              discussion_thread=threads[2 * n + 1], size=7, winner="town" if n % 3 else "mafia",
              started_at=now - timedelta(days=n + 10), finished_at=now - timedelta(days=n + 3))
         for n in range(count)], batch_size=2000)
    strangers = [User.objects.create_user(username=f"bench-other{i}", email=f"o{i}@bench.invalid", password=None,
                                          display_name=f"Игрок {i}") for i in range(7)]
    Seat.objects.bulk_create([Seat(game=game, user=user, number=i + 1, role="citizen", faction="town")
                              for n, game in enumerate(games)
                              for i, user in enumerate((desk_user, *others) if n < DESK_FINISHED else strangers)],
                             batch_size=5000)
    return SiteTier(big_game_id=big.game_id, big_phase_id=big.phase_id, big_gm_id=big_game.gm_id,
                    game_id=fixed.game_id, game_phase_id=fixed.phase_id,
                    game_gm_id=Game.objects.values_list("gm_id", flat=True).get(pk=fixed.game_id),
                    spectator_id=spectator.pk, desk_user_id=desk_user.pk, finished_games=count)


def measure_site(tier: SiteTier, record) -> None:
    """Add the tier's rows through growth.measure's `record(name, fn)` (median ms, ratio to the
    empty view, queries). The kept database stays as seeded: the close is rolled back after each
    timing, and the finished game's pages are read inside a transaction rolled back at the end
    (the game closed by its deadline's task and ended, as the archive keeps it)."""
    from django.db import transaction
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Phase
    from games.services.lifecycle import game_finish

    gm, big_gm, spectator, desk = (Client() for _ in range(4))
    gm.force_login(User.objects.get(pk=tier.game_gm_id))
    big_gm.force_login(User.objects.get(pk=tier.big_gm_id))
    spectator.force_login(User.objects.get(pk=tier.spectator_id))
    desk.force_login(User.objects.get(pk=tier.desk_user_id))

    record(f"desk of a user in {DESK_GAMES} games", lambda: desk.get("/me/"))
    record("games list, finished", lambda: spectator.get("/games/", {"status": "finished"}))
    big_close = timed_close(Phase.objects.get(pk=tier.big_phase_id))
    record(f"phase close, {PLAYERS} players, {DAY_VOTES:,} votes", big_close)
    with transaction.atomic():
        # both games closed by their deadline's task and ended, as the archive keeps them
        for phase_id, close in ((tier.game_phase_id, timed_close(Phase.objects.get(pk=tier.game_phase_id))),
                                (tier.big_phase_id, big_close)):
            close(keep=True)
            phase = Phase.objects.select_related("game").get(pk=phase_id)
            if phase.game.status != Game.Status.FINISHED:
                ended = (phase.deadline_at or timezone.now()) + timedelta(seconds=2)  # after the close
                game_finish(game=phase.game, winner=phase.game.winner or "town", now=ended)
        for prefix, client, game_id in (("", gm, tier.game_id), (BIG_PREFIX, big_gm, tier.big_game_id)):
            record(f"{prefix}GM dashboard, finished game", lambda c=client, g=game_id: c.get(f"/games/{g}/gm/"))
            record(f"{prefix}archive of the finished game", lambda g=game_id: spectator.get(f"/games/{g}/archive/"))
            record(f"{prefix}replay of the finished game", lambda g=game_id: spectator.get(f"/games/{g}/replay/"))
        transaction.set_rollback(True)


def timed_close(phase):
    """`close(keep=False)`: the phase closed by its deadline's task as a second past the deadline,
    inside a transaction rolled back unless `keep` (so the timing can be repeated)."""
    from django.db import transaction
    from django.utils import timezone

    from games.services.resolution import phase_close

    deadline = (phase.deadline_at or timezone.now()) + timedelta(seconds=1)

    def close(*, keep: bool = False) -> None:
        with transaction.atomic():
            phase_close(phase_id=phase.pk, now=deadline)
            transaction.set_rollback(not keep)

    return close


def verdict(name: str, small: dict, large: dict, page_ratio: float) -> tuple[str, bool | None] | None:
    """The goal of one of this module's rows and whether the largest size met it (None: not ours;
    a met of None: a row of information, no goal)."""
    growth = large["ms"] / small["ms"] if small["ms"] else None
    if name.startswith(BIG_PREFIX):
        return ("information: grows with the game", None)
    if name.startswith("phase close"):
        return (f"<= {CLOSE_GOAL_MS / 1000:.0f} s, flat",
                large["ms"] <= CLOSE_GOAL_MS and growth is not None and growth <= page_ratio)
    if name.startswith(("desk", "games list", "GM dashboard", "archive", "replay")):
        return (f"<= {QUERY_GOAL} queries, flat",
                large["queries"] <= QUERY_GOAL and large["queries"] <= small["queries"]
                and growth is not None and growth <= page_ratio)
    return None
