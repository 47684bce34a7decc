"""Redis down (killed: connections refused) or hung (SIGSTOP: connections accepted, nothing
answers), with the site configured for Redis as in production (REDIS_URL: cache, cached
sessions, Celery broker): pages still render, posts and GM actions are still accepted, and once
Redis is back the deadline fires from the sweep, the ETA task queued during the outage having
been lost. Every Redis here is the test's own (a free port from 6390), never the shared one.

The site runs in a subprocess (tests/faults/site_probe.py) so that its settings come from the
environment exactly as a web process's do; the cache's own behaviour is checked in-process."""

import json
import subprocess
import sys
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from config.cache import FailSoftRedisCache
from games.models import Game, GMAction, Phase, Post, VoteRecord
from games.services.posting import post_submit
from games.services.votes import vote_button_text
from games.tasks import sweep_deadlines
from tests.faults.conftest import ROOT, Broker, make_due, site_env, wait_until

pytestmark = pytest.mark.services
PROBE_LIMIT = 90  # seconds the site subprocess may take, outage included


def _cache(url: str, **options) -> FailSoftRedisCache:
    return FailSoftRedisCache(url, {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1, **options}})


def test_the_cache_misses_instead_of_failing_and_repairs_what_it_could_not_write(own_redis):
    cache = _cache(own_redis.url, RETRY_AFTER=600)
    cache.set("fragment", "count before the outage", timeout=None)
    cache.set("version", 5, timeout=None)
    cache.set("session", "logged in", timeout=None)

    own_redis.pause()  # hung
    try:
        assert cache.get("fragment", "miss") == "miss"
        cache.set("fragment", "count during the outage")  # lost
        assert cache.incr("version") == 0  # lost, and remembered
        assert cache.delete("session") is False  # a logout during the outage: lost
        assert cache.add("new", 1) is False and cache.get_many(["fragment"]) == {}
        assert cache.set_many({"a": 1}) == ["a"]
    finally:
        own_redis.resume()
    cache._down_until = 0.0  # as if RETRY_AFTER had passed

    # Back: the next call first repairs the lost writes, so nothing from before is served stale.
    assert cache.get("fragment") is None
    assert cache.get("version") == 6
    assert cache.get("session") is None
    with pytest.raises(ValueError):
        cache.incr("missing")  # the cache's own contract is untouched

    own_redis.stop()  # down
    assert cache.get("fragment", "miss") == "miss"
    cache.set("fragment", "x")
    assert cache.incr("version") == 0
    assert set(cache._pending) == {cache.make_key("fragment"), cache.make_key("version")}


def test_after_a_failure_the_cache_waits_before_trying_again(own_redis):
    cache = _cache(own_redis.url, RETRY_AFTER=60)
    own_redis.stop()
    assert cache.get("k") is None  # tried, failed: the breaker opens
    own_redis.start()
    assert cache.get("k", "skipped") == "skipped"  # not tried again for RETRY_AFTER seconds
    cache.retry_after, cache._down_until = 0, 0.0
    cache.set("k", "v")
    assert cache.get("k") == "v"


def _probe(steps: list[dict], env: dict) -> tuple[list[dict], str]:
    process = subprocess.run([sys.executable, "-m", "tests.faults.site_probe"], input=json.dumps(steps), cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=PROBE_LIMIT)
    assert process.returncode == 0, process.stderr[-4000:]
    return json.loads(process.stdout), process.stderr


@pytest.mark.parametrize("outage", ["down", "hung"])
def test_the_site_works_through_a_redis_outage_and_the_sweep_closes_the_day_after(
        outage, own_redis, running_day, workers, tmp_path):
    day = running_day
    game, users = day.game, day.users
    post_submit(thread=game.game_thread, author=users["Петя"], body="Пост до сбоя")
    new_deadline = (timezone.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
    local = new_deadline.astimezone(ZoneInfo(users["gm"].time_zone)).strftime("%Y-%m-%dT%H:%M")
    thread_url, game_url = game.game_thread.get_absolute_url(), game.get_absolute_url()
    steps = [
        {"get": thread_url, "as": users["Вася"].pk},
        {"get": game_url, "as": None},
        {"get": f"{game_url}votes/live/", "as": None},
        {"post": f"{thread_url}reply/", "as": users["Глаша"].pk, "data": {"body": vote_button_text("Петя")}},
        {"get": f"{game_url}votes/live/", "as": None},
        {"post": f"{game_url}gm/action/", "as": users["gm"].pk, "data": {"action": "deadline", "deadline_at": local, "confirm": "yes"}},
        {"get": f"{game_url}gm/", "as": users["gm"].pk},
    ]

    # A worker is up before the outage and stays up through it, as in production.
    broker = Broker("redis", site_env(tmp_path, own_redis.url), url=own_redis.url)
    worker = workers(broker, "through-the-outage")
    worker.wait_ready()

    (own_redis.stop if outage == "down" else own_redis.pause)()
    try:
        results, log = _probe(steps, site_env(tmp_path, own_redis.url))
    finally:
        if outage == "hung":
            own_redis.resume()
    statuses = [(r["url"], r["status"]) for r in results]
    assert [r["status"] for r in results] == [200, 200, 200, 302, 200, 302, 200], statuses
    assert "Пост до сбоя" in results[0]["body"]
    assert "Глаша" in results[4]["body"]  # the live count, computed from the database

    # The post and its vote are stored; the GM's new deadline too, though its ETA task was lost.
    vote = VoteRecord.objects.get(phase=day.phase, voter=day.seat("Глаша"))
    assert vote.valid and vote.target_id == day.seat("Петя").pk
    phase = Phase.objects.get(pk=day.phase.pk)
    assert phase.deadline_at == new_deadline and phase.closed_at is None
    assert GMAction.objects.filter(game=game, action="deadline").count() == 1
    assert "Redis cache unreachable" in log
    assert "Could not queue games.tasks.close_phase_when_due" in log

    # Redis is back (restarted empty: the ETA task is gone for good; or woken up); time passes;
    # beat's sweep reaches the worker, which has reconnected by itself.
    if outage == "down":
        own_redis.start()
    make_due(day)
    broker.send(sweep_deadlines)
    assert wait_until(lambda: worker.answers("sweep_deadlines"), limit=60), worker.output[-4000:]
    assert worker.answers("sweep_deadlines") == ["1"]
    game = Game.objects.get(pk=game.pk)
    assert game.phases.count() == 2 and game.current_phase_id != phase.pk
    assert Post.objects.filter(thread=game.game_thread, body__startswith="[b]Итоги").count() == 1
    assert not day.seat("Петя").is_alive  # four votes now: Вася, Маша, Даша and Глаша


def test_incr_keeps_djangos_meaning_in_one_round_trip(own_redis):
    """issue 30 part 3: the increment is one script (EXISTS and INCRBY, atomically), not Django's
    two commands; a missing key still raises ValueError and is not created."""
    import redis

    cache = _cache(own_redis.url)
    sent = []
    real = redis.Redis.execute_command

    def counting(self, *args, **kwargs):
        sent.append(args[0])
        return real(self, *args, **kwargs)

    redis.Redis.execute_command = counting
    try:
        with pytest.raises(ValueError):
            cache.incr("missing")
        assert cache.get("missing") is None
        cache.set("counter", 5, timeout=None)
        sent.clear()
        assert cache.incr("counter") == 6 and cache.incr("counter", 10) == 16
        assert len(sent) == 2 and cache.get("counter") == 16
    finally:
        redis.Redis.execute_command = real


def test_incr_many_and_its_writes_go_in_one_round_trip_and_survive_a_script_flush(own_redis):
    """issue 30 part 3: a transaction's counters (and the entries written when it commits) go in
    one round trip: one EVALSHA, or one pipeline with the SETs (never a SCRIPT EXISTS before it);
    a missing counter is left absent; after Redis forgot the script it is loaded and sent again."""
    import redis

    cache = _cache(own_redis.url)
    cache.set("a", 1, timeout=None)
    cache.set("b", 10, timeout=None)
    sent = []
    real_command, real_pipeline = redis.Redis.execute_command, redis.client.Pipeline.execute
    real_immediate = redis.client.Pipeline.immediate_execute_command

    def immediate(self, *args, **kwargs):  # what a pipeline sends before itself (SCRIPT EXISTS)
        sent.append(args[0])
        return real_immediate(self, *args, **kwargs)

    def counting(self, *args, **kwargs):
        if not isinstance(self, redis.client.Pipeline):
            sent.append(args[0])
        return real_command(self, *args, **kwargs)

    def counting_pipeline(self, *args, **kwargs):
        sent.append("PIPELINE")
        return real_pipeline(self, *args, **kwargs)

    redis.Redis.execute_command, redis.client.Pipeline.execute = counting, counting_pipeline
    redis.client.Pipeline.immediate_execute_command = immediate
    try:
        cache.incr_many(["a", "b"])  # the script loaded once
        sent.clear()
        assert cache.incr_many(["a", "missing", "b"]) == {"a": 3, "b": 12}
        assert sent == ["EVALSHA"] and cache.get("missing") is None
        sent.clear()
        assert cache.incr_many(["a"], sets={"state": (("game", 7), 60), "gone": ("x", 0)}) == {"a": 4}
        assert sent == ["PIPELINE"]
        assert cache.get("state") == ("game", 7) and cache.get("gone") is None
        assert 0 < redis.Redis.from_url(own_redis.url).ttl(cache.make_key("state")) <= 60
        redis.Redis.from_url(own_redis.url).script_flush()
        assert cache.incr_many(["a", "b"]) == {"a": 5, "b": 13}
        assert cache.incr_many(["a"], sets={"state": (("game", 8), 60)}) == {"a": 6}
        assert cache.get("state") == ("game", 8) and cache.incr("b") == 14
    finally:
        redis.Redis.execute_command, redis.client.Pipeline.execute = real_command, real_pipeline
        redis.client.Pipeline.immediate_execute_command = real_immediate
    # Unreachable: every counter answers 0, and the writes are made good when Redis is back.
    cache = _cache(own_redis.url, RETRY_AFTER=600)
    own_redis.pause()
    try:
        assert cache.incr_many(["a", "b"], sets={"state": ("lost", None)}) == {"a": 0, "b": 0}
    finally:
        own_redis.resume()
    cache._down_until = 0.0
    cache.get("anything")  # the first call repairs
    assert cache.get("a") == 7 and cache.get("b") == 15 and cache.get("state") is None
