"""The role commitment's text: what the start publishes the SHA-256 of and the end reveals. A read
of the seats, shared by the lifecycle service (which writes the commitment), the archive and the
commitment page (which check it); here so that those reads import no service (issue 15)."""

from __future__ import annotations

import json

from games.models import Game, Seat
from games.wording import wording_of


def commitment_payload(game: Game, seats: list[Seat]) -> str:
    """The text whose SHA-256 is published at the start and which is revealed at the end."""
    roles = [[seat.number, seat.dealt_name or seat.user.display_name, seat.role]
             for seat in sorted(seats, key=lambda s: s.number)]
    return f"{game.commitment_salt}:" + json.dumps(roles, ensure_ascii=False, separators=(",", ":"))


def revealed_roles(game: Game, seats: list[Seat]) -> list[dict]:
    """The committed role list as a reader reads it, next to the committed text: each seat's
    number, the name as dealt, and the role's name in the site's language from the rule set's
    wording («Мирный житель», not `citizen`). The committed text itself is not changed."""
    wording = wording_of(game.ruleset)
    return [{"number": seat.number, "name": seat.dealt_name or seat.user.display_name, "role": seat.role,
             "label": wording.role_label(seat.role)}
            for seat in sorted(seats, key=lambda s: s.number)]
