"""The role commitment's text: what the start publishes the SHA-256 of and the end reveals. A read
of the seats, shared by the lifecycle service (which writes the commitment), the archive and the
commitment page (which check it); here so that those reads import no service (issue 15).

The revealed list is the deal's, exactly as it was hashed (Seat.dealt_name, Seat.dealt_role): a
replacement, a rename or a role a rule changed later (the Show's Змеёныш, a card) cannot break it.
What changed since is shown beside it (`role_changes`), as what it is."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from games.models import Game, Replacement, Seat
from games.wording import role_label, wording_of


def commitment_payload(game: Game, seats: list[Seat]) -> str:
    """The text whose SHA-256 is published at the start and which is revealed at the end: the
    seats' numbers, names and roles as they were dealt."""
    roles = [[seat.number, seat.dealt_name or seat.user.display_name, seat.dealt_role or seat.role]
             for seat in sorted(seats, key=lambda s: s.number)]
    return f"{game.commitment_salt}:" + json.dumps(roles, ensure_ascii=False, separators=(",", ":"))


def revealed_roles(game: Game, seats: list[Seat]) -> list[dict]:
    """The committed role list as a reader reads it, next to the committed text: each seat's
    number, the name as dealt, and the role as dealt (what the commitment hashed, Seat.dealt_role)
    in the site's language from the rule set's wording («Мирный житель», not `citizen`). The
    committed text itself is not changed; a role changed since is role_changes' to tell."""
    wording = wording_of(game.ruleset)
    rows = []
    for seat in sorted(seats, key=lambda s: s.number):
        role = seat.dealt_role or seat.role
        rows.append({"number": seat.number, "name": seat.dealt_name or seat.user.display_name, "role": role,
                     "label": wording.role_label(role)})
    return rows


def as_dealt(seats: list[Seat], replacements: list[Replacement] | None = None) -> list[Seat]:
    """The seats with the players they were dealt to: a replacement changes a seat's player, but
    the commitment hashed the names at the deal. Seats keep that name (Seat.dealt_name); for
    games dealt before it was kept, the first replaced player of each seat stands in.
    `replacements`: the seats' replacements (old users selected), when the caller has read them."""
    if replacements is None:
        replacements = Replacement.objects.filter(seat__in=seats).select_related("old_user")
    first_player = {}
    for r in sorted(replacements, key=lambda r: (r.created_at, r.pk)):
        first_player.setdefault(r.seat_id, r.old_user)
    dealt = []
    for seat in seats:
        if seat.pk in first_player and not seat.dealt_name:
            copy = Seat(pk=seat.pk, game_id=seat.game_id, number=seat.number, role=seat.role, faction=seat.faction,
                        dealt_role=seat.dealt_role)
            copy.user = first_player[seat.pk]
            seat = copy
        dealt.append(seat)
    return dealt


@dataclass(frozen=True)
class RoleChange:
    """A seat whose role is not the one dealt: a rule of the game changed it (not the GM's word)."""
    number: int
    name: str
    dealt: str
    now: str


def role_changes(game: Game, seats: list[Seat]) -> list[RoleChange]:
    """The seats whose role changed after the deal, in seat order, in words."""
    return [RoleChange(number=s.number, name=s.user.display_name, dealt=role_label(game.ruleset, s.dealt_role),
                       now=role_label(game.ruleset, s.role))
            for s in sorted(seats, key=lambda s: s.number) if s.dealt_role and s.role != s.dealt_role]


def commitment_reveal(game: Game, seats: list[Seat], replacements: list[Replacement] | None = None) -> dict | None:
    """The role commitment checked: the revealed list and salt hashed by the site (the page hashes
    the same text again in the browser), and the roles changed since the deal. Sealed (no salt
    shown) while the game runs; None for a game never dealt. `replacements`: every replacement of
    the game, when the caller has read them (games.selectors.holders.SeatHolders.replacements)."""
    if not game.commitment:
        return None
    if game.status != Game.Status.FINISHED:
        return {"sealed": True, "commitment": game.commitment}
    dealt = as_dealt(seats, replacements)
    payload = commitment_payload(game, dealt)
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()
    return {"sealed": False, "commitment": game.commitment, "payload": payload, "digest": digest,
            "matches": digest == game.commitment, "changes": role_changes(game, seats),
            "roles": revealed_roles(game, dealt)}
