"""The whole-site load test's users (Locust, headless; started by bench/mix.py, which seeds the site
and writes the plan this file reads from MIX_PLAN).

Each simulated user is a browser tab and does what the page's own timers and its person do, in
site time sped up MIX_SPEED times (a user at speed 10 stands for ten people):
- the thread's last page polls `/threads/<pk>/poll/?after=<last>` every MAFIA_THREAD_POLL_SECONDS
  (15 s) and, while the page shows a vote count, `/games/<pk>/votes/live/` every
  MAFIA_VOTE_POLL_SECONDS (20 s); a logged-in page asks the bell `/me/notifications/bell/` every
  60 s (the hx-trigger attributes of games/thread.html, the poll's div of games/views/forum.py and
  templates/_bell.html). When the poll says new posts came, the reader opens the page again.
- Reader (a spectator, logged in or not): opens a game's page and its thread, reads, and moves to
  another game after about five minutes.
- Player (a seat of a game): the same on his own game's thread, and posts (a plain post every two
  minutes; a vote, with the text of one of the page's vote buttons, as the button inserts it,
  every five; both as the htmx reply the browser sends), and opens his role page every five
  minutes and, when it offers an order, sends one.
- GM: opens his game's dashboard and thread every minute, with the page's timers meanwhile.

A request counts as an error when the site answers otherwise than the browser expects (an
unexpected status, a post not answered with the new post, a timeout). A post the site refuses
with a reason (the game's phase moved on since the page was read) is recorded as "post refused".

The load shape (StepLoad) raises the users step by step and stops at the first step whose p99
passes MIX_P99_MS or that had errors (bench/mixreport.py, stop_reason); each step's figures are
appended as a JSON line to MIX_STEPS.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import sys
import time
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

import gevent
from locust import FastHttpUser, LoadTestShape, constant, task

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench import mixreport  # noqa: E402

PLAN = json.loads(Path(os.environ["MIX_PLAN"]).read_text(encoding="utf-8")) if os.environ.get("MIX_PLAN") else {
    "games": [], "spectators": []}
SPEED = float(os.environ.get("MIX_SPEED", "10"))
POLL_S, COUNT_S, BELL_S = 15.0, 20.0, 60.0  # the site's defaults (config/settings.py) and the bell's 60 s
PLAIN_POSTS = (
    "Пока присматриваюсь. [i]Вечером[/i] скажу, кого подозреваю.",
    "Согласен с предыдущим оратором, но не во всём: [b]подождём[/b] ночных итогов.",
    "[quote]Кто за мир?[/quote] Мира не будет, правила не дают.",
    "Слишком тихо сегодня. Кто молчит — тот и подозрителен.",
)
AFTER = re.compile(r'data-after="(\d+)"')
VOTE_BUTTON = re.compile(r'data-insert="([^"]*)"')
ORDER_FORM = re.compile(r'<form method="post" action="[^"]*/role/order/" class="order-form">(.*?)</form>', re.S)
SELECT = re.compile(r'<select name="(action|target)"[^>]*>(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]+)"')


def pace(seconds: float) -> float:
    """A person's interval in the test's time, with a little jitter so that tabs do not march in step."""
    return seconds / SPEED * random.uniform(0.8, 1.2)


def cookie_header(cookies: dict | None) -> dict:
    if not cookies:
        return {}
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}


class Tab(FastHttpUser):
    """One browser tab: a set of timers, each the next time an action is due; the user does the
    earliest one, then sleeps until the next."""

    abstract = True
    wait_time = constant(0)
    network_timeout = 30.0
    connection_timeout = 30.0

    def on_start(self) -> None:
        self.cookies: dict | None = None
        self.due: dict[str, float] = {}
        self.game: dict | None = None
        self.after: int | None = None
        self.counts = False
        self.page = ""
        self.setup()

    def setup(self) -> None:  # each kind of user says who it is and what it does
        raise NotImplementedError

    def every(self, action: str, seconds: float, *, now: float | None = None, first: bool = False) -> None:
        now = now if now is not None else time.monotonic()
        # The first occurrence anywhere in the interval, so that tabs opened together spread out.
        self.due[action] = now + (random.uniform(0, seconds / SPEED) if first else pace(seconds))

    @task
    def act(self) -> None:
        action, when = min(self.due.items(), key=lambda item: item[1])
        delay = when - time.monotonic()
        if delay > 0:
            gevent.sleep(delay)
        getattr(self, f"do_{action}")()

    # --- the page and its timers ---------------------------------------------------------------
    def headers(self, **extra) -> dict:
        return {**cookie_header(self.cookies), **extra}

    def open_thread(self) -> None:
        """The game thread's last page, as a click or a reload does; reads the poll's `after`, the
        vote count's presence, the vote buttons and whether one may reply."""
        url = f"/threads/{self.game['thread']}/?page=last"
        with self.client.get(url, headers=self.headers(), name="thread page", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            self.read_page(response.text or "")
        self.every("poll", POLL_S)
        if self.counts:
            self.every("count", COUNT_S)
        else:
            self.due.pop("count", None)
        if self.cookies:
            self.due.setdefault("bell", time.monotonic() + pace(BELL_S))

    def read_page(self, text: str) -> None:
        self.page = text
        found = AFTER.search(text)
        self.after = int(found.group(1)) if found else self.after
        self.counts = 'id="vote-count"' in text

    def do_poll(self) -> None:
        self.every("poll", POLL_S)
        if self.after is None:
            return
        url = f"/threads/{self.game['thread']}/poll/?after={self.after}"
        new = False
        with self.client.get(url, headers=self.headers(), name="poll", catch_response=True) as response:
            if response.status_code == 200:
                new = True
            elif response.status_code != 204:
                response.failure(f"status {response.status_code}")
        if new:
            self.open_thread()  # "N new posts — show": the reader opens them

    def do_count(self) -> None:
        self.every("count", COUNT_S)
        with self.client.get(f"/games/{self.game['id']}/votes/live/", headers=self.headers(), name="vote count",
                             catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")

    def do_bell(self) -> None:
        self.every("bell", BELL_S)
        with self.client.get("/me/notifications/bell/", headers=self.headers(), name="bell",
                             catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")

    def open_game_page(self) -> None:
        with self.client.get(f"/games/{self.game['id']}/", headers=self.headers(), name="game page",
                             catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")


class Reader(Tab):
    """A spectator: every other one logged in (a spectator's account), the rest anonymous."""

    weight = 6
    _numbers = itertools.count()

    def setup(self) -> None:
        number = next(self._numbers)
        watchers = PLAN["spectators"]
        self.cookies = watchers[number % len(watchers)] if watchers and number % 2 == 0 else None
        self.do_switch()

    def do_switch(self) -> None:
        self.game = random.choice(PLAN["games"])
        self.every("switch", 300)
        self.open_game_page()
        self.open_thread()


class Player(Tab):
    weight = 3
    _numbers = itertools.count()

    def setup(self) -> None:
        number = next(self._numbers)
        seats = [(game, player) for players in itertools.zip_longest(*[[(g, p) for p in g["players"]]
                                                                         for g in PLAN["games"]])
                 for game, player in [pair for pair in players if pair]]
        self.game, seat = seats[number % len(seats)]
        self.cookies = seat["cookies"]
        self.open_thread()
        now = time.monotonic()
        self.every("post", 120, now=now, first=True)
        self.every("vote", 300, now=now, first=True)
        self.every("role", 300, now=now, first=True)

    def reply(self, body: str, name: str) -> None:
        """The htmx reply of the thread's form: the post stored, the thread region in return."""
        headers = self.headers(**{"X-CSRFToken": self.cookies["csrftoken"], "HX-Request": "true",
                                  "HX-Target": "thread-region", "Content-Type": "application/x-www-form-urlencoded"})
        with self.client.post(f"/threads/{self.game['thread']}/reply/", data=urlencode({"body": body, "post": "1"}),
                              headers=headers, name=name, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            if response.headers.get("HX-Push-Url") is None:
                # Refused with a reason (a closed thread, the phase moved on): not a failure of
                # the site; recorded apart, and the page is read again as the person would.
                response.request_meta["name"] = "post refused"
                self.open_thread()
                return
            self.read_page(response.text or "")

    def can_reply(self) -> bool:
        return f'action="/threads/{self.game["thread"]}/reply/"' in self.page

    def do_post(self) -> None:
        self.every("post", 120)
        if self.can_reply():
            self.reply(random.choice(PLAIN_POSTS), "post")

    def do_vote(self) -> None:
        self.every("vote", 300)
        buttons = [unescape(text) for text in VOTE_BUTTON.findall(self.page)]
        if buttons and self.can_reply():
            self.reply("Моё решение на сегодня.\n" + random.choice(buttons), "vote")

    def do_role(self) -> None:
        """The role page; when its form offers an order, one of its actions on one of its targets."""
        self.every("role", 300)
        with self.client.get(f"/games/{self.game['id']}/role/", headers=self.headers(), name="role page",
                             catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            text = response.text or ""
        form = ORDER_FORM.search(text)
        if not form:
            return
        fields = {name: OPTION.findall(options) for name, options in SELECT.findall(form.group(1))}
        if not fields.get("action"):
            return
        data = {"action": random.choice(fields["action"]), "target": random.choice(fields.get("target") or [""])}
        headers = self.headers(**{"X-CSRFToken": self.cookies["csrftoken"],
                                  "Content-Type": "application/x-www-form-urlencoded"})
        with self.client.post(f"/games/{self.game['id']}/role/order/", data=urlencode(data), headers=headers,
                              name="order", allow_redirects=False, catch_response=True) as response:
            if response.status_code != 302:
                response.failure(f"status {response.status_code}")


class GM(Tab):
    weight = 1
    _numbers = itertools.count()

    def setup(self) -> None:
        number = next(self._numbers)
        self.game = PLAN["games"][number % len(PLAN["games"])]
        self.cookies = self.game["gm"]
        self.do_dashboard()
        self.open_thread()
        self.every("reread", 60, first=True)

    def do_dashboard(self) -> None:
        self.every("dashboard", 60)
        with self.client.get(f"/games/{self.game['id']}/gm/", headers=self.headers(), name="GM dashboard",
                             catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")

    def do_reread(self) -> None:
        self.every("reread", 60)
        self.open_thread()


def snapshot(stats) -> dict:
    """Locust's cumulative figures per request name (bench/mixreport.py's snapshot)."""
    return {name: {"n": entry.num_requests, "fail": entry.num_failures, "hist": dict(entry.response_times)}
            for (name, _method), entry in list(stats.entries.items())}


class StepLoad(LoadTestShape):
    """MIX_START users, MIX_ADD more every MIX_STEP_SECONDS; each step measured after its first
    MIX_SETTLE_SECONDS (the users spawned, their first pages read); the run stops after the step
    that trips the stop rule, or after MIX_MAX_STEPS steps."""

    def __init__(self):
        super().__init__()
        env = os.environ
        self.start, self.add = int(env.get("MIX_START", "10")), int(env.get("MIX_ADD", "10"))
        self.step_seconds = float(env.get("MIX_STEP_SECONDS", "60"))
        self.settle = float(env.get("MIX_SETTLE_SECONDS", "10"))
        self.max_steps = int(env.get("MIX_MAX_STEPS", "20"))
        self.p99_limit = float(env.get("MIX_P99_MS", str(mixreport.P99_LIMIT_MS)))
        self.out = Path(env["MIX_STEPS"]) if env.get("MIX_STEPS") else None
        self.index, self.before, self.measured_from, self.finished = 0, None, None, False

    def _close_step(self, now: float) -> bool:
        """Write the finished step; True to stop."""
        users = mixreport.next_users(self.index, start=self.start, add=self.add)
        seconds = now - (self.measured_from or now)
        step = mixreport.step_from_snapshots(self.index, users, seconds, self.before or {},
                                             snapshot(self.runner.stats),
                                             cpu_percent=getattr(self.runner, "current_cpu_usage", None))
        reason = mixreport.stop_reason(step, p99_limit_ms=self.p99_limit)
        last = reason is not None or self.index + 1 >= self.max_steps
        if self.out is not None:
            with self.out.open("a", encoding="utf-8") as out:
                out.write(json.dumps({**step.to_json(), "stop": last, "reason": reason, "ended_at": time.time()}) + "\n")
        return last

    def tick(self):
        if self.finished:
            return None
        run_time = self.get_run_time()
        index = int(run_time // self.step_seconds)
        if index != self.index:
            if self._close_step(run_time):
                self.finished = True
                return None
            self.index, self.before, self.measured_from = index, None, None
        if self.before is None and run_time - self.index * self.step_seconds >= self.settle:
            self.before, self.measured_from = snapshot(self.runner.stats), run_time
        users = mixreport.next_users(self.index, start=self.start, add=self.add)
        return users, max(5.0, self.add / 2)
