"""The role commitment's text: what the start publishes the SHA-256 of and the end reveals. A read
of the seats, shared by the lifecycle service (which writes the commitment), the archive and the
commitment page (which check it); here so that those reads import no service (issue 15)."""

from __future__ import annotations

import json

from games.models import Game, Seat


def commitment_payload(game: Game, seats: list[Seat]) -> str:
    """The text whose SHA-256 is published at the start and which is revealed at the end."""
    roles = [[seat.number, seat.dealt_name or seat.user.display_name, seat.role]
             for seat in sorted(seats, key=lambda s: s.number)]
    return f"{game.commitment_salt}:" + json.dumps(roles, ensure_ascii=False, separators=(",", ":"))
