"""The new-game form shows the chosen rule set's roles only (static/js/site.js) and takes a role
table typed in Russian, on a phone."""

import os

import pytest
from django.urls import reverse

from games.models import Game
from games.services.games import game_create
from tests.browser.conftest import phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def test_new_game_form_lists_the_chosen_rule_sets_roles_when_switched(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    page = phone_page(browser, live_server.url, gm)
    page.goto(live_server.url + reverse("games:game_new"))
    forum_line, club_line = page.locator('[data-ruleset-help="forum"]'), page.locator('[data-ruleset-help="club"]')
    assert forum_line.is_visible() and not club_line.is_visible()
    page.select_option("select[name=ruleset]", "club")
    assert club_line.is_visible() and not forum_line.is_visible()
    assert "путана" in club_line.inner_text()
    page.fill("input[name=title]", "Клуб по-русски")
    page.fill("input[name=size]", "8")
    page.fill("input[name=roles]", "дон, мафиози, путана, комиссар, доктор, маньяк, 2 мирных")
    shots = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
    os.makedirs(shots, exist_ok=True)
    page.screenshot(path=os.path.join(shots, "game-new-roles.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    game = Game.objects.get(title="Клуб по-русски")
    assert sorted(game.role_table) == sorted(["don", "mafioso", "putana", "commissar", "doctor", "maniac",
                                              "civilian", "civilian"])
    page.context.close()


def test_new_game_form_shows_only_the_chosen_rule_sets_fields_when_picked(live_server, browser, transactional_db):
    """Issue 29, item 5: a forum game shows no club, cards or show option; picking a rule set swaps
    its own fields in, on a phone."""
    gm = make_user("Ведущий")
    page = phone_page(browser, live_server.url, gm)
    page.goto(live_server.url + reverse("games:game_new"))
    groups = page.locator("[data-ruleset-field]")
    keys = set(groups.evaluate_all("els => els.map(e => e.dataset.rulesetField)"))
    assert {"club", "cards", "show"} <= keys

    def shown() -> set[str]:
        return {g.get_attribute("data-ruleset-field") for g in groups.all() if g.is_visible()}

    assert shown() == set()  # the forum adds no field of its own
    assert not page.locator("input[name=newcomers]").is_visible()
    for key in sorted(keys):
        page.select_option("select[name=ruleset]", key)
        assert shown() == {key}
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.select_option("select[name=ruleset]", "club")
    assert page.locator("input[name=newcomers]").is_visible() and not page.locator("input[name=hero]").is_visible()
    page.context.close()


def test_a_newcomer_signing_up_for_a_forum_game_is_asked_no_indicode_on_a_phone(live_server, browser, transactional_db):
    """Issue 29, item 5: the sign-up on the way to a forum game shows no show's «ИндиКод … 1000 ㉿»."""
    game = game_create(title="Форумная", gm=make_user("Ведущий"), ruleset="forum", size=9)
    page = phone_page(browser, live_server.url)
    page.goto(live_server.url + game.get_absolute_url())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("link", name="Зарегистрироваться, чтобы играть").click()
    page.wait_for_load_state()
    assert "/accounts/signup/" in page.url and "next=" in page.url
    assert page.locator("input[name=display_name]").is_visible()
    assert page.locator("[name=referral_code]").count() == 0 and "ИндиКод" not in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()


def test_picking_the_show_sets_ten_players_unless_the_gm_typed_a_count(live_server, browser, transactional_db):
    """Issue 28, item 18: «В каждом Большом Шоу всегда ровно 10 участников»: picking «Шоу» moves the
    player count to the show's 10 (SiteRuleset.default_size) and back to 9 for another rule set;
    a count the GM typed stays. The show's amounts show with its fields, on a phone."""
    gm = make_user("Ведущий")
    page = phone_page(browser, live_server.url, gm)
    page.goto(live_server.url + reverse("games:game_new"))
    size = page.locator("input[name=size]")
    assert size.input_value() == "9"
    page.select_option("select[name=ruleset]", "show")
    assert size.input_value() == "10"
    assert page.locator("input[name=show_entry_fee]").is_visible()
    assert page.locator("input[name=show_grants]").input_value() == "10, 15, 25"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.select_option("select[name=ruleset]", "forum")
    assert size.input_value() == "9" and not page.locator("input[name=show_entry_fee]").is_visible()
    size.fill("7")
    page.select_option("select[name=ruleset]", "show")
    assert size.input_value() == "7"
    page.context.close()
