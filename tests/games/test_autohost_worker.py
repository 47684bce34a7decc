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

from games.models import Game, GMAction, Phase, Replacement
from games.services.autohost import site_host
from tests.games.test_autohost import GAMES, play_to_end, start_automatic
from tests.games.test_deadlines import ROOT, _broker


def _wait(condition, seconds: float = 60.0) -> bool:
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        if condition():
            return True
        time.sleep(0.3)
    return False


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_an_automatic_game_runs_on_a_real_worker_to_its_end(ruleset, transactional_db, tmp_path):
    """Players only post; the worker does everything else: the deadline sweep and the host's round
    (as beat sends them) close every phase and replace the silent player from the standby list;
    the game ends with a winner."""
    from config.celery import app

    game, silent = start_automatic(ruleset, silent_count=1)
    env, connection_ = _broker("embedded", tmp_path)
    queue = f"test-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )

    def close_on_the_worker(phase) -> None:
        Phase.objects.filter(pk=phase.pk).update(deadline_at=timezone.now() - timezone.timedelta(seconds=1))
        with connection_ as conn:
            for name in ("games.tasks.sweep_deadlines", "games.tasks.host_automatic_games"):
                app.send_task(name, queue=queue, connection=conn)
        assert _wait(lambda: Phase.objects.filter(pk=phase.pk, closed_at__isnull=False).exists()), "no close"
        time.sleep(0.5)  # the host's round follows the sweep on the worker's queue

    app.conf.task_always_eager = False
    try:
        game = play_to_end(game, ruleset, silent, close_on_the_worker)
    finally:
        app.conf.task_always_eager = True
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
    assert game.status == Game.Status.FINISHED and game.winner, output[-3000:]
    assert Replacement.objects.filter(seat__game=game, old_user_id__in=silent).exists(), output[-3000:]
    assert not GMAction.objects.filter(game=game).exclude(user=site_host()).exists()
