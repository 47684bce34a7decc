"""The site's own answer to a refused form (CSRF_FAILURE_VIEW): a page in the site's language and
layout instead of Django's, saying what to do. The other error pages are Django's views with the
templates in templates/ (400, 403, 404, 500)."""

from django.http import HttpResponseForbidden
from django.template.loader import render_to_string
from django.middleware.csrf import REASON_NO_CSRF_COOKIE


def csrf_failure(request, reason=""):
    html = render_to_string("403_csrf.html", {"no_cookie": reason == REASON_NO_CSRF_COOKIE}, request=request)
    return HttpResponseForbidden(html)
