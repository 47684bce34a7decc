"""python manage.py play_scenario FILE... [--json] [--keep [--password PW]] (shared/scenarios/FORMAT.md)."""

import json
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from games.scenarios import ScenarioError, play


class Command(BaseCommand):
    help = "Play scenario files through the site's services and compare the expected outcomes."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+")
        parser.add_argument("--json", action="store_true", dest="as_json", help="one JSON object per phase, then the game")
        parser.add_argument("--keep", action="store_true", help="keep the game on the site with real accounts")
        parser.add_argument("--password", default=None, help="password of the kept accounts")

    def handle(self, *args, files, as_json: bool, keep: bool, password: str | None, **options):
        self._migrated()
        failed = malformed = False
        for path in files:
            try:
                report = play(path, keep=keep, password=password)
            except ScenarioError as error:
                self.stderr.write(str(error))
                malformed = True
                continue
            self._print(report, as_json=as_json)
            failed |= not report.ok
        sys.exit(2 if malformed else 1 if failed else 0)

    def _migrated(self) -> None:
        """The files play through the site's services, so its tables must exist: a fresh checkout's
        database (var/db.sqlite3 by default) is migrated first, as ./bin/site would (said on stderr,
        so --json's output stays one object a line)."""
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if pending:
            self.stderr.write(f"migrating the database first ({len(pending)} migrations)")
            call_command("migrate", verbosity=0, interactive=False)

    def _print(self, report, *, as_json: bool) -> None:
        dumps = json.dumps
        if as_json:
            for phase in report.phases:
                self.stdout.write(dumps({"phase": phase.name, **phase.outcome, "ok": not phase.diffs}, ensure_ascii=False))
            game = dict(report.game)
            if report.game_url:
                game["game_url"] = report.game_url
                game["users"] = report.users
                self.stderr.write(f"password for every account: {report.password}")
            self.stdout.write(dumps({"game": game}, ensure_ascii=False))
            return
        self.stdout.write(f"{report.path}:")
        for phase in report.phases:
            if phase.diffs:
                self.stdout.write(f"phase {phase.name}: FAILED")
                for line in phase.diffs:
                    self.stdout.write(line)
            else:
                self.stdout.write(f"phase {phase.name}: ok")
        if report.game_diffs:
            self.stdout.write("game: FAILED")
            for line in report.game_diffs:
                self.stdout.write(line)
        else:
            self.stdout.write("game: ok")
        if report.game_url:
            self.stdout.write(f"kept at {report.game_url}; password for every account: {report.password}")
            for name, username in report.users.items():
                self.stdout.write(f"  {name}: {username}")
