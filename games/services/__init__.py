"""Write operations of the games app: keyword-only <entity>_<action> functions."""


class ActionRefused(Exception):
    """A user action the rules refuse; the message is translated and safe to show."""

    def __init__(self, message, *, code: str = "refused"):
        super().__init__(str(message))
        self.message = message
        self.code = code


def send_task_on_commit(name: str, **options) -> None:
    """Send the Celery task registered as `name` ("games.tasks.close_phase_when_due";
    apply_async options) once the current transaction commits. By name: the tasks module sits
    above the services (a task is one service call), so a service never imports it. When the
    broker cannot take it (Redis down or hung: the broker's socket timeouts bound the wait), log
    and carry on: what the request wrote stands, and every deadline is also in the database,
    where the beat sweep finds it (docs/faults.md). An exception here would turn a committed
    post or GM action into an error page."""
    import logging

    from django.db import transaction

    def send():
        try:
            _task_named(name).apply_async(**options)
        except Exception as exc:  # noqa: BLE001 - kombu's OperationalError, redis errors, OSError
            logging.getLogger(__name__).warning("Could not queue %s %s (%s); the deadline sweep will do it",
                                                name, options.get("kwargs"), exc)

    transaction.on_commit(send)


def _task_named(name: str):
    """The registered task object, so that it is sent as the site's tasks are (and runs in the
    process where Celery is set to run tasks eagerly: the tests). A web process has not imported
    the apps' tasks modules (the worker has): Celery's autodiscovery imports them the first time
    (forced: its lazy form waits for the worker's start)."""
    from celery import current_app

    if name not in current_app.tasks:
        current_app.autodiscover_tasks(force=True)
    return current_app.tasks[name]
