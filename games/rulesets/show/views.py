"""The show's pages: the public status of keys, a hero's /fullstatus, and the hero's panel's forms
(one POST endpoint dispatching to games.rulesets.show.services)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import permissions
from games.models import Game, Seat
from games.rulesets.show import services
from games.rulesets.show.selectors import full_status_rows, status_rows


def _show_game(pk: int) -> Game:
    game = get_object_or_404(Game.objects.select_related("gm", "game_thread", "current_phase"), pk=pk)
    if game.ruleset != "show" or game.status == Game.Status.SIGNUPS:
        raise Http404
    return game


@require_GET
def show_status(request: HttpRequest, pk: int) -> HttpResponse:
    """«Публичные Ключи доступны всем»: everyone's public status, for every visitor."""
    game = _show_game(pk)
    viewer, _pov = permissions.viewer_for(request, game)
    mine = permissions.seat_of(viewer, game)
    return render(request, "games/show_status.html", {"game": game, "status": status_rows(game), "my_seat": mine})


@require_GET
def show_fullstatus_mine(request: HttpRequest, pk: int) -> HttpResponse:
    game = _show_game(pk)
    mine = permissions.seat_of(request.user, game)
    if mine is None:
        raise Http404
    return redirect("games:show_fullstatus", pk=game.pk, seat_pk=mine.pk)


@require_GET
def show_fullstatus(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """/fullstatus: «публичные + приватные + врождённые» keys as this hero knows them; 404 for anyone
    but the hero, the GMs, and everyone after the end (games.permissions.check_see_full_status)."""
    game = _show_game(pk)
    seat = get_object_or_404(Seat, game=game, pk=seat_pk)
    viewer, _pov = permissions.viewer_for(request, game)
    status = full_status_rows(game=game, seat=seat, user=viewer)
    return render(request, "games/show_fullstatus.html", {"game": game, "seat": seat, "status": status})


def _seat(game: Game, raw) -> Seat | None:
    try:
        return Seat.objects.filter(game=game, pk=int(raw)).first()
    except (TypeError, ValueError):
        return None


@login_required
@require_POST
def show_act(request: HttpRequest, pk: int) -> HttpResponse:
    """The hero's panel: each form posts `act` and its fields; the service checks, records and answers."""
    game = _show_game(pk)
    act, data = request.POST.get("act", ""), request.POST
    target = _seat(game, data.get("target"))
    kwargs = {"game": game, "user": request.user}
    if act == "vote":
        ballot = data.get("ballot") or None
        result = services.show_vote(**kwargs, target=None if ballot else target, ballot=ballot)
    elif act == "order":
        detail = {k: _seat(game, data.get(k)) for k in services.DETAIL_KEYS if data.get(k)}
        result = services.show_order(**kwargs, action=str(data.get("action", ""))[:32], target=target, detail=detail)
    elif act == "request":
        result = services.show_request(**kwargs, target=target)
    elif act == "knowledge":
        result = services.show_use_knowledge(**kwargs, target=target)
    elif act == "lull":
        result = services.show_lull(**kwargs, target=target)
    elif act == "wake":
        result = services.show_wake(**kwargs)
    else:
        raise Http404
    if result.accepted:
        messages.success(request, services.accepted_text(act, closed=result.closed))
    else:
        messages.error(request, result.message)
    return redirect(game.get_absolute_url())
