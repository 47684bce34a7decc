"""Messages and e-mails name people by their display names and the site by its name
(settings.MAFIA_SITE_NAME), never by the internal username or the host a request came to."""

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD, make_user


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
def test_signup_mail_greets_by_display_name_and_signs_with_the_site_name_when_sent(settings):
    settings.MAFIA_SITE_NAME = "Мафия у Кикиморы"
    settings.MAFIA_SITE_URL = "https://mafia.example.org"
    Client().post(reverse("account_signup"), {"email": "newbie@example.com", "display_name": "Красная Шапочка",
                                              "password1": PASSWORD, "password2": PASSWORD})
    message = mail.outbox[-1]
    assert "Красная Шапочка" in message.body
    assert "Мафия у Кикиморы" in message.body and "Мафия у Кикиморы" in message.subject
    assert "testserver" not in message.subject  # the links go to the host asked, the name is the site's
    assert "127.0.0.1:8000" not in message.body
    assert "https://mafia.example.org" in message.body
    assert "newbie" not in re.sub(r"newbie@example\.com", "", message.body)  # no username


@pytest.mark.django_db
def test_password_reset_mail_greets_by_display_name_when_sent(settings):
    settings.MAFIA_SITE_NAME = "Мафия"
    user = make_user("Маленький Джон", email="john@example.com")
    Client().post(reverse("account_reset_password"), {"email": "john@example.com"})
    message = mail.outbox[-1]
    assert "Маленький Джон" in message.body and user.username not in message.body
    assert message.subject.startswith("[Мафия]")


@pytest.mark.django_db
def test_login_message_names_the_display_name_when_logged_in():
    user = make_user("Эсмеральда", email="esme@example.com")
    client = Client()
    response = client.post(reverse("account_login"), {"login": "esme@example.com", "password": PASSWORD}, follow=True)
    page = response.content.decode()
    assert "Эсмеральда" in page
    texts = [str(m) for m in response.context["messages"]] if response.context else []
    assert texts and all(user.username not in t for t in texts) and any("Эсмеральда" in t for t in texts)
