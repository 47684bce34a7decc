"""`manage.py prepare_site` (./bin/site runs it before every start): migrate, collect the static
files only when a source changed, load the demo; one process, so a warm start is quick."""

import os

import pytest
from django.core.management import call_command

from games.management.commands.prepare_site import FINGERPRINT_NAME
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def static_dirs(tmp_path, settings):
    source = tmp_path / "source"
    source.mkdir()
    (source / "site.css").write_text("body { color: black }")
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "collected"
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}
    return source, tmp_path / "collected"


def test_prepare_site_collects_static_files_only_when_a_source_changed(static_dirs):
    source, collected = static_dirs
    call_command("prepare_site", "--no-demo", verbosity=0)
    assert (collected / "site.css").read_text() == "body { color: black }"
    assert (collected / FINGERPRINT_NAME).exists()

    (collected / "site.css").unlink()
    call_command("prepare_site", "--no-demo", verbosity=0)
    assert not (collected / "site.css").exists()  # nothing changed: not collected again

    (source / "site.css").write_text("body { color: navy }")
    stat = os.stat(source / "site.css")
    os.utime(source / "site.css", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    call_command("prepare_site", "--no-demo", verbosity=0)
    assert (collected / "site.css").read_text() == "body { color: navy }"


def test_prepare_site_collects_again_when_the_collection_is_gone(static_dirs):
    _source, collected = static_dirs
    call_command("prepare_site", "--no-demo", verbosity=0)
    (collected / "staticfiles.json").unlink()
    call_command("prepare_site", "--no-demo", verbosity=0)
    assert (collected / "staticfiles.json").exists()


def test_prepare_site_loads_the_demo_and_is_safe_to_repeat(static_dirs, capsys):
    call_command("prepare_site", verbosity=0)
    call_command("prepare_site", verbosity=0)
    assert Game.objects.count() == 2
    assert "mafia-demo" in capsys.readouterr().out
