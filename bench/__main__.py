"""`python -m bench [--quick]`: the site under load, measured in one run against a baseline.

Starts gunicorn (2 workers, production settings) on PostgreSQL and Redis at 127.0.0.1, loads a
game whose thread has 10,000 posts, and measures with wrk: an empty Django view (/healthz/, the
baseline), the game thread's last page as a logged-in player, the live-update poll, the vote-count
fragment (its body, and revalidated with If-None-Match as a browser does) and posting a plain post
and a vote. Prints requests/s, p50 and p99 latency, SQL queries per request
(measured in-process with Django's test client on the same database) and each page's throughput
as a ratio to the baseline, then, as its last line, one JSON object. Each endpoint runs in turns
with the baseline and is compared with the baseline of its own turns (the machine is shared).
`--quick` does the same in under a minute. The database, the server and the cache keys are
removed afterwards, also on Ctrl+C or an error. docs/performance.md has the method and figures.
`python -m bench --mix` is the whole site under a realistic mix instead (bench/mix.py, Locust).

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/mafia_bench) names the server; the
benchmark always uses a database of its own there (a name containing "bench"). REDIS_URL
(default redis://127.0.0.1:6379/5) is shared safely: every key carries a prefix of this run.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import secrets
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import report  # noqa: E402
from bench.server import (  # noqa: E402
    Gunicorn, bench_database_url, clear_cache_prefix, create_database, drop_database, production_like_env)
from bench.wrk import WrkResult, ensure_wrk, lua_script, merge, run_wrk, wrk_command  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/mafia_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs: the whole benchmark in under a minute")
    parser.add_argument("--seconds", type=float, help="measured seconds per endpoint (default 15, --quick 4)")
    parser.add_argument("--warmup", type=float, help="warm-up seconds per endpoint (default 3, --quick 1)")
    parser.add_argument("--rounds", type=int, help="turns of baseline + endpoint per endpoint (default 3, --quick 2)")
    parser.add_argument("--connections", type=int, default=4, help="wrk connections (default 4)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1: the machine has few cores)")
    parser.add_argument("--posts", type=int, default=10_000, help="posts in the game thread (default 10,000)")
    growth = parser.add_argument_group("growth curves (bench/growth.py): how each cost grows with the work")
    growth.add_argument("--growth", action="store_true", help="measure at several thread sizes instead")
    growth.add_argument("--sizes", type=lambda text: [int(x) for x in text.split(",")], default=[1_000, 10_000, 100_000],
                        help="thread sizes, comma-separated (default 1000,10000,100000)")
    growth.add_argument("--repeat", type=int, default=15, help="timings per measurement (default 15)")
    growth.add_argument("--fresh", action="store_true", help="seed the kept databases again")
    growth.add_argument("--seed-only", action="store_true",
                        help="seed (or keep) the sizes' databases and stop: measure later, on a quiet machine")
    growth.add_argument("--drop", action="store_true", help="remove the seeded databases afterwards")
    growth.add_argument("--rows", type=lambda text: [x.strip() for x in text.split(",") if x.strip()], default=[],
                        help="measure only the rows whose name starts with one of these, comma-separated "
                             "(e.g. 'desk,games list,replay'): before/after runs of a few rows")
    args = parser.parse_args(argv)
    args.seconds = args.seconds or (4.0 if args.quick else 15.0)
    args.warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 3.0)
    args.rounds = max(1, args.rounds or (2 if args.quick else 3))
    args.baseline_seconds = 1.0 if args.quick else 2.0
    return args


def bench_environment(prefix: str) -> dict[str, str]:
    """Production-like settings for this process and gunicorn: DEBUG off with a throwaway secret
    key, no HTTPS redirect, the benchmark's own database, cache prefix and var/ folder."""
    database_url = bench_database_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    if not database_url.startswith(("postgres://", "postgresql://")):
        raise SystemExit(f"The benchmark runs on PostgreSQL; DATABASE_URL is {database_url!r}.")
    # One player posts as fast as the server takes it: the site's per-user posting rate limit
    # (12 a minute) would measure the limiter, not posting (production_like_env turns it off).
    return {
        "DATABASE_URL": database_url,
        "REDIS_URL": os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL,
        **production_like_env(log_level="ERROR"),
        "MAFIA_VAR_DIR": str(ROOT / "var" / "bench"),
        "MAFIA_CACHE_PREFIX": prefix,
    }


def check_services(env: dict[str, str]) -> None:
    import psycopg
    import redis

    from bench.server import _admin_connection

    try:
        _admin_connection(env["DATABASE_URL"]).close()
    except psycopg.Error as error:
        raise SystemExit(f"PostgreSQL is not reachable for {env['DATABASE_URL']}: {error}\n"
                         "Start it, or point DATABASE_URL at a server where this user may create databases.") from None
    try:
        redis.Redis.from_url(env["REDIS_URL"], socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        raise SystemExit(f"Redis is not reachable at {env['REDIS_URL']}: {error}") from None


def measure_queries(game, cookies: dict[str, str]) -> dict[str, int]:
    """SQL queries per request, in-process on the same database and cache, after one warm-up
    request each (the caches then are as warm as under load)."""
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    client = Client()
    for name, value in cookies.items():
        client.cookies[name] = value
    thread_url = f"/threads/{game.thread_id}/?page=last"
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "thread-region", "HTTP_X_CSRFTOKEN": cookies["csrftoken"]}

    def count(method: str, url: str, expect: int, *, rendered: bool = False, thread_written: bool = False,
              post_changed: bool = False, **kwargs) -> int:
        from games.caching import pagecache

        call = client.post if method == "POST" else client.get
        if method == "GET":
            # Warm-up: the first view of a thread in a process learns the thread's game (and is
            # not kept, games/caching/pagecache.py), the second is kept: a worker under load is past both.
            call(url, **kwargs)
            call(url, **kwargs)
        if rendered:
            pagecache.changed()  # as after any write: the page and its post list are rendered again
        if thread_written or post_changed:
            # A worker under wrk's cold load has rendered this page after a post before: so here.
            pagecache.posted(thread=game.thread_id)
            call(url, **kwargs)
        if thread_written:
            pagecache.posted(thread=game.thread_id)  # as after a post (and as WritesMeanwhile does)
        if post_changed:
            pagecache.changed(thread=game.thread_id)  # as after an edit or a hidden post: its posts re-read
        with CaptureQueriesContext(connection) as captured:
            response = call(url, **kwargs)
        if response.status_code != expect:
            raise RuntimeError(f"{method} {url}: {response.status_code}, expected {expect}")
        if method == "POST" and "HX-Push-Url" not in response:  # an htmx reply refused with a message
            raise RuntimeError(f"{method} {url}: the post was refused: {response.content.decode()[:2000]}")
        return len(captured.captured_queries)

    out = {"thread_page": count("GET", thread_url, 200), "thread_page_rendered": count("GET", thread_url, 200, rendered=True)}
    with override_settings(MAFIA_POSTS_PER_PAGE=100):
        out["thread_page_100"] = count("GET", thread_url, 200)
        out["thread_page_100_rendered"] = count("GET", thread_url, 200, rendered=True)
    # The cold row's figure: the page after a write to its thread, as wrk measures it (WritesMeanwhile).
    out["thread_page_cold"] = count("GET", thread_url, 200, thread_written=True)
    # And after a write to a post already there (an edit, a hidden post): the page's posts are read again.
    out["thread_page_cold_after_edit"] = count("GET", thread_url, 200, post_changed=True)
    out["fragment"] = count("GET", f"/games/{game.game_id}/votes/live/", 200)
    # Revalidated as a browser does (If-None-Match: the ETag of its last answer), nothing changed.
    etag = client.get(f"/games/{game.game_id}/votes/live/")["ETag"]
    out["fragment_304"] = count("GET", f"/games/{game.game_id}/votes/live/", 304, HTTP_IF_NONE_MATCH=etag)
    client.post(f"/threads/{game.thread_id}/reply/", {"body": game.vote_bodies[0], "post": "1"}, **htmx)  # warm-up
    out["vote_post"] = count("POST", f"/threads/{game.thread_id}/reply/", 200,
                             data={"body": game.vote_bodies[1], "post": "1"}, **htmx)
    out["plain_post"] = count("POST", f"/threads/{game.thread_id}/reply/", 200,
                              data={"body": game.plain_bodies[0], "post": "1"}, **htmx)
    from games.models import Thread

    last = Thread.objects.get(pk=game.thread_id).post_count
    out["poll"] = count("GET", f"/threads/{game.thread_id}/poll/?after={last}", 204)
    return out


class WritesMeanwhile:
    """While active, marks the thread written every `interval` seconds, as a busy game's posts
    do (games/caching/pagecache.py's thread counter): every page request then finds the cached page out
    of date and renders it afresh, which is the cold path under load."""

    def __init__(self, thread_id: int, interval: float = 0.002):
        import threading

        self.thread_id, self.interval = thread_id, interval
        self.stop = threading.Event()
        self.worker = threading.Thread(target=self._run, daemon=True)
        self.bumps = 0

    def _run(self) -> None:
        from games.caching import pagecache

        while not self.stop.wait(self.interval):
            pagecache.posted(thread=self.thread_id)  # what a new post's writes move
            self.bumps += 1

    def __enter__(self):
        self.worker.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.worker.join()
        from django.db import connections

        connections.close_all()


def run_endpoints(server: Gunicorn, game, cookies: dict[str, str], args, wrk: str, workdir: Path) -> tuple[dict, dict, dict]:
    from urllib.parse import urlencode

    from games.models import Post, Thread, VoteRecord

    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    post_headers = {"Cookie": cookie, "X-CSRFToken": cookies["csrftoken"], "HX-Request": "true",
                    "HX-Target": "thread-region", "Content-Type": "application/x-www-form-urlencoded"}

    def posting(bodies) -> str:
        return lua_script(method="POST", expect_status=200, expect_header="HX-Push-Url", headers=post_headers,
                          bodies=[urlencode({"body": body, "post": "1"}) for body in bodies])

    scripts = {
        "anonymous": lua_script(),
        "player": lua_script(headers={"Cookie": cookie}),
        "revalidate": lua_script(headers={"Cookie": cookie, "HX-Request": "true"}, revalidate=True,
                                 expect_status=304),
        "vote": posting(game.vote_bodies),
        "plain": posting(game.plain_bodies),
    }
    paths = {}
    for name, text in scripts.items():
        paths[name] = workdir / f"{name}.lua"
        paths[name].write_text(text)
    last = Thread.objects.get(pk=game.thread_id).post_count
    plan = [
        ("thread_page", f"/threads/{game.thread_id}/?page=last", "player"),
        # The same page while the thread is written meanwhile: rendered afresh every time.
        ("thread_page_cold", f"/threads/{game.thread_id}/?page=last", "player"),
        ("poll", f"/threads/{game.thread_id}/poll/?after={last}", "player"),
        ("fragment", f"/games/{game.game_id}/votes/live/", "player"),
        ("fragment_304", f"/games/{game.game_id}/votes/live/", "revalidate"),
        ("plain_post", f"/threads/{game.thread_id}/reply/", "plain"),
        ("vote_post", f"/threads/{game.thread_id}/reply/", "vote"),
    ]

    def run(path: str, script: str, seconds: float, *, cold: bool = False) -> WrkResult:
        command = wrk_command(wrk, server.base + path, seconds=seconds, connections=args.connections,
                              threads=args.threads, script=str(paths[script]))
        if not cold:
            return run_wrk(command, timeout=seconds + 30)
        with WritesMeanwhile(game.thread_id):
            return run_wrk(command, timeout=seconds + 30)

    def show(name: str, result: WrkResult) -> None:
        log(f"  {name:12} {result.rps:8.1f} req/s  p50 {result.p50_ms:7.2f} ms  p99 {result.p99_ms:7.2f} ms"
            + (f"  non-2xx/3xx {result.non_2xx_3xx}" if result.non_2xx_3xx else "")
            + (f"  socket errors {result.socket_errors}" if result.socket_errors else ""))

    def settle(result: WrkResult) -> WrkResult:
        # Let the workers finish what wrk left queued (slow pages) before the next baseline slice.
        time.sleep(min(2.0, max(0.2, 2 * result.p99_ms / 1000)))
        return result

    # Each endpoint runs in turns with the baseline (ROUNDS x [baseline slice, endpoint slice]),
    # and its ratio is to the baseline measured in those same turns: a neighbour's job that
    # starts or stops during the run then shifts both sides alike (this machine is shared).
    results: dict[str, WrkResult] = {}
    baselines: dict[str, WrkResult] = {}
    checks: dict = {}
    slice_seconds = max(1, round(args.seconds / args.rounds))
    if args.warmup >= 1:
        run("/healthz/", "anonymous", args.warmup)
    for name, path, script in plan:
        before = Thread.objects.get(pk=game.thread_id).post_count
        cold = name == "thread_page_cold"
        if args.warmup >= 1:
            settle(run(path, script, args.warmup, cold=cold))
        measured_from = Thread.objects.get(pk=game.thread_id).post_count
        endpoint_slices, baseline_slices = [], []
        for _ in range(args.rounds):
            baseline_slices.append(run("/healthz/", "anonymous", args.baseline_seconds))
            endpoint_slices.append(settle(run(path, script, slice_seconds, cold=cold)))
        results[name], baselines[name] = merge(endpoint_slices), merge(baseline_slices)
        show(name, results[name])
        log(f"  {'':12} baseline in the same turns: {baselines[name].rps:8.1f} req/s  (p99 of its slices: "
            + ", ".join(f"{r.p99_ms:.1f}" for r in baseline_slices) + " ms)")
        if name == "fragment_304":
            checks["fragment_304_not_modified"], checks["fragment_304_other"] = results[name].ok, results[name].bad
            log(f"  revalidations: {results[name].ok} answered 304, {results[name].bad} otherwise (each connection's first)")
        if name == "plain_post":
            time.sleep(0.5)
            stored = Thread.objects.get(pk=game.thread_id).post_count - measured_from
            checks["plain_post_stored"] = stored
            log(f"  plain posts: {results[name].ok} answered with the new post, {results[name].bad} did not; {stored} stored")
        if name == "vote_post":
            time.sleep(0.5)  # requests still in flight when wrk stopped
            after = Thread.objects.get(pk=game.thread_id).post_count
            new_posts = Post.objects.filter(thread_id=game.thread_id, number__gt=measured_from)
            result = results[name]
            checks |= {
                "vote_post_accepted": result.ok,
                "vote_post_failed": result.bad,
                "vote_post_stored": after - measured_from,
                "vote_post_stored_with_warmup": after - before,
                "vote_post_counted_votes": VoteRecord.objects.filter(post__in=new_posts, is_final=True, valid=True).count(),
            }
            log(f"  vote posts: {result.ok} answered with the new post, {result.bad} did not; "
                f"{checks['vote_post_stored']} stored, {checks['vote_post_counted_votes']} counted as votes")
    results["baseline"] = merge(list(baselines.values()))
    show("baseline", results["baseline"])
    return results, baselines, checks


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--mix" in argv:  # the whole site under a realistic mix: bench/mix.py (in .venv-load)
        from bench import mix

        return mix.main([a for a in argv if a != "--mix"])
    args = parse_args(argv)
    if args.growth:
        from bench import growth

        return growth.main(args)
    started = time.monotonic()
    wrk = ensure_wrk()
    prefix = f"mafia-bench-{os.getpid()}-{secrets.token_hex(3)}"
    env = bench_environment(prefix)
    os.environ.update(env)
    check_services(env)
    load_before = os.getloadavg()

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl+C, even when started in the background
    server = None
    database_created = False
    try:
        log(f"database {env['DATABASE_URL']}, cache {env['REDIS_URL']} (prefix {prefix})")
        create_database(env["DATABASE_URL"])
        database_created = True
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        log(f"  migrated in {time.monotonic() - started:.1f} s")
        call_command("collectstatic", verbosity=0, interactive=False)
        log(f"  static files collected at {time.monotonic() - started:.1f} s")
        from bench.seed import login_cookies, seed

        game = seed(posts=args.posts)
        cookies = login_cookies(game.player_id)
        log(f"loaded a game thread of {game.post_count} posts in {time.monotonic() - started:.1f} s")

        queries = measure_queries(game, cookies)
        from bench.votes import measure_recount
        from games.models import Phase

        recount = measure_recount(Phase.objects.get(pk=game.phase_id), repeat=3 if args.quick else 5)
        from django.db import connections

        connections.close_all()
        server = Gunicorn(dict(os.environ), workers=2, log_path=ROOT / "var" / "bench" / "gunicorn.log")
        server.start()
        log(f"gunicorn (2 workers) at {server.base}; wrk -t{args.threads} -c{args.connections}; per endpoint "
            f"{args.warmup:.0f} s warm-up, then {args.rounds} x ({args.baseline_seconds:.0f} s baseline + "
            f"{max(1, round(args.seconds / args.rounds))} s endpoint)")
        with tempfile.TemporaryDirectory(prefix="mafia-bench-") as workdir:
            results, baselines, checks = run_endpoints(server, game, cookies, args, wrk, Path(workdir))
    except KeyboardInterrupt:
        log("interrupted: cleaning up")
        return 130
    finally:
        if server is not None:
            server.stop()
        if database_created:
            try:
                from django.db import connections

                connections.close_all()
            except Exception:  # noqa: BLE001 - Django may not be set up yet
                pass
            drop_database(env["DATABASE_URL"])
        try:
            clear_cache_prefix(env["REDIS_URL"], prefix)
        except Exception as error:  # noqa: BLE001
            log(f"could not clear the cache keys {prefix}:*: {error}")

    summary = report.summarize(results, queries, recount_ms=recount["recount_10k_ms"], baselines=baselines,
                               date=datetime.date.today().isoformat(), extra={
        "mode": "quick" if args.quick else "full",
        "seconds_per_endpoint": args.rounds * max(1, round(args.seconds / args.rounds)),
        "rounds": args.rounds,
        "wrk": f"-t{args.threads} -c{args.connections}",
        "posts_in_thread": args.posts,
        "recount_vs_fetch_rows": recount["recount_vs_fetch_rows"],
        **checks,
        "machine": {"nproc": os.cpu_count(), "load_before": [round(x, 2) for x in load_before],
                    "load_after": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version()},
        "wall_seconds": round(time.monotonic() - started, 1),
    })
    print(report.table(summary))
    print(f"Each ratio is to the empty view measured in turns with that endpoint "
          f"({summary['baseline_min_rps']:.0f} to {summary['baseline_max_rps']:.0f} req/s during this run).")
    print(report.json_line(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
