"""Fixtures of the fault tests: a Redis server of the test's own (on a free port from 6390, never
the shared one), real Celery workers on the file broker or on Redis, and a forum game whose day is
due. Every subprocess is killed in a `finally` or a fixture finaliser, and every wait is bounded."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
WORKER_START_LIMIT = 45.0  # seconds a worker may take to say it is ready


def database_url() -> str:
    """The test database as a DATABASE_URL for a subprocess. On SQLite the embedded default's
    IMMEDIATE transactions come along (dj-database-url passes the query as OPTIONS)."""
    cfg = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{os.path.abspath(cfg['NAME'])}?transaction_mode=IMMEDIATE&timeout=20"
    auth = cfg["USER"] + (f":{cfg['PASSWORD']}" if cfg.get("PASSWORD") else "")
    return f"postgres://{auth}@{cfg['HOST'] or '127.0.0.1'}:{cfg['PORT'] or 5432}/{cfg['NAME']}"


def free_port(start: int = 6390, stop: int = 6490) -> int:
    for port in range(start, stop):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {start}..{stop}")


class OwnRedis:
    """A redis-server of the test's own on 127.0.0.1, without persistence: stopping it loses
    every queued message, as a Redis restarted without a disk would."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen | None = None
        self.paused = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/7"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir), "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        import redis

        limit = time.monotonic() + 15
        while time.monotonic() < limit:
            try:
                if redis.Redis(port=self.port, socket_connect_timeout=0.5, socket_timeout=0.5).ping():
                    return
            except redis.exceptions.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        """Kill it (SIGKILL: a crash, not a polite shutdown)."""
        if self.process is not None:
            if self.paused:
                self.resume()
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def pause(self) -> None:
        """SIGSTOP: the port still accepts connections, but nothing answers (a hung server)."""
        os.kill(self.process.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)
        self.paused = False


@pytest.fixture
def own_redis(tmp_path):
    require_service("Redis", shutil.which("redis-server") is not None, "the redis-server binary is needed")
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Broker:
    """Where the test's workers take their tasks from: a file-broker folder of the test's own, or
    the test's own Redis."""

    kind: str
    env: dict
    transport_options: dict = field(default_factory=dict)
    url: str = "filesystem://"
    queue: str = field(default_factory=lambda: f"faults-{uuid.uuid4().hex[:8]}")

    def connection(self):
        from kombu import Connection

        return Connection(self.url, transport_options=self.transport_options)

    def send(self, task, **options) -> None:
        """Queue `task` for the workers as the site would (not eagerly)."""
        from config.celery import app

        eager = app.conf.task_always_eager
        app.conf.task_always_eager = False
        try:
            with self.connection() as conn:
                task.apply_async(queue=self.queue, connection=conn, **options)
        finally:
            app.conf.task_always_eager = eager


def site_env(tmp_path: Path, redis_url: str | None = None) -> dict:
    """The environment of a site process (web, worker) started by a test: the test database, a
    var folder of its own (its own file broker) or the given Redis; nothing of the developer's."""
    # Not PYTEST_XDIST_WORKER either: it would move the process to another Redis database than the
    # one given (config/settings.py gives each parallel test worker its own).
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "DATABASE_URL", "CELERY_TASK_ALWAYS_EAGER", "PYTEST_XDIST_WORKER")}
    env.update(DATABASE_URL=database_url(), PYTHONPATH=str(ROOT), MAFIA_VAR_DIR=str(tmp_path / "var"))
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


@pytest.fixture(params=["embedded", pytest.param("redis", marks=pytest.mark.services)])
def broker(request, tmp_path) -> Broker:
    if request.param == "redis":
        server = request.getfixturevalue("own_redis")
        return Broker("redis", site_env(tmp_path, server.url), url=server.url)
    env = site_env(tmp_path)
    folder = tmp_path / "var" / "celery-broker"
    for sub in ("queue", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return Broker("embedded", env, transport_options={
        "data_folder_in": str(folder / "queue"), "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control")})


class Worker:
    """A real `celery worker` subprocess (solo pool) on the broker's queue. `include` loads a
    test-only module into it (celery's -I), e.g. tests.faults.worker_hooks."""

    def __init__(self, broker: Broker, name: str, *, include: str | None = None, env: dict | None = None,
                 log_dir: Path):
        args = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", broker.queue,
                "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
                "--loglevel=INFO"]
        if include:
            args += ["-I", include]
        self.log_path = log_dir / f"worker-{name}.log"
        self._log = open(self.log_path, "w")
        self.process = subprocess.Popen(args, cwd=ROOT, env={**broker.env, **(env or {})}, stdout=self._log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def answers(self, task: str = "") -> list[str]:
        """What the tasks named games.tasks.<task>... returned, in order, from the log lines
        "Task games.tasks.x[id] succeeded in 0.1s: True"."""
        return [line.rstrip().rsplit(": ", 1)[1] for line in self.output.splitlines()
                if f"Task games.tasks.{task}" in line and "] succeeded in " in line]

    def wait_ready(self) -> None:
        limit = time.monotonic() + WORKER_START_LIMIT
        while time.monotonic() < limit:
            if " ready." in self.output:
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"the worker did not start; its output:\n{self.output[-4000:]}")

    def kill(self) -> None:
        """SIGKILL, as the OOM killer or a pulled plug would: no cleanup runs in the worker."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """At the end of a test: SIGKILL too (a cold shutdown on the file broker takes seconds,
        and an idle worker holds nothing that needs a clean exit)."""
        try:
            self.kill()
        finally:
            self._log.close()


@pytest.fixture
def workers(tmp_path):
    """Start workers with `workers(broker, name, ...)`; all are stopped (or killed) at the end."""
    started: list[Worker] = []

    def start(broker: Broker, name: str, **kwargs) -> Worker:
        worker = Worker(broker, name, log_dir=tmp_path, **kwargs)
        started.append(worker)
        return worker

    try:
        yield start
    finally:
        errors = []
        for worker in started:
            try:
                worker.stop()
            except Exception as exc:  # noqa: BLE001 - the others must still be stopped
                errors.append(exc)
        if errors:
            raise errors[0]


def wait_until(predicate, *, limit: float = 30.0, step: float = 0.1) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


PLAYERS = ["Вася", "Петя", "Маша", "Даша", "Глаша", "Паша", "Саша"]
ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]


@dataclass
class DueDay:
    game: object
    phase: object
    users: dict

    def seat(self, name):
        return self.game.seats.get(user=self.users[name])


def _day_with_three_votes() -> DueDay:
    """A forum game of seven dealt by the engine, in day 1 (deadline in 24 hours), with three
    votes for Петя (no majority): whoever closes the day lynches Петя and opens the next phase."""
    from games.services.games import game_create
    from games.services.lifecycle import game_signup, game_start
    from games.services.posting import post_submit
    from games.services.votes import vote_button_text
    from tests.conftest import make_user

    gm = make_user("Ведущий")
    game = game_create(title="Сбой", gm=gm, size=7)
    users = {name: make_user(name) for name in PLAYERS}
    for user in users.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=4, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    for name in ("Вася", "Маша", "Даша"):
        post_submit(thread=game.game_thread, author=users[name], body=vote_button_text("Петя"))
    users["gm"] = gm
    return DueDay(game, game.current_phase, users)


def make_due(day: DueDay) -> None:
    """Time passes: the day's deadline is a second ago."""
    from games.models import Phase

    Phase.objects.filter(pk=day.phase.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    day.phase.refresh_from_db()


@pytest.fixture
def running_day(transactional_db) -> DueDay:
    return _day_with_three_votes()


@pytest.fixture
def due_day(transactional_db) -> DueDay:
    """As running_day, with the deadline just passed."""
    day = _day_with_three_votes()
    make_due(day)
    return day
