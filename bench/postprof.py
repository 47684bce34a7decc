"""Where a post's htmx reply spends its time, against the empty view, in-process:
`python -m bench.postprof [--posts 2000] [--rounds 3] [--profile plain|vote|fragment|fragment304]`.

The same game, session and requests as `python -m bench` (bench/seed.py): a plain post and a
vote post as the browser sends them (an htmx reply, the CSRF token in the header), the empty
view `/healthz/`, and the vote-count fragment (`/games/<pk>/votes/live/`), asked afresh and, as a
browser revalidates it, with the ETag of its last answer (If-None-Match: "fragment304").
Measured in turns (`--rounds` x: 200 empty views, then 30 of each), each request's CPU time
(`time.process_time`: robust to a machine shared with other work, which wall time is not) and
wall time, the medians printed with their ratio to the empty view's (the benchmark's "x
baseline", which wrk measures in requests a second), and the CPU time PostgreSQL's backend and
Redis spent on them (added to the request's own: the machine's work per request, which wrk's ratio
pays). Also: the SQL queries and Redis commands of one request of each kind, the Python function
calls of each kind of request (the same on a busy machine, unlike any time), the CPU time of the
reply view's parts, and with `--profile` cProfile's top functions of one kind of request.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.inprocess import seeded_game  # noqa: E402

# The reply form's encoding as the browser sends it (htmx: a form without a file, the reply form
# but when a media post is owed, games/thread.html) and wrk does (bench/__main__.py); Django's test
# client would send multipart/form-data, whose parsing is not the site's common cost. (Until
# 2026-11-28's second session, the figures of this tool were taken with multipart.)
FORM = "application/x-www-form-urlencoded"

# The reply view's parts whose CPU time is printed (games/views/forum.py).
PARTS = ("post_submit", "_thread_context", "_reply_region", "_render_thread", "_mark_read", "_post_list",
         "_visible_thread")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=30, help="requests of each kind per round")
    parser.add_argument("--profile", choices=("plain", "vote", "fragment", "fragment304", "empty"),
                        help="print cProfile's top functions of this kind of request")
    parser.add_argument("--top", type=int, default=50, help="cProfile lines to print")
    parser.add_argument("--queries", action="store_true", help="print each query of one plain and one vote post")
    parser.add_argument("--dump", help="with --profile: also save the profile's statistics to this file (pstats)")
    args = parser.parse_args(argv)
    with seeded_game("postprof", posts=args.posts) as (game, cookies):
        measure(game, cookies, rounds=args.rounds, repeat=args.repeat, profile=args.profile, top=args.top,
                queries=args.queries, dump=args.dump)
    return 0


def _count_redis() -> list[int]:
    """Count the commands sent to Redis (a pipeline counts once: one round trip; what a pipeline
    sends before itself, redis-py's SCRIPT EXISTS for the scripts in it, counts too)."""
    import redis

    count = [0]
    for cls, name in ((redis.Redis, "execute_command"), (redis.client.Pipeline, "execute"),
                      (redis.client.Pipeline, "immediate_execute_command")):
        real = getattr(cls, name)
        if cls is redis.client.Pipeline:
            def wrapped(self, *a, _real=real, **k):
                count[0] += 1
                return _real(self, *a, **k)
        else:
            def wrapped(self, *a, _real=real, **k):
                if not isinstance(self, redis.client.Pipeline):
                    count[0] += 1
                return _real(self, *a, **k)
        setattr(cls, name, wrapped)
    return count


def _timed_parts(parts: dict[str, list[float]]) -> None:
    import games.views.forum as forum

    for name in PARTS:
        real = getattr(forum, name, None)
        if real is None:
            continue

        @functools.wraps(real)
        def wrapped(*a, _real=real, _name=name, **k):
            began = time.process_time()
            try:
                return _real(*a, **k)
            finally:
                parts.setdefault(_name, []).append(time.process_time() - began)

        setattr(forum, name, wrapped)


class Requests:
    """The benchmark's requests made in-process as the player's browser makes them (Django's test
    client, his login cookies): a plain post and a vote post (htmx replies, the CSRF token in the
    header, the form urlencoded), the empty view, the vote-count fragment asked afresh and
    revalidated with the ETag of its last answer. Also bench/posting.py's."""

    def __init__(self, game, cookies: dict[str, str]):
        from django.test import Client  # Django is set up by seeded_game, after this module is imported

        self.game = game
        self.client = Client()
        for name, value in cookies.items():
            self.client.cookies[name] = value
        self.url = f"/threads/{game.thread_id}/reply/"
        self.htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "thread-region",
                     "HTTP_X_CSRFTOKEN": cookies["csrftoken"]}
        self.fragment_url = f"/games/{game.game_id}/votes/live/"
        self.turn = 0
        self.etag = None

    def reply(self, body: str, what: str = "reply"):
        response = self.client.post(self.url, urlencode({"body": body, "post": "1"}), content_type=FORM, **self.htmx)
        if response.status_code != 200 or "HX-Push-Url" not in response:
            raise RuntimeError(f"the {what} was refused: {response.status_code} {response.content[:300]!r}")
        return response

    def plain(self):
        self.turn += 1
        bodies = self.game.plain_bodies
        return self.reply(f"{bodies[self.turn % len(bodies)]} {self.turn}", "plain post")

    def vote(self):
        self.turn += 1
        return self.reply(self.game.vote_bodies[self.turn % len(self.game.vote_bodies)], "vote")

    def empty(self):
        return self.client.get("/healthz/")

    def fragment(self):
        response = self.client.get(self.fragment_url, HTTP_HX_REQUEST="true")
        self.etag = response.get("ETag")
        return response

    def fragment304(self):
        if self.etag is None:
            self.fragment()
        headers = {"HTTP_IF_NONE_MATCH": self.etag} if self.etag else {}
        response = self.client.get(self.fragment_url, HTTP_HX_REQUEST="true", **headers)
        if response.status_code == 200:
            self.etag = response.get("ETag")
        return response

    def kinds(self) -> dict:
        return {"empty": self.empty, "plain": self.plain, "vote": self.vote, "fragment": self.fragment,
                "fragment304": self.fragment304}


class ServiceCpu:
    """The CPU time PostgreSQL's backend of this process's connection and the Redis server spent
    (seconds; the backend's from /proc, Linux only, else 0; Redis's from INFO, which counts every
    client of that server: on a shared machine, an upper bound)."""

    def __init__(self):
        import redis  # the benchmark's own client, beside the site's
        from django.db import connection  # as Requests: Django is set up by then

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.backend = cursor.fetchone()[0]
        connection.close_at = None  # one backend for the whole run (not closed at CONN_MAX_AGE): its CPU is read
        self.redis = redis.Redis.from_url(os.environ["REDIS_URL"])

    def postgres(self) -> float:
        try:
            fields = Path(f"/proc/{self.backend}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def redis_cpu(self) -> float:
        info = self.redis.info("cpu")
        return info["used_cpu_user"] + info["used_cpu_sys"]


def measure(game, cookies: dict[str, str], *, rounds: int, repeat: int, profile: str | None, top: int,
            queries: bool, dump: str | None = None) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    redis_calls = _count_redis()
    parts: dict[str, list[float]] = {}
    _timed_parts(parts)
    requests = Requests(game, cookies)
    kinds = requests.kinds()
    for call in kinds.values():
        for _ in range(5):
            call()  # warm-up
    for name, call in kinds.items():
        before = redis_calls[0]
        with CaptureQueriesContext(connection) as captured:
            call()
        print(f"{name}: {len(captured.captured_queries)} queries, {redis_calls[0] - before} Redis round trips")
        if queries and name in ("plain", "vote"):
            for query in captured.captured_queries:
                print(f"    {float(query['time']) * 1000:6.2f} ms  {query['sql'][:200]}")
    # Python function calls per request (cProfile's count): unlike a time, the same on a busy machine.
    for name, call in kinds.items():
        counter = cProfile.Profile()
        counter.enable()
        for _ in range(5):
            call()
        counter.disable()
        print(f"{name}: {pstats.Stats(counter).total_calls // 5} Python function calls per request")
    services = ServiceCpu()
    results: dict[str, list[tuple[float, float]]] = {}
    served: dict[str, list[float]] = {}  # PostgreSQL's and Redis's CPU seconds, and the requests, of all rounds
    part_rounds = []
    for _ in range(rounds):
        for name, call in kinds.items():
            if name == "plain":
                parts.clear()
            walls, cpus = [], []
            count = 200 if name == "empty" else repeat
            postgres, redis_cpu = services.postgres(), services.redis_cpu()
            for _ in range(count):
                wall, cpu = time.perf_counter(), time.process_time()
                call()
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            total = served.setdefault(name, [0.0, 0.0, 0])
            total[0] += services.postgres() - postgres
            total[1] += services.redis_cpu() - redis_cpu
            total[2] += count
            results.setdefault(name, []).append((statistics.median(walls) * 1000, statistics.median(cpus) * 1000))
            if name == "plain":
                part_rounds.append({k: round(statistics.median(v) * 1000, 2) for k, v in parts.items()})
    print(f"load average {os.getloadavg()[0]:.2f}")
    for name, values in results.items():
        print(f"{name:12} " + "  ".join(f"wall {w:6.2f} ms cpu {c:6.2f} ms" for w, c in values))
    # The services' CPU (means over all rounds: the backend's clock ticks, 10 ms, are too coarse for
    # a median), and the request's CPU with theirs, the machine's work per request (what wrk's
    # ratio also pays).
    service_ms = {name: (postgres * 1000 / count, redis_cpu * 1000 / count)
                  for name, (postgres, redis_cpu, count) in served.items()}
    for name, (postgres, redis_cpu) in service_ms.items():
        print(f"{name:12} postgres {postgres:5.2f} ms  redis {redis_cpu:5.2f} ms (CPU per request, mean)")
    whole = {name: statistics.median(c for _w, c in results[name]) + sum(service_ms[name]) for name in results}
    print("with PostgreSQL's and Redis's CPU: " + ", ".join(
        f"{name} {whole[name]:.2f} ms ({whole['empty'] / whole[name]:.3f} x empty)" for name in whole))
    for index, values in enumerate(part_rounds):
        print(f"plain post's parts (CPU ms, median), round {index + 1}: {values}")
    empty_wall = statistics.median(w for w, _c in results["empty"])
    empty_cpu = statistics.median(c for _w, c in results["empty"])
    for name in ("plain", "vote", "fragment", "fragment304"):
        wall = statistics.median(w for w, _c in results[name])
        cpu = statistics.median(c for _w, c in results[name])
        print(f"{name:12} cpu {cpu:6.2f} ms  wall {wall:6.2f} ms  x empty: cpu {empty_cpu / cpu:.3f}, "
              f"wall {empty_wall / wall:.3f}")
    plain_cpu = statistics.median(c for _w, c in results["plain"])
    vote_cpu = statistics.median(c for _w, c in results["vote"])
    print(f"vote / plain (cpu): {vote_cpu / plain_cpu:.2f}")
    if profile:
        profiler = cProfile.Profile(time.process_time)  # CPU time: the waits are not the worker's work
        profiler.enable()
        for _ in range(20):
            kinds[profile]()
        profiler.disable()
        if dump:
            profiler.dump_stats(dump)
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(top)
        stats.sort_stats("tottime").print_stats(top // 2)
        print(out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
