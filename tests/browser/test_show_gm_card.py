"""The show's GM card on a phone (issue 28, item 19): the judge's lot in words and the site's number
format, and «Заменить приказ» used through the page: a hero's ballot replaced, counted as his; the
show's game page tells its GM how the show votes instead of the forum vote syntaxes (item 18).
Nothing overflows at 390 px."""

import os
from pathlib import Path

import pytest
import yaml
from django.urls import reverse

from games import scenarios
from games.models import Game, Order
from games.rulesets.show import services
from games.rulesets.show.engine import SHOW
from games.selectors.state import game_state
from tests.browser.conftest import phone_page

pytestmark = pytest.mark.browser

SOURCE = Path(__file__).resolve().parents[1] / "scenarios" / "show" / "big-show-masons-win.yaml"


def _day_two(tmp_path) -> Game:
    """The ten-hero file played through the site to day 2 and kept (night 1 drew the judge)."""
    data = yaml.safe_load(SOURCE.read_text("utf-8"))
    data["phases"] = data["phases"][:6]
    data.pop("expect")
    path = tmp_path / "show.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = scenarios.play(str(path), keep=True)
    assert all(not p.diffs for p in report.phases)
    return Game.objects.filter(ruleset="show").latest("pk")


def test_the_gm_replaces_a_ballot_on_his_phone_and_reads_the_judges_lot(live_server, browser, transactional_db,
                                                                        tmp_path):
    game = _day_two(tmp_path)
    assert game.current_phase.kind == "day"
    state = game_state(game)
    anya = next(s for s in game.seats.select_related("user").order_by("number")
                if len(SHOW.menu(state, s.pk).get("vote", ())) >= 2)  # a free hero with two to vote for
    first, target = (game.seats.get(pk=pk) for pk in SHOW.menu(state, anya.pk)["vote"][:2])
    assert services.show_vote(game=game, user=anya.user, target=first, early_close=False).accepted
    page = phone_page(browser, live_server.url, game.gm)
    page.goto(live_server.url + reverse("games:gm_dashboard", args=[game.pk]))
    lot = page.locator("table.show-judge-lot")
    assert lot.is_visible()
    header = lot.locator("thead").inner_text()
    assert "Шанс" in header and "Вес" in header and "Сила голоса" not in header
    chances = lot.locator("[data-chance]").all_inner_texts()
    assert chances and all(c.endswith("%") and "000000" not in c for c in chances), chances
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert lot.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")  # the table fits: no scrolling
    form = page.locator(f'form[data-show-replace="{anya.pk}"]')
    form.locator("select[name=choice]").select_option(f"vote:{target.pk}")
    form.locator("button[value=show_replace]").click()
    page.wait_for_load_state()
    assert "заменён" in page.inner_text("body")
    row = Order.objects.filter(phase=game.current_phase, actor=anya).latest("pk")
    assert (row.action, row.target_id, row.source) == ("vote", target.pk, "gm")
    assert page.locator(f'form[data-show-replace="{anya.pk}"] option[selected]').get_attribute("value") == \
        f"vote:{target.pk}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
    os.makedirs(shots, exist_ok=True)
    page.screenshot(path=os.path.join(shots, "show-gm-card.png"), full_page=True)
    page.goto(live_server.url + game.get_absolute_url())
    assert page.locator(".show-vote-help").is_visible() and page.locator("input[name=syntax]").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()
