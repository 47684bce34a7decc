"""The time-zone picker searches as you type (static/js/site.js, select[data-filter]), on a phone."""

import os

import pytest
from django.urls import reverse

from tests.browser.conftest import phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def test_time_zone_picker_finds_a_city_when_typed_and_saves_it(live_server, browser, transactional_db):
    user = make_user("Путешественник")
    page = phone_page(browser, live_server.url, user)
    page.goto(live_server.url + reverse("accounts:profile_edit"))
    search = page.locator("input.select-filter")
    search.fill("novosib")  # the zone's id; its Russian label «Новосибирск» comes with the catalogue
    visible = page.locator("#id_time_zone option:not([hidden])")
    assert visible.count() >= 1
    assert page.locator("#id_time_zone").input_value() == "Asia/Novosibirsk"
    search.fill("UTC+12")
    assert page.locator("#id_time_zone").evaluate(
        "s => Array.from(s.options).filter(o => !o.hidden).every(o => o.textContent.includes('UTC+12'))")
    search.fill("Париж")  # the other zones are named in Russian by CLDR
    assert page.locator("#id_time_zone").input_value() == "Europe/Paris"
    search.fill("Asia/Novosibirsk")
    assert page.locator("#id_time_zone").input_value() == "Asia/Novosibirsk"
    shots = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
    os.makedirs(shots, exist_ok=True)
    page.screenshot(path=os.path.join(shots, "profile-time-zone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    user.refresh_from_db()
    assert user.time_zone == "Asia/Novosibirsk"
    page.context.close()
