"""An automatic game hosted by a real Celery worker (issue 31): nobody calls a service for the
site; the worker's tasks (the deadline sweep and the host's round, as beat sends them) close
every phase, replace the silent player from the standby list and end the game."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid

import pytest
from django.utils import timezone

from games.models import AutoSetup, Game, GMAction, Phase, Replacement
from games.services.autohost import autohost_join, setups_open_games, site_host, standby_join
from games.services.posting import post_submit
from tests.conftest import make_user
from tests.games.test_autohost import ACCUSATIVE, NAMES
from tests.games.test_deadlines import ROOT, _broker


def _wait(condition, seconds: float = 60.0) -> bool:
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        if condition():
            return True
        time.sleep(0.3)
    return False


def test_an_automatic_game_runs_on_a_real_worker_to_its_end(transactional_db, tmp_path):
    from config.celery import app

    setup = AutoSetup.objects.create(title="Автофорум", ruleset="forum", size=7, phase_hours=24, missed_limit=2)
    setups_open_games()
    game = setup.games.get()
    for name in NAMES:
        autohost_join(game=game, user=make_user(name))
    standby_join(game=game, user=make_user("Запасной"))
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    silent = game.seats.select_related("user").filter(faction="town").order_by("number").first().user

    env, connection_ = _broker("embedded", tmp_path)
    queue = f"test-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    accusative = {**ACCUSATIVE, "Запасной": "Запасного"}
    app.conf.task_always_eager = False
    try:
        for _day in range(10):
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                break
            phase = game.current_phase
            alive = list(game.seats.select_related("user").filter(is_alive=True).order_by("number"))
            suspects = [s for s in alive if s.faction != "town"] or alive
            for seat in alive:
                if seat.user_id != silent.pk:
                    post_submit(thread=game.game_thread, author=seat.user,
                                body=f"[b]В тюрьму {accusative[suspects[0].user.display_name]}[/b]")
            # The deadline passes; beat's two tasks reach the worker.
            Phase.objects.filter(pk=phase.pk).update(deadline_at=timezone.now() - timezone.timedelta(seconds=1))
            with connection_ as conn:
                for name in ("games.tasks.sweep_deadlines", "games.tasks.host_automatic_games"):
                    app.send_task(name, queue=queue, connection=conn)
            assert _wait(lambda: Phase.objects.filter(pk=phase.pk, closed_at__isnull=False).exists()), "no close"
            # The host's round comes after the sweep: wait for it to have looked at the game.
            time.sleep(1.0)
    finally:
        app.conf.task_always_eager = True
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, output[-3000:]
    assert Replacement.objects.filter(seat__game=game, old_user=silent).exists(), output[-3000:]
    assert not GMAction.objects.filter(game=game).exclude(user=site_host()).exists()
