"""Chooses each request's language and time zone.

Russian is the site's language: a browser's Accept-Language is deliberately ignored (many of our
players run English-language browsers). English is shown only when chosen, by the language
switch (a cookie) or in the profile.
"""

import zoneinfo

from django.conf import settings
from django.utils import timezone, translation


def choose_language(request) -> str:
    available = dict(settings.LANGUAGES)
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in available:
        return cookie
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.language in available:
        return user.language
    return settings.LANGUAGE_CODE


class UserPreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = choose_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        user = getattr(request, "user", None)
        tz_name = user.time_zone if user is not None and user.is_authenticated else None
        try:
            timezone.activate(zoneinfo.ZoneInfo(tz_name or settings.TIME_ZONE))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        patch = response.get("Vary", "")
        if "Cookie" not in patch:
            response["Vary"] = f"{patch}, Cookie" if patch else "Cookie"
        return response
