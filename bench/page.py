"""One fresh render of the thread page, profiled in-process: `python -m bench.page [--repeat 200]`.

The same game, session and page as `python -m bench`'s cold thread page (bench/seed.py: the last
page of the 10,000-post game thread, as a logged-in player), on a throwaway PostgreSQL database
and Redis prefix of its own (the same environment and clean-up as the benchmark). Before each
request, untimed, something is written: `--write thread` marks the thread written as a new post
does (its counter, not its posts': what the benchmark's WritesMeanwhile does), `--write post` makes
a real post by another player (the page then reads and renders it, and moves the reader's read
mark), `--write edit` marks the posts there written (an edit, a hidden post), `--write site` makes
an undeclared write; so that each request renders afresh. Prints the SQL queries of one render,
the median wall and CPU time of `--repeat` renders with the CPU time of the view's parts, and
cProfile's top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.inprocess import seeded_game  # noqa: E402

# The view's parts whose CPU time is printed (games/views/forum.py).
PARTS = ("_thread_context", "_post_list", "_render_post_list", "_render_thread", "_visible_thread",
         "_remember_game_reads", "current_count_html", "thread_mark_read", "PostForm", "voters_and_targets",
         "_valid_until", "_vote_buttons", "voting_phase", "_visible_thread_kept", "_thread_from_frame",
         "_region_pieces")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--top", type=int, default=40, help="cProfile lines to print")
    parser.add_argument("--write", choices=("thread", "post", "edit", "site", "none"), default="thread",
                        help="what is written before each request, untimed: thread (what a post moves, as the "
                             "benchmark's WritesMeanwhile), post (a real post), edit (a write to the posts there), "
                             "site (an undeclared write), none (the kept page)")
    args = parser.parse_args(argv)
    with seeded_game("page", posts=args.posts) as (game, cookies):
        profile(game, cookies, repeat=args.repeat, top=args.top, write=args.write)
    return 0


def _timed_parts(acc: dict[str, list[float]]) -> None:
    """Wrap the view's parts so that each call's CPU time lands in `acc`."""
    from games.views import forum

    def wrap(name: str):
        real = getattr(forum, name, None)
        if real is None:
            return  # a part the view no longer has (or imports under that name)

        def timed(*args, **kwargs):
            began = time.process_time()
            try:
                return real(*args, **kwargs)
            finally:
                acc[name].append((time.process_time() - began) * 1000)

        setattr(forum, name, timed)

    for name in PARTS:
        wrap(name)


def profile(game, cookies: dict[str, str], *, repeat: int, top: int, write: str) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.caching import pagecache
    from games.models import Seat, Thread
    from games.services.posting import post_submit

    thread = Thread.objects.get(pk=game.thread_id)
    author = Seat.objects.filter(game_id=game.game_id).exclude(user_id=game.player_id).select_related("user").first().user

    client = Client()
    for name, value in cookies.items():
        client.cookies[name] = value
    url = f"/threads/{game.thread_id}/?page=last"

    posts = iter(range(10**9))

    def before():
        """The write before each request (not timed)."""
        if write == "thread":
            pagecache.posted(thread=game.thread_id)  # what a new post's writes move (WritesMeanwhile)
        elif write == "post":
            # A real post by another player: the page then reads and renders it, and the reader's
            # read mark moves.
            post_submit(thread=thread, author=author, body=f"Ещё один пост, номер {next(posts)}.")
        elif write == "edit":
            pagecache.changed(thread=game.thread_id)  # any other write to the thread: its posts too
        elif write == "site":
            pagecache.changed()

    def get(*, timed_only=False):
        if not timed_only:
            before()
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"GET {url}: {response.status_code}")
        return response

    for _ in range(5):
        get()  # warm-up: the worker learns the thread's game, the caches fill
    before()
    with CaptureQueriesContext(connection) as captured:
        size = len(get(timed_only=True).content)
    print(f"{len(captured.captured_queries)} queries, {size} bytes:")
    for query in captured.captured_queries:
        print(f"  {float(query['time']) * 1000:6.2f} ms  {query['sql'][:200]}")
    parts: dict[str, list[float]] = defaultdict(list)
    _timed_parts(parts)
    wall, cpu = [], []
    for _ in range(repeat):
        before()
        began, began_cpu = time.perf_counter(), time.process_time()
        get(timed_only=True)
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    print(f"render: median {statistics.median(wall):.2f} ms (min {min(wall):.2f}), CPU {statistics.median(cpu):.2f} ms"
          f" over {repeat} (load {os.getloadavg()[0]:.2f})")
    for name in PARTS:
        if parts[name]:
            print(f"  {name}: CPU {statistics.median(parts[name]):.2f} ms")
    empty = []
    for _ in range(repeat):
        began = time.process_time()
        client.get("/healthz/")
        empty.append((time.process_time() - began) * 1000)
    print(f"the empty view: CPU {statistics.median(empty):.3f} ms")
    profiler = cProfile.Profile()
    for _ in range(20):
        before()
        profiler.enable()
        get(timed_only=True)
        profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(top)
    print("20 renders:")
    print(out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
