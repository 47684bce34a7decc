"""The search page: posts and thread titles the viewer may read, with filters (docs/search.md)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.models import User, display_name_key
from games.selectors import search as engine
from games.models import Game

SORT_LABELS = {
    engine.SORT_RELEVANCE: lambda: _("most relevant first"),
    engine.SORT_NEWEST: lambda: _("newest first"),
}


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").strip()
    errors: list[str] = []
    game = None
    raw_game = request.GET.get("game", "").strip()
    if raw_game:
        game_id = _int(raw_game)
        game = Game.objects.filter(pk=game_id).first() if game_id and game_id > 0 else None
        if game is None:
            errors.append(_("There is no such game."))
    author_name = " ".join(request.GET.get("author", "").split())[:100]
    author = None
    if author_name:
        author = User.objects.filter(display_name_key=display_name_key(author_name)).first()
        if author is None:
            errors.append(_("There is no player called «%(name)s».") % {"name": author_name})
    sorts = engine.sort_choices()
    sort = request.GET.get("sort")
    if sort not in sorts:
        sort = sorts[0]
    # A malformed query is a 400; an unknown game or player is an answer (nothing found), a 200.
    status = 200
    if len(q) > engine.MAX_QUERY_LENGTH:
        errors.append(_("The query is too long: at most %(n)d characters.") % {"n": engine.MAX_QUERY_LENGTH})
        status = 400
    elif q and not engine.query_words(q):
        errors.append(_("Type at least one word or number."))
        status = 400
    results = None
    if q and not errors:
        results = engine.search(user=request.user, q=q, game=game, author=author, sort=sort,
                                page=_int(request.GET.get("page")) or 1)

    def page_url(number: int) -> str:
        params = [("q", q)]
        if game is not None:
            params.append(("game", game.pk))
        if author is not None:
            params.append(("author", author_name))
        params.append(("sort", sort))
        if number > 1:
            params.append(("page", number))
        return f"{request.path}?{urlencode(params)}"

    return render(request, "games/search.html", {
        "q": q,
        "errors": errors,
        "game": game,
        "game_choices": engine.game_choices(user=request.user, chosen=game),
        "author_name": author_name,
        "sort": sort,
        "sort_choices": [(value, SORT_LABELS[value]()) for value in sorts],
        "results": results,
        "max_length": engine.MAX_QUERY_LENGTH,
        "prev_url": page_url(results.page - 1) if results and results.has_previous else None,
        "next_url": page_url(results.page + 1) if results and results.has_next else None,
    }, status=status)
