"""The benchmark's own PostgreSQL database and gunicorn server, both removed afterwards."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]


def production_like_env(*, log_level: str) -> dict[str, str]:
    """The settings a benchmark's site runs with (bench/__main__.py, bench/mix.py): DEBUG off with a
    throwaway secret key, no HTTPS redirect nor secure cookies (plain HTTP on 127.0.0.1), Celery's
    tasks through the broker, 25 posts a page, the per-user posting rate limit off (the benchmark's
    users post faster than people: the limiter would refuse them)."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_SECURE_HSTS_SECONDS": "0",
        "DJANGO_BEHIND_PROXY": "0",
        "DJANGO_LOG_LEVEL": log_level,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "MAFIA_POSTS_PER_PAGE": "25",
        "MAFIA_POST_RATE": "0",
    }


def bench_database_url(url: str) -> str:
    """The benchmark's own database on the server `url` names: the URL's database when its name
    says "bench", else that name + "_bench" (a benchmark never drops a real site's database)."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "mafia"
    if "bench" not in name:
        name = f"{name}_bench"
    return urlunsplit(parts._replace(path=f"/{name}"))


def _admin_connection(url: str):
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    return psycopg.connect(admin, autocommit=True, connect_timeout=5)


def create_database(url: str) -> None:
    """Drop (a leftover of an interrupted run) and create the benchmark's database."""
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with _admin_connection(url) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(url: str) -> None:
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with _admin_connection(url) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Gunicorn:
    """`gunicorn config.wsgi --workers 2` on 127.0.0.1 in its own process group."""

    def __init__(self, env: dict[str, str], *, workers: int = 2, log_path: Path | None = None):
        self.env, self.workers, self.port = env, workers, free_port()
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, wait_seconds: float = 30) -> None:
        log = open(self.log_path, "wb") if self.log_path else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(self.workers),
             "--bind", f"127.0.0.1:{self.port}", "--log-level", "warning", "--graceful-timeout", "5"],
            cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True,
        )
        deadline = time.monotonic() + wait_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode} (see {self.log_path})")
            try:
                with urllib.request.urlopen(f"{self.base}/healthz/", timeout=2) as response:
                    if response.status == 200 and response.read() == b"ok":
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /healthz/ within {wait_seconds:.0f} s")

    def stop(self) -> None:
        stop_group(self.process, timeout=10)


def stop_group(process: subprocess.Popen | None, *, timeout: float) -> None:
    """End a process started in a session of its own and its children: SIGTERM to its group,
    SIGKILL if it has not ended within `timeout` seconds. Nothing if it is not running."""
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=timeout)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(timeout=5)


def clear_cache_prefix(redis_url: str, prefix: str) -> int:
    """Delete the benchmark's cache keys (sessions included) from Redis; nothing else."""
    import redis

    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    for start in range(0, len(keys), 500):
        client.delete(*keys[start:start + 500])
    return len(keys)
