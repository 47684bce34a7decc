"""Test-only: loaded into a Celery worker subprocess with `celery worker -I tests.faults.worker_hooks`
(never imported by the site). It wraps a service function of the worker process so a test can
stop a close at a known point, from outside, without any hook in production code.

MAFIA_FAULTS_HOOK selects the behaviour, MAFIA_FAULTS_DIR is a folder shared with the test:

- "stall": inside phase_close's transaction, just after the resolution's events are written
  (the claim is taken, seats and the engine state are updated, nothing is committed), write
  `stalled` to the folder and sleep until killed (at most STALL_LIMIT seconds).
- "meet": on entering phase_close, write `arrived-<pid>` and wait (at most MEET_LIMIT seconds)
  until two workers have arrived, so that both try to claim the same phase at the same moment.
"""

import os
import time
from pathlib import Path

STALL_LIMIT = 120.0
MEET_LIMIT = 20.0

HOOK = os.environ.get("MAFIA_FAULTS_HOOK", "")
FOLDER = Path(os.environ.get("MAFIA_FAULTS_DIR", "."))


def _install() -> None:
    if HOOK == "stall":
        from games.services import resolution

        real_store_events = resolution.store_events

        def store_events_then_stall(**kwargs):
            rows = real_store_events(**kwargs)
            (FOLDER / "stalled").write_text(str(os.getpid()))
            time.sleep(STALL_LIMIT)
            return rows

        # _resolve calls the journal's store_events through resolution's own name for it.
        resolution.store_events = store_events_then_stall
    elif HOOK == "meet":
        from games.services import resolution

        real_phase_close = resolution.phase_close

        def meet_then_close(**kwargs):
            (FOLDER / f"arrived-{os.getpid()}").write_text("")
            limit = time.monotonic() + MEET_LIMIT
            while len(list(FOLDER.glob("arrived-*"))) < 2 and time.monotonic() < limit:
                time.sleep(0.01)
            return real_phase_close(**kwargs)

        # phase_close_if_due (beside it in resolution) looks phase_close up in the module at call time.
        resolution.phase_close = meet_then_close


_install()
