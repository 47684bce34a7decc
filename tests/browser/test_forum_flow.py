"""A newcomer signs up, confirms the e-mail, logs in and posts a reply that appears without a
page reload (htmx), in a real browser."""

import re

import pytest
from django.core import mail

from games.models import Post, Thread
from games.services.threads import thread_create
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def test_newcomer_signs_up_logs_in_and_replies_without_reload(live_server, page, transactional_db):
    host = make_user("Хозяин")
    thread, _ = thread_create(kind=Thread.Kind.LOBBY, title="Набор", author=host, body="Кто играет?")

    page.goto(f"{live_server.url}/accounts/signup/")
    assert "Регистрация" in page.content()
    page.fill("input[name=email]", "newbie@example.com")
    page.fill("input[name=display_name]", "Новичок")
    page.fill("input[name=password1]", "Very-secret-pass-1")
    page.fill("input[name=password2]", "Very-secret-pass-1")
    page.click("main form [type=submit]")
    # The click only starts the navigation; the mail exists once the server answered.
    page.wait_for_url(re.compile(r".*/confirm-email/.*"))
    for _ in range(50):
        if mail.outbox:
            break
        page.wait_for_timeout(100)

    link = re.search(r"https?://\S+", mail.outbox[-1].body).group(0)
    page.goto(link)
    page.click("main form [type=submit]")
    page.wait_for_load_state()

    # Log out (1100 px is narrow enough for the header's menu button) and back in through the login form.
    page.goto(f"{live_server.url}/")
    page.click(".menu-button")
    page.click("header form[action$='/logout/'] button")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", "newbie@example.com")
    page.fill("input[name=password]", "Very-secret-pass-1")
    page.click("main form [type=submit]")
    page.wait_for_load_state()
    assert "Новичок" in page.text_content("header .me")  # in the folded menu at this width

    page.goto(f"{live_server.url}{thread.get_absolute_url()}")
    page.evaluate("window.__noReload = 'still here'")
    page.fill("#reply-body", "Я в деле! [b]Записывайте.[/b]")
    page.click("button[name=post]")
    page.wait_for_selector("#p2")
    assert "Записывайте." in page.inner_text("#p2 .post-body")
    assert page.evaluate("window.__noReload") == "still here", "the page reloaded instead of swapping with htmx"
    assert page.input_value("#reply-body") == ""
    assert page.url.endswith("#p2")
    assert Post.objects.filter(thread=thread, number=2, author__display_name="Новичок").exists()


def test_quote_button_and_preview_work_in_browser(live_server, browser, transactional_db):
    author = make_user("Эсмеральда")
    reader = make_user("Фроло")
    thread, _ = thread_create(kind=Thread.Kind.LOBBY, title="Цитаты", author=author, body="Танцую на площади")
    page = logged_in_page(browser, live_server.url, reader)

    page.goto(f"{live_server.url}{thread.get_absolute_url()}")
    page.click("#p1 .quote-button")
    page.wait_for_function("() => document.getElementById('reply-body').value.includes('[quote=')")
    assert '[quote="Эсмеральда"]Танцую на площади[/quote]' in page.input_value("#reply-body")
    page.fill("#reply-body", "[i]Черновик[/i]")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview em")
    assert page.inner_text("#preview em") == "Черновик"
    assert Post.objects.filter(thread=thread).count() == 1
    page.context.close()
