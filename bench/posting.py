"""One htmx vote reply, profiled in-process: `python -m bench.posting [--posts 10000] [--repeat 20]`.

The same game, session and request as `python -m bench`'s "posting a vote" (bench/seed.py; the
request made by bench/postprof.py's Requests, urlencoded as the browser sends it), on a
throwaway PostgreSQL database and Redis prefix of its own (the same environment and clean-up as
the benchmark): it prints the SQL queries of one reply (each with its time), the median time of
`--repeat` replies, and cProfile's top functions by cumulative time for one more reply.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.inprocess import seeded_game  # noqa: E402
from bench.postprof import Requests  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--top", type=int, default=40, help="cProfile lines to print")
    parser.add_argument("--where", action="store_true", help="print where in the project each query is sent from")
    args = parser.parse_args(argv)
    with seeded_game("posting", posts=args.posts) as (game, cookies):
        profile(game, cookies, repeat=args.repeat, top=args.top, where=args.where)
    return 0


def _callers() -> str:
    """The project's frames of the current stack (innermost last), for --where."""
    import traceback

    root = str(Path(__file__).resolve().parents[1])
    frames = [f for f in traceback.extract_stack()[:-3]
              if f.filename.startswith(root) and "/.venv/" not in f.filename and "/bench/" not in f.filename]
    return " < ".join(f"{Path(f.filename).name}:{f.lineno}:{f.name}" for f in reversed(frames[-4:]))


def profile(game, cookies: dict[str, str], *, repeat: int, top: int, where: bool = False) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    requests = Requests(game, cookies)
    reply = requests.vote

    for _ in range(3):
        reply()  # warm-up
    origins = []

    def record(execute, sql, params, many, context):
        origins.append(_callers())
        return execute(sql, params, many, context)

    with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(record):
        reply()
    print(f"{len(captured.captured_queries)} queries in one reply:")
    for index, query in enumerate(captured.captured_queries):
        print(f"  {float(query['time']) * 1000:6.2f} ms  {query['sql'][:220]}")
        if where and index < len(origins):
            print(f"             from {origins[index]}")
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        reply()
        times.append((time.perf_counter() - began) * 1000)
    print(f"reply: median {statistics.median(times):.1f} ms, min {min(times):.1f} ms over {repeat} (load {os.getloadavg()[0]:.2f})")
    # What the browser does next: the reply's "votes-changed" trigger fetches the count fragment.
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        reply()
        requests.fragment()
        times.append((time.perf_counter() - began) * 1000)
    print(f"reply + the count fragment it triggers: median {statistics.median(times):.1f} ms, "
          f"min {min(times):.1f} ms over {repeat}")
    profiler = cProfile.Profile()
    profiler.enable()
    reply()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    print(out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
