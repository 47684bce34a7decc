"""`python -m bench.interleaved`: the site's growth rows at the smallest and largest tier, in turns.

`python -m bench --growth` measures one tier after the other, so a load that changes during the
run (a shared machine: other tests starting, ending) lands on one tier and not the other, and the
ratio between them measures the load. This measures the same pages of the same kept databases
(seeded by `python -m bench --growth --seed-only`) block by block, the tiers alternating, each
block `--per` requests of one row after two unmeasured ones, and reports for each row:

- the median wall time per request at each tier and their ratio;
- the CPU time per request at each tier (this process's plus its PostgreSQL backend's, read from
  /proc: the work the request cost, which other processes' load inflates far less than the wall
  time) and their ratio.

The finished game's day is closed by its deadline's task and the game ended inside each block's
transaction, rolled back after it, as bench/site_growth.py reads its archive and replay. Each tier
has its own cache prefix (the tiers' ids are the same numbers). Linux only (/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import time
from datetime import timedelta

ROWS = ("desk", "games list", "replay", "archive", "GM dashboard")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.interleaved", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=lambda text: [int(x) for x in text.split(",")], default=[1_000, 100_000],
                        help="two kept tiers (default 1000,100000)")
    parser.add_argument("--rounds", type=int, default=6, help="blocks per tier and row (default 6)")
    parser.add_argument("--per", type=int, default=10, help="measured requests per block (default 10)")
    args = parser.parse_args(argv)

    # bench's own modules and Django's: imported once the environment is set (the settings read it)
    from bench import growth
    from bench.__main__ import DEFAULT_DATABASE_URL, bench_environment, check_services

    env = bench_environment(f"mafia-bench-interleaved-{os.getpid()}-{secrets.token_hex(3)}")
    base_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    os.environ.update(env)
    check_services(env)
    import django

    django.setup()
    from django.core.cache import caches  # the models and the cache: after django.setup()
    from django.db import connection, transaction
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from bench.server import clear_cache_prefix
    from bench.site_growth import SiteTier, timed_close
    from games.models import Game, Phase
    from games.services.lifecycle import game_finish

    tiers = {}
    for size in args.sizes:
        url = growth._database_for(base_url, size)
        state = growth.STATE_DIR / f"growth-{url.rsplit('/', 1)[1]}.json"
        if not state.exists() or not growth._exists(url):
            raise SystemExit(f"No kept database for {size:,} posts: seed it with "
                             f"`python -m bench --growth --seed-only --sizes {size}`.")
        tiers[size] = (url, SiteTier(**json.loads(state.read_text())["site"]))
    prefix = caches["default"].key_prefix
    tick = os.sysconf("SC_CLK_TCK")

    def backend_cpu() -> float:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick  # utime + stime

    wall = {(row, size): [] for row in ROWS for size in tiers}
    cpu = {(row, size): [] for row in ROWS for size in tiers}
    try:
        for turn in range(args.rounds):
            for size in (list(tiers) if turn % 2 == 0 else list(tiers)[::-1]):
                growth._use_database(tiers[size][0])
                caches["default"].key_prefix = f"{prefix}-{size}"
                tier = tiers[size][1]
                desk, spectator, gm = Client(), Client(), Client()
                desk.force_login(User.objects.get(pk=tier.desk_user_id))
                spectator.force_login(User.objects.get(pk=tier.spectator_id))
                gm.force_login(User.objects.get(pk=tier.game_gm_id))
                with transaction.atomic():
                    timed_close(Phase.objects.get(pk=tier.game_phase_id))(keep=True)
                    phase = Phase.objects.select_related("game").get(pk=tier.game_phase_id)
                    if phase.game.status != Game.Status.FINISHED:
                        game_finish(game=phase.game, winner=phase.game.winner or "town",
                                    now=(phase.deadline_at or timezone.now()) + timedelta(seconds=2))
                    calls = {"desk": lambda: desk.get("/me/"),
                             "games list": lambda: spectator.get("/games/", {"status": "finished"}),
                             "replay": lambda: spectator.get(f"/games/{tier.game_id}/replay/"),
                             "archive": lambda: spectator.get(f"/games/{tier.game_id}/archive/"),
                             "GM dashboard": lambda: gm.get(f"/games/{tier.game_id}/gm/")}
                    for row in ROWS:
                        calls[row]()
                        calls[row]()
                        started_cpu, started_own = backend_cpu(), time.process_time()
                        for _ in range(args.per):
                            started = time.perf_counter()
                            response = calls[row]()
                            wall[(row, size)].append(time.perf_counter() - started)
                            assert response.status_code == 200, (row, size, response.status_code)
                        own = time.process_time() - started_own
                        cpu[(row, size)].append((own + backend_cpu() - started_cpu) / args.per)
                    transaction.set_rollback(True)
    finally:
        connection.close()
        for size in tiers:
            clear_cache_prefix(env["REDIS_URL"], f"{prefix}-{size}")
    small, large = args.sizes[0], args.sizes[-1]
    print(f"{args.rounds} blocks of {args.per} per row and tier, the tiers in turns; load {os.getloadavg()}")
    print(f"{'row':14}{f'wall ms {small:,}':>16}{f'{large:,}':>10}{'ratio':>8}"
          f"{f'cpu ms {small:,}':>16}{f'{large:,}':>10}{'ratio':>8}   (cpu: this process + its PostgreSQL backend)")
    out = {}
    for row in ROWS:
        w_small, w_large = (statistics.median(wall[(row, s)]) * 1000 for s in (small, large))
        c_small, c_large = (statistics.mean(cpu[(row, s)]) * 1000 for s in (small, large))
        out[row] = {"wall_ms": [round(w_small, 2), round(w_large, 2)], "cpu_ms": [round(c_small, 2), round(c_large, 2)]}
        print(f"{row:14}{w_small:>16.1f}{w_large:>10.1f}{w_large / w_small:>8.2f}"
              f"{c_small:>16.1f}{c_large:>10.1f}{c_large / c_small:>8.2f}")
    print(json.dumps({"interleaved": out, "sizes": [small, large], "load": os.getloadavg()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
