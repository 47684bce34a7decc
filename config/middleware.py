"""Site-wide response headers that depend on who asked: `Cache-Control: private, no-store` on
every page rendered for a logged-in user (docs/security.md, "Headers")."""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY

PRIVATE_CACHE_CONTROL = "private, no-store"
# A view that decided a response's caching itself from the visibility module (games:post_media's
# redirect to a signed address: private or public, never longer than the signature) sets this
# attribute on the response; the middleware leaves its Cache-Control alone.
OWN_CACHE_CONTROL = "cache_control_decided"


class PrivateResponsesMiddleware:
    """Marks every response to a logged-in session as not to be stored by any cache, the
    browser's own included: role pages, letters, team chats, rooms, the GM dashboards, the card
    pages, the notifications are all pages of a logged-in user, and so is every other page he
    sees (his name, his bell, his vote buttons). Keyed on the session rather than on a list of
    views, so that a new secret page cannot be forgotten; anonymous pages (what a spectator sees,
    archives of finished games) keep whatever caching they had.

    It sits inside ThreadPageCacheMiddleware: the header is stored with a kept thread page and
    replayed on every hit, so a page from the server's page cache carries it too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # A response whose making never read the session cannot depend on who asked (the user
        # is loaded from it): the live-update poll of a public thread. Not reading it here either
        # spares such a request the session's cache lookup (measured: the poll fell from 0.97
        # to 0.62 x the empty view when every request loaded its session for this check).
        if getattr(response, OWN_CACHE_CONTROL, False):
            return response
        if session is not None and session.accessed and session.get(SESSION_KEY) is not None:
            response.headers["Cache-Control"] = PRIVATE_CACHE_CONTROL
        return response
