"""Reads of the club's own pages (the rating page, the GM's forfeit panel): what they need of the
club engine and of its ledger, so the views import no engine module (issue 15)."""

from __future__ import annotations

from games.models import BestPlayerVote, Game, Seat
from games.rulesets.club.engine import CLUB


def is_rated_game(game: Game) -> bool:
    """Whether the game has a rating page: a finished game of this rule set."""
    return game.ruleset == CLUB.key and game.status == Game.Status.FINISHED


def forfeit_factions() -> tuple[str, ...]:
    """The teams a forfeit may name: the club engine's factions, in its order."""
    return tuple(CLUB.factions)


def has_voted_best_player(seat: Seat | None) -> bool:
    """Whether this seat has named its best player (a seat of None, a viewer without one: no)."""
    return seat is not None and BestPlayerVote.objects.filter(voter=seat).exists()
