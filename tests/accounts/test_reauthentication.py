"""Reauthentication asks for the password, never for a code sent by e-mail (config/settings.py,
ACCOUNT_REAUTHENTICATION_METHODS): the routes django-allauth 65.22 added for codes exist and refuse."""

import pytest
from django.core import mail
from django.core.cache import cache

from tests.conftest import client_for, make_user

CODE_URLS = ("/accounts/reauthenticate/code/", "/accounts/reauthenticate/code/confirm/")


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
@pytest.mark.parametrize("url", CODE_URLS)
def test_reauthentication_by_code_is_off(url):
    client = client_for(make_user("Вася"))
    assert client.get(url).status_code == 403
    assert client.post(url, {"email": "x@example.com"}).status_code == 403
    assert mail.outbox == []  # no code was sent


@pytest.mark.django_db
@pytest.mark.parametrize("url", CODE_URLS)
def test_reauthentication_by_code_sends_an_anonymous_visitor_to_log_in(url):
    response = client_for(None).get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_reauthentication_offers_the_password_alone():
    response = client_for(make_user("Вася")).get("/accounts/reauthenticate/")
    assert response.status_code == 200
    assert "/accounts/reauthenticate/code/" not in response.content.decode()
