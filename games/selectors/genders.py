"""The players' genders for the site's sentences about them (games.wording.speaking_of)."""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Game, Seat


def roster_genders(game: Game) -> dict[str, str]:
    """Each seat's names in this game (the user's display name and the name at the deal) -> the
    user's gender for agreement: the profile's, else a confident guess, else "" (neutral)."""
    return seat_genders(Seat.objects.filter(game=game).select_related("user").only(
        "dealt_name", "user__display_name", "user__gender"))


def seat_genders(seats: Iterable[Seat]) -> dict[str, str]:
    """roster_genders from seats already loaded with their users (no query): for a page or a
    close that has them at hand."""
    genders: dict[str, str] = {}
    for seat in seats:
        gender = seat.user.grammatical_gender
        for name in (seat.user.display_name, seat.dealt_name):
            if name:
                genders[name] = gender
    return genders
