"""Settings read the environment: embedded defaults, PostgreSQL and Redis switches, and
production settings that pass `check --deploy`."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], 'options': s.DATABASES['default'].get('OPTIONS', {}), "
    "'broker': s.CELERY_BROKER_URL, 'cache': s.CACHES['default']['BACKEND'], 'debug': s.DEBUG, "
    "'cache_location': str(s.CACHES['default'].get('LOCATION', '')), 'sessions': s.SESSION_ENGINE, "
    "'hosts': s.ALLOWED_HOSTS, 'key': s.SECRET_KEY, 'site_url': s.MAFIA_SITE_URL, "
    "'stdout_level': s.CELERY_WORKER_REDIRECT_STDOUTS_LEVEL}))"
)


def _env(**overrides) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL", "PYTEST_XDIST_WORKER", "MAFIA_BIND", "MAFIA_SITE_URL"))}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(overrides)
    return env


def _probe(tmp_path, **overrides) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=_env(MAFIA_VAR_DIR=str(tmp_path), **overrides),
        capture_output=True, text=True, check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_settings_embedded_default_is_sqlite_immediate_and_serverless_broker(tmp_path):
    probe = _probe(tmp_path)
    assert probe["engine"] == "django.db.backends.sqlite3"
    assert probe["options"]["transaction_mode"] == "IMMEDIATE"
    assert probe["broker"].startswith("filesystem://")


def test_settings_embedded_cache_is_shared_by_processes_when_no_redis(tmp_path):
    """Issue 14, item 1: not one local-memory cache per process but one on disk in the var folder,
    which every process started with that folder reads; sessions are cached there too."""
    probe = _probe(tmp_path)
    assert probe["cache"] == "config.cache.SharedDiskCache"
    assert Path(probe["cache_location"]) == tmp_path / "cache"
    assert (tmp_path / "cache").stat().st_mode & 0o077 == 0
    assert probe["sessions"] == "django.contrib.sessions.backends.cached_db"


def test_settings_disk_cache_increments_atomically_when_processes_race(tmp_path):
    """The posting rate limit and the page cache's write counters need increments that no other
    process's increment overwrites: four processes adding 200 each end at exactly 800."""
    script = (
        "import django; django.setup(); from django.core.cache import cache\n"
        "for _ in range(200):\n    cache.incr('race')\n"
    )
    env = _env(MAFIA_VAR_DIR=str(tmp_path))
    subprocess.run([sys.executable, "-c", "import django; django.setup(); from django.core.cache import cache; "
                    "cache.set('race', 0, None)"], cwd=ROOT, env=env, check=True)
    racers = [subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=env) for _ in range(4)]
    assert [racer.wait(timeout=120) for racer in racers] == [0, 0, 0, 0]
    result = subprocess.run([sys.executable, "-c", "import django; django.setup(); from django.core.cache import cache; "
                             "print(cache.get('race'))"], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "800"


def test_settings_switch_to_postgresql_and_redis_when_urls_given(tmp_path):
    probe = _probe(tmp_path, DATABASE_URL="postgres://u@db.internal:5432/mafia", REDIS_URL="redis://cache.internal:6379/1")
    assert probe["engine"] == "django.db.backends.postgresql"
    assert probe["broker"] == "redis://cache.internal:6379/1"
    assert probe["cache"].endswith("RedisCache")


def test_parallel_test_workers_get_a_redis_database_each(tmp_path):
    """Under pytest-xdist two workers share one Redis: each uses a database of its own (the broker
    too), so one's FLUSHDB or write counters never reach the other's; outside xdist nothing moves."""
    url = "redis://cache.internal:6379/0"
    assert _probe(tmp_path, REDIS_URL=url, PYTEST_XDIST_WORKER="gw1")["broker"] == "redis://cache.internal:6379/2"
    assert _probe(tmp_path, REDIS_URL=url, PYTEST_XDIST_WORKER="gw0")["cache_location"] == "redis://cache.internal:6379/1"
    assert _probe(tmp_path, REDIS_URL=url)["broker"] == url


PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k3!x" + "9f2Lq0zR7vW4mN8pS1tY6uB3cE5hJ0aD" * 2,
    "DJANGO_ALLOWED_HOSTS": "mafia.example.org",
    "DJANGO_SECURE_SSL_REDIRECT": "1",
    "DJANGO_SECURE_COOKIES": "1",
    "DJANGO_SECURE_HSTS_SECONDS": "31536000",
}


def test_check_deploy_is_clean_when_production_settings_given(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=_env(MAFIA_VAR_DIR=str(tmp_path), **PRODUCTION), capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_is_clean_when_the_secret_key_is_generated(tmp_path):
    env = dict(PRODUCTION)
    del env["DJANGO_SECRET_KEY"]
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=_env(MAFIA_VAR_DIR=str(tmp_path), **env), capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_secret_key_is_generated_once_into_var_when_none_given(tmp_path):
    """Issue 14, item 8: without DJANGO_SECRET_KEY the first process writes a key to var/secret_key
    (owner-only) and every later process, in any mode, reads the same one."""
    first = _probe(tmp_path, DJANGO_DEBUG="0")
    path = tmp_path / "secret_key"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.read_text().strip() == first["key"]
    assert len(first["key"]) >= 50 and not first["key"].startswith("django-insecure")
    assert _probe(tmp_path, DJANGO_DEBUG="0")["key"] == first["key"]
    assert _probe(tmp_path)["key"] == first["key"]
    assert _probe(tmp_path, DJANGO_SECRET_KEY="given-" + "x" * 50)["key"] == "given-" + "x" * 50


def test_secret_key_is_one_when_processes_start_together(tmp_path):
    env = _env(MAFIA_VAR_DIR=str(tmp_path), DJANGO_DEBUG="0")
    code = "import django; django.setup(); from django.conf import settings; print(settings.SECRET_KEY)"
    starters = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
                for _ in range(4)]
    keys = {starter.communicate(timeout=120)[0].strip() for starter in starters}
    assert keys == {(tmp_path / "secret_key").read_text().strip()}


def test_allowed_hosts_follow_the_bind_address_when_none_given(tmp_path):
    assert _probe(tmp_path, DJANGO_DEBUG="0")["hosts"] == ["localhost", "127.0.0.1", "[::1]"]
    assert "192.168.1.20" in _probe(tmp_path, DJANGO_DEBUG="0", MAFIA_BIND="192.168.1.20:8000")["hosts"]
    import socket

    everywhere = _probe(tmp_path, DJANGO_DEBUG="0", MAFIA_BIND="0.0.0.0:8000")["hosts"]
    assert socket.gethostname() in everywhere and "localhost" in everywhere
    given = _probe(tmp_path, DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="mafia.example.org")["hosts"]
    assert given == ["mafia.example.org"]


def test_site_url_follows_the_bind_address_when_none_given(tmp_path):
    """Links in e-mails sent outside a request (reminders, digests) lead where the site listens."""
    import socket

    assert _probe(tmp_path)["site_url"] == "http://127.0.0.1:8000"
    assert _probe(tmp_path, MAFIA_BIND="127.0.0.1:8123")["site_url"] == "http://127.0.0.1:8123"
    assert _probe(tmp_path, MAFIA_BIND="192.168.1.20:80")["site_url"] == "http://192.168.1.20:80"
    assert _probe(tmp_path, MAFIA_BIND="0.0.0.0:9000")["site_url"] == f"http://{socket.gethostname()}:9000"
    given = _probe(tmp_path, MAFIA_BIND="0.0.0.0:9000", MAFIA_SITE_URL="https://mafia.example.org")
    assert given["site_url"] == "https://mafia.example.org"


def test_the_worker_logs_what_tasks_print_as_information(tmp_path):
    """The console e-mail back end prints each mail: that is no warning in the worker's log."""
    assert _probe(tmp_path)["stdout_level"] == "INFO"


def test_broker_connection_logs_no_hostname_warning_when_embedded(tmp_path):
    """Issue 14, item 12: kombu warned "No hostname was supplied. Reverting to default 'localhost'"
    at every connection the web, the worker and beat made to the file broker."""
    code = (
        "import logging, django; django.setup(); from django.conf import settings; from kombu import Connection\n"
        "logging.basicConfig(level=logging.DEBUG, format='%(name)s %(levelname)s %(message)s')\n"
        "connection = Connection(settings.CELERY_BROKER_URL, transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS)\n"
        "connection.info(); connection.connect(); connection.as_uri(); connection.release()\n"
        "from config.celery import app\n"
        "with app.connection_for_write() as conn: conn.ensure_connection(max_retries=1); conn.info()\n"
        "print('connected')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(MAFIA_VAR_DIR=str(tmp_path)),
                            capture_output=True, text=True, timeout=120)
    assert "connected" in result.stdout, result.stderr
    assert "No hostname was supplied" not in result.stderr
    assert "WARNING" not in result.stderr, result.stderr


LOG_ZONE = (
    "import os, time, json\n{load}\n"
    "print(json.dumps([os.environ.get('TZ'), time.strftime('%z', time.localtime(1_750_000_000))]))"
)


def _log_zone(tmp_path, load: str) -> list:
    env = _env(MAFIA_VAR_DIR=str(tmp_path))
    env.pop("TZ", None)
    result = subprocess.run([sys.executable, "-c", LOG_ZONE.format(load=load)], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_processes_log_in_the_site_time_zone_from_their_start(tmp_path):
    """Issue 14, item 12: gunicorn's master (which never loads Django) logged in UTC, Celery's first
    lines too, the rest in Moscow time. The gunicorn configuration of the Procfile and the Celery
    app (worker and beat) now set the site's zone before logging anything."""
    site = _log_zone(tmp_path, "import django; django.setup()")
    assert site == ["Europe/Moscow", "+0300"]
    assert _log_zone(tmp_path, "exec(open('config/gunicorn.conf.py').read())") == site
    assert _log_zone(tmp_path, "import config.celery") == site
    procfile = (ROOT / "Procfile").read_text()
    assert "-c config/gunicorn.conf.py" in procfile and procfile.count("celery -A config") == 2


def test_engine_imports_no_django():
    """games/engine/ is the pure rules engine: no Django import anywhere below it."""
    offenders = []
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith(("import django", "from django")):
                offenders.append(f"{path.relative_to(ROOT)}: {stripped}")
    assert not offenders, offenders


def test_text_modules_import_no_django():
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "games" / "text").rglob("*.py")
        if any(line.strip().startswith(("import django", "from django")) for line in path.read_text(encoding="utf-8").splitlines())
    ]
    assert not offenders, offenders


def test_models_and_migrations_agree(db):
    """A model change without its migration would pass here and fail on a real database."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


def test_media_posts_go_to_an_s3_bucket_when_one_is_named(tmp_path):
    """README, "Media in S3": MAFIA_S3_BUCKET switches the media posts' storage, not the avatars'."""
    code = ("import django, json; django.setup(); from django.conf import settings as s; "
            "print(json.dumps({'posts': s.STORAGES['media_posts'], 'default': s.STORAGES['default']['BACKEND']}))")
    local = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(MAFIA_VAR_DIR=str(tmp_path)),
                           capture_output=True, text=True, check=True)
    assert json.loads(local.stdout.strip().splitlines()[-1])["posts"]["BACKEND"].endswith("FileSystemStorage")
    bucket = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                            env=_env(MAFIA_VAR_DIR=str(tmp_path), MAFIA_S3_BUCKET="show-media",
                                     MAFIA_S3_ENDPOINT_URL="http://127.0.0.1:9000"))
    probe = json.loads(bucket.stdout.strip().splitlines()[-1])
    assert probe["posts"]["BACKEND"] == "storages.backends.s3.S3Storage"
    assert probe["posts"]["OPTIONS"]["bucket_name"] == "show-media"
    assert probe["posts"]["OPTIONS"]["querystring_auth"] is True and probe["posts"]["OPTIONS"]["default_acl"] == "private"
    assert probe["default"].endswith("FileSystemStorage")
