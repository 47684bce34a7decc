"""The show's pages on a 390 px phone (issue 28, item 17): the status page was 450 px wide and the
results page 405 px. A show is played through the site from a scenario file — one hero with the
longest name the site allows — and its status, full status, results, «Обо мне» and «Баланс» pages
are opened in Chromium 390 px wide, as a hero, the GM and an anonymous visitor, while the show runs
and after its end: nothing is wider than the screen (document.documentElement.scrollWidth <= 390)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.urls import reverse

from games.models import Game
from tests.browser.conftest import LONG_NAME, phone_page

pytestmark = pytest.mark.browser

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "show"
WIDTH = 390


def _played(tmp_path, stages: int | None = None) -> Game:
    """The Talent's show (trial, grants, raise, burdens) with Аня renamed to the longest name."""
    from games import scenarios

    text = (SCENARIOS / "coins-talent-raise-masons-win.yaml").read_text("utf-8").replace("Аня", LONG_NAME)
    data = yaml.safe_load(text)
    if stages is not None:
        data["phases"] = data["phases"][:stages]
        data.pop("expect", None)
    path = tmp_path / f"show-{stages}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = scenarios.play(str(path), keep=True)
    assert all(not p.diffs for p in report.phases), [p.diffs for p in report.phases]
    return Game.objects.filter(ruleset="show").latest("pk")


def _pages(game: Game, seat) -> dict[str, str]:
    return {
        "status": reverse("games:show_status", args=[game.pk]),
        "fullstatus": reverse("games:show_fullstatus", args=[game.pk, seat.pk]),
        "results": reverse("games:show_results", args=[game.pk]),
        "about": reverse("games:show_about", args=[game.pk, seat.pk]),
        "balance": reverse("coins:balance", args=[seat.user_id]),
        "game": game.get_absolute_url(),
    }


def _widths(browser, base: str, user, urls: dict[str, str]) -> dict[str, int]:
    """Each page's width at 390 px, for the pages this reader may open."""
    page = phone_page(browser, base, user)
    out = {}
    try:
        for name, url in urls.items():
            response = page.goto(f"{base}{url}")
            if response is None or response.status != 200:
                continue
            out[name] = page.evaluate("document.documentElement.scrollWidth")
    finally:
        page.context.close()
    return out


def _check(browser, base: str, game: Game, expected: set[str]) -> None:
    seat = game.seats.select_related("user").get(dealt_name=LONG_NAME)
    urls = _pages(game, seat)
    seen = set()
    for reader in (seat.user, game.gm, None):
        widths = _widths(browser, base, reader, urls)
        seen |= set(widths)
        too_wide = {name: width for name, width in widths.items() if width > WIDTH}
        assert too_wide == {}, (getattr(reader, "display_name", "anonymous"), too_wide)
    assert expected <= seen, seen


def test_the_shows_pages_fit_a_phone_while_it_runs(live_server, browser, transactional_db, tmp_path):
    game = _played(tmp_path, 8)  # into day 2: slaves, burdens, a judge, a trial
    assert game.status == Game.Status.RUNNING
    _check(browser, live_server.url, game, {"status", "fullstatus", "results", "about", "balance", "game"})
    # the stage's time left stays a duration once the page's script counts it down (issue 28, item 14)
    page = phone_page(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        left = page.locator(".show-panel [data-remaining]").inner_text()
        assert re.fullmatch(r"\d+ (д|ч|мин)( \d+ (ч|мин))?|меньше минуты", left), left
    finally:
        page.context.close()


def test_the_shows_pages_and_its_results_fit_a_phone_after_the_end(live_server, browser, transactional_db, tmp_path):
    game = _played(tmp_path)
    assert game.status == Game.Status.FINISHED
    _check(browser, live_server.url, game, {"status", "fullstatus", "results", "about", "balance", "game"})
    # the results' pictures are drawn by the server and scaled to the column
    page = phone_page(browser, live_server.url)
    try:
        page.goto(f"{live_server.url}{reverse('games:show_results', args=[game.pk])}")
        boxes = page.evaluate("""Array.from(document.querySelectorAll('svg.show-chart'))
            .map(svg => svg.getBoundingClientRect()).map(r => [Math.round(r.left), Math.round(r.right)])""")
        assert boxes and all(0 <= left and right <= WIDTH for left, right in boxes), boxes
        # a chart's words stay readable: its letters are not shrunk below 9 px
        sizes = page.evaluate("""Array.from(document.querySelectorAll('svg.show-chart text'))
            .map(t => t.getBoundingClientRect().height).filter(h => h > 0)""")
        assert sizes and min(sizes) >= 9, min(sizes)
    finally:
        page.context.close()
