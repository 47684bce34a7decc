"""Write operations of the games app: keyword-only <entity>_<action> functions."""


class ActionRefused(Exception):
    """A user action the rules refuse; the message is translated and safe to show."""

    def __init__(self, message, *, code: str = "refused"):
        super().__init__(str(message))
        self.message = message
        self.code = code


def queue_on_commit(task, **options) -> None:
    """Send a Celery task (apply_async options) once the current transaction commits. When the
    broker cannot take it (Redis down or hung: the broker's socket timeouts bound the wait), log
    and carry on: what the request wrote stands, and every deadline is also in the database,
    where the beat sweep finds it (docs/faults.md). An exception here would turn a committed
    post or GM action into an error page."""
    import logging

    from django.db import transaction

    def send():
        try:
            task.apply_async(**options)
        except Exception as exc:  # noqa: BLE001 - kombu's OperationalError, redis errors, OSError
            logging.getLogger(__name__).warning("Could not queue %s %s (%s); the deadline sweep will do it",
                                                task.name, options.get("kwargs"), exc)

    transaction.on_commit(send)
