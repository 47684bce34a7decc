"""A Celery worker killed (SIGKILL) in the middle of resolving a day, and the same close delivered
to two workers at once: the day is never half-resolved, and it is resolved exactly once.

The worker is stopped at a known point by a test-only module loaded into it with `celery worker
-I tests.faults.worker_hooks` (see that module and docs/faults.md): no test hook lives in the
site's code. Runs on the embedded file broker and on a Redis of the test's own (marked services),
against the suite's database (SQLite by default, PostgreSQL in CI)."""

from pathlib import Path

from games.models import Game, GameEvent, Phase, Post, Seat
from games.services.resolution import _jsonable, phase_preview
from games.tasks import close_phase_when_due, sweep_deadlines
from tests.faults.conftest import wait_until

RESULTS = "[b]Итоги"


def _snapshot(day):
    game = Game.objects.get(pk=day.game.pk)
    return {
        "state": game.state,
        "seats": sorted(Seat.objects.filter(game=game).values_list("pk", "status", "role", "is_alive")),
        "phases": list(game.phases.values_list("pk", "kind", "number", "closed_at")),
        "events": game.events.count(),
        "posts": game.game_thread.posts.count(),
        "outcome": Phase.objects.get(pk=day.phase.pk).outcome,
    }


def _resolved_once(day, preview):
    """The day closed, and everything the close writes is there exactly once."""
    game = Game.objects.get(pk=day.game.pk)
    phase = Phase.objects.get(pk=day.phase.pk)
    assert phase.closed_at is not None
    assert phase.outcome == _jsonable(dict(preview.resolution.outcome))
    assert GameEvent.objects.filter(phase=phase).count() == len(preview.resolution.events)
    assert Post.objects.filter(thread=game.game_thread, body__startswith=RESULTS).count() == 1
    assert game.phases.count() == 2 and game.phases.filter(closed_at__isnull=True).count() == 1
    assert game.current_phase_id != phase.pk
    assert game.state == preview.resolution.state.to_json()
    assert not day.seat("Петя").is_alive  # the lynch the three votes asked for


def _hook_env(folder: Path, hook: str) -> dict:
    folder.mkdir(exist_ok=True)
    return {"MAFIA_FAULTS_HOOK": hook, "MAFIA_FAULTS_DIR": str(folder)}


def test_a_worker_killed_while_resolving_leaves_the_day_open_and_the_sweep_closes_it_once(
        broker, workers, due_day, tmp_path):
    day = due_day
    preview = phase_preview(phase=day.phase)
    petya = day.seat("Петя").pk
    assert next(s for s in preview.resolution.state.seats if s.id == petya).status != "active"
    before = _snapshot(day)
    hook = tmp_path / "hook"

    doomed = workers(broker, "doomed", include="tests.faults.worker_hooks", env=_hook_env(hook, "stall"))
    broker.send(close_phase_when_due, kwargs={"phase_id": day.phase.pk})
    assert wait_until(lambda: (hook / "stalled").exists(), limit=60), doomed.output[-4000:]
    # The worker holds the claim, has stored the events and updated seats and state, in a
    # transaction nobody else sees: the day still looks open and untouched from outside.
    assert _snapshot(day) == before
    doomed.kill()

    # Killed mid-transaction: the database rolled everything back, the claim included.
    assert _snapshot(day) == before
    assert Phase.objects.get(pk=day.phase.pk).closed_at is None

    # Recovery: a new worker gets the minute's sweep from beat and the lost task again (Redis
    # redelivers an unacknowledged message after the visibility timeout; the file broker had
    # already removed it). Whichever runs first closes the day; the other finds nothing to do.
    rescuer = workers(broker, "rescuer")
    broker.send(sweep_deadlines)
    broker.send(close_phase_when_due, kwargs={"phase_id": day.phase.pk})
    assert wait_until(lambda: len(rescuer.answers("")) >= 2, limit=60), rescuer.output[-4000:]
    swept, closed = rescuer.answers("sweep_deadlines"), rescuer.answers("close_phase_when_due")
    assert (swept, closed) in ((["1"], ["False"]), (["0"], ["True"])), rescuer.output[-4000:]
    _resolved_once(day, preview)


def test_the_same_close_delivered_to_two_workers_at_once_resolves_once(broker, workers, due_day, tmp_path):
    day = due_day
    preview = phase_preview(phase=day.phase)
    hook = _hook_env(tmp_path / "hook", "meet")
    pair = []
    for name in ("left", "right"):
        # One after the other: kombu's file broker declares a queue by rewriting its exchange file,
        # which a second worker starting at the same instant may read half written (a crash at start).
        pair.append(workers(broker, name, include="tests.faults.worker_hooks", env=hook))
        pair[-1].wait_ready()  # each reserves one message at a time: both get one
    for _ in range(2):
        broker.send(close_phase_when_due, kwargs={"phase_id": day.phase.pk})

    def close_answers():
        return sorted(a for w in pair for a in w.answers("close_phase_when_due"))

    assert wait_until(lambda: len(close_answers()) >= 2, limit=60), "\n---\n".join(w.output[-3000:] for w in pair)
    assert len(list((tmp_path / "hook").glob("arrived-*"))) == 2  # each worker took one: they met
    assert close_answers() == ["False", "True"]
    _resolved_once(day, preview)
