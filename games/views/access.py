"""Who is sent to log in: the pages of a public game that only some signed-in users may see; and
the kept reads of a page that is not a thread's (its viewer and his bell)."""

from __future__ import annotations

import functools

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404

from games.caching import pagecache
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


def login_when_hidden(view):
    """For a page under /games/<pk>/ that is public at some times and for some signed-in users at
    others (the archive, the replay and the export: everybody's after the game, its GMs' while it
    runs; a cards player's «Мои карты»): an anonymous visitor the page would answer with a 404 is
    sent to the login page and back instead, when the game exists and has been dealt (issue 29,
    item 13, as login_first); a signed-in user keeps the 404 of games.permissions, and so does
    everybody during sign-ups, when these pages are nobody's."""
    @functools.wraps(view)
    def wrapper(request, *args, pk: int, **kwargs):
        try:
            return view(request, *args, pk=pk, **kwargs)
        except Http404:
            if request.user.is_authenticated or not Game.objects.filter(pk=pk).exclude(
                    status=Game.Status.SIGNUPS).exists():
                raise
            return redirect_to_login(request.get_full_path())
    return wrapper


def kept_viewer(*, game: bool = False):
    """For a page that is not a thread's (the desk, a game's GM dashboard, archive and replay;
    issue 30): its counters read first (pagecache.read_page_stamps; the game's too when `game`,
    the view's `pk` being the game's), the session's user taken from the cache when kept there
    (pagecache.kept_user, as the thread page does) and the stamps left on the request as
    `request.page_stamps`, which the bell (games.context_processors) and the view's own kept
    reads use. Outermost: before anything loads the user."""
    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if pagecache.session_user_id(request) is None:
                return view(request, *args, **kwargs)  # the anonymous: no user, no bell to keep
            stamps = pagecache.read_page_stamps(request, game_id=kwargs.get("pk") if game else None)
            pagecache.kept_user(request, stamps)
            request.page_stamps = stamps
            return view(request, *args, **kwargs)
        return wrapper
    return decorate
