"""Chooses each request's language and time zone.

Russian is the site's language: a browser's Accept-Language is deliberately ignored (many of our
players run English-language browsers). English is shown only when chosen, by the language
switch (a cookie) or in the profile.

A signed-in user's language and time zone are kept in the session (`PREFS_SESSION_KEY`), written
at login, at a profile save and at a language switch, and filled once from the user when a
session has none. So choosing them never loads `request.user`: a request whose view does not
touch the user (the thread poll) costs no user query, and with the cached session engine no
query at all (docs/architecture.md, "Sessions and preferences").
"""

import zoneinfo

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone, translation

PREFS_SESSION_KEY = "_mafia_prefs"


def remember_preferences(request, user) -> None:
    """Store the user's language and time zone in the session (after login or a profile change)."""
    session = getattr(request, "session", None)
    if session is not None and user is not None and user.is_authenticated:
        session[PREFS_SESSION_KEY] = [user.language or "", user.time_zone or ""]


@receiver(user_logged_in, dispatch_uid="accounts.remember_preferences")
def _remember_at_login(sender, request, user, **kwargs):
    if request is not None:
        remember_preferences(request, user)


def session_preferences(request) -> tuple[str, str] | None:
    """(language, time zone) of the signed-in user from the session; None for an anonymous
    session. Reads `request.user` only when a signed-in session has no preferences yet (a session
    from before they were kept there), and then stores them."""
    session = getattr(request, "session", None)
    if session is None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return user.language or "", user.time_zone or ""
        return None
    if session.get(SESSION_KEY) is None:
        return None
    prefs = session.get(PREFS_SESSION_KEY)
    if prefs is None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        remember_preferences(request, user)
        prefs = session[PREFS_SESSION_KEY]
    language, tz_name = (list(prefs) + ["", ""])[:2]
    return language, tz_name


_UNSET = object()


def choose_language(request, prefs=_UNSET) -> str:
    """The language cookie, else the signed-in user's language, else Russian. `prefs` is what
    session_preferences returned, when the caller has it already."""
    available = dict(settings.LANGUAGES)
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in available:
        return cookie
    if prefs is _UNSET:
        prefs = session_preferences(request)
    if prefs is not None and prefs[0] in available:
        return prefs[0]
    return settings.LANGUAGE_CODE


def activate_preferences(request, *, from_session: bool = True) -> str:
    """Activate the request's language and time zone; returns the language. Without
    `from_session`, only the language cookie and the site's defaults count (no session read)."""
    prefs = session_preferences(request) if from_session else None
    language = choose_language(request, prefs)
    translation.activate(language)
    request.LANGUAGE_CODE = language
    tz_name = prefs[1] if prefs is not None else None
    try:
        timezone.activate(zoneinfo.ZoneInfo(tz_name or settings.TIME_ZONE))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()
    return language


def preferences_on_demand(view):
    """Mark a view that reads the preferences itself, only when it needs them (it calls
    `activate_preferences`): the middleware then does not read the session for it. For the
    thread poll, whose common answer (204, nothing new) has no text at all. Such a view's URL
    must end with one of ON_DEMAND_SUFFIXES: for those paths alone the middleware waits for the
    resolved view (process_view) before reading the session, so other requests pay nothing."""
    view.preferences_on_demand = True
    return view


ON_DEMAND_SUFFIXES = ("/poll/",)


class UserPreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        deferred = request.path_info.endswith(ON_DEMAND_SUFFIXES)
        request._preferences_deferred = deferred
        # A deferred path starts with the cookie's language or the defaults; process_view reads
        # the session unless the view is marked preferences_on_demand.
        activate_preferences(request, from_session=not deferred)
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        patch = response.get("Vary", "")
        if "Cookie" not in patch:
            response["Vary"] = f"{patch}, Cookie" if patch else "Cookie"
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(request, "_preferences_deferred", False) and not getattr(view_func, "preferences_on_demand", False):
            activate_preferences(request)
        return None
