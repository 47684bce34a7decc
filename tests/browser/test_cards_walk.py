"""Issue 29, a cards game played whole in a real browser, as its reporter did: five players, the
GM, a spectator and an anonymous reader each in a browser context of his own, one player on a 390
px phone, every other page also measured at 390 px (tests/browser/walk.py).

The GM makes the game on the new-game form (only the cards' own fields shown); Вася signs up on the
game page with his «Класс» Авторитет (a vote weighing 2) and no other rule set's field; deck
building: Вася builds his deck on the deck page, the others are dealt theirs, and the GM closes it
on the card dashboard; night 1: Вася plays a card, the GM gives a card by hand (the GM log reads it
in words, no raw dict), closes the night, rolls the close back (a confirmation; the thread and the
pages read the night again) and closes it again; day 1: the Вече voted with the page's buttons, its
count in its own words («Вече наказывает лидера…», each voter's weight, no «Большинство», no L-n)
for the anonymous reader, a player and the GM; the GM moves the deadline and removes the killer
(both seen at once by everyone, the removed player cannot post); the GM's damage by hand and the
day's close: the boss is executed and the Law wins; the final reveal, the archive and the search
read role names, not codes."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.models import Game, GMAction
from games.rulesets.cards.engine import default_collection, starter_deck
from games.services.lifecycle import game_signup, game_start
from tests.browser.walk import Walk, cast, confirmed, new_game, not_voting, signup_form, squeezed
from tests.conftest import make_user

pytestmark = pytest.mark.browser

SEATS = [("Вася", "sheriff"), ("Петя", "boss"), ("Маша", "doctor"), ("Глаша", "judge"), ("Паша", "killer")]
NAMES = [name for name, _role in SEATS]
ROLE_CODES = ("sheriff", "boss", "doctor", "judge", "killer", "law", "maniac", "traitor")
PHONE_PLAYER = "Маша"


def _close(walk: Walk, asked: list[str], kind: str, game: Game) -> None:
    page = walk.open("GM", f"/games/{game.pk}/gm/cards/")
    confirmed(page, asked)
    page.click("#cards-close-now")
    page.wait_for_selector(".message")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED or game.current_phase.kind == kind, (game.status, game.current_phase.kind)


def test_a_cards_game_played_whole(live_server, browser, transactional_db, settings):
    settings.MAFIA_VOTE_POLL_SECONDS = 600  # what a page shows right after a write is the write's
    gm, spectator = make_user("Ведущий"), make_user("Зритель")
    users = {name: make_user(name) for name in NAMES}
    walk = Walk(browser, live_server.url, role_codes=ROLE_CODES)
    asked: list[str] = []
    try:
        cast(walk, gm=gm, players=users, spectator=spectator, phone_player=PHONE_PLAYER)

        # --- The new-game form: picking «cards» shows the cards' fields and no other rule set's.
        game = new_game(walk, title="Карточный вечер", ruleset="cards", size=5)
        home, gm_cards = game.get_absolute_url(), f"/games/{game.pk}/gm/cards/"

        # --- Вася signs up with his class: the cards' fields, none of another rule set.
        form = signup_form(walk, "Вася", home, fields={"application", "overt_role", "contacts"})
        page = form.page
        form.locator("input[name=overt_role]").fill("Авторитет")
        form.locator("input[name=contacts]").fill("tg @vasya")
        form.locator("button[value=join]").click()
        page.wait_for_selector(".message")
        for name in NAMES[1:]:
            game_signup(game=game, user=users[name])
        game_start(game=game, by=gm, seed=29, roles_in_seat_order=[role for _name, role in SEATS])
        game.refresh_from_db()
        thread = game.game_thread.get_absolute_url()
        assert game.current_phase.kind == "deckbuilding"

        # --- Deck building: Вася types a legal deck into the counts and keeps it.
        page = walk.open("Вася", f"/games/{game.pk}/cards/deck/")
        deck = Counter(starter_deck("sheriff", default_collection(), random.Random(5)))
        for name, count in deck.items():
            page.fill(f"tr[data-card='{name}'] input[type=number]", str(count))
        page.dispatch_event(f"tr[data-card='{next(iter(deck))}'] input[type=number]", "change")
        page.wait_for_selector("#deck-status .cards-deck-ok")
        page.click("button[name=submit]")
        page.wait_for_selector(".message.success")
        walk.read("Вася", "his deck kept")
        page = walk.open("Петя", thread)  # radio silence: nobody posts while decks are built
        assert page.locator("#reply-body").count() == 0
        _close(walk, asked, "night", game)

        # --- Night 1: Вася plays a card at Петя; the GM gives Маша a card by hand.
        collection = default_collection()
        page = walk.open("Вася", f"/games/{game.pk}/cards/")
        hand = page.locator("#hand article.cards-card").evaluate_all("els => els.map(e => e.dataset.card)")
        card = next((n for n in hand if collection[n].by_night and collection[n].price == 0
                     and collection[n].target in ("self", "other")), None)
        if card is not None:
            item = page.locator("#hand li", has=page.locator(f"article[data-card='{card}']")).first
            if collection[card].target == "other":
                item.locator("select[name=target]").select_option(label="Петя")
            item.locator("button[type=submit]").first.click()
            page.wait_for_selector(".message")
            walk.read("Вася", f"his play of {card}")
        page = walk.open("GM", gm_cards)
        form = page.locator("form.cards-effect-form")
        form.locator("select[name=op]").select_option("give")
        form.locator("select[name=target]").select_option(label="Маша")
        form.locator("select[name=to]").select_option("sleeve")
        form.locator("select[name=card]").select_option("Пистолет")
        form.locator("button[type=submit]").click()
        page.wait_for_selector(".message")
        walk.read("GM", "the card dashboard, an effect added")
        page = walk.open("GM", f"/games/{game.pk}/gm/")
        log = squeezed(page.inner_text("section:has(h2:has-text('Журнал ведущего'))"))
        assert "Пистолет" in log and "{'" not in log and "'op'" not in log, log

        # The close, its rollback (confirmed), and the close again.
        _close(walk, asked, "day", game)
        page = walk.open("GM", f"/games/{game.pk}/gm/")
        form = page.locator("form:has(button[value=rollback])")
        form.locator("input[name=reason]").fill("ошибка в картах")
        confirmed(page, asked)
        form.locator("button[value=rollback]").click()
        page.wait_for_selector(".message")
        assert "Ночь 1" in asked[-1], asked[-1]
        game.refresh_from_db()
        assert game.current_phase.kind == "night", game.current_phase.kind
        for who in ("anonymous", "Вася", "GM"):
            page = walk.open(who, home)
            assert "Ночь 1" in page.inner_text("main"), who
            walk.open(who, f"{thread}?page=last")
        _close(walk, asked, "day", game)

        # --- Day 1: the Вече with the page's buttons.
        for voter, insert in [("Вася", "[b]Казнить Петю[/b]"), (PHONE_PLAYER, "[b]В тюрьму Петю[/b]"),
                              ("Глаша", "[b]Казнить Васю[/b]")]:
            page = walk.open(voter, thread)
            page.click(f".vote-button button[data-insert='{insert}']")
            page.click("button[name=post]")
            page.wait_for_selector(".vote-confirmation")
        page = walk.open("Петя", thread)
        page.click(".vote-button button:has-text('За мир')")
        page.click("button[name=post]")
        page.wait_for_selector(".vote-confirmation")
        for who in ("anonymous", PHONE_PLAYER, "GM"):
            page = walk.open(who, thread)
            count = squeezed(page.inner_text("#vote-count"))
            assert "Большинство" not in count and "L-" not in count, (who, count)
            assert "Вече наказывает лидера" in count and "Вася ×2" in count, (who, count)
            assert "Если бы день закончился сейчас: казнь: Петя" in count, (who, count)

        # The GM moves the deadline: every reader sees the new one at once.
        game.refresh_from_db()
        new_deadline = timezone.localtime(game.current_phase.deadline_at + timedelta(hours=5)).replace(second=0, microsecond=0)
        page = walk.open("GM", f"/games/{game.pk}/gm/")
        page.fill("input[name=deadline_at]", new_deadline.strftime("%Y-%m-%dT%H:%M"))
        confirmed(page, asked)
        page.click("button[value=deadline]")
        page.wait_for_selector(".message")
        game.refresh_from_db()
        expected = game.current_phase.deadline_at
        for who in ("anonymous", PHONE_PLAYER, "GM"):
            for path, selector in ((thread, "#vote-count time"), (home, ".deadline time")):
                page = walk.open(who, path)
                shown = page.locator(selector).first.get_attribute("datetime")
                assert shown and abs((datetime.fromisoformat(shown) - expected).total_seconds()) < 60, (who, path, shown)

        # The GM removes Паша (the killer): gone from «Не голосовали» for everyone; he cannot post.
        page = walk.open("GM", f"/games/{game.pk}/gm/")
        form = page.locator("form:has(button[value=modkill])")
        form.locator("select[name=seat]").select_option(label="Паша")
        form.locator("input[name=reason]").fill("пропал")
        confirmed(page, asked)
        form.locator("button[value=modkill]").click()
        page.wait_for_selector(".message")
        for who in ("anonymous", PHONE_PLAYER, "GM"):
            page = walk.open(who, thread)
            assert "Паша" not in not_voting(page, "#vote-count"), (who, not_voting(page, "#vote-count"))
            if who == PHONE_PLAYER:
                assert not page.locator(".vote-button button:has-text('Паша')").count()
        page = walk.open("Паша", thread)
        assert page.locator("#reply-body").count() == 0, "a removed player can still post"

        # The GM's damage by hand on Петя, and the close: the boss dies, the Law wins.
        page = walk.open("GM", gm_cards)
        form = page.locator("form.cards-effect-form")
        form.locator("select[name=op]").select_option("damage")
        form.locator("select[name=target]").select_option(label="Петя")
        form.locator("input[name=n]").fill("6")
        form.locator("button[type=submit]").click()
        page.wait_for_selector(".message")
        walk.read("GM", "the card dashboard, damage added")
        _close(walk, asked, "night", game)
        assert game.status == Game.Status.FINISHED and game.winner == "law", (game.status, game.winner)

        # --- The end, as everyone reads it: role names, not codes; the GM log in words.
        for who in ("anonymous", "spectator", PHONE_PLAYER, "GM"):
            page = walk.open(who, f"{thread}?page=last")
            final = squeezed(page.locator("ol.posts > li").last.inner_text())
            assert "Шериф" in final or "шериф" in final, (who, final)
            walk.open(who, f"/games/{game.pk}/archive/")
            if who in ("anonymous", PHONE_PLAYER):
                walk.open(who, f"/search/?q=шериф&game={game.pk}")
        walk.open(PHONE_PLAYER, f"/games/{game.pk}/cards/")
        walk.open("GM", f"/games/{game.pk}/gm/")
        walk.open("GM", gm_cards)
        assert GMAction.objects.filter(game=game).exists()
        for path in (f"/games/{game.pk}/gm/", f"/games/{game.pk}/role/", gm_cards, f"/games/{game.pk}/cards/"):
            response = walk.pages["anonymous"].goto(f"{live_server.url}{path}")
            assert response.status == 200 and "/accounts/login/" in walk.pages["anonymous"].url, path

        assert not walk.wide, "\n".join(walk.wide)
        assert not walk.codes, "\n".join(walk.codes)
    finally:
        walk.close()
