"""CSRF (issue 8): every URL pattern of the site refuses a state-changing request without the CSRF
token with 403 and changes nothing, for a logged-in GM, player and staff member. The patterns
come from the resolver (tests/security/urlmap.py); the views that only read (GET) are an explicit
list there, and that list is checked too: with a valid token such a view answers a POST with 405.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.security import urlmap
from tests.security.conftest import fingerprint

pytestmark = pytest.mark.django_db

# Data that would change something in most views if the request got through (a reply, a lock, a
# phase close, a vote option, a profile name, a login...), so that a missing check shows.
FORM = {
    "action": "close", "body": "CSRF", "title": "CSRF", "text": "CSRF", "reason": "CSRF", "comment": "",
    "name": "Зритель", "aliases": "CSRF", "language": "en", "next": "/", "display_name": "CSRF",
    "time_zone": "UTC", "syntax": "vote_tag", "end_day_on_majority": "on", "audience": "public",
    "login": "csrf@example.com", "password": "CSRF", "email": "csrf@example.com", "oldpassword": "x",
    "password1": "CSRFcsrf12345", "password2": "CSRFcsrf12345", "starts_on": "2030-01-01", "ends_on": "2030-01-02",
}
UNSAFE_METHODS = ("post", "put", "patch", "delete")


def _first_urls(world) -> list[tuple[urlmap.Pattern, str]]:
    """One URL per pattern (the first set of parameters its filler gives)."""
    seen, out = set(), []
    for pattern, url in urlmap.expand(world, queries=False):
        if pattern.key not in seen:
            seen.add(pattern.key)
            out.append((pattern, url))
    return out


def test_no_view_is_csrf_exempt():
    exempt = [p.key for p in urlmap.all_patterns() if getattr(p.callback, "csrf_exempt", False)]
    assert exempt == []


@pytest.mark.parametrize("who", ["gm", "vasya", "staff"])
def test_unsafe_requests_without_a_token_are_refused_and_change_nothing(shared_world, who):
    client = Client(enforce_csrf_checks=True)
    client.force_login(shared_world.user(who))
    before = fingerprint()
    wrong = []
    for pattern, url in _first_urls(shared_world):
        for method in UNSAFE_METHODS:
            response = getattr(client, method)(url, FORM if method == "post" else "")
            if response.status_code != 403:
                wrong.append(f"{method.upper()} {url} ({pattern.key}): {response.status_code}")
    assert wrong == []
    assert fingerprint() == before


def test_a_wrong_token_is_no_better_than_none(shared_world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(shared_world.user("gm"))
    client.get(shared_world.game.game_thread.get_absolute_url())  # sets the CSRF cookie
    before = fingerprint()
    url = f"/threads/{shared_world.game.game_thread_id}/reply/"
    response = client.post(url, {"body": "CSRF", "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403
    response = client.post(url, {"body": "CSRF"}, HTTP_X_CSRFTOKEN="y" * 32)
    assert response.status_code == 403
    assert fingerprint() == before


def test_the_fingerprint_sees_what_those_requests_would_have_changed(shared_world):
    """The control: the same requests with the token go through and change the fingerprint."""
    client = Client()  # the test client's own default: CSRF checks off
    client.force_login(shared_world.user("gm"))
    thread = shared_world.game.game_thread
    for url in (f"/threads/{thread.pk}/reply/", f"/threads/{thread.pk}/moderate/"):
        before = fingerprint()
        response = client.post(url, FORM | {"action": "lock", "confirm": "yes"})
        assert response.status_code == 302 and fingerprint() != before, url


def test_the_read_only_views_refuse_other_methods(shared_world):
    """ROUTES lists as GET-only exactly the views that answer a POST (with a valid token) with
    405: the list that exempts them from being state-changing is true."""
    client = Client()
    client.force_login(shared_world.user("gm"))
    before = fingerprint()
    wrong = []
    for pattern, url in _first_urls(shared_world):
        if urlmap.ROUTES[pattern.key].methods == {urlmap.GET}:
            status = client.post(url, FORM).status_code
            if status != 405:
                wrong.append(f"{url} ({pattern.key}): {status}")
    assert wrong == []
    assert fingerprint() == before
