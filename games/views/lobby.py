"""The lobby of automatic games (issue 31): the setups with their places left, joining in one click,
and a site moderator taking an automatic game over or handing it back."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import Game
from games.permissions import is_site_moderator
from games.selectors.autohost import lobby_rows
from games.services import ActionRefused, gm_writes
from games.services.autohost import autohost_hand_back, autohost_join, autohost_take_over, standby_join, standby_leave


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", {"rows": lobby_rows(request.user)})


@login_required
@require_POST
def lobby_join(request: HttpRequest, pk: int) -> HttpResponse:
    """Join the automatic game `pk` (the lobby's button); back to the lobby, or to the game when it
    started with this join."""
    game = get_object_or_404(Game, pk=pk, automatic=True)
    try:
        autohost_join(game=game, user=request.user)
    except ActionRefused as refused:
        messages.error(request, refused.message)
        return redirect("games:lobby")
    game.refresh_from_db()
    if game.status == Game.Status.RUNNING:
        messages.success(request, _("The table is full and the game has begun: your role is on your role page."))
        return redirect(game)
    messages.success(request, _("You have joined %(title)s.") % {"title": game.title})
    return redirect("games:lobby")


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(gm_writes.THREADS), game=gm_writes.game_of_url)  # the GM, a post
def autohost_control(request: HttpRequest, pk: int) -> HttpResponse:
    """A site moderator takes the automatic game over (`action=take`) or hands it back (`return`)."""
    if not is_site_moderator(request.user):
        raise Http404
    game = get_object_or_404(Game, pk=pk, automatic=True)
    try:
        if request.POST.get("action") == "return":
            autohost_hand_back(game=game, by=request.user)
            messages.success(request, _("The site hosts the game again."))
        else:
            autohost_take_over(game=game, by=request.user)
            messages.success(request, _("You host this game now: its GM dashboard is yours."))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect(game)


@login_required
@require_POST
def standby_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Stand by to replace a player of an automatic game (`action=join`), or stop (`leave`)."""
    game = get_object_or_404(Game, pk=pk, automatic=True)
    try:
        if request.POST.get("action") == "leave":
            standby_leave(game=game, user=request.user)
            messages.success(request, _("You no longer stand by for this game."))
        else:
            standby_join(game=game, user=request.user)
            messages.success(request, _("You stand by: if a player goes silent, the site gives you the seat."))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect(game)
