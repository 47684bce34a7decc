"""Every page on a phone (issue 14, item 9), in a real Chromium 390 px wide: no page-level sideways
scroll, a header that collapses into one row with a menu button (which works with and without
JavaScript), tables that fit or scroll inside their own visible box, tap targets of at least 40 px.
And at 1280 px the whole header stays on one line. Screenshots go to /tmp/phone-shots/."""

import os
import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games.rulesets.cards.engine import default_collection, starter_deck
from games.models import Game, Order
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.moderation import absence_add
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.browser.conftest import LONG_NAME, logged_in_page, phone_page, small_cards_game
from tests.conftest import make_user

pytestmark = pytest.mark.browser


def _(text: str) -> str:
    with translation.override("ru"):
        return translation.gettext(text)


SHOTS = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
ROLES = ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]
# A 40-character nickname with no space to break at: it must wrap, never widen the page.
NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", LONG_NAME]
LONG_URL = "https://example.com/" + "очень-длинная-ссылка-без-пробелов/" * 6 + "?q=" + "x" * 80

# Measures the page as a phone user sees it. "Too wide" lists every visible element that sticks
# out of the viewport, except what sits inside an element that scrolls sideways (a table's
# scroller, a code block); "tables" lists the tables that neither fit nor sit in such a scroller.
MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const scrolls = (el) => { const o = getComputedStyle(el).overflowX; return o === "auto" || o === "scroll"; };
  const scrollerAround = (el) => {
    for (let p = el; p && p !== document.body; p = p.parentElement) if (scrolls(p)) return p;
    return null;
  };
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).join(".") : "")
    + " «" + (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 50) + "»";
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
  const tooWide = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (!shown(el) || (el.parentElement && scrollerAround(el.parentElement))) continue;
    const r = el.getBoundingClientRect();
    if (r.right > vw + 0.5 || r.left < -0.5) tooWide.push(describe(el) + " " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  const tables = [];
  for (const t of document.querySelectorAll("main table")) {
    if (!shown(t)) continue;
    const r = t.getBoundingClientRect(), scroller = scrollerAround(t);
    const fits = r.left >= -0.5 && r.right <= vw + 0.5;
    // A table made a scroller itself (display: block) loses its layout: columns squeezed, rows tall.
    if (!fits && (!scroller || scroller === t)) tables.push(describe(t));
    const stacked = getComputedStyle(t).display === "block";
    // Squeezed columns: a narrow cell whose words are stacked one per line.
    const squeezed = stacked ? null : [...t.querySelectorAll("td, th")].find((c) => {
      const b = c.getBoundingClientRect(); return b.width < 90 && b.height > 110;
    });
    if (squeezed) tables.push(describe(t) + ": squeezed cell " + describe(squeezed));
  }
  const small = [];
  const targets = ".site-header a, .site-header button, .site-header label, .site-header input:not([type=hidden]), "
    + "main button, main .button, main select, main input[type=text], main input[type=search], main input[type=number], "
    + "main input[type=date], main input[type=datetime-local], main summary, .pagination a, .tabs a, .post-actions a, .post-actions button";
  for (const el of document.querySelectorAll(targets)) {
    if (!shown(el) || el.matches(".menu-toggle")) continue;  // the menu's checkbox: its label is the target
    const r = el.getBoundingClientRect();
    if (r.height < 39.5) small.push(describe(el) + " " + Math.round(r.height) + "px");
  }
  const header = document.querySelector(".site-header").getBoundingClientRect().height;
  return {pageWidth: document.scrollingElement.scrollWidth, viewport: vw, tooWide, tables, small, header};
}"""


def _shot(page, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def assert_fits_a_phone(page, name: str, *, menu_links=("Games", "Lobby", "Leaderboards")) -> None:
    """The checks every page gets at 390 px, then the menu is opened and its links looked at
    (`menu_links`: msgids, or names as they are)."""
    page.wait_for_load_state("load")
    width = page.viewport_size["width"]
    m = page.evaluate(MEASURE)
    _shot(page, name)
    assert m["viewport"] == width
    assert m["pageWidth"] <= width, f"{name}: the page scrolls sideways ({m['pageWidth']} px): {m['tooWide'][:8]}"
    assert not m["tooWide"], f"{name}: wider than the screen: {m['tooWide'][:8]}"
    assert not m["tables"], f"{name}: tables cut off, neither fitting nor in a scroller: {m['tables']}"
    assert not m["small"], f"{name}: tap targets under 40 px: {m['small'][:8]}"
    assert m["header"] <= 80, f"{name}: the collapsed header is {m['header']} px tall"
    assert page.is_hidden(".site-menu"), f"{name}: the menu is open before it is asked for"

    page.click(".menu-button")
    page.wait_for_selector(".site-menu", state="visible")
    for text in map(_, menu_links):
        link = page.locator(".site-menu a", has_text=text).first
        assert link.is_visible(), f"{name}: «{text}» is not in the opened menu"
        box = link.bounding_box()
        assert box["height"] >= 39.5 and box["x"] >= 0 and box["x"] + box["width"] <= width
    opened = page.evaluate(MEASURE)
    assert opened["pageWidth"] <= width and not opened["tooWide"], f"{name}, menu open: {opened['tooWide'][:8]}"
    assert not opened["small"], f"{name}, menu open: small tap targets {opened['small'][:8]}"
    _shot(page, f"{name}-menu")
    page.click(".menu-button")
    page.wait_for_selector(".site-menu", state="hidden")


def _forum_game():
    """A running forum game on day 1 with talk, votes (one refused), a long URL, a V/LA."""
    gm = make_user("Ведущий")
    game = game_create(title="Игра на телефоне: длинное название, чтобы переноситься", gm=gm, size=7)
    players = {name: make_user(name) for name in NAMES}
    for user in players.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=ROLES)
    game = Game.objects.get(pk=game.pk)
    thread = game.game_thread
    post_submit(thread=thread, author=players["Вася"], body=f"Смотрите: {LONG_URL}\n[b]В тюрьму Кикимору[/b]")
    post_submit(thread=thread, author=players[LONG_NAME], body="[b]В тюрьму Васю[/b]")
    post_submit(thread=thread, author=players["Кикимора"], body="[b]В тюрьму Никого-такого-нет[/b]")
    post_submit(thread=thread, author=players["Эсмеральда"], body="[b]В тюрьму Кикимору[/b] " + "Слово " * 60)
    today = timezone.localdate()
    absence_add(user=players["Фроло"], starts_on=today, ends_on=today + timedelta(days=3), note="в отъезде, без связи")
    return game, gm, players


def test_game_pages_fit_a_phone_when_390px_wide(live_server, browser, transactional_db):
    game, gm, players = _forum_game()
    base = live_server.url

    player = phone_page(browser, base, players["Вася"])
    player.goto(f"{base}{game.game_thread.get_absolute_url()}")
    assert player.is_visible("#reply-body") and player.is_visible("#vote-count")
    assert_fits_a_phone(player, "thread")
    # With JavaScript, Escape shuts the menu again.
    player.click(".menu-button")
    player.wait_for_selector(".site-menu", state="visible")
    player.keyboard.press("Escape")
    player.wait_for_selector(".site-menu", state="hidden")
    player.goto(f"{base}/games/{game.pk}/votes/")
    assert_fits_a_phone(player, "votes")
    player.goto(f"{base}/games/{game.pk}/role/")
    assert player.is_visible(".order-form")
    assert_fits_a_phone(player, "role")
    player.goto(f"{base}/games/")
    assert_fits_a_phone(player, "game-list")
    player.goto(f"{base}/")
    assert_fits_a_phone(player, "index")
    player.context.close()

    master = phone_page(browser, base, gm)
    master.goto(f"{base}/games/{game.pk}/gm/")
    assert_fits_a_phone(master, "gm")
    # The activity table reads as one block per player, every cell naming its column.
    labels = master.eval_on_selector_all(
        "table.gm-activity tbody tr:first-child td[data-label]", "cells => cells.map(c => getComputedStyle(c, '::before').content)")
    assert labels[:2] == [f'"{_("Posts this phase")}"', f'"{_("Posts in all")}"']
    assert master.eval_on_selector("table.gm-activity", "t => getComputedStyle(t).display") == "block"
    master.goto(f"{base}/games/{game.pk}/votes/")
    assert_fits_a_phone(master, "votes-gm")  # the history with the GM's correction forms
    master.context.close()


def test_the_gm_s_game_page_fits_a_phone_with_its_alias_forms_whole(live_server, browser, transactional_db):
    """Issue 29: the GM's view of /games/N/ was 429 px wide at 390 px, the alias forms' «Сохранить»
    cut off. Every alias form's field and button lie inside the screen, each button is the element
    under its own middle (not hidden under another), and a tap on one saves."""
    game, gm, _players = _forum_game()
    base = live_server.url
    master = phone_page(browser, base, gm)
    master.goto(f"{base}{game.get_absolute_url()}")
    assert_fits_a_phone(master, "game-gm")
    forms = master.locator("form.alias-form")
    assert forms.count() == game.seats.count()
    width = master.viewport_size["width"]
    for index in range(forms.count()):
        for part in ("input[name=aliases]", "button"):
            element = forms.nth(index).locator(part)
            element.scroll_into_view_if_needed()
            box = element.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (index, part, box)
        button = forms.nth(index).locator("button")
        assert button.evaluate("b => { const r = b.getBoundingClientRect(); "
                               "return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b; }")
    forms.nth(0).locator("input[name=aliases]").fill("Васёк")
    forms.nth(0).locator("button").click()
    master.wait_for_load_state("load")
    assert "Васёк" in game.seats.order_by("number").first().aliases
    master.context.close()


@pytest.mark.parametrize("width", [360, 430, 768])
def test_gm_pages_fit_when_360_to_768px_wide(live_server, browser, transactional_db, width):
    game, gm, _players = _forum_game()
    page = phone_page(browser, live_server.url, gm, width=width)
    for name, path in (("gm", f"/games/{game.pk}/gm/"), ("votes-gm", f"/games/{game.pk}/votes/"),
                       ("thread-gm", game.game_thread.get_absolute_url())):
        page.goto(f"{live_server.url}{path}")
        assert_fits_a_phone(page, f"{name}-{width}")
    page.context.close()


def test_menu_opens_without_javascript_when_390px_wide(live_server, browser, transactional_db):
    game, _gm, players = _forum_game()
    page = phone_page(browser, live_server.url, players[LONG_NAME], javascript=False)
    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
    assert page.evaluate("typeof htmx") == "undefined"
    assert_fits_a_phone(page, "thread-no-js", menu_links=("Games", "My desk", LONG_NAME))


def test_card_pages_fit_a_phone_when_390px_wide(live_server, browser, transactional_db):
    game, gm, vasya, villain, hood = small_cards_game("Карты на телефоне")
    base = live_server.url

    player = phone_page(browser, base, vasya)
    player.goto(f"{base}/games/{game.pk}/cards/deck/")
    assert_fits_a_phone(player, "cards-deck")
    deck = Counter(starter_deck("sheriff", default_collection(), random.Random(5)))
    for name, count in deck.items():
        player.fill(f"tr[data-card='{name}'] input[type=number]", str(count))
    player.click("button[name=submit]")
    player.wait_for_selector(".message.success")
    assert Order.objects.filter(actor__user=vasya, action="deck", valid=True).exists()
    assert phase_close(phase_id=game.current_phase_id, by=gm)  # night 1 begins

    player.goto(f"{base}/games/{game.pk}/cards/")
    assert player.is_visible("#hand")
    assert_fits_a_phone(player, "cards-mine")
    player.goto(f"{base}/games/{game.pk}/cards/rules/")
    assert_fits_a_phone(player, "cards-rules")
    player.context.close()

    master = phone_page(browser, base, gm)
    master.goto(f"{base}/games/{game.pk}/gm/cards/")
    assert master.is_visible(".cards-gm-table")
    assert_fits_a_phone(master, "cards-gm")
    master.goto(f"{base}/games/{game.pk}/gm/")
    assert_fits_a_phone(master, "cards-gm-dashboard")
    master.context.close()


def test_archive_and_statistics_fit_a_phone_when_390px_wide(live_server, browser, transactional_db, finished_game):
    game, vasya = finished_game.game, finished_game.users["Вася"]
    base = live_server.url
    page = phone_page(browser, base, vasya)
    for name, path in (
        ("archive", f"/games/{game.pk}/archive/"),
        ("replay", f"/games/{game.pk}/replay/"),
        ("game-list-finished", "/games/?status=finished"),
        ("profile", f"/me/users/{vasya.pk}/"),
        ("leaderboard", "/leaderboards/forum/?min=1"),
        ("desk", "/me/"),
        ("settings", "/me/profile/"),
        ("search", "/search/?q=Маша"),
        ("game", f"/games/{game.pk}/"),
        ("notifications", "/me/notifications/"),
        ("absences", "/me/absences/"),
        ("game-new", "/games/new/"),
    ):
        page.goto(f"{base}{path}")
        assert_fits_a_phone(page, name)
    page.goto(f"{base}/leaderboards/forum/?min=1")
    assert page.locator("table.stats-table tbody tr").count() >= 1
    page.context.close()
    moderator = phone_page(browser, base, make_user("Модератор", staff=True))
    moderator.goto(f"{base}/moderation/reports/")
    assert_fits_a_phone(moderator, "reports")
    moderator.context.close()
    anonymous = phone_page(browser, base, None)
    anonymous.goto(f"{base}/accounts/login/")
    assert_fits_a_phone(anonymous, "login", menu_links=("Games", "Log in"))
    anonymous.context.close()


@pytest.mark.parametrize("width", [1280, 1150])
def test_header_is_one_line_when_wide(live_server, browser, transactional_db, width):
    """«EN» used to wrap onto a second line at 1280 px for a logged-in player. 1150 px is the
    narrowest screen that gets the whole header (site.css); narrower ones get the menu button."""
    user = make_user(LONG_NAME)
    page = logged_in_page(browser, live_server.url, user)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server.url}/")
    assert page.is_hidden(".menu-button")
    brand = page.locator(".site-header .brand").bounding_box()
    lang = page.locator(".site-header .lang-switch button").bounding_box()
    header = page.locator(".site-header").bounding_box()
    _shot(page, f"header-{width}")
    assert abs((lang["y"] + lang["height"] / 2) - (brand["y"] + brand["height"] / 2)) < 8, "EN is not on the brand's line"
    assert header["height"] <= 64
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    page.context.close()
