"""The show's GM card on a phone (issue 28, item 19): the judge's lot in words and the site's number
format, and «Заменить приказ» used through the page: a hero's ballot replaced, counted as his; the
show's game page tells its GM how the show votes instead of the forum vote syntaxes (item 18).
Nothing overflows at 390 px."""

import os

import pytest
from django.urls import reverse

from games.models import Game, Order
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from tests.conftest import make_user
from games.rulesets.show import services
from games.rulesets.show.engine import SHOW
from games.selectors.state import game_state
from tests.browser.conftest import phone_page

pytestmark = pytest.mark.browser

NAMES = ["Аня", "Боря", "Вера", "Жора", "Кира"]


def _day_two() -> Game:
    """A five-hero show played through the services to day 2 (night 1 drew the judge), each stage
    ending early when its last input comes, in real time (no deadline is due)."""
    gm = make_user("Ведущий")
    game = game_create(title="Шоу на телефоне", gm=gm, ruleset="show", size=5, options={"alliances": False})
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=["mason", "mason", "reptiloid", "saviour", "demon"])
    game.refresh_from_db()
    seat = {n: game.seats.get(user=users[n]) for n in NAMES}
    for name in NAMES:  # greetings by text
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")
    for name in NAMES:  # day 1: Вера on the bench
        services.show_vote(game=game, user=users[name], target=seat["Аня" if name == "Вера" else "Вера"])
    post_submit(thread=game.game_thread, author=users["Вера"], body="Я Масон!")  # her defence
    for name in ("Аня", "Боря", "Жора", "Кира"):
        services.show_vote(game=game, user=users[name], ballot="enslave")
    for name, action, target in (("Аня", "suspect", "Кира"), ("Боря", "suspect", "Кира"), ("Жора", "save", "Аня"),
                                 ("Кира", "enslave", "Боря")):
        assert services.show_order(game=game, user=users[name], action=action, target=seat[target]).accepted
    for name in NAMES:  # the first night's bets hold it: «Я всё»
        services.show_done(game=game, user=users[name])
    game.refresh_from_db()
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 2), game.current_phase
    return game


def test_the_gm_replaces_a_ballot_on_his_phone_and_reads_the_judges_lot(live_server, browser, transactional_db):
    game = _day_two()
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
