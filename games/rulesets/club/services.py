"""A club game's rating after the end (003 «Рейтинг»): automatic points from the engine, the
players' best-player votes and the GM's points within the seed's limits."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.rulesets.club.engine import club_rating, rating_breakdown
from games.eventtext import rating_rule_label, role_label
from games.engine.state import GameState
from games.models import BestPlayerVote, Game, RatingDecision, Seat
from games.permissions import is_game_master, seat_of
from games.services import ActionRefused


def _require_rated(game: Game) -> GameState:
    if game.ruleset != "club" or game.status != Game.Status.FINISHED or not game.state:
        raise ActionRefused(_("Ratings are given after a club game."), code="no_rating")
    return GameState.from_json(game.state)


def best_player_vote(*, game: Game, user, chosen: Seat | None, now: datetime | None = None) -> BestPlayerVote:
    _require_rated(game)
    voter = seat_of(user, game)
    if voter is None:
        raise ActionRefused(_("Only the game's players give the best-player vote."), code="not_a_player")
    if chosen is None or chosen.game_id != game.pk:
        raise ActionRefused(_("Choose a player of this game."), code="bad_target")
    if chosen.pk == voter.pk:
        raise ActionRefused(_("The vote goes to another player."), code="self")
    if BestPlayerVote.objects.filter(voter=voter).exists():
        raise ActionRefused(_("You have already voted."), code="already")
    return BestPlayerVote.objects.create(game=game, voter=voter, chosen=chosen, created_at=now or timezone.now())


def rating_decide(*, game: Game, by, points: dict[int, float], blunders: set[int]) -> None:
    """The GM's points and blunders, checked against 003's limits by the engine before saving."""
    state = _require_rated(game)
    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM gives rating points."), code="not_allowed")
    seats = {s.pk for s in game.seats.all()}
    if set(points) - seats or blunders - seats:
        raise ActionRefused(_("Choose a player of this game."), code="bad_target")
    try:
        club_rating(state, gm_points=points, blunders=blunders)
    except ValueError:
        raise ActionRefused(_("The GM may add at most 3 points across the table and take at most 3 from each "
                              "player."), code="limits") from None
    with transaction.atomic():
        for seat_id in seats:
            RatingDecision.objects.update_or_create(seat_id=seat_id, defaults={
                "points": float(points.get(seat_id, 0)), "blunder": seat_id in blunders})


@dataclass
class RatingRow:
    seat: Seat
    automatic: float
    rules: list[str]  # the automatic points' rules, in words
    best_votes: int
    gm_points: float
    blunder: bool
    total: float
    role_name: str = ""  # the role in the reader's language


def rating_table(*, game: Game) -> list[RatingRow]:
    state = _require_rated(game)
    seats = list(game.seats.select_related("user").order_by("number"))
    decisions = {d.seat_id: d for d in RatingDecision.objects.filter(seat__game=game)}
    blunders = {pk for pk, d in decisions.items() if d.blunder}
    votes = dict(BestPlayerVote.objects.filter(game=game).values_list("voter_id", "chosen_id"))
    totals = club_rating(state, best_player_votes=votes, gm_points={pk: d.points for pk, d in decisions.items()},
                         blunders=blunders)
    breakdown = rating_breakdown(state, blunders=blunders)
    rows = []
    for seat in seats:
        items = [i for i in breakdown if i["seat"] == seat.pk]
        rows.append(RatingRow(
            seat=seat, automatic=sum(i["points"] for i in items), rules=[rating_rule_label(i["rule"]) for i in items],
            best_votes=sum(1 for chosen in votes.values() if chosen == seat.pk),
            gm_points=decisions[seat.pk].points if seat.pk in decisions else 0.0,
            blunder=seat.pk in blunders, total=totals.get(seat.pk, 0.0), role_name=role_label(game.ruleset, seat.role)))
    return sorted(rows, key=lambda r: -r.total)
