"""`manage.py coins_check`: recompute every balance from the ledger and report the differences."""

from django.core.management.base import BaseCommand, CommandError

from coins.services import check


class Command(BaseCommand):
    help = "Recompute every coin balance from the ledger; fail if a cached balance or the total differs."

    def handle(self, *args, **options):
        differences = check()
        for d in differences:
            if d.key == "*":
                self.stderr.write(f"the accounts sum to {d.cached}, not 0")
            else:
                self.stderr.write(f"{d.key}: cached {d.cached}, ledger {d.ledger}")
        if differences:
            raise CommandError(f"{len(differences)} difference(s) between the balances and the ledger")
        self.stdout.write("coins: every balance agrees with the ledger; the accounts sum to 0")
