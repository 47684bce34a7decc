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
    "'broker': s.CELERY_BROKER_URL, 'cache': s.CACHES['default']['BACKEND'], 'debug': s.DEBUG}))"
)


def _env(**overrides) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
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
    assert probe["broker"] == "filesystem://"
    assert probe["cache"].endswith("LocMemCache")


def test_settings_switch_to_postgresql_and_redis_when_urls_given(tmp_path):
    probe = _probe(tmp_path, DATABASE_URL="postgres://u@db.internal:5432/mafia", REDIS_URL="redis://cache.internal:6379/1")
    assert probe["engine"] == "django.db.backends.postgresql"
    assert probe["broker"] == "redis://cache.internal:6379/1"
    assert probe["cache"].endswith("RedisCache")


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


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = dict(PRODUCTION)
    del env["DJANGO_SECRET_KEY"]
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=_env(MAFIA_VAR_DIR=str(tmp_path), **env),
        capture_output=True, text=True,
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


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
