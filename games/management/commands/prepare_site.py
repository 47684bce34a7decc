"""Make the site ready to serve, in one process: migrate, collect the static files, load the demo.

./bin/site runs it before every start. Three `manage.py` commands cost three Django start-ups and
three runs of the system checks (about two seconds each on these 2-core machines); this runs the
checks once and each step inside one process. Collecting the static files (whitenoise hashes and
compresses every file, seconds of work) is skipped when nothing it would read has changed since the
last collection: the fingerprint of every source file's path, size and modification time is kept
beside the collected files.
"""

from __future__ import annotations

import hashlib
import os

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command
from django.core.management.base import BaseCommand

FINGERPRINT_NAME = ".sources-fingerprint"


def static_sources_fingerprint() -> str:
    """The hash of every static source the finders see: its path, size and modification time."""
    digest = hashlib.sha256()
    for finder in get_finders():
        for path, storage in sorted(finder.list([]), key=lambda item: (item[1].location, item[0])):
            info = os.stat(storage.path(path))
            digest.update(f"{storage.location}\0{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    digest.update(settings.STORAGES["staticfiles"]["BACKEND"].encode())
    return digest.hexdigest()


class Command(BaseCommand):
    help = "Migrate, collect the static files (when they changed) and load the demo: what ./bin/site runs before it starts."

    def add_arguments(self, parser):
        parser.add_argument("--no-demo", action="store_true", help="do not load the demo games and logins")

    def handle(self, *args, no_demo: bool = False, **options):
        verbosity = options["verbosity"]
        call_command("migrate", interactive=False, verbosity=verbosity, skip_checks=True)
        self._collect_static(verbosity)
        if not no_demo:
            call_command("seed_demo", verbosity=verbosity, skip_checks=True)

    def _collect_static(self, verbosity: int) -> None:
        root = settings.STATIC_ROOT
        kept = root / FINGERPRINT_NAME
        now = static_sources_fingerprint()
        manifest = root / "staticfiles.json"
        if manifest.exists() and kept.exists() and kept.read_text() == now:
            if verbosity > 1:
                self.stdout.write("Static files unchanged since the last collection.")
            return
        call_command("collectstatic", interactive=False, verbosity=0, skip_checks=True)
        kept.write_text(now)
