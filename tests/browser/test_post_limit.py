"""The post length limit is stated before sending and the browser's cut agrees with the server: a
paste longer than the limit is cut to exactly the limit, the box says so, and the post is accepted
(it used to be cut to limit + 1 and then refused)."""

import os

import pytest

from games.models import Post, Thread
from games.services.threads import thread_create
from tests.browser.conftest import phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def test_post_box_cuts_a_long_paste_to_the_server_limit_and_says_so_when_pasting(
        live_server, browser, transactional_db, settings):
    settings.MAFIA_POST_MAX_LENGTH = 200
    author = make_user("Писатель")
    thread, _ = thread_create(kind=Thread.Kind.LOBBY, title="Длинные тексты", author=author, body="Начало.")
    page = phone_page(browser, live_server.url, author)
    page.goto(f"{live_server.url}{thread.get_absolute_url()}")
    limit_hint = page.locator("#post-limit")
    assert "200" in limit_hint.inner_text()
    box = page.locator("#reply-body")
    box.focus()
    text = "Очень длинный текст. " * 20  # 420 characters
    page.evaluate("""text => {
        const data = new DataTransfer(); data.setData('text/plain', text);
        document.getElementById('reply-body').dispatchEvent(
            new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
    }""", text)
    page.keyboard.insert_text(text)
    assert box.evaluate("el => el.value.length") == 200
    assert page.locator("[data-post-cut]").is_visible()
    assert "200 / 200" in limit_hint.inner_text()
    shots = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
    os.makedirs(shots, exist_ok=True)
    page.screenshot(path=os.path.join(shots, "post-limit.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("button[name=post]")
    page.wait_for_function("() => !document.querySelector('#reply-body') || document.querySelector('#reply-body').value === ''")
    assert Post.objects.filter(thread=thread, author=author).count() == 2
    page.context.close()
