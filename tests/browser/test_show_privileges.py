"""The show's privileges in a real browser (issue 20, "Done when": «A browser test: a Говорун's fake
post, a Вышибала's stun, a Секретарь seeing live votes, a Крот's /mole, one carousel theft»),
through the pages heroes use — the privilege panel's forms on the game page and the reply form's
«Отправить от имени» select — each checked from the right viewers' pages; and the panel on a 390 px
phone (the Секретарь's, the stunned's, the Хакер's after his guess answered at once). Stages nobody acts in here are played by the services (tests/browser/test_show_flow.py plays
them in the browser)."""

from __future__ import annotations

import pytest

from games.models import Game, GameEvent, Post
from games.rulesets.show import services
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.browser.conftest import logged_in_page, phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

NAMES = ["Аня", "Боря", "Вера", "Жора", "Кира", "Лёва", "Миша"]
ROLES = ["mason", "mason", "reptiloid", "saviour", "demon", "reptiloid", "mason"]
# Each privilege to a fixed hero (as tests/games/test_show_privileges_site.py); Миша holds none.
HELD = {"Аня": ["secretary", "talker"], "Боря": ["bouncer"], "Вера": ["lawyer"], "Жора": ["authority"],
        "Кира": ["hacker"], "Лёва": ["mole"]}


def _stage(game: Game) -> tuple[str, int]:
    game.refresh_from_db()
    return (game.current_phase.kind, game.current_phase.number) if game.current_phase else ("", 0)


def _close(game: Game) -> None:
    """The stage's timer runs out (the GM's «close now» is test_show_flow.py's)."""
    game.refresh_from_db()
    phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at)


def _fits(page) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    box = page.locator(".show-privileges").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_a_fake_post_a_stun_live_votes_a_mole_and_a_carousel_theft(live_server, browser, transactional_db, settings):
    settings.MAFIA_VOTE_POLL_SECONDS = 1  # the Секретарь's live block asks every second
    gm = make_user("Ведущий")
    game = game_create(title="Шоу с привилегиями в браузере", gm=gm, ruleset="show", size=len(NAMES),
                       options={"privileges": sorted({p for ps in HELD.values() for p in ps}), "carousel": True})
    users = {name: make_user(name) for name in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    seats = {name: game.seats.get(user=users[name]) for name in NAMES}
    game_start(game=game, by=gm, seed=11, roles_in_seat_order=ROLES,
               seat_data={seats[name].pk: {"privileges": held} for name, held in HELD.items()})
    game.refresh_from_db()
    base = live_server.url
    game_url, thread_url = f"{base}{game.get_absolute_url()}", f"{base}{game.game_thread.get_absolute_url()}"
    pages = {name: logged_in_page(browser, base, users[name]) for name in ("Боря", "Жора", "Кира", "Лёва", "Миша")}
    pages["Аня"] = phone_page(browser, base, users["Аня"])  # the Секретарь-Говорун on a 390 px phone
    gm_page = logged_in_page(browser, base, gm)

    def privilege_form(name: str, act: str):
        page = pages[name]
        page.goto(game_url)
        return page, page.locator(f".show-privileges form:has(input[name=act][value={act}])")

    def submit(page, form, **selects) -> None:
        for field, label in selects.items():
            form.locator(f"select[name={field}]").select_option(label=label)
        form.locator("button[type=submit]").first.click()
        page.wait_for_selector(".message.success")

    def author_of(page, body: str) -> str:
        page.goto(f"{thread_url}?page=last")
        return page.locator(f"ol.posts li.post:has(.post-body:has-text('{body}')) .post-author").inner_text().strip()

    for name in NAMES:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")
    assert _stage(game) == ("day", 1)

    # The Говорун signs a post as Жора with the reply form's «Отправить от имени» select: a player
    # (and she herself) reads it as Жора's, the GM as hers, «показано как Жора».
    page = pages["Аня"]
    page.goto(f"{thread_url}?page=last")
    page.fill("#reply-body", "Я Жора, и я всё знаю.")
    page.locator("#reply-shown-as").select_option(label="Жора")
    page.click("#reply button[name=post]")
    page.wait_for_selector("ol.posts .post-body:has-text('Я Жора, и я всё знаю.')")
    post = Post.objects.get(body="Я Жора, и я всё знаю.")
    assert post.author == users["Аня"] and post.shown_author == users["Жора"]
    assert author_of(pages["Кира"], "Я Жора, и я всё знаю.") == "Жора"
    assert author_of(pages["Аня"], "Я Жора, и я всё знаю.") == "Жора"
    assert author_of(gm_page, "Я Жора, и я всё знаю.") == "Аня"
    assert "Жора" in gm_page.locator("li.post:has(.post-body:has-text('Я Жора')) .badge.signed-as").inner_text()
    assert pages["Кира"].locator("li.post:has(.post-body:has-text('Я Жора')) .badge.signed-as").count() == 0

    # The Крот's /mole: Жора falls asleep at once (a coma as after /lull), his panel offers «I am
    # here», and everyone's status page says so.
    page, form = privilege_form("Лёва", "mole")
    submit(page, form, target="Жора")
    page, _form = privilege_form("Жора", "mole")
    assert page.locator(".show-panel form:has(input[name=act][value=wake])").count() == 1
    pages["Кира"].goto(f"{base}/games/{game.pk}/show/status/")
    assert "Спит" in pages["Кира"].locator("tr:has(td:text-is('Жора'))").inner_text()

    # Боря votes on his panel; the Секретарь's page, open before, shows his ballot without a reload
    # (its block polls every MAFIA_VOTE_POLL_SECONDS, one here), and nobody else's page does.
    pages["Аня"].goto(game_url)
    assert pages["Аня"].locator(".show-privileges .secretary [data-secretary]").count() == 0
    page = pages["Боря"]
    page.goto(game_url)
    vote = page.locator(".show-panel form:has(input[name=act][value=vote])").first
    submit(page, vote, target="Кира")
    mark = f"showsec-{seats['Боря'].pk}-{seats['Кира'].pk}"
    secretary = pages["Аня"].locator(f".show-privileges .secretary [data-secretary='{mark}']")
    secretary.wait_for()
    assert secretary.inner_text().strip() == "Боря → Кира"
    _fits(pages["Аня"])
    pages["Миша"].goto(game_url)
    assert pages["Миша"].locator(f"[data-secretary='{mark}']").count() == 0

    # The carousel: Миша, who holds nothing, votes and then orders a theft from Вера on his panel.
    page = pages["Миша"]
    page.goto(game_url)
    assert page.locator(".show-privileges form:has(input[name=act][value=steal])").count() == 0  # not before
    submit(page, page.locator(".show-panel form:has(input[name=act][value=vote])").first, target="Кира")
    page, form = privilege_form("Миша", "steal")
    submit(page, form, target="Вера")

    # The rest of day 1 by the services: Кира to the bench and to slavery, «Выбор Союзника», night 1.
    for name in ("Аня", "Вера", "Лёва"):
        assert services.show_vote(game=game, user=users[name], target=seats["Кира"], early_close=False).accepted
    assert services.show_vote(game=game, user=users["Кира"], target=seats["Аня"], early_close=False).accepted
    _close(game)  # Жора sleeps in his coma: the timer ends the day
    assert _stage(game) == ("defence", 1)

    # Day 1's Secret Knowledge lot: its winner uses it; the Хакер, on a 390 px phone, guesses who
    # received it and is answered at once: the key is on her panel.
    game.refresh_from_db()
    (winner_pk,) = [int(k) for k, v in game.state["memory"]["knowledge_rights"].items() if v]
    winner = next(n for n in NAMES if seats[n].pk == winner_pk)
    about = next(n for n in NAMES if n not in (winner, "Кира"))
    assert services.show_use_knowledge(game=game, user=users[winner], target=seats[about]).accepted
    pages["Кира"].context.close()
    pages["Кира"] = phone_page(browser, base, users["Кира"])
    page, form = privilege_form("Кира", "intercept")
    form.locator("select[name=number]").select_option(value="1")
    form.locator("select[name=field]").select_option(value="receiver")
    submit(page, form, target=winner)
    page.goto(game_url)
    assert about in page.locator(".show-privileges p:has-text('Перехвачено')").inner_text()
    assert page.locator(".show-privileges form:has(input[name=act][value=intercept])").count() == 0
    _fits(page)

    post_submit(thread=game.game_thread, author=users["Кира"], body="Я не виновата!")
    assert _stage(game) == ("defence", 1)  # the first sympathies nobody sent hold it (issue 28, item 4)
    _close(game)
    for name in ("Аня", "Боря", "Вера", "Лёва", "Миша"):
        services.show_vote(game=game, user=users[name], ballot="enslave", early_close=False)
    _close(game)
    assert _stage(game) == ("allies", 1)
    _close(game)
    assert _stage(game) == ("night", 1)

    # The theft was resolved as the night began: Вера's only privilege is Миша's catch, on his panel.
    page = pages["Миша"]
    page.goto(game_url)
    assert page.locator(f".show-privileges [data-privilege='showpriv-{seats['Миша'].pk}-lawyer']").count() == 1
    assert GameEvent.objects.filter(game=game, kind="privilege_stolen", audience=f"seat:{seats['Миша'].pk}").exists()
    pages["Вера"] = logged_in_page(browser, base, users["Вера"])
    pages["Вера"].goto(game_url)
    assert pages["Вера"].locator("[data-privilege]").count() == 0

    # The Вышибала stuns Аня on his panel: her panel says so and the thread offers her no reply form.
    page, form = privilege_form("Боря", "stun")
    submit(page, form, target="Аня")
    page = pages["Аня"]
    page.goto(game_url)
    assert page.locator(".show-privileges p.error").count() == 1  # «Вы оглушены ...»
    _fits(page)
    page.goto(f"{thread_url}?page=last")
    assert page.locator("#reply-body").count() == 0  # no reply form, the reason instead
    assert "оглуш" in page.locator("#reply p.muted").inner_text().lower()
    # (a reply posted anyway is refused: tests/security/test_show_privileges_url_perspectives.py)
    # a hero not stunned still talks
    pages["Миша"].goto(f"{thread_url}?page=last")
    assert pages["Миша"].locator("#reply-body").count() == 1
    for page in (*pages.values(), gm_page):
        page.context.close()
