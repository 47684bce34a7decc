"""The club rule set's writes and reads on the site: a club game's rating after the end (003
«Рейтинг»: automatic points from the engine, the players' best-player votes and the GM's points
within the seed's limits; the leaderboard's rating totals), and the GM's club inputs (fouls, a
forfeit) that the dashboard dispatches here through the adapter (games.rulesets.club.site)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.rulesets.club.engine import CLUB, club_rating, rating_breakdown
from games.rulesets.club.wording import rating_rule_label
from games.wording import role_label
from games.engine.state import GameState
from games.models import BestPlayerVote, Game, Phase, RatingDecision, Seat
from games.permissions import is_game_master, seat_of
from games.services import ActionRefused
from games.services.journal import gm_log
from games.selectors.state import game_state, stored_state
from games.services.resolution import phase_close


def _require_rated(game: Game) -> GameState:
    if game.ruleset != "club" or game.status != Game.Status.FINISHED or not game.state:
        raise ActionRefused(_("Ratings are given after a club game."), code="no_rating")
    return game_state(game)


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


def seat_ratings(games: QuerySet[Game]) -> dict[int, float]:
    """Seat id -> the rating total of its club game (automatic points, best-player votes, the GM's
    points), as the game's rating page shows it; three queries for all the games (the leaderboard)."""
    decisions: dict[int, dict[int, tuple[float, bool]]] = defaultdict(dict)
    for game_id, seat_id, points, blunder in RatingDecision.objects.filter(seat__game__in=games).values_list(
            "seat__game_id", "seat_id", "points", "blunder"):
        decisions[game_id][seat_id] = (points, blunder)
    votes: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, voter_id, chosen_id in BestPlayerVote.objects.filter(game__in=games).values_list(
            "game_id", "voter_id", "chosen_id"):
        votes[game_id][voter_id] = chosen_id
    out: dict[int, float] = {}
    for game_id, state in games.values_list("pk", "state").iterator(chunk_size=200):
        if not state:
            continue
        mine = decisions.get(game_id, {})
        try:
            totals = club_rating(stored_state(state), best_player_votes=votes.get(game_id, {}),
                                 gm_points={pk: p for pk, (p, _b) in mine.items()},
                                 blunders={pk for pk, (_p, b) in mine.items() if b})
        except (ValueError, KeyError, TypeError):
            continue  # a state the rating cannot read: the game gives no rating rather than a wrong one
        out.update(totals)
    return out


# --- The GM's club inputs (SiteRuleset.gm_inputs) -------------------------------------------------
def foul_give(*, game: Game, phase: Phase, seat: Seat | None, by, now: datetime) -> None:
    """A foul for a player, noted in the phase's GM decisions: the engine counts it at the close
    (003: the third is an extra vote against, the fourth removes the player)."""
    if seat is None:
        raise ActionRefused(_("Choose a player."), code="no_seat")
    decisions = dict(phase.gm_decisions or {})
    decisions["fouls"] = [*decisions.get("fouls", []), seat.pk]
    phase.gm_decisions = decisions
    phase.save(update_fields=["gm_decisions"])
    gm_log(game=game, user=by, action="foul", data={"seat": seat.pk}, now=now)


def forfeit_declare(*, game: Game, phase: Phase, faction: str, by, now: datetime) -> None:
    """A team's forfeit: noted in the phase's GM decisions and the phase closed at once, so the
    engine ends the game for the other team."""
    if faction not in CLUB.factions:
        raise ActionRefused(_("Choose a team."), code="bad_faction")
    phase.gm_decisions = {**(phase.gm_decisions or {}), "forfeit": faction}
    phase.save(update_fields=["gm_decisions"])
    gm_log(game=game, user=by, action="forfeit", data={"faction": faction}, now=now)
    phase_close(phase_id=phase.pk, now=now, by=by)
