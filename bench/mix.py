"""`python -m bench.mix [--quick]`: a whole site under a realistic mix (issue 30, part 2), on the
embedded default and on PostgreSQL + Redis, side by side.

For each set-up, on a throwaway database (and data folder): migrates, seeds twenty running games
of the four rule sets with ten to fifteen players each, their GMs and forty spectators, all logged
in (bench/mixseed.py); starts the site's real processes (gunicorn with two workers, a Celery worker
and Celery beat, production settings); then drives it with Locust, headless (bench/locustfile.py:
readers, players and GMs doing what the pages and their people do), raising the users step by
step until p99 passes 500 ms or errors appear. Meanwhile, in every step, the GMs of several games
move their deadlines into the same minute of that step, and the bench watches when each phase is
closed. Prints each set-up's steps, one table of both side by side (the highest sustained step:
users, req/s, p50/p99 per kind of request; errors; how late each deadline closed) and, as its last
line, one JSON object. Everything it made is removed afterwards, also on Ctrl+C or SIGTERM.

Run it in the load venv (`bin/install load` makes .venv-load: the site's lock and Locust):

    .venv-load/bin/python -m bench.mix            # the full run (docs/performance.md)
    .venv-load/bin/python -m bench.mix --quick    # a smoke run of both set-ups

PostgreSQL and Redis: DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/
mafia_bench; the run makes and drops a database of its own there, its name ending in "_mix"),
MIX_REDIS_URL the Redis database the run may use for its cache and broker (default
redis://127.0.0.1:6379/7: it refuses one holding keys that are not a run's own).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import mixreport  # noqa: E402
from bench.server import bench_database_url, production_like_env, stop_group  # noqa: E402

SETUPS = ("embedded", "postgres")
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/mafia_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/7"
# Keys a run leaves in its Redis database: its cache prefix, and Celery's (kombu's) broker keys.
PREFIX_START = "mafia-mix-"
BROKER_KEYS = ("celery", "_kombu.*", "unacked*", "*.reply.celery.pidbox", "celeryev*")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.mix", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: four 15-second steps per set-up")
    parser.add_argument("--setups", default=",".join(SETUPS), help="comma-separated: embedded, postgres (default both)")
    parser.add_argument("--speed", type=float, help="how many times faster than people each user acts (default 10)")
    parser.add_argument("--start", type=int, help="users in the first step (default 20, --quick 10)")
    parser.add_argument("--add", type=int, help="users added each step (default 20, --quick 15)")
    parser.add_argument("--step-seconds", type=float, help="seconds per step (default 60, --quick 15)")
    parser.add_argument("--max-steps", type=int, help="steps at most (default 15, --quick 4)")
    parser.add_argument("--deadlines-per-step", type=int, help="games whose deadline falls in each step (default 5, --quick 4)")
    parser.add_argument("--p99-ms", type=float, default=mixreport.P99_LIMIT_MS, help="the stop rule's p99 (default 500)")
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs (their folder is printed)")
    parser.add_argument("--one", choices=SETUPS, help=argparse.SUPPRESS)  # the child run of one set-up
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    quick = args.quick
    args.speed = args.speed or 10.0
    args.start = args.start or (10 if quick else 20)
    args.add = args.add or (15 if quick else 20)
    args.step_seconds = args.step_seconds or (15.0 if quick else 60.0)
    args.max_steps = args.max_steps or (4 if quick else 15)
    args.deadlines_per_step = args.deadlines_per_step or (4 if quick else 5)
    args.settle_seconds = min(10.0, args.step_seconds / 5)
    args.setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    unknown = set(args.setups) - set(SETUPS)
    if unknown:
        parser.error(f"unknown set-ups: {', '.join(sorted(unknown))} (choose from {', '.join(SETUPS)})")
    return args


def child_argv(args, setup: str, out: Path) -> list[str]:
    argv = [sys.executable, "-m", "bench.mix", "--one", setup, "--out", str(out), "--speed", str(args.speed),
            "--start", str(args.start), "--add", str(args.add), "--step-seconds", str(args.step_seconds),
            "--max-steps", str(args.max_steps), "--deadlines-per-step", str(args.deadlines_per_step),
            "--p99-ms", str(args.p99_ms)]
    return argv + (["--quick"] if args.quick else []) + (["--keep-logs"] if args.keep_logs else [])


# --- One set-up (the child process) --------------------------------------------------------------

def setup_environment(setup: str, var_dir: Path, prefix: str) -> dict[str, str]:
    """Production-like settings for the child, its site processes and Locust: DEBUG off, a
    throwaway secret key and data folder, the posting rate limit off (users act SPEED times faster
    than people: the limiter would refuse them). The embedded set-up has neither DATABASE_URL nor
    REDIS_URL (SQLite, the disk cache and the file broker in the data folder)."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(production_like_env(log_level="WARNING"))
    env.update({
        "MAFIA_VAR_DIR": str(var_dir),
        "MAFIA_SITE_URL": "http://127.0.0.1",
        "PYTHONUNBUFFERED": "1",
    })
    if setup == "postgres":
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(bench_database_url(os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL))
        env["DATABASE_URL"] = urlunsplit(parts._replace(path=parts.path + "_mix"))  # never bench's own
        env["REDIS_URL"] = os.environ.get("MIX_REDIS_URL") or DEFAULT_REDIS_URL
        env["MAFIA_CACHE_PREFIX"] = prefix
    return env


def is_run_key(key: str) -> bool:
    """Whether a Redis key is a load run's: its cache prefix, or Celery's broker keys."""
    from fnmatch import fnmatchcase

    return key.startswith(PREFIX_START) or any(fnmatchcase(key, pattern) for pattern in BROKER_KEYS)


def _redis_keys(url: str, *, ours_only: bool) -> list[bytes]:
    """The run's keys in its Redis database (ours_only), or the keys that are not a run's."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    return [key for key in client.scan_iter(count=1000)
            if is_run_key(key.decode("utf-8", "replace")) == ours_only]


def check_services(env: dict[str, str]) -> None:
    import psycopg
    import redis

    from bench.server import _admin_connection

    try:
        _admin_connection(env["DATABASE_URL"]).close()
    except psycopg.Error as error:
        raise SystemExit(f"PostgreSQL is not reachable for {env['DATABASE_URL']}: {error}") from None
    try:
        foreign = _redis_keys(env["REDIS_URL"], ours_only=False)
    except redis.RedisError as error:
        raise SystemExit(f"Redis is not reachable at {env['REDIS_URL']}: {error}") from None
    if foreign:
        raise SystemExit(f"Redis database {env['REDIS_URL']} holds {len(foreign)} keys that are not a load run's "
                         f"(e.g. {foreign[0]!r}): give the run a database of its own with MIX_REDIS_URL.")


def clear_redis(url: str) -> int:
    import redis

    keys = _redis_keys(url, ours_only=True)
    client = redis.Redis.from_url(url)
    for start in range(0, len(keys), 500):
        client.delete(*keys[start:start + 500])
    return len(keys)


class Process:
    """A site process in its own process group, its output in a log file; stopped with its group."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_dir: Path):
        self.name, self.argv, self.env = name, argv, env
        self.log_path = log_dir / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> Process:
        out = open(self.log_path, "wb")  # noqa: SIM115 - the child holds it open
        self.process = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        out.close()
        return self

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def wait_for(self, text: str, seconds: float) -> None:
        limit = time.monotonic() + seconds
        while time.monotonic() < limit:
            if text in self.log_path.read_text(encoding="utf-8", errors="replace"):
                return
            if not self.alive():
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}: {self.tail()}")
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not say {text!r} within {seconds:.0f} s: {self.tail()}")

    def tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return ""

    def stop(self, timeout: float = 15) -> None:
        stop_group(self.process, timeout=timeout)


def count_in_log(path: Path, needles: tuple[str, ...]) -> int:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return 0
    return sum(1 for line in text.splitlines() if any(needle in line for needle in needles))


def read_locust_csv(prefix: Path) -> tuple[dict, list[dict]]:
    """Locust's own totals (the Aggregated row of <prefix>_stats.csv) and its errors
    (<prefix>_failures.csv: method, name, error, occurrences)."""
    totals: dict = {}
    errors: list[dict] = []
    stats = Path(f"{prefix}_stats.csv")
    if stats.exists():
        with stats.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if row.get("Name") == "Aggregated":
                    totals = {"requests": int(row["Request Count"]), "failures": int(row["Failure Count"]),
                              "p50_ms": float(row["50%"] or 0), "p99_ms": float(row["99%"] or 0),
                              "rps": float(row["Requests/s"] or 0)}
    failures = Path(f"{prefix}_failures.csv")
    if failures.exists():
        with failures.open(encoding="utf-8") as f:
            errors = [{"method": r["Method"], "name": r["Name"], "error": r["Error"][:300],
                       "occurrences": int(r["Occurrences"])} for r in csv.DictReader(f)]
    return totals, errors


def read_steps(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def deadline_scheduler(args, game_ids: list[int], watch, steps_path: Path, locust: Process, began: float,
                       stop: threading.Event, problems: list[str]) -> None:
    """In every step, the GMs of `deadlines_per_step` games move their deadlines into one stretch
    of at most 30 s in the middle of the step. Step k's start is read from the step written before
    it (Locust's clock); no step is given deadlines once the load has stopped."""
    from django.db import connections

    from bench.mixseed import move_deadlines

    try:
        step_start = began
        for k in range(args.max_steps):
            if k > 0:
                limit = time.time() + args.step_seconds + 30
                while len(read_steps(steps_path)) < k:
                    if stop.wait(0.2) or not locust.alive() or time.time() > limit:
                        return
                previous = read_steps(steps_path)[k - 1]
                if previous.get("stop"):
                    return
                step_start = previous["ended_at"]
            picked = mixreport.pick_games(game_ids, k, args.deadlines_per_step)
            times = mixreport.deadline_times(step_start, args.step_seconds, len(picked))
            now = time.time()
            chosen = [(g, t) for g, t in zip(picked, times) if t > now + 1]
            pairs = move_deadlines([g for g, _t in chosen], [t for _g, t in chosen],
                                   users=mixreport.next_users(k, start=args.start, add=args.add))
            watch.add(pairs)
    except Exception as error:  # noqa: BLE001 - reported with the results
        problems.append(f"deadline scheduler: {type(error).__name__}: {error}")
    finally:
        connections.close_all()


def warm_up(base: str, plan: dict, *, threads: int = 2) -> int:
    """Every page of every game read once by each kind of visitor, from two threads (so both web
    workers see them): a site under load has been running for a while; the first step must not
    measure the first render of each template and each process's first look at each game."""
    import concurrent.futures
    import urllib.error
    import urllib.request

    def get(path: str, cookies: dict | None) -> int:
        request = urllib.request.Request(base + path)
        if cookies:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    jobs = []
    for game in plan["games"]:
        player = game["players"][0]["cookies"]
        for cookies in (None, player, game["gm"]):
            jobs += [(f"/threads/{game['thread']}/?page=last", cookies), (f"/games/{game['id']}/", cookies)]
        jobs += [(f"/games/{game['id']}/gm/", game["gm"]), (f"/games/{game['id']}/role/", player),
                 (f"/games/{game['id']}/votes/live/", None)]
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        statuses = list(pool.map(lambda job: get(*job), jobs))
    return sum(1 for status in statuses if status != 200)


def run_one(setup: str, args) -> dict:
    """One set-up from nothing to its summary; everything it made removed in `finally`."""
    started = time.monotonic()
    prefix = f"{PREFIX_START}{os.getpid()}-{secrets.token_hex(3)}"
    work = Path(tempfile.mkdtemp(prefix=f"mafia-mix-{setup}-"))
    var_dir, logs = work / "var", work / "logs"
    var_dir.mkdir()
    logs.mkdir()
    env = setup_environment(setup, var_dir, prefix)
    for key in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(key, None)
    os.environ.update(env)
    processes: list[Process] = []
    database_created = False
    problems: list[str] = []
    load_before = os.getloadavg()
    try:
        if setup == "postgres":
            check_services(env)
            from bench.server import create_database

            create_database(env["DATABASE_URL"])
            database_created = True
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection, connections

        call_command("migrate", verbosity=0, interactive=False)
        call_command("collectstatic", verbosity=0, interactive=False)
        log(f"[{setup}] {connection.vendor}, migrated in {time.monotonic() - started:.0f} s; seeding")
        from bench.mixseed import CloseWatch, seed_site

        plan = seed_site()
        plan_path = work / "plan.json"
        plan_path.write_text(json.dumps(plan), encoding="utf-8")
        game_ids = [g["id"] for g in plan["games"]]
        players = sum(len(g["players"]) for g in plan["games"])
        log(f"[{setup}] seeded {len(game_ids)} games, {players} players, {len(plan['spectators'])} spectators "
            f"at {time.monotonic() - started:.0f} s")
        connections.close_all()

        from bench.server import Gunicorn

        web = Gunicorn(env, workers=2, log_path=logs / "gunicorn.log")
        processes.append(web)  # Gunicorn.stop has the same meaning
        web.start()
        worker = Process("worker", [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                                    "--loglevel=INFO"], env, logs).start()
        processes.append(worker)
        beat = Process("beat", [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=INFO"],
                       env, logs).start()
        processes.append(beat)
        worker.wait_for(" ready.", 60)
        beat.wait_for("beat: Starting", 30)
        log(f"[{setup}] gunicorn (2 workers) at {web.base}, Celery worker and beat up at "
            f"{time.monotonic() - started:.0f} s; warming up")
        refused = warm_up(web.base, plan)
        if refused:
            problems.append(f"warm-up: {refused} pages did not answer 200")

        steps_path = work / "steps.jsonl"
        locust_env = {**env, "MIX_PLAN": str(plan_path), "MIX_SPEED": str(args.speed), "MIX_START": str(args.start),
                      "MIX_ADD": str(args.add), "MIX_STEP_SECONDS": str(args.step_seconds),
                      "MIX_SETTLE_SECONDS": str(args.settle_seconds), "MIX_MAX_STEPS": str(args.max_steps),
                      "MIX_P99_MS": str(args.p99_ms), "MIX_STEPS": str(steps_path)}
        csv_prefix = work / "locust"
        locust = Process("locust", [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py"),
                                    "--headless", "--host", web.base, "--csv", str(csv_prefix), "--only-summary",
                                    "--loglevel", "WARNING"], locust_env, logs)
        cap = args.max_steps * args.step_seconds + 60
        log(f"[{setup}] Locust: {args.start} users, +{args.add} every {args.step_seconds:.0f} s, at most "
            f"{args.max_steps} steps, speed {args.speed:g}; {args.deadlines_per_step} deadlines a step")
        stop = threading.Event()
        with CloseWatch() as watch:
            began = time.time()
            locust.start()
            processes.append(locust)
            scheduler = threading.Thread(target=deadline_scheduler, daemon=True,
                                         args=(args, game_ids, watch, steps_path, locust, began + 1.5, stop, problems))
            scheduler.start()
            shown = 0
            limit = time.monotonic() + cap
            while locust.alive() and time.monotonic() < limit:
                time.sleep(0.5)
                steps = read_steps(steps_path)
                for step in steps[shown:]:
                    log(f"[{setup}] step {step['index']}: {step['users']} users, {step['rps']:.1f} req/s, "
                        f"p50 {step['p50_ms']} ms, p99 {step['p99_ms']} ms, {step['failures']} errors"
                        + (f"; stop: {step['reason']}" if step.get("reason") else ""))
                shown = len(steps)
            if locust.alive():
                problems.append(f"Locust still running after {cap:.0f} s: stopped")
                locust.stop()
            stop.set()
            scheduler.join(timeout=30)
            # The deadlines set for the last step close after the load stops at the latest a
            # sweep later (beat, every 60 s); a phase still open then is reported as never closed.
            pending_limit = time.time() + 75
            while watch.open_count() and time.time() < pending_limit:
                time.sleep(0.5)
            time.sleep(0.5)
            deadlines = [d for d in watch.watched.values()]
        from bench.mixseed import site_checks

        checks = site_checks(began)
        steps = [mixreport.Step.from_json({k: v for k, v in s.items() if k not in ("stop", "reason", "ended_at")})
                 for s in read_steps(steps_path)]
        totals, errors = read_locust_csv(csv_prefix)
        for process in processes:
            process.stop()
        extra = {
            "database": "SQLite" if setup == "embedded" else "PostgreSQL",
            "cache": "disk cache" if setup == "embedded" else "Redis",
            "broker": "file broker" if setup == "embedded" else "Redis",
            "locust_totals": totals,
            "locust_errors": errors,
            "site_checks": checks,
            "server_errors_logged": count_in_log(logs / "gunicorn.log", ("Traceback", "Internal Server Error")),
            "worker_errors_logged": count_in_log(logs / "worker.log", ("ERROR/", "Traceback")),
            "problems": problems,
            "settings": {"speed": args.speed, "start": args.start, "add": args.add, "step_seconds": args.step_seconds,
                         "settle_seconds": args.settle_seconds, "max_steps": args.max_steps,
                         "deadlines_per_step": args.deadlines_per_step, "p99_ms": args.p99_ms,
                         "games": len(game_ids), "players": players, "spectators": len(plan["spectators"])},
            "machine": {"nproc": os.cpu_count(), "load_before": [round(x, 2) for x in load_before],
                        "load_after": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version()},
            "wall_seconds": round(time.monotonic() - started, 1),
        }
        if args.keep_logs:
            extra["logs"] = str(logs)
        return mixreport.summarize(setup, steps, deadlines, extra=extra, p99_limit_ms=args.p99_ms)
    finally:
        for process in reversed(processes):
            try:
                process.stop()
            except Exception as error:  # noqa: BLE001
                log(f"[{setup}] could not stop {process}: {error}")
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up yet
            pass
        if database_created:
            from bench.server import drop_database

            try:
                drop_database(env["DATABASE_URL"])
            except Exception as error:  # noqa: BLE001
                log(f"[{setup}] could not drop {env['DATABASE_URL']}: {error}")
        if setup == "postgres":
            try:
                clear_redis(env["REDIS_URL"])
            except Exception as error:  # noqa: BLE001
                log(f"[{setup}] could not clear the run's Redis keys: {error}")
        if args.keep_logs:
            shutil.rmtree(var_dir, ignore_errors=True)
            log(f"[{setup}] logs kept in {logs}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def stop_once():
    """A handler for SIGINT and SIGTERM that interrupts once: Ctrl+C reaches the whole process
    group and a parent may add its SIGTERM, but a second signal must not cut the cleaning short."""
    fired = []

    def handler(signum, frame):
        if fired:
            return
        fired.append(signum)
        raise KeyboardInterrupt

    handler.fired = fired
    return handler


def child_main(args) -> int:
    handler = stop_once()
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    try:
        summary = run_one(args.one, args)
    except KeyboardInterrupt:
        log(f"[{args.one}] interrupted: cleaned up")
        return 130
    Path(args.out).write_text(json.dumps(summary, ensure_ascii=False), encoding="utf-8")
    return 0


# --- Both set-ups (the parent) -------------------------------------------------------------------

def main(argv=None) -> int:
    args = parse_args(argv)
    if args.one:
        return child_main(args)
    try:
        import locust  # noqa: F401
    except ImportError:
        raise SystemExit("Locust is not installed here: run `bin/install load`, then "
                         "`.venv-load/bin/python -m bench.mix`.") from None
    started = time.monotonic()
    summaries = []
    interrupted = False

    handler = stop_once()
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    with tempfile.TemporaryDirectory(prefix="mafia-mix-") as tmp:
        for setup in args.setups:
            out = Path(tmp) / f"{setup}.json"
            child = subprocess.Popen(child_argv(args, setup, out), cwd=ROOT)
            try:
                code = child.wait()
            except KeyboardInterrupt:
                interrupted = True
                if handler.fired == [signal.SIGTERM]:  # to this process alone; Ctrl+C reached the child too
                    child.send_signal(signal.SIGTERM)
                try:
                    child.wait(timeout=180)  # the child stops its processes and removes its data
                except subprocess.TimeoutExpired:
                    child.kill()
                break
            if code != 0 or not out.exists():
                log(f"[{setup}] failed (exit {code})")
                continue
            summaries.append(json.loads(out.read_text(encoding="utf-8")))
    if interrupted:
        log("interrupted: each set-up cleaned up after itself")
        return 130
    for summary in summaries:
        print(mixreport.steps_table(summary))
        if summary.get("locust_errors"):
            print("  errors: " + "; ".join(f"{e['occurrences']} x {e['method']} {e['name']}: {e['error']}"
                                            for e in summary["locust_errors"][:10]))
        if summary.get("site_checks"):
            print("  stored: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary["site_checks"].items()))
        print("  deadlines: " + ("; ".join(mixreport.deadline_row(d) for d in summary.get("deadlines") or []) or "none"))
        if summary.get("problems"):
            print("  problems: " + "; ".join(summary["problems"]))
        print()
    if summaries:
        print(mixreport.table(summaries))
    print(mixreport.json_line(summaries, mode="quick" if args.quick else "full",
                              wall_seconds=round(time.monotonic() - started, 1)))
    return 0 if len(summaries) == len(args.setups) else 1


if __name__ == "__main__":
    sys.exit(main())
