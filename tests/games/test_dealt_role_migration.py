"""Migration 0010 (issue 28, item 1): games dealt before Seat.dealt_role was kept get it from the
first resolution's snapshot of the seats (taken before any rule changed a role), so their
commitment checks again after the upgrade."""

from __future__ import annotations

import importlib

from django.apps import apps

from games.models import Seat
from games.selectors.commitment import commitment_reveal

migration = importlib.import_module("games.migrations.0010_seat_dealt_role")


def test_the_fill_takes_the_dealt_role_from_the_first_snapshot_not_the_changed_role(finished_game):
    game = finished_game.game
    seat = finished_game.seat("Даша")
    Seat.objects.filter(game=game).update(dealt_role="")
    Seat.objects.filter(pk=seat.pk).update(role="mafioso")  # as a rule would have changed it
    assert not commitment_reveal(game, list(game.seats.select_related("user")))["matches"]
    migration.fill_dealt_roles(apps, None)
    seat.refresh_from_db()
    assert (seat.dealt_role, seat.role) == ("citizen", "mafioso")
    assert commitment_reveal(game, list(game.seats.select_related("user")))["matches"]
