"""The show's privilege panel's forms: one POST endpoint dispatching to
games.rulesets.show.privileges.services (docs/rulesets/show.md, "Part 3 on the site"); and the
Секретарь's live view, polled by his panel."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from games import permissions
from games.rulesets.show.privileges import services
from games.rulesets.show.privileges.selectors import secretary_live
from games.rulesets.show.views import _seat, _show_game, answered


@login_required
@require_POST
def show_privilege(request: HttpRequest, pk: int) -> HttpResponse:
    """Each privilege form posts `act` and its fields; the service checks, records and answers."""
    game = _show_game(pk)
    act, data = request.POST.get("act", ""), request.POST
    target = _seat(game, data.get("target"))
    kwargs = {"game": game, "user": request.user}
    if act == "stun":
        result = services.show_stun(**kwargs, target=target)
    elif act == "exclude":
        result = services.show_exclude(**kwargs, target=target)
    elif act == "extra_vote":
        ballot = data.get("ballot") or None
        result = services.show_extra_vote(**kwargs, target=None if ballot else target, ballot=ballot)
    elif act == "intercept":
        result = services.show_intercept(**kwargs, number=data.get("number"), field=str(data.get("field", ""))[:16],
                                         target=target)
    elif act == "mole":
        result = services.show_mole(**kwargs, target=target)
    elif act == "steal":
        result = services.show_steal(**kwargs, target=target)
    else:
        raise Http404
    return answered(request, game, act, result)


# htmx stops polling an element answered with this status (its content is still swapped in)
STOP_POLLING = 286


@login_required
@require_GET
def show_secretary(request: HttpRequest, pk: int) -> HttpResponse:
    """The Секретарь's live view of the running day vote («видит, кто за кого голосует ... Даже из
    рабства»), for him (and the GMs with `?pov=` as him); a 404 for everyone else. Once the vote is
    over the block says so and stops asking."""
    game = _show_game(pk)
    _viewer, pov_seat = permissions.viewer_for(request, game)
    seat = pov_seat or permissions.seat_of(request.user, game)
    view = secretary_live(game=game, seat=seat, user=request.user, pov=pov_seat is not None) if seat else None
    if view is None:
        raise Http404
    response = render(request, "games/_show_secretary.html", {"game": game, "sec": view})
    if view.get("over"):
        response.status_code = STOP_POLLING
    return response  # (a signed-in page: never stored, config/middleware)
