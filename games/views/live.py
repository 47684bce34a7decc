"""The live-update poll of a thread's last page: "N new posts — show".

`GET /threads/<pk>/poll/?after=<last post number the page shows>` answers 204 No Content when
nothing is new (htmx does not swap on 204) and otherwise a small fragment with a link to the first
new post. For game, discussion, lobby and general threads it runs no SQL query: the thread's
(kind, post count) comes from the cache (games/caching/live.py), `request.user` is never loaded, and the
fragment is rendered without the request (no context processors, so no bell count). Even the
session is read only when there is something to say (in the reader's language): the view is
marked `preferences_on_demand` (accounts/middleware.py). Private threads go through
games.permissions like their pages do; a thread one may not see is a 404.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from accounts.middleware import activate_preferences, preferences_on_demand
from games import permissions
from games.caching import live
from games.models import Thread


def _uncached(response: HttpResponse) -> HttpResponse:
    # What never_cache says, without its date formatting (a third of an empty view's cost).
    response["Cache-Control"] = "max-age=0, no-cache, no-store, must-revalidate, private"
    return response


@preferences_on_demand
@require_GET
def thread_poll(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        state = live.thread_state(pk)
        if state is None:
            raise Http404
        kind, post_count = state
        if kind in Thread.PRIVATE_KINDS:
            thread = get_object_or_404(Thread, pk=pk)
            permissions.check_see_thread(request.user, thread)
            post_count = thread.post_count
    except Http404:
        activate_preferences(request)  # the 404 page speaks the reader's language
        raise
    try:
        after = int(request.GET.get("after", ""))
    except ValueError:
        after = -1
    if after < 0:
        activate_preferences(request)
        return _uncached(HttpResponse(_("Say after which post number to look for new posts."), status=400,
                                      content_type="text/plain; charset=utf-8"))
    new = post_count - after
    if new <= 0:
        return _uncached(HttpResponse(status=204))
    activate_preferences(request)
    html = render_to_string("games/_thread_poll.html", {
        "text": ngettext("%(count)d new post — show", "%(count)d new posts — show", new) % {"count": new},
        "url": reverse("games:post", args=[pk, after + 1]),
        "count": new,
    })
    return _uncached(HttpResponse(html))
