"""The deadline machinery: a scheduled thread lock fires once, from an ETA task, the sweep or
both, through a real Celery worker on the embedded broker (and on Redis when configured)."""

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.models import Thread
from games.services import ActionRefused
from games.services.threads import thread_lock_if_due, thread_schedule_lock, threads_lock_due
from tests.conftest import IN_CI, require_service

ROOT = Path(__file__).resolve().parents[2]


def test_lock_if_due_locks_once_when_called_twice(lobby_thread):
    lobby_thread.lock_at = timezone.now() - timedelta(seconds=1)
    lobby_thread.save()
    assert thread_lock_if_due(thread_id=lobby_thread.pk) is True
    assert thread_lock_if_due(thread_id=lobby_thread.pk) is False
    lobby_thread.refresh_from_db()
    assert lobby_thread.is_locked


def test_lock_if_due_does_nothing_when_not_yet_due(lobby_thread):
    lobby_thread.lock_at = timezone.now() + timedelta(hours=1)
    lobby_thread.save()
    assert thread_lock_if_due(thread_id=lobby_thread.pk) is False
    assert thread_lock_if_due(thread_id=lobby_thread.pk, now=lobby_thread.lock_at) is True


def test_sweep_locks_every_due_thread_and_only_those(lobby_thread, spectator):
    from games.services.threads import thread_create

    later, _ = thread_create(kind=Thread.Kind.LOBBY, title="Позже", author=spectator, body="x")
    now = timezone.now()
    Thread.objects.filter(pk=lobby_thread.pk).update(lock_at=now - timedelta(minutes=1))
    Thread.objects.filter(pk=later.pk).update(lock_at=now + timedelta(minutes=1))
    assert threads_lock_due(now=now) == 1
    assert threads_lock_due(now=now) == 0
    assert Thread.objects.get(pk=lobby_thread.pk).is_locked
    assert not Thread.objects.get(pk=later.pk).is_locked


def test_schedule_lock_queues_eta_task_on_commit(lobby_thread, moderator, django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    from games import tasks

    monkeypatch.setattr(tasks.lock_thread_when_due, "apply_async", lambda **kw: sent.append(kw))
    lock_at = timezone.now() + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        thread_schedule_lock(thread=lobby_thread, moderator=moderator, lock_at=lock_at)
    assert sent == [{"kwargs": {"thread_id": lobby_thread.pk}, "eta": lock_at}]


def test_schedule_lock_refuses_when_not_moderator_or_in_past(lobby_thread, spectator, moderator):
    with pytest.raises(ActionRefused):
        thread_schedule_lock(thread=lobby_thread, moderator=spectator, lock_at=timezone.now() + timedelta(hours=1))
    with pytest.raises(ActionRefused):
        thread_schedule_lock(thread=lobby_thread, moderator=moderator, lock_at=timezone.now() - timedelta(hours=1))


def test_beat_schedule_runs_the_sweep_every_minute():
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-deadlines"]
    assert entry["task"] == "games.tasks.sweep_deadlines" and entry["schedule"] == 60.0
    from config.celery import app

    app.loader.import_default_modules()
    assert "games.tasks.sweep_deadlines" in app.tasks and "games.tasks.lock_thread_when_due" in app.tasks


# --- A real worker --------------------------------------------------------------------------------
def _database_url() -> str:
    cfg = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{cfg['NAME']}"
    auth = cfg["USER"] + (f":{cfg['PASSWORD']}" if cfg.get("PASSWORD") else "")
    return f"postgres://{auth}@{cfg['HOST'] or '127.0.0.1'}:{cfg['PORT'] or 5432}/{cfg['NAME']}"


def _redis_available() -> bool:
    url = os.environ.get("REDIS_URL")
    if not url:
        return False
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except Exception:
        return False


def _broker(broker: str, tmp_path):
    """The environment of a worker subprocess and a connection to send it tasks, on the
    embedded file broker (a folder of its own) or on Redis."""
    from kombu import Connection

    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env["DATABASE_URL"] = _database_url()
    env["PYTHONPATH"] = str(ROOT)
    if broker == "redis":
        require_service("Redis", _redis_available(), "REDIS_URL must point to a running Redis")
        # The site's own URL: under pytest-xdist it names this worker's Redis database (config/settings.py).
        env["REDIS_URL"] = settings.REDIS_URL
        return env, Connection(settings.REDIS_URL)
    # Its own broker folder, so that a developer's running site never eats the test's message.
    env["MAFIA_VAR_DIR"] = str(tmp_path)
    folder = tmp_path / "celery-broker"
    for sub in ("queue", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return env, Connection("filesystem://", transport_options={
        "data_folder_in": str(folder / "queue"), "data_folder_out": str(folder / "queue"),
        "control_folder": str(folder / "control")})


def _run_worker(broker: str, tmp_path, sends, done, *, settle: float = 0.0) -> str:
    """Queue tasks through `sends(connection, queue)`, run a real worker until `done()` or 60 s,
    and return its output."""
    from config.celery import app

    env, connection_ = _broker(broker, tmp_path)
    queue = f"test-{uuid.uuid4().hex[:8]}"
    app.conf.task_always_eager = False
    try:
        with connection_ as conn:
            sends(conn, queue)
    finally:
        app.conf.task_always_eager = True
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        limit = time.monotonic() + 60
        while time.monotonic() < limit and worker.poll() is None:
            if done():
                time.sleep(settle)
                break
            time.sleep(0.3)
    finally:
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
    return output


@pytest.mark.services
@pytest.mark.parametrize("broker", ["embedded", "redis"])
def test_deadline_fires_through_a_real_worker(broker, transactional_db, tmp_path):
    from accounts.models import User
    from games.tasks import lock_thread_when_due

    author = User.objects.create_user(username="w", email="w@example.com", password="x", display_name="Воркер")
    thread = Thread.objects.create(kind=Thread.Kind.LOBBY, title="Дедлайн", created_by=author)
    lock_at = timezone.now() + timedelta(seconds=2)
    Thread.objects.filter(pk=thread.pk).update(lock_at=lock_at)

    def sends(conn, queue):
        lock_thread_when_due.apply_async(kwargs={"thread_id": thread.pk}, eta=lock_at, queue=queue, connection=conn)

    def done():
        thread.refresh_from_db()
        return thread.is_locked

    output = _run_worker(broker, tmp_path, sends, done)
    assert thread.is_locked, f"the worker did not lock the thread; its output:\n{output[-4000:]}"
    assert timezone.now() >= lock_at
    assert "succeeded" in output


def test_database_is_postgresql_when_ci(db):
    """CI runs against PostgreSQL; a silent fallback to SQLite would hide what production runs."""
    require_service("PostgreSQL", connection.vendor == "postgresql" or not IN_CI, "DATABASE_URL must name PostgreSQL in CI")
    if IN_CI:
        assert connection.vendor == "postgresql"


@pytest.mark.services
@pytest.mark.parametrize("broker", ["embedded", "redis"])
def test_a_game_day_closes_through_a_real_worker(broker, transactional_db, tmp_path):
    """The deadline task resolves a forum day in the worker process: results posted, day 2 open."""
    from accounts.models import User
    from games.models import Game
    from games.services.games import game_create
    from games.services.lifecycle import game_signup, game_start
    from games.services.phases import phase_set_deadline
    from games.tasks import close_phase_when_due

    def user(name):
        return User.objects.create_user(username=f"u{abs(hash(name)) % 10**6}", email=f"{abs(hash(name))}@e.com",
                                        password="x", display_name=name)

    gm = user("Ведущий")
    game = game_create(title="Воркер", gm=gm, size=7)
    for name in ["Вася", "Петя", "Маша", "Даша", "Глаша", "Паша", "Саша"]:
        game_signup(game=game, user=user(name))
    game_start(game=game, by=gm, seed=4)
    game.refresh_from_db()
    phase = game.current_phase
    deadline = timezone.now() + timedelta(seconds=2)
    phase_set_deadline(phase=phase, by=gm, deadline_at=deadline)

    def sends(conn, queue):
        # Twice: a duplicated delivery must not close the day twice.
        for _ in range(2):
            close_phase_when_due.apply_async(kwargs={"phase_id": phase.pk}, eta=deadline, queue=queue, connection=conn)

    def done():
        phase.refresh_from_db()
        return phase.closed_at is not None and Game.objects.get(pk=game.pk).current_phase_id != phase.pk

    output = _run_worker(broker, tmp_path, sends, done, settle=1.5)
    game.refresh_from_db()
    assert phase.closed_at is not None, output[-4000:]
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 2)
    assert game.phases.count() == 2
    assert game.game_thread.posts.filter(body__contains="Итоги").count() == 1
