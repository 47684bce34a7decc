"""Who is sent to log in: the pages of a public game that only some signed-in users may see."""

from __future__ import annotations

import functools

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404

from games.models import Game


def login_first(view):
    """For a page under /games/<pk>/ that exists for some signed-in users only (the GM's dashboard,
    a player's role page): an anonymous visitor of an existing game is sent to the login page and
    back (`next=`), since the game is public and he may be its GM or a player (issue 29); a
    signed-in user the page is not for still gets the 404 of games.permissions, which says
    nothing of who plays what."""
    @functools.wraps(view)
    def wrapper(request, *args, pk: int, **kwargs):
        if not request.user.is_authenticated:
            get_object_or_404(Game, pk=pk)
            return redirect_to_login(request.get_full_path())
        return view(request, *args, pk=pk, **kwargs)
    return wrapper
