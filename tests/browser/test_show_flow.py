"""A small show in a real browser (issue 18, "Done when"): five heroes (the GM's smaller show: two
Masons, a Reptiloid, the Saviour, the Demon) play greetings → day vote → defence → re-vote → night →
day 2 → defence 2 → the judge's decision through the pages heroes use: posts in the game thread
(one greeting an uploaded WAV, the others text standing in), the forms of the hero's panel on the
game page, the GM's «close now» on the dashboard where a hero sleeps. Each stage ends early when
everyone awaited has acted. Along the way: the countdown is on the panel, a hero's ballot is his
own until the stage's end, and the panel fits a 390 px phone."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Game, GameEvent, Order, PostMedia
from games.rulesets.show import services
from games.rulesets.show.engine.facts import judge_today
from games.selectors.state import game_state
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from tests.browser.conftest import logged_in_page, phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

NAMES = ["Аня", "Боря", "Вера", "Жора", "Кира"]
ROLES = ["mason", "mason", "reptiloid", "saviour", "demon"]


def _wav(path) -> str:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\x00\x00" * 800)
    return str(path)


def _stage(game: Game) -> tuple[str, int]:
    game.refresh_from_db()
    return (game.current_phase.kind, game.current_phase.number) if game.current_phase else ("", 0)


class Heroes:
    """One logged-in browser page per hero, and the steps heroes take on the site's pages."""

    def __init__(self, browser, base: str, game: Game, users: dict):
        self.base, self.game, self.users = base, game, users
        self.pages = {name: logged_in_page(browser, base, user) for name, user in users.items()}

    def game_page(self, name: str):
        page = self.pages[name]
        page.goto(f"{self.base}{self.game.get_absolute_url()}")
        return page

    def post(self, name: str, body: str, media: str | None = None) -> None:
        page = self.pages[name]
        page.goto(f"{self.base}{self.game.game_thread.get_absolute_url()}?page=last")
        page.fill("#reply-body", body)
        if media is not None:
            page.set_input_files("#reply input[type=file][name=media]", media)
        page.click("#reply button[name=post]")
        page.wait_for_selector(f"ol.posts .post-body:has-text('{body}')")

    def panel_form(self, name: str, act: str, **selects):
        page = self.game_page(name)
        form = page.locator(f".show-panel form:has(input[name=act][value={act}])").first
        for field, label in selects.items():
            form.locator(f"select[name={field}]").select_option(label=label)
        return page, form

    def vote(self, name: str, target: str) -> None:
        page, form = self.panel_form(name, "vote", target=target)
        form.locator("button[type=submit]").click()
        page.wait_for_selector(".message.success")

    def ballot(self, name: str, value: str) -> None:
        page, form = self.panel_form(name, "vote")
        form.locator(f"button[name=ballot][value={value}]").click()
        page.wait_for_selector(".message.success")

    def order(self, name: str, action: str, target: str) -> None:
        # one night form per choice, its targets the engine's for that choice (issue 28)
        page = self.game_page(name)
        form = page.locator(f".show-panel form:has(input[name=action][value={action}])").first
        form.locator("select[name=target]").select_option(label=target)
        form.locator("button[type=submit]").click()
        page.wait_for_selector(".message.success")

    def done(self, name: str) -> None:
        """«Я всё»: his optional inputs (the first night's bet) hold the stage no longer."""
        page, form = self.panel_form(name, "done")
        form.locator("button[type=submit]").click()
        page.wait_for_selector(".message")

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


def test_a_small_show_greetings_day_defence_revote_night_and_the_judge(live_server, browser, transactional_db,
                                                                          tmp_path):
    gm = make_user("Ведущий")
    # Part 1's stages in a row: a show without alliances has no «Выбор Союзника» between the re-vote
    # and the night (part 2's alliances have their own browser test).
    game = game_create(title="Шоу в браузере", gm=gm, ruleset="show", size=5, options={"alliances": False})
    users = {name: make_user(name) for name in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    seats = {name: game.seats.get(user=users[name]) for name in NAMES}
    heroes = Heroes(browser, live_server.url, game, users)
    base = live_server.url

    # Greetings: the panel shows the stage, its countdown and what it asks.
    page = heroes.game_page("Аня")
    assert page.locator(".show-panel [data-remaining]").count() == 1
    assert page.locator(".show-panel .owed").count() == 1
    # Аня greets with an audio file through the thread's reply form (htmx, multipart); the others
    # post text, which stands in (the GM's default). The last greeting ends the stage early.
    heroes.post("Аня", "Привет, я Аня!", media=_wav(tmp_path / "hello.wav"))
    assert PostMedia.objects.filter(post__author=users["Аня"], kind="audio").exists()
    assert heroes.pages["Аня"].locator("ol.posts .post-media audio[controls]").count() == 1
    for name in NAMES[1:]:
        assert _stage(game) == ("greetings", 0)
        heroes.post(name, f"Привет от {name}")
    assert _stage(game) == ("day", 1)

    # Day vote: Аня's ballot is hers until the stage's end — not on Боря's page nor the status page.
    heroes.vote("Аня", "Вера")
    mark = f"showballot-{seats['Аня'].pk}-{seats['Вера'].pk}"
    assert heroes.pages["Аня"].locator(f"[data-ballot='{mark}']").count() == 1
    assert mark not in heroes.game_page("Боря").content()
    heroes.pages["Боря"].goto(f"{base}/games/{game.pk}/show/status/")
    assert mark not in heroes.pages["Боря"].content()
    for name in ("Боря", "Жора", "Кира"):
        heroes.vote(name, "Вера")
    assert _stage(game) == ("day", 1)
    heroes.vote("Вера", "Аня")
    assert _stage(game) == ("defence", 1)  # everyone voted: the day ended early
    assert GameEvent.objects.get(game=game, kind="day_votes").data["ballots"]["Аня"] == "Вера"

    # Defence: Вера, on the bench, speaks in the thread (her first post stands in for her speech).
    heroes.post("Вера", "Я не виновата!")
    assert _stage(game) == ("revote", 1)

    # Re-vote with one defendant: «В рабство» from everyone else ends it early; Вера is a slave.
    for name in ("Аня", "Боря", "Жора", "Кира"):
        heroes.ballot(name, "enslave")
    assert _stage(game) == ("night", 1)
    assert game.seats.get(pk=seats["Вера"].pk).status == "enslaved"

    # Night: the Masons suspect, the Saviour saves Аня, the Demon attacks her; the last choice
    # ends the night: Аня is saved in the morning.
    heroes.order("Аня", "suspect", "Кира")
    heroes.order("Боря", "suspect", "Кира")
    heroes.order("Жора", "save", "Аня")
    heroes.order("Кира", "enslave", "Аня")
    # every choice is in, but the first night's bets («можно поменять до утра») hold it open until
    # each hero changes his or says «Я всё» (issue 28, item 4)
    assert _stage(game) == ("night", 1)
    assert heroes.game_page("Вера").locator("[data-optional-open]").count() == 1
    for name in NAMES:
        heroes.done(name)
    assert _stage(game) == ("day", 2)
    assert GameEvent.objects.get(game=game, kind="morning").data["saved"] is True

    # Day 2: the judge was drawn in the morning. Two heroes vote for a defendant who is not the
    # judge, the defendant for the judge; the fourth hero sleeps, and the GM closes the day on his
    # dashboard (the stage waited for the sleeper).
    names = {seat.pk: name for name, seat in seats.items()}
    judge = names[judge_today(game_state(game))]
    free = [n for n in ("Кира", "Боря", "Жора", "Аня") if n != judge]
    defendant, sleeper = free[0], free[1]
    for name in (n for n in NAMES if n not in (defendant, sleeper, "Вера")):
        heroes.vote(name, defendant)
    heroes.vote(defendant, judge)
    assert _stage(game) == ("day", 2)
    gm_page = logged_in_page(browser, base, gm)
    gm_page.goto(f"{base}/games/{game.pk}/gm/")
    gm_page.once("dialog", lambda dialog: dialog.accept())  # the GM confirms (games/confirm.py)
    gm_page.click("button[name=action][value=close]")
    gm_page.wait_for_load_state()
    assert _stage(game) == ("defence", 2)

    # Defence 2: the defendant speaks; then the judge alone decides on his panel.
    heroes.post(defendant, "Это ошибка!")
    assert _stage(game) == ("judge", 2)
    page, form = heroes.panel_form(defendant, "order")
    assert form.count() == 0  # only the judge has the decision's form
    page, form = heroes.panel_form(judge, "order")
    form.locator("select[name=action]").select_option(value="enslave")
    form.locator("select[name=target]").select_option(label=defendant)
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".message.success")
    decision = GameEvent.objects.get(game=game, kind="judge_decision")
    assert decision.data["enslaved"]["name"] == defendant
    # The judge alone was awaited: his decision closed the stage at once (and, when the defendant
    # was the Demon, the last bad hero free, the show is over: the Masons won).
    game.refresh_from_db()
    judge_stage = game.phases.get(kind="judge", number=2)
    assert judge_stage.closed_at is not None and judge_stage.closed_at < judge_stage.deadline_at
    if defendant == "Кира":
        assert game.status == Game.Status.FINISHED
    assert Order.objects.filter(phase__game=game, action="enslave", actor=seats[judge], valid=True).exists()
    heroes.close()
    gm_page.context.close()


def test_the_hero_panel_fits_a_phone(live_server, browser, transactional_db, tmp_path):
    gm = make_user("Ведущий")
    game = game_create(title="Шоу на телефоне", gm=gm, ruleset="show", size=5, options={"alliances": False})
    users = {name: make_user(name) for name in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    seats = {name: game.seats.get(user=users[name]) for name in NAMES}
    # To the night by the services (the flow above plays it in the browser): the Saviour's panel
    # has its widest form there (the choice, the hero, the public key, the extra Secret Knowledge).
    for name in NAMES:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}",
                    upload=SimpleUploadedFile("hi.wav", Path(_wav(tmp_path / "hi.wav")).read_bytes())
                    if name == "Жора" else None)
    for name in NAMES:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Вера" else "Вера"])
    post_submit(thread=game.game_thread, author=users["Вера"], body="Я не виновата")
    for name in ("Аня", "Боря", "Жора", "Кира"):
        services.show_vote(game=game, user=users[name], ballot="enslave")
    assert _stage(game) == ("night", 1)
    page = phone_page(browser, live_server.url, users["Жора"])
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    panel = page.locator(".show-panel")
    assert panel.count() == 1 and page.locator(".show-panel [data-remaining]").count() == 1
    # one form per night choice (save, relieve Вера), each with the Saviour's extras
    assert page.locator(".show-panel form:has(input[name=action][value=save]) select[name=public_key]").count() == 1
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    # The game thread with his audio greeting fits too.
    page.goto(f"{live_server.url}{game.game_thread.get_absolute_url()}")
    assert page.locator(".post-media audio[controls]").count() == 1
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.context.close()
