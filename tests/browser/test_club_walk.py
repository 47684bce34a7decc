"""Issue 29, a club game played whole in a real browser, as its reporter did: eight players, the
GM, a spectator and an anonymous reader each in a browser context of his own, one player on a 390
px phone, every other page also measured at 390 px (tests/browser/walk.py).

The GM makes the game on the new-game form (only the club's own fields shown), a player signs up
on the game page (no other rule set's fields); the deal and night 0; day 1: the GM changes the
deadline and every reader's thread and game page show the new one at once; votes with the page's
buttons (nobody is offered himself), a typo answered with the closest name; the GM removes a
player (a confirmation; he is gone from «Не голосовали» for everyone at once and cannot post) and
gives a foul; a tie goes to a re-vote «между Красной Шапочкой и Негодяем», offered only between
them, its two not voting; the re-vote's result; night 1's orders on the role page (a refused one
is not the GM's «Последний приказ»); the night's close ends the game with a black win; the final
reveal, the archive and the search read role names, not codes, for everyone.

Users and the start are made through the services where the walk does not look at them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.models import Game, Order, Seat
from games.services.lifecycle import game_signup, game_start
from tests.browser.walk import Walk, cast, confirmed, new_game, not_voting, signup_form, squeezed
from tests.conftest import make_user

pytestmark = pytest.mark.browser

# Seat order and roles (eight: three blacks, five reds).
SEATS = [("Вася", "don"), ("Кикимора", "mafioso"), ("Фроло", "putana"), ("Эсмеральда", "commissar"),
         ("Алиса", "doctor"), ("Маленький Джон", "maniac"), ("Красная Шапочка", "civilian"), ("Негодяй", "civilian")]
NAMES = [name for name, _role in SEATS]
ROLE_CODES = ("don", "mafioso", "putana", "commissar", "doctor", "maniac", "civilian", "red", "black")
PHONE_PLAYER = "Кикимора"


def _close(walk: Walk, asked: list[str], dashboard: str, game: Game) -> None:
    """The GM closes the phase from his dashboard (a confirmation asked and accepted)."""
    page = walk.open("GM", dashboard)
    confirmed(page, asked)
    page.click("button[value=close]")
    page.wait_for_selector(".message")
    game.refresh_from_db()


def _vote(walk: Walk, who: str, thread: str, target: str) -> None:
    page = walk.open(who, thread)
    page.click(f".vote-button button:has-text('{target}')")
    page.click("button[name=post]")
    said = page.wait_for_selector(".vote-confirmation").inner_text()
    assert "засчитан" in said and "не засчитан" not in said, (who, target, said)


def test_a_club_game_played_whole(live_server, browser, transactional_db, settings):
    settings.MAFIA_VOTE_POLL_SECONDS = 600  # what a page shows right after a write is the write's
    gm, spectator = make_user("Судья"), make_user("Зритель")
    users = {name: make_user(name) for name in NAMES}
    walk = Walk(browser, live_server.url, role_codes=ROLE_CODES)
    asked: list[str] = []
    try:
        cast(walk, gm=gm, players=users, spectator=spectator, phone_player=PHONE_PLAYER)

        # --- The new-game form: picking «club» shows the club's fields and no other rule set's.
        game = new_game(walk, title="Клубный вечер", ruleset="club", size=8)
        home, dashboard, role = game.get_absolute_url(), f"/games/{game.pk}/gm/", f"/games/{game.pk}/role/"

        # --- Вася signs up on the game page: the form has no other rule set's fields.
        form = signup_form(walk, "Вася", home, fields={"application"})
        page = form.page
        form.locator("button[value=join]").click()
        page.wait_for_selector(".message")
        for name in NAMES[1:]:
            game_signup(game=game, user=users[name])
        game_start(game=game, by=gm, seed=29, roles_in_seat_order=[role for _name, role in SEATS])
        game.refresh_from_db()
        thread = game.game_thread.get_absolute_url()

        # --- Night 0: the blacks see each other on their role pages; the GM closes it.
        page = walk.open("Вася", role)
        team = page.inner_text(".role-card")
        assert "Кикимора" in team and "Фроло" in team and "Эсмеральда" not in team
        page = walk.open("GM", dashboard)
        confirmed(page, asked)
        page.click("button[value=close]")
        page.wait_for_selector("text=День 1")

        # --- Day 1. The GM moves the deadline: every reader's thread and game page show it at once.
        game.refresh_from_db()
        new_deadline = timezone.localtime(game.current_phase.deadline_at + timedelta(hours=5)).replace(second=0, microsecond=0)
        page = walk.open("GM", dashboard)
        page.fill("input[name=deadline_at]", new_deadline.strftime("%Y-%m-%dT%H:%M"))
        confirmed(page, asked)
        page.click("button[value=deadline]")
        page.wait_for_selector(".message")
        assert "День 1" in asked[-1], asked[-1]
        game.refresh_from_db()
        expected = game.current_phase.deadline_at
        for who in ("anonymous", PHONE_PLAYER, "GM"):
            for path, selector in ((thread, "#vote-count time"), (home, ".deadline time")):
                page = walk.open(who, path)
                shown = page.locator(selector).first.get_attribute("datetime")
                assert shown and _same_minute(shown, expected), (who, path, shown, expected)

        # The vote buttons: nobody is offered himself.
        for who in ("Вася", PHONE_PLAYER):
            page = walk.open(who, thread)
            offered = page.locator(".vote-button button").all_inner_texts()
            assert who not in offered and len(offered) == 7, (who, offered)

        # A typo is answered with the closest name, and the vote is not guessed.
        page = walk.open(PHONE_PLAYER, thread)
        page.fill("#reply-body", "Голосую за [b]Вассю[/b]")  # a doubled letter: no match (docs/votes.md)
        page.click("button[name=preview]")
        preview = squeezed(page.wait_for_selector("#preview .vote-reading").inner_text())
        assert "Может быть, Вася?" in preview, preview
        walk.read(PHONE_PLAYER, "a typo's preview")

        # --- The GM removes Алиса (confirmed): no reader sees her among the non-voters, no button
        # offers her, and she cannot post.
        page = walk.open("GM", dashboard)
        form = page.locator("form:has(button[value=modkill])")
        form.locator("select[name=seat]").select_option(label="Алиса")
        form.locator("input[name=reason]").fill("пропала на три дня")
        confirmed(page, asked)
        form.locator("button[value=modkill]").click()
        page.wait_for_selector(".message")
        assert "Алис" in asked[-1], asked[-1]
        for who in ("anonymous", PHONE_PLAYER, "GM"):
            page = walk.open(who, thread)
            assert "Алиса" not in not_voting(page, "#vote-count") and len(not_voting(page, "#vote-count")) == 7, who
            if who == PHONE_PLAYER:
                assert "Алиса" not in page.locator(".vote-button button").all_inner_texts(), who
        page = walk.open("Алиса", thread)
        assert page.locator("#reply-body").count() == 0, "a removed player can still post"

        # Votes with the buttons: Негодяй 2, Красная Шапочка 2, Вася 1 — a tie.
        for voter, target in [("Вася", "Негодяй"), (PHONE_PLAYER, "Негодяй"), ("Фроло", "Красная Шапочка"),
                              ("Эсмеральда", "Красная Шапочка"), ("Негодяй", "Вася")]:
            _vote(walk, voter, thread, target)
        for who in ("anonymous", "GM"):
            page = walk.open(who, thread)
            count = squeezed(page.inner_text("#vote-count"))
            assert "Негодяй, Красная Шапочка (2 голоса)" in count, (who, count)
            assert "L-" not in count and "Большинство" not in count

        # A foul for Маленький Джон (confirmed), then the close: a re-vote between the two leaders.
        page = walk.open("GM", dashboard)
        form = page.locator("form:has(button[value=foul])")
        form.locator("select[name=seat]").select_option(label="Маленький Джон")
        offered = form.locator("select[name=seat] option").all_inner_texts()
        assert "Алиса" not in offered, offered
        confirmed(page, asked)
        form.locator("button[value=foul]").click()
        page.wait_for_selector(".message")
        assert "Маленьк" in asked[-1], asked[-1]
        _close(walk, asked, dashboard, game)
        assert game.current_phase.kind == "revote", game.current_phase.kind
        for who in ("anonymous", PHONE_PLAYER, "GM"):
            page = walk.open(who, f"{thread}?page=last")
            posts = squeezed(page.inner_text("ol.posts"))
            assert "переголосование между Красной Шапочкой и Негодяем" in posts, (who, posts[-800:])
            assert "Фол: Маленький Джон (всего 1)" in posts, posts[-800:]

        # --- The re-vote: only the two are offered, and the two do not vote.
        page = walk.open("Вася", thread)
        offered = sorted(page.locator(".vote-button button").all_inner_texts())
        assert offered == ["Красная Шапочка", "Негодяй"], offered
        for who in ("Негодяй", "Красная Шапочка"):
            page = walk.open(who, thread)
            assert page.locator(".vote-button button").count() == 0, who
        for voter, target in [("Вася", "Негодяй"), (PHONE_PLAYER, "Негодяй"), ("Фроло", "Негодяй"),
                              ("Эсмеральда", "Красная Шапочка")]:
            _vote(walk, voter, thread, target)
        _close(walk, asked, dashboard, game)
        assert game.current_phase.kind == "night", game.current_phase.kind
        page = walk.open("Негодяй", f"{thread}?page=last")
        assert "Негодяй" in page.inner_text("ol.posts")
        assert page.locator("#reply-body").count() == 1, "a player voted out has his farewell post"

        # --- Night 1. Эсмеральда's refused order is not her «Последний приказ»; the don kills.
        page = walk.open("Эсмеральда", role)
        page.fill("#order-text", "Проверяю Эсмеральду")
        page.click("form:has(#order-text) button")
        page.wait_for_selector(".message")
        walk.read("Эсмеральда", "her refused order")
        assert not Order.objects.filter(actor__user=users["Эсмеральда"], valid=True).exists()
        page = walk.open("Вася", role)
        page.fill("#order-text", "Убиваю Фролу")  # a case ending on the indeclinable Фроло: no match
        page.click("form:has(#order-text) button")
        said = squeezed(page.wait_for_selector(".message").inner_text())
        walk.read("Вася", "his order with a typo")
        assert "Может быть, Фроло?" in said, said
        page.fill("#order-text", "Убиваю Красную Шапочку")
        page.click("form:has(#order-text) button")
        page.wait_for_selector("text=Приказ принят")
        page = walk.open("GM", dashboard)
        activity = page.locator("section:has(h2:has-text('Активность'))")
        last_order = {name: activity.locator(f"tr:has-text('{name}') td").nth(4).inner_text() for name in ("Эсмеральда", "Вася")}
        assert last_order["Эсмеральда"] == "—" and last_order["Вася"] != "—", last_order

        # The close: Красная Шапочка dies; three blacks against two reds by day — the blacks win.
        confirmed(page, asked)
        page.click("button[value=close]")
        page.wait_for_selector(".message")
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.winner == "black", (game.status, game.winner)
        assert Seat.objects.get(game=game, user=users["Красная Шапочка"]).status != "active"

        # --- The end, as everyone reads it: role names, not codes.
        for who in ("anonymous", "spectator", PHONE_PLAYER, "Негодяй", "GM"):
            page = walk.open(who, f"{thread}?page=last")
            final = squeezed(page.locator("ol.posts > li").last.inner_text())
            assert "дон" in final and "путана" in final and "комиссар" in final, (who, final)
            page = walk.open(who, f"/games/{game.pk}/archive/")
            roster = squeezed(page.inner_text(".archive-roster"))
            assert "Вася дон" in roster and "Алиса доктор" in roster, roster
            if who in ("anonymous", PHONE_PLAYER):
                walk.open(who, f"/search/?q=путана&game={game.pk}")
                walk.open(who, f"/games/{game.pk}/rating/")
        walk.open(PHONE_PLAYER, home)
        walk.open("GM", dashboard)
        # An anonymous reader of the GM's and a player's pages is sent to log in (the game is public).
        for path in (dashboard, role):
            response = walk.pages["anonymous"].goto(f"{live_server.url}{path}")
            assert response.status == 200 and "/accounts/login/" in walk.pages["anonymous"].url, path

        assert not walk.wide, "\n".join(walk.wide)
        assert not walk.codes, "\n".join(walk.codes)
        assert all(re.search(r"[А-Яа-я]", question) for question in asked), asked
    finally:
        walk.close()


def _same_minute(shown: str, expected) -> bool:
    return abs((datetime.fromisoformat(shown) - expected).total_seconds()) < 60
