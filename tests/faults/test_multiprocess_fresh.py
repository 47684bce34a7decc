"""The run command's processes on one machine (issue 14, items 1 and 8): two web servers started
from the Procfile's `web` line (each gunicorn with two workers) on two loopback ports, and a Celery
worker from its `worker` line, all with one var folder, the embedded default (SQLite, the file
broker, the shared disk cache) and the production-like settings the Procfile gives (DEBUG off, the
secret key from var/, static files collected). Whatever is written through one server, or by the
worker, is what every server shows next, to a reader and to a player: the thread, its posts and
the vote count. And a player who opens a thread he may not see gets the site's Russian 404."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
from datetime import timedelta
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.utils import timezone

from tests.faults.conftest import _day_with_three_votes, free_port, site_env, wait_until

ROOT = Path(__file__).resolve().parents[2]
START_LIMIT = 60.0
WEIGHT_RE = re.compile(r'<strong class="wagon-target">([^<]*)</strong>\s*<span class="wagon-weight">([^<]*)</span>')


def procfile_line(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {name} in the Procfile")


class Process:
    """One Procfile line run as honcho runs it (a shell), in a process group of its own."""

    def __init__(self, name: str, env: dict, log: Path):
        self.log_path = log
        self._log = open(log, "w")
        self.process = subprocess.Popen(["/bin/sh", "-c", procfile_line(name)], cwd=ROOT, env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def output(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
            if self.process.poll() is not None:
                break
            try:
                os.killpg(self.process.pid, sig)
                self.process.wait(timeout=wait)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
        self._log.close()


class Browser:
    """Cookies and CSRF like a browser's, over plain HTTP; redirects are not followed."""

    def __init__(self, cookies: dict | None = None):
        self.cookies = dict(cookies or {})

    def request(self, port: int, method: str, path: str, data: dict | None = None) -> tuple[int, str]:
        headers = {"Host": f"127.0.0.1:{port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode({**data, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                if morsel.value in ("", '""') or morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return response.status, text

    def get(self, port: int, path: str) -> tuple[int, str]:
        return self.request(port, "GET", path)

    def post(self, port: int, path: str, data: dict) -> tuple[int, str]:
        return self.request(port, "POST", path, data)


@pytest.fixture
def machine(transactional_db, settings, tmp_path):
    """The site as ./bin/site runs it, on this test's database and var folder; this test process
    shares the folder's cache (its own writes bump the same counters)."""
    var = tmp_path / "var"
    settings.CACHES = {"default": {"BACKEND": "config.cache.SharedDiskCache", "LOCATION": str(var / "cache")}}
    from django.core.cache import cache

    cache.clear()
    day = _day_with_three_votes()
    base = site_env(tmp_path)
    base.pop("DJANGO_DEBUG", None)  # the Procfile's default, as in ./bin/site
    base["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    var.mkdir(parents=True, exist_ok=True)
    # The key the sessions of this test process were made with, in the file the site reads it from.
    key_file = var / "secret_key"
    key_file.write_text(settings.SECRET_KEY)
    key_file.chmod(0o600)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT,
                   env={**base, "DJANGO_DEBUG": "0"}, check=True, timeout=300)
    started: list[Process] = []
    try:
        ports = []
        for index in range(2):
            port = free_port(18100 + 50 * index, 18150 + 50 * index)
            started.append(Process("web", {**base, "MAFIA_BIND": f"127.0.0.1:{port}"}, tmp_path / f"web{index}.log"))
            ports.append(port)
        worker = Process("worker", base, tmp_path / "worker.log")
        started.append(worker)
        for port, web in zip(ports, started):
            assert wait_until(lambda port=port: _answers(port), limit=START_LIMIT), web.output[-4000:]
        assert wait_until(lambda: " ready." in worker.output, limit=START_LIMIT), worker.output[-4000:]
        yield day, ports, var, started
    finally:
        for process in started:
            process.stop()


def _answers(port: int) -> bool:
    try:
        return Browser().get(port, "/")[0] == 200
    except OSError:
        return False


def _login(user) -> Browser:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return Browser({settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value})


def _expected_weights(game) -> dict[str, str]:
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.selectors.votes import vote_count, voting_phase

    game.refresh_from_db()
    phase = voting_phase(game=game)
    if phase is None:
        return {}
    with translation.override("ru"):
        html = render_to_string("games/_vote_count.html", {"game": game, "count": vote_count(phase=phase), "compact": True})
    return dict(WEIGHT_RE.findall(html))


def _check_fresh(readers, ports, day, *, must_show: str = "", must_not_show: str = "") -> None:
    """Every reader, through every server (each several times, so that both gunicorn workers of
    each answer, from their page caches once warm), sees the thread as the database has it."""
    from games.models import Thread

    thread = Thread.objects.get(pk=day.game.game_thread_id)
    weights = _expected_weights(day.game)
    for who, browser in readers.items():
        for port in ports:
            for attempt in range(4):
                where = f"{who} via :{port}, read {attempt + 1}"
                status, page = browser.get(port, f"/threads/{thread.pk}/")
                assert status == 200, where
                assert f'id="p{thread.post_count}"' in page, f"{where}: post #{thread.post_count} missing"
                assert f'id="p{thread.post_count + 1}"' not in page, where
                if must_show:
                    assert must_show in page, f"{where}: {must_show!r} missing"
                if must_not_show:
                    assert must_not_show not in page, f"{where}: {must_not_show!r} still shown"
                box = page.split('id="vote-count"', 1)[1].split("</section>", 1)[0] if 'id="vote-count"' in page else ""
                assert dict(WEIGHT_RE.findall(box)) == weights, f"{where}: the thread's count box"
                status, fragment = browser.get(port, f"/games/{day.game.pk}/votes/live/")
                assert status == 200, where
                assert dict(WEIGHT_RE.findall(fragment)) == weights, f"{where}: the live count"


def _send_sweep(var: Path) -> None:
    from kombu import Connection

    from config.celery import app
    from games.tasks import sweep_deadlines

    folder = var / "celery-broker"
    options = {"data_folder_in": str(folder / "queue"), "data_folder_out": str(folder / "queue"),
               "control_folder": str(folder / "control")}
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with Connection("filesystem://localhost/", transport_options=options) as connection:
            sweep_deadlines.apply_async(connection=connection)
    finally:
        app.conf.task_always_eager = eager


def test_every_server_shows_the_latest_write_when_processes_share_the_machine(machine):
    from games.models import Phase, Post
    from games.services.votes import vote_button_text

    day, (one, two), var, _processes = machine
    thread_path = f"/threads/{day.game.game_thread_id}/"
    anonymous, glasha, vasya = Browser(), _login(day.users["Глаша"]), _login(day.users["Вася"])
    readers = {"anonymous": anonymous, "Вася": vasya, "Глаша": glasha}
    _check_fresh(readers, (one, two), day)
    assert _expected_weights(day.game) == {"Петя": "3"}

    # A vote posted through one server: the other shows the post and the new count at once.
    status, _page = glasha.post(one, f"{thread_path}reply/", {"body": vote_button_text("Петя")})
    assert status == 302
    assert _expected_weights(day.game) == {"Петя": "4"}
    _check_fresh(readers, (two, one), day)

    # A post written through the second server and edited through the first.
    status, _page = glasha.post(two, f"{thread_path}reply/", {"body": "Петя, признавайся по-хорошему."})
    assert status == 302
    _check_fresh(readers, (one, two), day, must_show="признавайся по-хорошему")
    post = Post.objects.filter(thread_id=day.game.game_thread_id).order_by("-number").first()
    status, _page = glasha.post(one, f"/posts/{post.pk}/edit/", {"body": "Петя, признавайся, пока не поздно."})
    assert status == 302
    _check_fresh(readers, (two, one), day, must_show="пока не поздно", must_not_show="по-хорошему")

    # The day's deadline passes and the Celery worker closes it: both servers show the close.
    Phase.objects.filter(pk=day.phase.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    _send_sweep(var)
    worker = _processes[-1]
    # The task's "succeeded" line comes after its transaction and the bumps made on its commit.
    assert wait_until(lambda: "Task games.tasks.sweep_deadlines[" in worker.output
                      and "] succeeded in " in worker.output, limit=60), worker.output[-4000:]
    assert Phase.objects.get(pk=day.phase.pk).closed_at is not None
    _check_fresh(readers, (one, two), day)


def test_a_hidden_thread_is_the_sites_russian_404_when_run_as_bin_site(machine):
    """Issue 14, item 8: not Django's yellow technical page listing the URL patterns, but the
    site's own page in Russian; a refused form is the site's page too."""
    from django.utils import translation

    from games import permissions
    from games.models import Thread

    day, (one, _two), var, _processes = machine
    # Uploaded avatars are served too: no web server stands in front of ./bin/site.
    (var / "media" / "avatars").mkdir(parents=True, exist_ok=True)
    (var / "media" / "avatars" / "a.txt").write_text("avatar")
    assert Browser().get(one, "/media/avatars/a.txt") == (200, "avatar")
    hidden = next(thread for thread in Thread.objects.filter(game=day.game)
                  if not permissions.can_see_thread(day.users["Вася"], thread))
    vasya = _login(day.users["Вася"])
    for browser, path in ((vasya, f"/threads/{hidden.pk}/"), (Browser(), f"/threads/{hidden.pk}/"),
                          (vasya, "/no-such-page/")):
        status, page = browser.get(one, path)
        if status == 302:  # the anonymous reader of a private thread may be sent to log in
            continue
        assert status == 404, (path, status)
        assert "Страница не найдена" in page and 'lang="ru"' in page and "site-header" in page
        assert "URLconf" not in page and "Technical" not in page and "DEBUG" not in page
    status, page = Browser().post(one, f"/threads/{day.game.game_thread_id}/reply/", {"body": "без токена"})
    assert status == 403
    with translation.override("ru"):
        assert translation.gettext("The form has expired") in page
    assert "CSRF verification failed" not in page and "Ошибка проверки CSRF" not in page and "site-header" in page
