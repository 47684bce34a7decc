"""`python -m bench --growth`: how each cost grows with the size of the work (issue 30, part 1).

For game threads of 1,000 / 10,000 / 100,000 posts (`--sizes`), in this process on PostgreSQL and
Redis (the benchmark's environment, bench/__main__.py), with Django's test client:

- the game thread's last page and a page in the middle, kept (a reload) and rendered afresh (after
  a write to the thread, as a busy game's readers get it), as a logged-in player;
- the recount of the day (games.selectors.votes.vote_count: every post of the thread is a vote);
- the Russian full-text search as the player (a word every post has, a word one post has);

each as the median of `--repeat` timings and as a ratio to the empty view (/healthz/ through the
same client) measured in turns with it, plus the SQL queries per request. Prints a table (one row
per measurement, one column per size, then the largest size's cost over the smallest's and the
goal) and, as its last line, one JSON object.

The seeded databases are kept between runs (one per size, named after the size and a hash of the
seed's recipe: bench/seed.py, bench/votes.py and the migrations), so a second run measures at
once; `--fresh` seeds them again, `--drop` removes them afterwards.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import time
from dataclasses import asdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.seed import RARE_WORD
from bench.site_growth import CLOSE_GOAL_MS, SiteTier, measure_site, seed_site, timed_close
from bench.site_growth import verdict as site_verdict
from bench.votes import _best  # the median of timed runs, as every vote benchmark takes it

ROOT = Path(__file__).resolve().parents[1]
STATE_DIR = ROOT / "var" / "bench"
# The goals of issue 30: the page's cost flat in the thread's size (<= 1.2 x the smallest size's at
# the largest), the recount at most linear and <= 300 ms at 100,000, search p50 <= 50 ms.
PAGE_GOAL_RATIO = 1.2
RECOUNT_GOAL_MS = 300.0
SEARCH_GOAL_MS = 50.0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def recipe() -> str:
    """A hash of what the seeded data depends on: a change to the seed or the schema seeds anew."""
    digest = hashlib.sha256()
    for path in sorted([ROOT / "bench" / "seed.py", ROOT / "bench" / "votes.py", ROOT / "bench" / "site_growth.py",
                        *(ROOT / "games" / "migrations").glob("0*.py"),
                        *(ROOT / "accounts" / "migrations").glob("0*.py")]):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:10]


def _database_for(base_url: str, size: int) -> str:
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path=f"/mafia_bench_growth_{size}_{recipe()}"))


def _exists(url: str) -> bool:
    from bench.server import _admin_connection

    name = urlsplit(url).path.lstrip("/")
    with _admin_connection(url) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def _use_database(url: str) -> None:
    """Point this process's default connection at another database (the sizes live in one each)."""
    from django.db import connections

    connections["default"].close()
    connections["default"].settings_dict["NAME"] = urlsplit(url).path.lstrip("/")


def _queries(fn) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        fn()
    return len(captured.captured_queries)


def prepare(size: int, base_url: str, *, fresh: bool):
    """The database of this size, seeded (or reused), with its BenchGame; this process uses it."""
    from django.core.management import call_command

    from bench.seed import BenchGame
    from bench.server import create_database

    url = _database_for(base_url, size)
    state_file = STATE_DIR / f"growth-{urlsplit(url).path.lstrip('/')}.json"
    if not fresh and state_file.exists() and _exists(url):
        _use_database(url)
        log(f"  {size:>9,} posts: reusing {urlsplit(url).path.lstrip('/')}")
        kept = json.loads(state_file.read_text())
        return url, BenchGame(**kept["game"]), SiteTier(**kept["site"])
    started = time.monotonic()
    create_database(url)
    _use_database(url)
    call_command("migrate", verbosity=0, interactive=False)
    from bench.seed import seed

    game = seed(posts=size)
    site = seed_site(size)
    from django.db import connection

    with connection.cursor() as cursor:
        # as autovacuum leaves a live site's tables: statistics, and the visibility map that lets
        # an index-only scan skip the table (the replay's day ranges)
        cursor.execute("VACUUM ANALYZE")
    STATE_DIR.mkdir(parents=True, exist_ok=True)
    state_file.write_text(json.dumps({"game": asdict(game), "site": asdict(site)}))
    log(f"  {size:>9,} posts: seeded in {time.monotonic() - started:.0f} s")
    return url, game, site


def measure(game, cookies: dict[str, str], repeat: int, site=None, rows=()) -> dict[str, dict]:
    """{measurement: {"ms": median, "ratio": to the empty view, "queries": n}} for one size;
    `rows`: only the measurements whose name starts with one of these (all when empty)."""
    from django.conf import settings
    from django.test import Client

    from games.caching import pagecache
    from games.models import Phase
    from games.selectors.votes import vote_count

    client = Client()
    for name, value in cookies.items():
        client.cookies[name] = value
    per_page = int(getattr(settings, "MAFIA_POSTS_PER_PAGE", 25))
    pages = max(1, -(-game.post_count // per_page))
    thread = f"/threads/{game.thread_id}/"
    results: dict[str, dict] = {}

    def baseline() -> float:
        return _best(lambda: client.get("/healthz/"), max(repeat, 20))

    def record(name: str, fn, *, prepare_each=None) -> None:
        if rows and not any(name.startswith(part) for part in rows):
            return
        fn()  # warm-up: a kept page is stored, a process learns the thread's game
        fn()

        def once():
            if prepare_each:
                prepare_each()
            return fn()

        base = baseline()
        seconds = _best(once, repeat)
        if prepare_each:
            prepare_each()
        results[name] = {"ms": round(seconds * 1000, 2), "ratio": round(base / seconds, 3) if seconds else None,
                         "queries": _queries(fn)}

    def fresh():
        pagecache.posted(thread=game.thread_id)  # as after a new post: the page is rendered again

    for label, page in (("last", "last"), ("middle", str(max(1, pages // 2)))):
        url = f"{thread}?page={page}"
        record(f"thread page ({label}), kept", lambda url=url: client.get(url))
        record(f"thread page ({label}), rendered afresh", lambda url=url: client.get(url), prepare_each=fresh)
    phase = Phase.objects.get(pk=game.phase_id)
    record("recount of the day", lambda: vote_count(phase=phase))
    record("close of the day, every post a vote", timed_close(phase))
    record("search, a common word (every post)", lambda: client.get("/search/", {"q": "тюрьму"}))
    record("search, a word 1 post in 8 has", lambda: client.get("/search/", {"q": "оратором"}))
    record("search, a rare word (one post)", lambda: client.get("/search/", {"q": RARE_WORD}))
    record("search by date, a common word", lambda: client.get("/search/", {"q": "тюрьму", "sort": "newest"}))
    if site is not None:
        measure_site(site, record)
    return results


def table(sizes: list[int], by_size: dict[int, dict[str, dict]]) -> tuple[str, dict]:
    names = list(by_size[sizes[0]])
    small, large = sizes[0], sizes[-1]
    lines = [f"{'measurement':42}" + "".join(f"{f'{s:,} posts':>22}" for s in sizes) + f"{'large/small':>13}  goal"]
    verdicts = {}
    for name in names:
        cells = []
        for size in sizes:
            row = by_size[size][name]
            cells.append(f"{row['ms']:>8.1f} ms {row['ratio']:>5.2f}x q{row['queries']:<3}")
        growth = by_size[large][name]["ms"] / by_size[small][name]["ms"] if by_size[small][name]["ms"] else None
        ours = site_verdict(name, by_size[small][name], by_size[large][name], PAGE_GOAL_RATIO)
        if ours is not None:
            goal, met = ours
        elif name.startswith("thread page"):
            goal, met = f"<= {PAGE_GOAL_RATIO} x", growth is not None and growth <= PAGE_GOAL_RATIO
        elif name.startswith("close of the day"):  # the close against the day's votes
            scale = large / small
            at_10k = by_size.get(10_000, {}).get(name, {}).get("ms")
            goal = f"<= {CLOSE_GOAL_MS / 1000:.0f} s at 10,000, <= linear"
            met = growth is not None and growth <= scale * 1.1 and (at_10k is None or at_10k <= CLOSE_GOAL_MS)
        elif name.startswith("recount"):
            # «the recount of a day of 1,000 / 10,000 / 100,000 votes — goal: at most linear, 100,000
            # <= 300 ms»: the 300 ms at 100,000, linear over every size measured (1,000,000 too)
            at_100k = by_size.get(100_000, {}).get(name, {}).get("ms")
            scale = large / small
            goal = f"<= {RECOUNT_GOAL_MS:.0f} ms at 100,000, <= linear"
            met = growth is not None and growth <= scale * 1.1 and (at_100k is None or at_100k <= RECOUNT_GOAL_MS)
        else:
            goal, met = f"p50 <= {SEARCH_GOAL_MS:.0f} ms", by_size[large][name]["ms"] <= SEARCH_GOAL_MS
        verdicts[name] = {"growth": round(growth, 2) if growth else None, "goal": goal, "met": met}
        lines.append(f"{name:42}" + "".join(f"{c:>22}" for c in cells)
                     + f"{(f'{growth:.2f}' if growth else '-'):>13}  {goal} {'-' if met is None else 'yes' if met else 'NO'}")
    return "\n".join(lines), verdicts


def main(args) -> int:
    """Run the growth curves (args: sizes, repeat, fresh, drop)."""
    from bench.__main__ import DEFAULT_DATABASE_URL, bench_environment, check_services
    from bench.server import clear_cache_prefix, drop_database

    prefix = f"mafia-bench-growth-{os.getpid()}-{secrets.token_hex(3)}"
    env = bench_environment(prefix)
    base_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    os.environ.update(env)
    check_services(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("collectstatic", verbosity=0, interactive=False)
    from bench.seed import login_cookies

    sizes = sorted(args.sizes)
    by_size, urls = {}, []
    log(f"growth: sizes {', '.join(f'{s:,}' for s in sizes)}; {args.repeat} timings each, medians")
    try:
        for size in sizes:
            url, game, site = prepare(size, base_url, fresh=args.fresh)
            urls.append(url)
            if args.seed_only:
                continue
            clear_cache_prefix(env["REDIS_URL"], prefix)  # each size's thread ids are the same numbers
            by_size[size] = measure(game, login_cookies(game.player_id), args.repeat, site,
                                   getattr(args, "rows", ()))
    finally:
        from django.db import connections

        connections.close_all()
        clear_cache_prefix(env["REDIS_URL"], prefix)
        if args.drop:
            for url in urls:
                drop_database(url)
    if args.seed_only:
        log("growth: seeded; measure with the same --sizes (the databases are kept)")
        return 0
    text, verdicts = table(sizes, by_size)
    print(text)
    print(json.dumps({"growth": {str(s): by_size[s] for s in sizes}, "verdicts": verdicts, "load": os.getloadavg()},
                     ensure_ascii=False))
    return 0
