"""The club rule set's pages and GM inputs: the rating page after a club game, and the fouls and
forfeit the GM gives from the dashboard (dispatched by games:gm_action through the adapter's
gm_inputs, so the core names neither).

Views parse and check; every write goes through games.rulesets.club.services.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import permissions
from games.wording import faction_label
from games.models import Game, Phase
from games.selectors.play import game_for_page, seat_choice
from games.rulesets.club.selectors import forfeit_factions, has_voted_best_player, is_rated_game
from games.rulesets.club.services import best_player_vote, foul_give, forfeit_declare, rating_decide, rating_table
from games.services import ActionRefused, gm_writes


_game = game_for_page
_seat_choice = seat_choice


def _gm_points(request: HttpRequest, game: Game) -> tuple[dict[int, float], set[int]]:
    """The GM's rating form: points per seat («1,5» or «1.5»; empty is none) and the blunders."""
    points, blunders = {}, set()
    for seat in game.seats.all():
        raw = request.POST.get(f"points_{seat.pk}", "").strip().replace(",", ".")
        if raw:
            try:
                points[seat.pk] = float(raw)
            except ValueError:
                raise ActionRefused(_("Points are numbers."), code="bad_number") from None
        if request.POST.get(f"blunder_{seat.pk}"):
            blunders.add(seat.pk)
    return points, blunders


@require_http_methods(["GET", "POST"])
@gm_writes.declare(gm_writes.changes(), game=gm_writes.game_of_url)  # the GM's rating (and a player's best-player vote)
def rating_page(request: HttpRequest, pk: int) -> HttpResponse:
    """After a club game: the rating table, the players' best-player votes, the GM's points."""
    game = _game(pk)
    if not is_rated_game(game):
        raise Http404
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("account_login")
        try:
            if request.POST.get("action") == "gm":
                points, blunders = _gm_points(request, game)
                rating_decide(game=game, by=request.user, points=points, blunders=blunders)
            else:
                best_player_vote(game=game, user=request.user, chosen=_seat_choice(game, request.POST.get("chosen")))
        except ActionRefused as refused:
            messages.error(request, refused.message)
        else:
            messages.success(request, _("Saved."))
        return redirect("games:rating", pk=game.pk)
    me = permissions.seat_of(request.user, game)
    return render(request, "games/rating.html", {
        "game": game, "rows": rating_table(game=game), "is_gm": permissions.is_game_master(request.user, game),
        "my_seat": me, "voted": has_voted_best_player(me),
        "seats": game.seats.select_related("user").order_by("number"),
    })


# --- The GM's club inputs: games:gm_action calls them after its checks (GM, confirmation, a phase) ---
def gm_foul(request: HttpRequest, game: Game, phase: Phase, now: datetime) -> None:
    """«Foul»: one more foul for the chosen player, counted at the phase's close."""
    seat = _seat_choice(game, request.POST.get("seat"))
    foul_give(game=game, phase=phase, seat=seat, by=request.user, now=now)
    messages.success(request, _("Foul recorded for %(name)s; it counts at the close of the phase.") % {
        "name": seat.user.display_name})


def gm_forfeit(request: HttpRequest, game: Game, phase: Phase, now: datetime) -> None:
    """«Declare the forfeit»: the chosen team loses now; the phase closes with it."""
    forfeit_declare(game=game, phase=phase, faction=request.POST.get("faction", ""), by=request.user, now=now)
    messages.success(request, _("Forfeit: the game is decided."))


def gm_panel_context() -> dict:
    """What the club's panel on the GM dashboard needs besides the page's context: the teams a
    forfeit may name, with their words."""
    return {"factions": [(f, faction_label(f)) for f in forfeit_factions()]}
