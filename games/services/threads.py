"""Threads: starting them, read marks, and the scheduled lock (the deadline machinery)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import permissions
from games.models import Post, Thread
from games.services import ActionRefused, send_task_on_commit
from games.services.posting import post_submit
from games.services.posts import thread_mark_read  # noqa: F401 - the read marks' service, where the callers know it


def thread_create(*, kind: str, title: str, author, body: str, now: datetime | None = None) -> tuple[Thread, Post]:
    verdict = permissions.can_start_thread(author, kind)
    if not verdict:
        raise ActionRefused(verdict.reason, code="not_allowed")
    title = " ".join((title or "").split())
    if not title:
        raise ActionRefused(_("The thread needs a title."), code="no_title")
    if len(title) > 200:
        raise ActionRefused(_("The title is too long (at most 200 characters)."), code="title_too_long")
    with transaction.atomic():
        thread = Thread.objects.create(kind=kind, title=title, created_by=author)
        # The first post is posted as any other (a [private] tag outside a game is refused).
        post = post_submit(thread=thread, author=author, body=body, now=now)
    return thread, post


def thread_set_locked(*, thread: Thread, moderator, locked: bool) -> Thread:
    if not permissions.is_moderator(moderator, thread):
        raise ActionRefused(_("Only moderators can lock threads."), code="not_allowed")
    thread.is_locked = locked
    if not locked:
        thread.lock_at = None
    thread.save(update_fields=["is_locked", "lock_at"])
    return thread


def thread_schedule_lock(*, thread: Thread, moderator, lock_at: datetime | None, now: datetime | None = None) -> Thread:
    """Set (or clear) the moment the thread locks itself; an ETA task makes it punctual."""
    now = now or timezone.now()
    if not permissions.is_moderator(moderator, thread):
        raise ActionRefused(_("Only moderators can schedule a lock."), code="not_allowed")
    if lock_at is not None and lock_at <= now:
        raise ActionRefused(_("The lock time must be in the future."), code="in_past")
    thread.lock_at = lock_at
    thread.save(update_fields=["lock_at"])
    if lock_at is not None:
        send_task_on_commit("games.tasks.lock_thread_when_due", kwargs={"thread_id": thread.pk}, eta=lock_at)
    return thread


def thread_lock_if_due(*, thread_id: int, now: datetime | None = None) -> bool:
    """Lock the thread if its lock time has come. Idempotent: a guarded UPDATE claims the work,
    so a duplicate task, the sweep and a late ETA task can all run it safely (True = this call
    locked it)."""
    now = now or timezone.now()
    return bool(
        Thread.objects.filter(pk=thread_id, is_locked=False, lock_at__isnull=False, lock_at__lte=now).update(
            is_locked=True
        )
    )


def threads_lock_due(*, now: datetime | None = None) -> int:
    """The sweep: lock every thread whose time has come; returns how many this call locked."""
    now = now or timezone.now()
    due = Thread.objects.filter(is_locked=False, lock_at__isnull=False, lock_at__lte=now).values_list("pk", flat=True)
    return sum(thread_lock_if_due(thread_id=pk, now=now) for pk in list(due))
