"""The show's privilege panel's forms: one POST endpoint dispatching to
games.rulesets.show.privileges_services (docs/rulesets/show.md, "Part 3 on the site")."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from games.rulesets.show import privileges_services as services
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
