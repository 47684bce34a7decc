"""The show's pages: the public status of keys, a hero's /fullstatus, and the hero's panel's forms
(one POST endpoint dispatching to games.rulesets.show.services)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games import permissions
from games.models import Game, Seat
from games.services import ActionRefused
from games.rulesets.show import services
from games.rulesets.show.coins import services as services_coins
from games.rulesets.show.selectors import full_status_rows, status_rows, trial_tasks_of
from games.rulesets.show.coins.selectors import about_me_rows, results_rows


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


def _to_my_seat(request: HttpRequest, pk: int, page: str) -> HttpResponse:
    """One's own page of a seat's pages (/fullstatus, «Обо мне»); 404 for whoever has no seat."""
    game = _show_game(pk)
    mine = permissions.seat_of(request.user, game)
    if mine is None:
        raise Http404
    return redirect(page, pk=game.pk, seat_pk=mine.pk)


@require_GET
def show_fullstatus_mine(request: HttpRequest, pk: int) -> HttpResponse:
    return _to_my_seat(request, pk, "games:show_fullstatus")


@require_GET
def show_fullstatus(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """/fullstatus: «публичные + приватные + врождённые» keys as this hero knows them; 404 for anyone
    but the hero, the GMs, and everyone after the end (games.permissions.check_see_full_status)."""
    game = _show_game(pk)
    seat = get_object_or_404(Seat, game=game, pk=seat_pk)
    viewer, _pov = permissions.viewer_for(request, game)
    status = full_status_rows(game=game, seat=seat, user=viewer)
    return render(request, "games/show_fullstatus.html", {"game": game, "seat": seat, "status": status})


COIN_ACTS = frozenset({"bet", "raise", "sympathy", "ally", "grant", "grant_pass", "trial"})


def _coins_act(act: str, data, files, kwargs: dict, target: Seat | None):
    """Part 2's forms on the hero's panel (games.rulesets.show.coins.services)."""
    if act == "bet":
        return services_coins.show_bet(**kwargs, target=target)
    if act == "raise":
        return services_coins.show_raise(**kwargs, target=target)
    if act == "sympathy":
        return services_coins.show_sympathy(**kwargs, target=target, message=data.get("message"))
    if act == "ally":
        return services_coins.show_pick_ally(**kwargs, target=target)
    if act == "grant":
        return services_coins.show_grant(**kwargs, post=data.get("answer"), amount=data.get("amount"))
    if act == "grant_pass":
        return services_coins.show_grant(**kwargs, post=None, amount=None)
    upload = files.get("answer_file")
    if upload is None:
        raise ActionRefused(gettext("Choose the file of your answer."), code="media_missing")
    return services_coins.show_trial_answer(**kwargs, upload=upload)


@require_GET
def show_about_mine(request: HttpRequest, pk: int) -> HttpResponse:
    return _to_my_seat(request, pk, "games:show_about")


@require_GET
def show_about(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    """«Обо мне»: a hero's bet, who bet on him, his coins in this show; 404 for anyone but the hero,
    the GMs, and everyone after the end (games.permissions.can_see_about_me)."""
    game = _show_game(pk)
    seat = get_object_or_404(Seat, game=game, pk=seat_pk)
    viewer, _pov = permissions.viewer_for(request, game)
    about = about_me_rows(game=game, seat=seat, user=viewer)
    return render(request, "games/show_about.html", {"game": game, "seat": seat, "about": about})


@require_GET
def show_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The results of a finished show (its GMs may look while it runs): roles, ratings in %, «История
    Шоу», the splits, the fines; 404 for anyone else (games.permissions.can_see_ratings)."""
    game = _show_game(pk)
    viewer, _pov = permissions.viewer_for(request, game)
    return render(request, "games/show_results.html", {"game": game, "results": results_rows(game=game, user=viewer),
                                                       "trial_tasks": trial_tasks_of(game)})


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
    elif act == "done":
        result = services.show_done(**kwargs)
    elif act in COIN_ACTS:
        try:
            result = _coins_act(act, data, request.FILES, kwargs, target)
        except ActionRefused as refusal:  # a trial answer's file or a sympathy's message refused, nothing written
            messages.error(request, refusal.message)
            return redirect(game.get_absolute_url())
    else:
        raise Http404
    return answered(request, game, act, result)


def answered(request: HttpRequest, game: Game, act: str, result) -> HttpResponse:
    """A panel form's answer: the service's word as a message, back to the game's page."""
    if result.accepted:
        messages.success(request, services.accepted_text(act, closed=result.closed))
    else:
        messages.error(request, result.message)
    return redirect(game.get_absolute_url())


def gm_replace(request: HttpRequest, game: Game, phase, now) -> None:
    """The GM's «Заменить приказ» on the dashboard (the GM input `show_replace`, dispatched by
    games:gm_action, which checked the GM): `choice` is «action:hero id», «action:enslave|spare» or
    «spare:» for the judge's «Пощадить», with the night choice's extras as seat ids."""
    seat = _seat(game, request.POST.get("seat"))
    if seat is None:
        raise ActionRefused(gettext("Choose a player."), code="no_seat")
    action, _sep, raw = str(request.POST.get("choice", ""))[:64].partition(":")
    choice = int(raw) if raw.isdigit() else (raw or None)
    if choice is not None and not isinstance(choice, int) and choice not in services.BALLOT_WORDS:
        raise ActionRefused(services.WORDING.reason_text("bad_target"), code="bad_target")
    detail = {k: request.POST.get(k) for k in services.DETAIL_KEYS if request.POST.get(k)}
    result = services.show_gm_replace(game=game, gm=request.user, seat=seat, action=action, choice=choice,
                                      detail=detail, now=now)
    if not result.accepted:
        raise ActionRefused(result.message, code=result.code)
    messages.success(request, gettext("The input of %(name)s is replaced; it counts at the stage's close.")
                     % {"name": seat.dealt_name or seat.user.display_name})
