"""Load: many players posting votes in the last seconds before a day's deadline, for several
days, with readers polling the live count and two sweeps racing to close each day.
`python -m bench.load [--players 200] [--rounds 5] [--readers 4]`.

Runs on a throwaway test database (SQLite by default, PostgreSQL when DATABASE_URL is set; the
cache is Redis when REDIS_URL is set). Tasks run in-process (eager), so nothing reaches a
developer's broker. Prints a summary and one JSON object as its last line; exits 1 if an
invariant broke. Loopback only: the "network" is the database and the cache on this machine.

The fast version of the same rush (50 players, one day) is tests/faults/test_deadline_rush.py,
which uses the functions below. Each post carries its own `now` relative to the deadline, so a
run is deterministic in what it must produce while the threads really write at once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
if __name__ == "__main__":  # a SQLite file of its own, apart from the test suite's
    os.environ.setdefault("MAFIA_TEST_DB_NAME", str(Path(__file__).resolve().parents[1] / "var" / "bench-load.sqlite3"))

FIRST_NAMES = (
    "Агния Алёна Анфиса Богдан Борис Вадим Валерия Варвара Вениамин Вера Гаврила Глеб Гордей Дарина "
    "Демид Добрыня Ева Евдокия Елисей Есения Жанна Захар Злата Зиновий Игнат Илона Ираклий Казимир "
    "Капитолина Клим Лада Лука Любава Макар Марфа Мирон Назар Нонна Олеся Остап Полина Прохор Радим "
    "Регина Савва Снежана Тихон Ульяна Фаддей Харитон"
).split()
SECOND_WORDS = ("Северный", "Южный", "Западный", "Восточный", "Горный", "Речной")
# How long every join and wait may take at most: the rush stops by itself.
WAIT_LIMIT = 120.0


def player_names(n: int) -> list[str]:
    """n distinct names the vote parser tells apart: first names, then two-word names."""
    names = list(FIRST_NAMES) + [f"{f} {s}" for s in SECOND_WORDS for f in FIRST_NAMES]
    if n > len(names):
        raise ValueError(f"at most {len(names)} players")
    return names[:n]


def gm_run_game(*, players: int, title: str = "Нагрузка"):
    """A running GM-run game (no engine state) with `players` seats. The forum rule set seats 7 to
    20 players; a GM-run game seats any number, and its votes go through the same ledger."""
    from accounts.models import User
    from games.models import Game
    from games.services.games import game_create, seat_add

    stamp = f"{time.time_ns() % 10**9}"
    gm = User.objects.create_user(username=f"gm{stamp}", email=f"gm{stamp}@example.com", password="x",
                                  display_name=f"Ведущий {stamp}")
    game = game_create(title=title, gm=gm, size=players)
    seats = []
    for i, name in enumerate(player_names(players)):
        user = User.objects.create_user(username=f"p{stamp}-{i}", email=f"p{stamp}-{i}@example.com", password="x",
                                        display_name=name)
        seats.append(seat_add(game=game, user=user))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
    game.refresh_from_db()
    return game, seats


def day_open(game, *, deadline_in: float = 2.0):
    """The GM opens a day whose deadline is `deadline_in` seconds ahead."""
    from django.utils import timezone

    from games.services.phases import phase_open

    return phase_open(game=game, kind="day", by=game.gm, deadline_at=timezone.now() + timedelta(seconds=deadline_in))


@dataclass
class PostResult:
    player: int
    offset: float  # seconds from the deadline given to post_submit as `now`
    target: int
    number: int | None = None
    post_id: int | None = None
    counted: bool | None = None
    reason: str = ""
    error: str = ""
    seconds: float = 0.0


@dataclass
class RushResult:
    posts: list[PostResult]
    closes: list[bool]
    close_now: datetime
    seconds: float
    reads: int = 0
    read_errors: list[str] = field(default_factory=list)

    @property
    def before(self) -> list[PostResult]:
        return [r for r in self.posts if r.offset < 0]

    @property
    def after(self) -> list[PostResult]:
        return [r for r in self.posts if r.offset >= 0]

    @property
    def errors(self) -> list[PostResult]:
        return [r for r in self.posts if r.error]


def rush_plan(players: int, *, late_share: int = 2) -> list[list[tuple[float, int]]]:
    """Per player, the posts to write in order as (offset from the deadline in seconds, index of
    the player voted for). Everybody votes for the next player in the last 1.5 s (so no wagon
    reaches a majority); every `late_share`-th player tries to change the vote after the deadline,
    and the first player posts exactly at the deadline (which is already too late)."""
    plan = []
    for i in range(players):
        posts = [(-0.05 - (i % 30) * 0.05, (i + 1) % players)]
        if i == 0:
            posts.append((0.0, (i + 2) % players))
        elif i % late_share == 1:
            posts.append((0.01 + (i % 7) * 0.1, (i + 2) % players))
        plan.append(posts)
    return plan


def rush(game, phase, seats, plan, *, close_after: float = 0.5, closers: int = 2, readers: int = 0,
         concurrency: int | None = None) -> RushResult:
    """Players' planned posts written through post_submit by `concurrency` threads (one per
    player by default; a site has as many as its web workers), all released at once, each player's
    posts in order. When every post before the deadline has returned (the real clock is
    monotonic: nothing written before the deadline can come after the close), `closers` threads
    run the sweep at deadline + close_after, racing with the late posts. `readers` threads poll
    the live count fragment through the view until the posts are done. Every thread has its own
    database connection and closes it at the end."""
    import queue

    from django.db import connections
    from django.test import Client

    from games.services.posting import post_submit
    from games.services.resolution import phases_close_due
    from games.services.votes import vote_button_text

    deadline = phase.deadline_at
    results: list[PostResult] = []
    closes: list[bool] = []
    read_errors: list[str] = []
    reads = [0]
    lock = threading.Lock()
    before_left = [sum(1 for posts in plan for offset, _t in posts if offset < 0)]
    before_done = threading.Event()
    posts_done = threading.Event()
    if before_left[0] == 0:
        before_done.set()
    players: queue.SimpleQueue[int] = queue.SimpleQueue()
    for i in range(len(plan)):
        players.put(i)
    posters = min(concurrency or len(plan), len(plan))
    start = threading.Barrier(posters + closers + readers)
    close_now = deadline + timedelta(seconds=close_after)

    def write(i: int) -> None:
        user = seats[i].user
        for offset, target in plan[i]:
            result = PostResult(player=i, offset=offset, target=target)
            body = f"Пост игрока {i}.\n{vote_button_text(seats[target].user.display_name)}"
            began = time.perf_counter()
            try:
                post = post_submit(thread=game.game_thread, author=user, body=body,
                                   now=deadline + timedelta(seconds=offset))
            except Exception as exc:  # noqa: BLE001 - recorded and checked by the caller
                result.error = f"{type(exc).__name__}: {exc}"
            else:
                result.number, result.post_id = post.number, post.pk
                confirmation = post.vote_confirmation
                if confirmation is not None:
                    result.counted, result.reason = confirmation.counted, confirmation.reason
            result.seconds = time.perf_counter() - began
            with lock:
                results.append(result)
                if offset < 0:
                    before_left[0] -= 1
                    if before_left[0] == 0:
                        before_done.set()

    def poster() -> None:
        try:
            start.wait(timeout=WAIT_LIMIT)
            while True:
                try:
                    i = players.get_nowait()
                except queue.Empty:
                    return
                write(i)
        finally:
            connections.close_all()

    def closer() -> None:
        try:
            start.wait(timeout=WAIT_LIMIT)
            if before_done.wait(timeout=WAIT_LIMIT):
                closed = phases_close_due(now=close_now)
                with lock:
                    closes.append(closed)
        finally:
            connections.close_all()

    def reader() -> None:
        client = Client()
        url = f"/games/{game.pk}/votes/live/"
        try:
            start.wait(timeout=WAIT_LIMIT)
            limit = time.monotonic() + WAIT_LIMIT
            while not posts_done.is_set() and time.monotonic() < limit:
                try:
                    status = client.get(url).status_code
                except Exception as exc:  # noqa: BLE001 - recorded and checked by the caller
                    status = f"{type(exc).__name__}: {exc}"
                with lock:
                    reads[0] += 1
                    if status != 200:
                        read_errors.append(f"GET {url}: {status}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=poster, daemon=True) for _ in range(posters)]
    helpers = [threading.Thread(target=closer, daemon=True) for _ in range(closers)]
    helpers += [threading.Thread(target=reader, daemon=True) for _ in range(readers)]
    began = time.perf_counter()
    for t in threads + helpers:
        t.start()
    limit = time.monotonic() + WAIT_LIMIT
    for t in threads:
        t.join(timeout=max(0.1, limit - time.monotonic()))
    posts_done.set()
    before_done.set()  # a closer still waiting (a poster thread failed) runs now rather than hang
    for t in helpers:
        t.join(timeout=max(0.1, limit - time.monotonic()))
    stuck = [t for t in threads + helpers if t.is_alive()]
    if stuck:
        raise RuntimeError(f"{len(stuck)} threads still running after {WAIT_LIMIT} s")
    return RushResult(posts=sorted(results, key=lambda r: (r.player, r.offset)), closes=closes, close_now=close_now,
                      seconds=time.perf_counter() - began, reads=reads[0], read_errors=read_errors)


def problems(game, phase, seats, result: RushResult) -> list[str]:
    """Every invariant of the rush that does not hold, in words (empty when all is well)."""
    from games.models import Post, VoteRecord
    from games.services.votes import vote_count

    found = []
    if result.errors:
        found.append(f"{len(result.errors)} posts failed, e.g. {result.errors[0].error}")
    if result.read_errors:
        found.append(f"{len(result.read_errors)} reads failed, e.g. {result.read_errors[0]}")
    stored = dict(Post.objects.filter(thread=game.game_thread).values_list("pk", "number"))
    numbers = sorted(stored.values())
    if numbers != list(range(1, len(numbers) + 1)):
        found.append("post numbers have gaps or repeats")
    for r in result.posts:
        if not r.error and stored.get(r.post_id) != r.number:
            found.append(f"post {r.post_id} of player {r.player} is not stored as #{r.number}")
    rows = {row.post_id: row for row in VoteRecord.objects.filter(phase=phase)}
    lost = [r.player for r in result.before if (row := rows.get(r.post_id)) is None or not row.valid
            or row.target_id != seats[r.target].pk or not r.counted]
    if lost:
        found.append(f"{len(lost)} votes before the deadline not counted (players {lost[:10]}...)")
    late = [r.player for r in result.after if (row := rows.get(r.post_id)) is None or row.valid
            or row.reason != "after_deadline" or r.counted is not False]
    if late:
        found.append(f"{len(late)} votes at or after the deadline not refused as late (players {late[:10]}...)")
    if sum(result.closes) != 1:
        found.append(f"the day was closed {sum(result.closes)} times")
    expected: dict[int, int] = {}
    for row in sorted((row for row in rows.values() if row.valid and row.is_final), key=lambda x: x.post_number):
        expected[row.voter_id] = row.target_id
    count = vote_count(phase=phase)
    counted = {seat.pk: wagon.target.pk for wagon in count.wagons if wagon.target for seat, _n in wagon.voters}
    if counted != expected:
        found.append("the count differs from the ledger")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="days, each with its own rush")
    parser.add_argument("--readers", type=int, default=4, help="threads polling the live count")
    parser.add_argument("--closers", type=int, default=2, help="sweeps racing to close each day")
    parser.add_argument("--concurrency", type=int, default=40,
                        help="threads writing posts, like a site's web workers (each holds a database connection)")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    from config.celery import app

    setup_test_environment()
    app.conf.task_always_eager = True  # the ETA tasks of each day run here and find it not yet due
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        summary = run(args)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(json.dumps(summary, ensure_ascii=False))
    sys.exit(1 if summary["problems"] else 0)


def run(args) -> dict:
    from django.conf import settings
    from django.db import connection

    game, seats = gm_run_game(players=args.players)
    plan = rush_plan(args.players)
    rounds, latencies, all_problems = [], [], []
    for day in range(1, args.rounds + 1):
        phase = day_open(game, deadline_in=2.0)
        result = rush(game, phase, seats, plan, closers=args.closers, readers=args.readers,
                      concurrency=args.concurrency)
        found = problems(game, phase, seats, result)
        all_problems += [f"day {day}: {p}" for p in found]
        latencies += [r.seconds for r in result.posts]
        rounds.append({"day": day, "posts": len(result.posts), "counted": sum(1 for r in result.before if r.counted),
                       "refused_late": sum(1 for r in result.after if r.counted is False), "errors": len(result.errors),
                       "closes": sum(result.closes), "reads": result.reads, "seconds": round(result.seconds, 3)})
        print(f"day {day}: {len(result.posts)} posts in {result.seconds:.2f} s "
              f"({len(result.posts) / result.seconds:.0f}/s), {rounds[-1]['counted']} counted, "
              f"{rounds[-1]['refused_late']} refused as late, {len(result.errors)} errors, "
              f"closed {sum(result.closes)}x, {result.reads} reads of the live count"
              + (f"; PROBLEMS: {found}" if found else ""))
    latencies.sort()
    summary = {
        "benchmark": "load", "database": connection.vendor, "cache": settings.CACHES["default"]["BACKEND"],
        "players": args.players, "rounds": args.rounds, "readers": args.readers, "closers": args.closers,
        "concurrency": args.concurrency,
        "posts": sum(r["posts"] for r in rounds),
        "post_seconds_p50": round(statistics.median(latencies), 4),
        "post_seconds_p95": round(latencies[int(len(latencies) * 0.95) - 1], 4),
        "post_seconds_max": round(latencies[-1], 4),
        "rounds_detail": rounds, "problems": all_problems,
    }
    print(f"{summary['posts']} posts on {summary['database']}; per post p50 {summary['post_seconds_p50']} s, "
          f"p95 {summary['post_seconds_p95']} s, max {summary['post_seconds_max']} s; "
          f"{'no problems' if not all_problems else f'{len(all_problems)} PROBLEMS'}")
    return summary


if __name__ == "__main__":
    main()
