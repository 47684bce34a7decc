"""The show's coins in a real browser, on a 390 px phone (issue 19, "Done when"): sympathies on day 1
and an alliance formed at the «Выбор Союзника» stage, the night-1 bet (the random pick shown, then
changed), a trial answered with an image and granted, and the final split on the results page of
the finished show. The other stages are played by the services (tests/browser/test_show_flow.py
plays them in the browser)."""

from __future__ import annotations

import pytest

from coins.models import Entry
from games.models import Game, GameEvent, Order
from games.rulesets.show import services
from games.rulesets.show.engine.facts import judge_today
from games.rulesets.show.scenario_inputs import TINY_PNG
from games.selectors.state import game_state
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.browser.conftest import phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

NAMES = ["Аня", "Боря", "Вера", "Жора", "Кира"]
ROLES = ["mason", "mason", "reptiloid", "saviour", "demon"]


def _stage(game: Game) -> tuple[str, int]:
    game.refresh_from_db()
    return (game.current_phase.kind, game.current_phase.number) if game.current_phase else ("", 0)


def _fits(page) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390


def test_a_show_with_sympathies_an_alliance_a_bet_a_trial_and_the_final_split(live_server, browser,
                                                                             transactional_db, tmp_path):
    gm = make_user("Ведущий")
    game = game_create(title="Шоу на монетах", gm=gm, ruleset="show", size=5)
    users = {name: make_user(name) for name in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    seats = {name: game.seats.get(user=users[name]) for name in NAMES}
    base = live_server.url
    pages = {name: phone_page(browser, base, users[name]) for name in ("Аня", "Боря", "Вера")}

    def panel(name: str, act: str):
        page = pages[name]
        page.goto(f"{base}{game.get_absolute_url()}")
        _fits(page)
        return page, page.locator(f".show-panel form:has(input[name=act][value={act}])").first

    def submit(page, form) -> None:
        form.locator("button[type=submit]").first.click()
        page.wait_for_selector(".message.success")

    for name in NAMES:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")
    assert _stage(game) == ("day", 1)
    # Day 1: Аня and Боря send each other their sympathy on the panel; Аня's carries a deferred
    # message (issue 28), a long word in it: it wraps on the phone.
    letter = "Давай [b]дружить[/b]: " + "оченьоченьоченьдлинноеслово" * 3
    for name, other in (("Аня", "Боря"), ("Боря", "Аня")):
        page, form = panel(name, "sympathy")
        form.locator("select[name=target]").select_option(label=other)
        if name == "Аня":
            form.locator("textarea[name=message]").fill(letter)
        submit(page, form)
    assert page.locator("[data-sympathy-received]").count() == 0  # Боря reads it only at the allies' stage
    for name in NAMES:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Вера" else "Вера"])
    post_submit(thread=game.game_thread, author=users["Вера"], body="Я не виновата")
    # the first sympathy of those who sent none holds the defence until they say «Я всё» (item 4)
    assert _stage(game) == ("defence", 1)
    for name in NAMES:
        services.show_done(game=game, user=users[name])
    for name in ("Аня", "Боря", "Жора", "Кира"):
        services.show_vote(game=game, user=users[name], ballot="enslave")
    for name in NAMES:  # the second sympathy
        services.show_done(game=game, user=users[name])
    assert _stage(game) == ("allies", 1)

    # «Выбор Союзника»: «все получают отправленные им ранее сообщения-Симпатии» — Боря reads Аня's
    # on his panel and his «Обо мне», both at 390 px.
    page, _form = panel("Боря", "ally")
    received = page.locator(".show-panel [data-sympathy-received]")
    assert received.count() == 1 and "дружить" in received.inner_text()
    assert received.locator("strong", has_text="дружить").count() == 1  # its BBCode rendered
    page.goto(f"{base}/games/{game.pk}/show/about/{seats['Боря'].pk}/")
    assert "дружить" in page.locator("#sympathies").inner_text()
    _fits(page)
    # the mutual picks make an alliance; the stage ends when both have chosen.
    for name, other in (("Аня", "Боря"), ("Боря", "Аня")):
        page, form = panel(name, "ally")
        form.locator("select[name=target]").select_option(label=other)
        submit(page, form)
    assert _stage(game) == ("night", 1)
    assert GameEvent.objects.get(game=game, kind="alliances").data["count"] == 1

    # Night 1: the random bet is shown with its stake and the fee of acting now; Аня changes it.
    page, form = panel("Аня", "bet")
    default = game_state(game).memory["bets"][str(seats["Аня"].pk)]["pick"]
    assert page.locator(f"[data-my-bet='showbet-{seats['Аня'].pk}-{default}']").count() == 1
    assert page.locator(".show-panel [data-fee-now]").count() == 1
    form.locator("select[name=target]").select_option(label="Жора")
    submit(page, form)
    assert page.locator(f"[data-my-bet='showbet-{seats['Аня'].pk}-{seats['Жора'].pk}']").count() == 1
    for name, action, target in (("Аня", "suspect", "Кира"), ("Боря", "suspect", "Кира"), ("Жора", "save", "Аня"),
                                 ("Кира", "enslave", "Аня")):
        assert services.show_order(game=game, user=users[name], action=action, target=seats[target]).accepted
    for name in NAMES:  # the others' bets «до утра» (Аня changed hers: it holds no more)
        services.show_done(game=game, user=users[name])
    assert _stage(game) == ("day", 2)
    bet = Entry.objects.get(game=game, reason="bet", debit__key=f"user:{users['Аня'].pk}")
    assert (bet.amount, bet.detail) == (25, "Жора")

    # Day 2 (issue 28, item 6): the slave Вера reads the day's task on her panel; the GM changes it on
    # his dashboard before any answer, and she reads his; Аня, free, sees no trial yet. All at 390 px.
    page, _form = panel("Вера", "trial")
    assert page.locator(".show-trial [data-trial-task]").inner_text().startswith("Задание")
    gm_page = phone_page(browser, base, gm)
    gm_page.goto(f"{base}/games/{game.pk}/gm/")
    _fits(gm_page)
    task_form = gm_page.locator("form:has(button[name=action][value=trial_task])")
    task_form.locator("textarea[name=task]").fill("Покажите свою тень на стене.")
    task_form.locator("button[name=action][value=trial_task]").click()
    gm_page.wait_for_selector(".message.success")
    _fits(gm_page)
    page, _form = panel("Вера", "trial")
    assert "Покажите свою тень на стене." in page.locator(".show-trial [data-trial-task]").inner_text()
    page, _form = panel("Аня", "vote")
    assert page.locator(".show-trial").count() == 0
    # Вера answers the day's trial with an image; Аня grants it 15 ㉿.
    answer = tmp_path / "answer.png"
    answer.write_bytes(TINY_PNG)
    page, form = panel("Вера", "trial")
    form.locator("input[type=file][name=answer_file]").set_input_files(str(answer))
    submit(page, form)
    page, _form = panel("Аня", "grant")
    page.locator(".trial-answer[data-answer='1'] button[name=amount][value='15']").click()
    page.wait_for_selector(".message.success")
    assert page.locator("[data-granted]").count() == 1
    grant = Order.objects.get(phase__game=game, action="grant", valid=True)
    assert grant.actor == seats["Аня"] and grant.detail["amount"] == 15 and grant.target_id is None

    # To the end: the Demon is enslaved (the re-vote or the judge); the Masons win.
    judge = judge_today(game_state(game))
    for name in NAMES:
        if name != "Вера":
            services.show_vote(game=game, user=users[name], target=seats["Кира" if name != "Кира" else "Аня"])
    game.refresh_from_db()
    if game.current_phase.kind == "day":
        phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at)
    post_submit(thread=game.game_thread, author=users["Кира"], body="Это ошибка!")
    kind, _n = _stage(game)
    if kind == "judge":
        judge_name = next(n for n, s in seats.items() if s.pk == judge)
        services.show_order(game=game, user=users[judge_name], action="enslave", target=seats["Кира"])
    elif kind == "revote":
        for name in ("Аня", "Боря", "Жора"):
            services.show_vote(game=game, user=users[name], ballot="enslave")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "masons"

    # Судный День (issue 28, item 7): the thread, the game page and the status page name it on the
    # phone; the slave Вера says her last words in the game thread.
    page = pages["Вера"]
    page.goto(f"{base}{game.get_absolute_url()}")
    _fits(page)
    assert "Судный День" in page.locator(".show-panel h2").inner_text()
    assert page.locator("[data-show-doomsday] [data-remaining]").count() == 1  # a duration, counted down
    page.goto(f"{base}/threads/{game.game_thread_id}/?page=last")
    _fits(page)
    assert "Судный День" in page.locator("[data-show-stage]").inner_text()
    page.locator("#reply textarea[name=body]").fill("Последнее слово Веры.")
    page.locator("#reply button[name=post]").click()
    page.wait_for_selector("text=Последнее слово Веры.")
    _fits(page)
    page.goto(f"{base}/games/{game.pk}/show/status/")
    assert "Судный День" in page.content()
    # its lines fit (the status table's own width at 390 px is issue 28's item 17, another branch's)
    box = page.locator("[data-show-doomsday]").bounding_box()
    assert box["x"] + box["width"] <= 390
    gm_page.context.close()

    # The results page on the phone: every role, the ratings, the bank's and the pot's split, and
    # each day's trial task (issue 28, item 6).
    page = pages["Боря"]
    page.goto(f"{base}/games/{game.pk}/show/results/")
    _fits(page)
    assert page.locator(f"[data-ratings='showratings-{game.pk}'] tbody tr").count() == 5
    assert page.locator("#bank-split li").count() >= 1 and page.locator("#pot-split li").count() >= 1
    assert page.locator("#alliances li").first.inner_text().startswith(("Аня + Боря", "Боря + Аня"))
    assert "Покажите свою тень на стене." in page.locator("#trial-tasks").inner_text()
    for p in pages.values():
        p.context.close()
