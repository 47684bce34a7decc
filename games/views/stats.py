"""Leaderboards per rule set (the figures are games.selectors.stats; only finished games count)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.selectors import stats


def _min_games(raw: str | None) -> tuple[int, str]:
    """?min= as a number of games within the limits; anything else is the default, with a notice."""
    if raw is None or raw == "":
        return stats.MIN_GAMES_DEFAULT, ""
    low, high = stats.MIN_GAMES_LIMITS
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        return stats.MIN_GAMES_DEFAULT, _(
            "The minimum number of games must be a whole number from %(low)d to %(high)d; showing players with at "
            "least %(default)d.") % {"low": low, "high": high, "default": stats.MIN_GAMES_DEFAULT}
    return value, ""


@require_GET
def leaderboard(request: HttpRequest, ruleset: str | None = None) -> HttpResponse:
    """One rule set's table (the forum one at /leaderboards/), with tabs for the others."""
    rulesets = stats.rulesets()
    if ruleset is None:
        ruleset = stats.default_ruleset()
    elif ruleset not in rulesets:
        raise Http404
    sorts = stats.sorts_for(ruleset)
    sort = request.GET.get("sort") or stats.DEFAULT_SORT
    if sort not in sorts:
        sort = stats.DEFAULT_SORT
    min_games, notice = _min_games(request.GET.get("min"))
    lines = stats.leaderboard(ruleset, sort=sort, min_games=min_games)
    page = Paginator(lines, stats.PAGE_SIZE).get_page(request.GET.get("page"))
    first = page.start_index() if lines else 1
    rows = [(first + n, line) for n, line in enumerate(page.object_list)]
    return render(request, "games/leaderboard.html", {
        "ruleset": ruleset,
        "ruleset_name": stats.ruleset_label(ruleset),
        "tabs": [(key, stats.ruleset_label(key), key == ruleset) for key in rulesets],
        "sort": sort,
        "sorts": sorts,
        "min_games": min_games,
        "min_limits": stats.MIN_GAMES_LIMITS,
        "notice": notice,
        "page": page,
        "rows": rows,
        "with_rating": stats.with_rating(ruleset),
    })
