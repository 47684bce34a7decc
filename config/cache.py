"""The site's two cache backends: the embedded default's disk cache, shared by every process of
the machine (`SharedDiskCache`), and Django's Redis cache, made to fail soft (`FailSoftRedisCache`).

The Redis one: with Redis down (refusing connections) or hung (not answering within the socket
timeout), reads miss and writes are dropped, so pages still render
and posts are still accepted from the database alone. Django's own RedisCache raises instead,
which turns every page that touches the cache (sessions, vote counts, the thread poll) into a 500.

Two details make the degradation safe rather than merely quiet (docs/faults.md):
- A breaker: after a failure the cache is not tried again for RETRY_AFTER seconds (an OPTIONS
  key, 5 by default), so a hung Redis costs one socket timeout per process every few seconds,
  not one per cache call.
- Lost writes are made good when Redis answers again: a key whose set or delete failed is
  deleted, and a failed increment (a version bump) is replayed, before the next command. Without
  this, a value cached before the outage (say, a vote count fragment) would be served again after
  it, stale, because the write that should have replaced or invalidated it never arrived.
  Django keeps one cache object per thread, so each thread of each process keeps its own list
  (at most MAX_PENDING keys) and its own breaker, and repairs on its next call.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from diskcache import DjangoCache

logger = logging.getLogger(__name__)


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client builds a new redis.Redis object for every cache call, about 0.15 ms of
    Python each (its table of 170 response callbacks); one object per connection pool does the
    same (redis-py clients are thread-safe: they take a connection from the pool per command)."""

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client

    # Django's incr asks EXISTS, then INCRBY: two round trips, and a key that expires between
    # them is created. One script does both, atomically (the page cache's write counters are
    # bumped several times by every post: issue 30 part 3).
    _INCR_EXISTING = "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end return false"

    # The same for several keys in one round trip: a list of the new values, false (None) for a
    # key that does not exist (left absent).
    _INCR_EXISTING_MANY = ("local out = {} for i, key in ipairs(KEYS) do "
                           "if redis.call('EXISTS', key) == 1 then out[i] = redis.call('INCRBY', key, ARGV[1]) "
                           "else out[i] = false end end return out")

    # The scripts are sent by their digest (EVALSHA) and loaded when Redis does not know them
    # (NOSCRIPT: a restart, a SCRIPT FLUSH). Not through redis-py's Script objects: in a pipeline
    # one asks SCRIPT EXISTS first, a round trip of its own every time.
    _SHAS = {script: hashlib.sha1(script.encode()).hexdigest() for script in (_INCR_EXISTING, _INCR_EXISTING_MANY)}

    def _run_script(self, client, script, keys, args, *, sets=()):
        """The script's answer, in one round trip with the SETs of `sets` (set_each's triples)."""
        from redis.exceptions import NoScriptError

        for attempt in (1, 2):
            try:
                if not sets:
                    return client.evalsha(self._SHAS[script], len(keys), *keys, *args)
                with client.pipeline(transaction=False) as pipe:
                    pipe.evalsha(self._SHAS[script], len(keys), *keys, *args)
                    self._queue_sets(pipe, sets)
                    return pipe.execute()[0]
            except NoScriptError:
                if attempt == 2:
                    raise
                client.script_load(script)  # then sent again (the SETs are written again: the same values)

    def incr(self, key, delta):
        value = self._run_script(self.get_client(key, write=True), self._INCR_EXISTING, [key], [delta])
        if value is None:
            raise ValueError("Key '%s' not found." % key)
        return value

    def set_each(self, sets):
        """SET each of `sets`, (full key, pickled value, seconds or None) triples, in one pipeline."""
        client = self.get_client(None, write=True)
        with client.pipeline(transaction=False) as pipe:
            self._queue_sets(pipe, sets)
            pipe.execute()

    @staticmethod
    def _queue_sets(pipe, sets):
        for key, value, seconds in sets:
            if seconds == 0:  # as Django's set: no time to live is no entry
                pipe.delete(key)
            else:
                pipe.set(key, value, ex=seconds)

    def incr_many(self, keys, delta, sets=()):
        """One round trip: the script over `keys`, then SET (with its expiry) each of `sets`,
        (full key, pickled value, seconds or None) triples, in a pipeline."""
        return self._run_script(self.get_client(None, write=True), self._INCR_EXISTING_MANY, list(keys), [delta],
                                sets=sets)

DELETE, INCR = "delete", "incr"
MAX_PENDING = 10_000


class FailSoftRedisCache(RedisCache):
    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        self.retry_after = float(options.pop("RETRY_AFTER", 5.0))
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = ReusingRedisCacheClient
        import redis

        self._errors = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._pending: dict[str, str] = {}  # full key -> DELETE or INCR, in the order they failed

    def validate_key(self, key):
        """Redis takes any key, so Django's warning about keys memcached would refuse (a loop in
        Python over every character of every key, a tenth of a millisecond a post) is not looked for."""

    # --- the breaker and the lost writes ---------------------------------------------------------
    def _run(self, call, default, *, lost=(), action=DELETE):
        """call() against Redis, or `default` if Redis cannot be reached; the keys `lost` were
        being written and are remembered for repair."""
        if time.monotonic() < self._down_until:
            self._remember(lost, action)
            return default
        try:
            self._repair()
            return call()
        except self._errors as exc:
            with self._lock:
                was_up = time.monotonic() >= self._down_until
                self._down_until = time.monotonic() + self.retry_after
            if was_up:
                logger.warning("Redis cache unreachable (%s); serving without it for %.0f s", exc, self.retry_after)
            self._remember(lost, action)
            return default

    def _remember(self, keys, action) -> None:
        if not keys:
            return
        with self._lock:
            for key in keys:
                if self._pending.get(key) != DELETE:  # a delete covers an increment
                    self._pending[key] = action
            while len(self._pending) > MAX_PENDING:
                dropped = next(iter(self._pending))
                del self._pending[dropped]
                logger.warning("Redis cache: too many lost writes to repair; %s may stay stale", dropped)

    def _repair(self) -> None:
        if not self._pending:
            return
        with self._lock:
            pending, self._pending = self._pending, {}
        try:
            client = self._cache.get_client(None, write=True)
            deletes = [key for key, action in pending.items() if action == DELETE]
            if deletes:
                client.delete(*deletes)
            for key in (key for key, action in pending.items() if action == INCR):
                if client.exists(key):  # gone (e.g. Redis restarted empty): nothing stale to bump past
                    client.incr(key)
        except BaseException:
            with self._lock:
                self._pending = {**pending, **self._pending}
            raise
        logger.info("Redis cache is back; repaired %d keys written while it was away", len(pending))

    # --- the cache API -------------------------------------------------------------------------------
    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # A lost add wrote nothing and would not have replaced anything: nothing to repair.
        return self._run(lambda: super(FailSoftRedisCache, self).add(key, value, timeout, version), False)

    def get(self, key, default=None, version=None):
        return self._run(lambda: super(FailSoftRedisCache, self).get(key, default, version), default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        made = self.make_and_validate_key(key, version=version)
        self._run(lambda: super(FailSoftRedisCache, self).set(key, value, timeout, version), None, lost=[made])

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._run(lambda: super(FailSoftRedisCache, self).touch(key, timeout, version), False)

    def delete(self, key, version=None):
        made = self.make_and_validate_key(key, version=version)
        return self._run(lambda: super(FailSoftRedisCache, self).delete(key, version), False, lost=[made])

    def get_many(self, keys, version=None):
        return self._run(lambda: super(FailSoftRedisCache, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self._run(lambda: super(FailSoftRedisCache, self).has_key(key, version), False)

    def incr(self, key, delta=1, version=None):
        """A missing key still raises ValueError; an unreachable Redis returns 0 and the increment
        is replayed (once) when it answers again."""
        made = self.make_and_validate_key(key, version=version)
        return self._run(lambda: super(FailSoftRedisCache, self).incr(key, delta, version), 0, lost=[made], action=INCR)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        made = [self.make_and_validate_key(key, version=version) for key in data]
        return self._run(lambda: super(FailSoftRedisCache, self).set_many(data, timeout, version), list(data), lost=made)

    def set_each(self, sets, version=None) -> None:
        """`sets`: {key: (value, timeout)}, written in one round trip (set_many's, each with its own
        timeout: a post's <li> kept for hours with its page's list kept for one)."""
        writes = [(self.make_and_validate_key(key, version=version), self._cache._serializer.dumps(value),
                   self.get_backend_timeout(timeout)) for key, (value, timeout) in sets.items()]
        if writes:
            self._run(lambda: self._cache.set_each(writes), None, lost=[key for key, _value, _seconds in writes])

    def incr_many(self, keys, delta=1, version=None, *, sets=None) -> dict:
        """Increment each of `keys` that exists, in one round trip (one script, atomic): {key: its
        new value} for those; a missing key is left absent, and is not in the answer. An unreachable
        Redis answers 0 for every key (as `incr` does) and the increments are replayed (once) when
        it answers again. `sets`: {key: (value, timeout)} written in the same round trip (a post's
        writes when it commits: its counters, the poll's state, the ISO picker's authors)."""
        keys = list(keys)
        made = [self.make_and_validate_key(key, version=version) for key in keys]
        writes = [(self.make_and_validate_key(key, version=version), self._cache._serializer.dumps(value),
                   self.get_backend_timeout(timeout)) for key, (value, timeout) in (sets or {}).items()]
        failed = object()

        def call():
            values = self._cache.incr_many(made, delta, writes)
            return {key: value for key, value in zip(keys, values) if value is not None}

        found = self._run(call, failed, lost=made, action=INCR)
        if found is failed:
            self._remember([key for key, _value, _seconds in writes], DELETE)
            return dict.fromkeys(keys, 0)
        return found

    def delete_many(self, keys, version=None):
        keys = list(keys)
        made = [self.make_and_validate_key(key, version=version) for key in keys]
        self._run(lambda: super(FailSoftRedisCache, self).delete_many(keys, version), None, lost=made)

    def clear(self):
        return self._run(lambda: super(FailSoftRedisCache, self).clear(), False)


class SharedDiskCache(DjangoCache):
    """The embedded default (no REDIS_URL): diskcache's Django backend, SQLite files in
    `var/cache/`, one cache for every process of the machine (the gunicorn workers, the Celery
    worker and beat, manage.py). Its increments are atomic across processes (an SQLite
    transaction), as the page cache's write counters, the vote count's version and the posting
    rate limit need; a write waits for a busy shard (it retries) rather than being dropped, and a
    read that finds a shard busy is a miss (docs/architecture.md, "Settings").

    Django closes every cache at the end of each request; diskcache's close drops its SQLite
    connections, which the next request would open again (eight files, each with its pragmas).
    The connections are per thread and reopened after a fork, so they are kept."""

    def close(self, **kwargs):
        pass

    def incr_many(self, keys, delta=1, version=None, *, sets=None) -> dict:
        """FailSoftRedisCache.incr_many's answer, one key at a time (each an SQLite transaction)."""
        out = {}
        for key in keys:
            try:
                out[key] = self.incr(key, delta, version)
            except ValueError:  # a missing key is left absent
                continue
        self.set_each(sets or {}, version)
        return out

    def set_each(self, sets, version=None) -> None:
        """FailSoftRedisCache.set_each, one key at a time."""
        for key, (value, timeout) in sets.items():
            self.set(key, value, timeout, version)
