"""What the live-update poll of a thread reads: each thread's (kind, post count) in the cache.

The poll (games/views/live.py) asks every few seconds, from every open last page, whether a
thread has grown; answering from the cache keeps it free of SQL queries. `post_create` refreshes
the entry when its transaction commits; a miss fills it from the database with one query. Entries
live `MAFIA_THREAD_STATE_SECONDS` (refreshed on every post anyway), which bounds what a write
made outside post_create leaves stale. The cache is one for every process (Redis, or the embedded
default's disk cache), so a post through one web worker shows in every worker's poll.

In front of Redis, each process remembers what it read for `MAFIA_THREAD_STATE_LOCAL_SECONDS`
(1 s): a thread that many players poll costs one round trip per process and second instead of
one per poll, and a new post shows in the poll up to that much later, against a poll every 15 s.
On the disk cache a read is local and the setting is 0.
"""

from __future__ import annotations

import time
from functools import partial

from django.conf import settings
from django.core.cache import cache

from games.caching import pagecache
from games.models import Thread

_local: dict[int, tuple[float, str, int]] = {}  # thread id -> (read at, kind, post count)
_LOCAL_MAX = 10_000


def thread_state_key(thread_id: int) -> str:
    return f"threads:state:{thread_id}"


def _remember_locally(thread_id: int, kind: str, post_count: int) -> None:
    if len(_local) >= _LOCAL_MAX:
        _local.clear()
    _local[thread_id] = (time.monotonic(), kind, post_count)


def thread_state_remember(thread_id: int, kind: str, post_count: int) -> None:
    kind, post_count = str(kind), int(post_count)
    cache.set(thread_state_key(thread_id), (kind, post_count), timeout=settings.MAFIA_THREAD_STATE_SECONDS)
    _remember_locally(thread_id, kind, post_count)


def thread_state_remember_on_commit(thread_id: int, kind: str, post_count: int) -> None:
    """thread_state_remember when the current transaction commits (a new post: the count must not
    be seen before the post is), in the round trip that bumps the transaction's counters
    (pagecache.set_on_commit)."""
    kind, post_count = str(kind), int(post_count)
    pagecache.set_on_commit(thread_state_key(thread_id), (kind, post_count), settings.MAFIA_THREAD_STATE_SECONDS,
                            then=partial(_remember_locally, thread_id, kind, post_count))


def thread_state(thread_id: int) -> tuple[str, int] | None:
    """(kind, post count) of a thread, or None when there is no such thread. The kind only
    routes the caller: who may read a private kind is still asked of games.permissions."""
    local = _local.get(thread_id)
    if local is not None and time.monotonic() - local[0] < settings.MAFIA_THREAD_STATE_LOCAL_SECONDS:
        return local[1], local[2]
    state = cache.get(thread_state_key(thread_id))
    if state is not None:
        _remember_locally(thread_id, state[0], state[1])
        return state[0], state[1]
    row = Thread.objects.filter(pk=thread_id).values_list("kind", "post_count").first()
    if row is None:
        return None
    thread_state_remember(thread_id, row[0], row[1])
    return row[0], row[1]


def forget_all() -> None:
    """Drop this process's memory of thread states (tests start from a clean slate)."""
    _local.clear()
