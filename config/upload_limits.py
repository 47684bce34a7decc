"""The request-level cap on a posted body (docs/security.md, "Uploads").

Each media kind has its own size limit (settings.MAFIA_MEDIA_MAX_MB, checked with the file's
content by games/services/media.py), but that check runs after Django has read the whole upload
into a temporary file. This middleware refuses, from the Content-Length header alone and before
anything reads the body, a request larger than settings.MAFIA_REQUEST_MAX_BYTES (the largest media
limit plus a megabyte for the form's fields): a 2 GB file costs the site nothing. Django's WSGI
request reads no more than Content-Length, so a body sent without one is read as empty.

The answer is status 413 with a page in the visitor's language; an htmx form gets the message
alone, which static/js/site.js shows above the form.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.translation import gettext as _


def request_too_large(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > settings.MAFIA_REQUEST_MAX_BYTES


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request_too_large(request):
            return self.get_response(request)
        with translation.override(translation.get_language_from_request(request)):
            message = _("The request is larger than %(size)s, more than the site accepts. Choose a smaller file.") % {
                "size": filesizeformat(settings.MAFIA_REQUEST_MAX_BYTES)}
            if request.headers.get("HX-Request") == "true":
                return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
            return render(request, "413.html", {"message": message}, status=413)
