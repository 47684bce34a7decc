"""Celery tasks: thin, keyword-only, ids in, one service call each. The services queue them by
name (games.services.send_task_on_commit): nothing below imports this module."""

from celery import shared_task

from games.services.autohost import automatic_games_host
from games.services.moderation import prods_send
from games.services.notifications import digests_send
from games.services.notifications import notify_due_soon as notify
from games.services.resolution import phase_close_if_due, phases_close_due
from games.services.threads import thread_lock_if_due, threads_lock_due


@shared_task(name="games.tasks.lock_thread_when_due")
def lock_thread_when_due(*, thread_id: int) -> bool:
    return thread_lock_if_due(thread_id=thread_id)


@shared_task(name="games.tasks.close_phase_when_due")
def close_phase_when_due(*, phase_id: int) -> bool:
    return phase_close_if_due(phase_id=phase_id)


@shared_task(name="games.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    """Runs every minute from beat: whatever is due and was missed by its ETA task closes here."""
    return threads_lock_due() + phases_close_due()


@shared_task(name="games.tasks.send_prods")
def send_prods() -> int:
    """Hourly: remind players who have gone quiet or owe an order near the deadline."""
    return prods_send()


@shared_task(name="games.tasks.send_digests")
def send_digests() -> int:
    """Every 15 minutes: e-mail the hourly and daily notification digests that are due."""
    return digests_send()


@shared_task(name="games.tasks.notify_due_soon")
def notify_due_soon() -> int:
    """Every 15 minutes: tell players whose vote or order is due within three hours."""
    return notify()


@shared_task(name="games.tasks.host_automatic_games")
def host_automatic_games() -> int:
    """Every minute, the site as host of its automatic games: each active setup keeps a game in
    sign-ups, a full table starts, a player who missed too many votes or orders is replaced."""
    return automatic_games_host()
