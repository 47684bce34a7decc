"""A game's archive, its replay and its JSON export (docs/archive.md, docs/export.md): public
once the game is over, a sealed preview for its GMs while it runs, 404 otherwise
(permissions.check_see_archive; an anonymous visitor of a game that exists is sent to log in)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games import permissions
from games.selectors.archive import game_archive, game_replay
from games.selectors.play import co_gms_of, game_for_page
from games.models import Game
from games.services.export import game_export
from games.views.access import kept_viewer, login_when_hidden


def _game(request: HttpRequest, pk: int, *, facts: bool = False) -> Game:
    game = game_for_page(pk, facts=True, viewer=request.user) if facts else get_object_or_404(
        Game.objects.select_related("gm", "game_thread", "discussion_thread", "current_phase"), pk=pk)
    permissions.check_see_archive(request.user, game)
    return game


@require_GET
@kept_viewer(game=True)
@login_when_hidden
def archive(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk, facts=True)
    return render(request, "games/archive.html", {"game": game, "archive": game_archive(request.user, game),
                                                  "co_gms": co_gms_of(game)})


@require_GET
@kept_viewer(game=True)
@login_when_hidden
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk, facts=True)
    return render(request, "games/replay.html", {"game": game, "replay": game_replay(request.user, game)})


@require_GET
@login_when_hidden
def export_json(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(request, pk)
    data = game_export(game, user=request.user)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
