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
from tests.games.test_autohost import ACCUSATIVE, CLUB_ACCUSATIVE, CLUB_NAMES, NAMES
from tests.games.test_deadlines import ROOT, _broker


def _wait(condition, seconds: float = 60.0) -> bool:
    limit = time.monotonic() + seconds
    while time.monotonic() < limit:
        if condition():
            return True
        time.sleep(0.3)
    return False


# rule set, table size, players, the faction voted out, the faction a target votes for instead, the
# silent players' faction, a vote's text.
GAMES = {
    "forum": (7, NAMES, lambda s: s.faction != "town", "town", "[b]В тюрьму {name}[/b]"),
    "club": (12, CLUB_NAMES, lambda s: s.faction == "black", "red", "Голосую за [b]{name}[/b]"),
    "cards": (8, [*NAMES, "Лев"], lambda s: s.faction == "mafia", "law", "[b]Казнить {name}![/b]"),
}
ACC = {**ACCUSATIVE, **CLUB_ACCUSATIVE, "Лев": "Льва", "Запасной": "Запасного"}


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_an_automatic_game_runs_on_a_real_worker_to_its_end(ruleset, transactional_db, tmp_path):
    """Players only post; the worker does everything else. One silent player is replaced from
    the standby list; the game ends with a winner."""
    from config.celery import app

    size, names, voted_out, fallback, text = GAMES[ruleset]
    setup = AutoSetup.objects.create(title="Авто", ruleset=ruleset, size=size, phase_hours=24, missed_limit=2)
    setups_open_games()
    game = setup.games.get()
    for name in names:
        autohost_join(game=game, user=make_user(name))
    standby_join(game=game, user=make_user("Запасной"))
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    silent = game.seats.select_related("user").filter(faction=fallback).order_by("number").first().user
    voting = {"day", "revote"}

    env, connection_ = _broker("embedded", tmp_path)
    queue = f"test-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    app.conf.task_always_eager = False
    try:
        for _phase in range(40):
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                break
            phase = game.current_phase
            if phase.kind in voting:
                alive = list(game.seats.select_related("user").filter(is_alive=True).order_by("number"))
                target = next((s for s in alive if voted_out(s)), alive[0])
                for seat in alive:
                    if seat.user_id == silent.pk:
                        continue
                    choice = target if seat != target else next(s for s in alive if s != seat and s.faction == fallback)
                    post_submit(thread=game.game_thread, author=seat.user,
                                body=text.format(name=ACC[choice.user.display_name]))
            # The deadline passes; beat's two tasks reach the worker.
            Phase.objects.filter(pk=phase.pk).update(deadline_at=timezone.now() - timezone.timedelta(seconds=1))
            with connection_ as conn:
                for name in ("games.tasks.sweep_deadlines", "games.tasks.host_automatic_games"):
                    app.send_task(name, queue=queue, connection=conn)
            assert _wait(lambda: Phase.objects.filter(pk=phase.pk, closed_at__isnull=False).exists()), "no close"
            time.sleep(0.5)
    finally:
        app.conf.task_always_eager = True
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner, output[-3000:]
    assert Replacement.objects.filter(seat__game=game, old_user=silent).exists(), output[-3000:]
    assert not GMAction.objects.filter(game=game).exclude(user=site_host()).exists()
