"""The personal desk: what I owe, where I am voted, my games, unread threads, my V/LA."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.selectors.desk import desk_for
from games.views.access import kept_viewer


@kept_viewer()
@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "games/dashboard.html", {"desk": desk_for(request.user)})
