"""Issue 29, a `##vote`-only forum game played whole in a real browser, as its reporter did: eight
players, the GM and each player in a browser context of his own, one player on a 390 px phone
(no page he opens scrolls sideways).

The GM switches the game to `##vote` only with his vote options form, clicking; a player's native
bold vote «[b]В тюрьму Негодяя[/b]» is refused to him with the reason and the way to vote, and the
preview said so before he posted; another player votes with the page's vote button (it writes
«##vote X») and it counts; the thread's count, /games/N/votes/ and the GM dashboard are right at
once for the player, the GM and an anonymous reader; the GM modkills a player and the thread, as
the players and the GM read it, no longer lists him among the non-voters; the GM closes the day, the
game ends, and the end-of-day post and the archive read in Russian with names inflected and no
code-shaped word (tests/browser/visible_text.py).

Users, sign-ups and the start are made through the services (not what is checked here); everything
checked is done by clicking. WALK_DUMP=<file> writes the visible text of every page read, by whom."""

from __future__ import annotations

import pytest

from games.models import Game, VoteRecord
from games.services.lifecycle import game_signup, game_start
from games.services.games import game_create
from tests.browser.walk import Walk, confirmed
from tests.conftest import make_user

pytestmark = pytest.mark.browser

NAMES = ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй", "Алиса"]
# One mafioso (Негодяй): jailing him ends the game, so the day's close leads to the archive.
ROLES = ["recruiter", "reanimator", "citizen", "citizen", "citizen", "citizen", "mafioso", "citizen"]
PHONE_PLAYER = "Вася"


def _wagons(page, selector: str = ".vote-count") -> list[str]:
    """The count's wagons as read: «Негодяй 1: Кикимора» (the most votes decide: no L-n)."""
    return [" ".join(t.split()) for t in page.locator(f"{selector} ol.wagons li").all_inner_texts()]


def _leaders(page, selector: str = ".vote-count") -> str:
    """The count's line of who leads at the close, as read."""
    return " ".join(page.inner_text(f"{selector} .leaders").split())


def _not_voting(page, selector: str = ".vote-count") -> list[str]:
    """The names under «Не голосовали», without the rules' note on them (each votes for himself)."""
    line = page.locator(f"{selector} .not-voting")
    if not line.count():
        return []
    text = line.first.inner_text()
    note = line.first.locator(".not-voting-note")
    if note.count():
        assert note.inner_text() == "(по правилам каждый из них голосует сам за себя)"
        text = text.replace(note.inner_text(), "")
    else:
        raise AssertionError(f"the count does not say what the forum's rules make of the non-voters: {text}")
    return [name.strip() for name in text.split(":", 1)[-1].split(",") if name.strip()]


def test_a_hash_vote_only_forum_game_played_whole(live_server, browser, transactional_db, settings):
    # The count is not polled during the walk: what a page shows right after a write is the write's.
    settings.MAFIA_VOTE_POLL_SECONDS = 600
    gm = make_user("Ведущий")
    game = game_create(title="Ночной город", gm=gm, size=len(NAMES))
    users = {name: make_user(name) for name in NAMES}
    for user in users.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=29, roles_in_seat_order=ROLES)
    game = Game.objects.get(pk=game.pk)
    thread = game.game_thread.get_absolute_url()
    votes, dashboard = f"/games/{game.pk}/votes/", f"/games/{game.pk}/gm/"
    readers = (PHONE_PLAYER, "Эсмеральда", "GM", "anonymous")

    walk = Walk(browser, live_server.url)
    asked: list[str] = []
    try:
        walk.person("GM", gm)
        walk.person(PHONE_PLAYER, users[PHONE_PLAYER], phone=True)
        for name in ("Кикимора", "Эсмеральда", "Фроло"):
            walk.person(name, users[name])
        walk.person("anonymous")

        # --- The GM sets the game to ##vote only on his dashboard, ticking the boxes.
        page = walk.open("GM", dashboard)
        form = page.locator("section:has(h2:has-text('Синтаксис голосов')) form")
        labels = form.locator("label:has(input[name=syntax])")
        for i in range(labels.count()):
            label = labels.nth(i)
            label.locator("input").set_checked("##" in label.inner_text())
        form.locator("button[type=submit]").click()
        page.wait_for_selector(".message")
        assert page.url.endswith(dashboard) and "Настройки голосования сохранены" in walk.read("GM", "dashboard, saved")
        game.refresh_from_db()
        assert game.vote_syntaxes == ["hash_unvote", "hash_vote"]

        # --- Вася, on his phone, previews a native bold vote: the preview says it will not count,
        # why, and how votes are written here; posting it says the same, and nothing is counted.
        page = walk.open(PHONE_PLAYER, thread)
        hint = " ".join(page.inner_text(".vote-ways").split())
        assert hint == "В этой игре голос пишут так: ##vote X; ##unvote.", hint
        page.fill("#reply-body", "[b]В тюрьму Негодяя[/b]")
        page.click("button[name=preview]")
        preview = " ".join(page.wait_for_selector("#preview .vote-reading.error").inner_text().split())
        walk.read(PHONE_PLAYER, "the preview")
        page.click("button[name=post]")
        refusal = " ".join(page.wait_for_selector(".vote-confirmation.error").inner_text().split())
        walk.read(PHONE_PLAYER, "his refused vote")
        for said in (preview, refusal):
            assert "не будет засчитан" in said or "не засчитан" in said
            assert "этот способ голосования в игре не включён" in said and "##vote X" in said
        assert preview.split(":", 1)[1] == refusal.split(":", 1)[1], (preview, refusal)
        assert refusal.endswith(hint), (refusal, hint)  # what he could read before posting
        assert not VoteRecord.objects.filter(post__thread=game.game_thread, valid=True).exists()
        # Nobody has voted: each votes for himself, all are level at the close (issue 29), said on
        # the phone without widening it.
        assert _leaders(page) == "Все поровну: каждый голосует за себя.", _leaders(page)

        # --- Кикимора votes with the page's button: it writes ##vote, counts, and her count shows it
        # at once (not polled: the post's answer refreshes it).
        page = walk.open("Кикимора", thread)
        page.click(".vote-button button:has-text('Негодяй')")
        assert page.input_value("#reply-body") == "##vote Негодяй"
        page.click("button[name=post]")
        assert "Голос засчитан: Негодяй" in page.wait_for_selector(".vote-confirmation.ok").inner_text()
        page.wait_for_function("() => document.querySelector('#vote-count').innerText.includes('Негодяй 1')")
        walk.read("Кикимора", "her counted vote")

        # --- The count, right after, on the thread, /votes/ and the GM dashboard, for everyone.
        expected = ["Негодяй 1: Кикимора"]
        for who in readers:
            for path in (thread, votes) + ((dashboard,) if who == "GM" else ()):
                page = walk.open(who, path)
                assert _wagons(page) == expected, (who, path, _wagons(page))
                assert "Вася" in _not_voting(page) and "Кикимора" not in _not_voting(page), (who, path)

        # --- The GM modkills Фроло: no page lists him among the non-voters, the vote buttons no
        # longer offer him, the count goes on without him, and he cannot post.
        page = walk.open("GM", dashboard)
        form = page.locator("form:has(button[value=modkill])")
        form.locator("select[name=seat]").select_option(label="Фроло")
        form.locator("input[name=reason]").fill("пропал на три дня")
        confirmed(page, asked)
        form.locator("button[value=modkill]").click()
        page.wait_for_selector(".message")
        assert "Фроло" in asked[-1]
        assert "Фроло" not in _not_voting(page), _not_voting(page)
        for who in readers:
            page = walk.open(who, thread)
            assert "Фроло" not in _not_voting(page) and len(_not_voting(page)) == 6, (who, _not_voting(page))
            # Негодяй never votes: his own vote is on him at the close, one more than his wagon.
            assert _leaders(page) == "Больше всего голосов: Негодяй (2 голоса — вместе со своим голосом за себя)", who
            assert _wagons(page) == ["Негодяй 1: Кикимора"], (who, _wagons(page))
            if who in (PHONE_PLAYER, "Эсмеральда"):
                offered = page.locator(".vote-button button").all_inner_texts()
                assert "Фроло" not in offered and "Негодяй" in offered, (who, offered)
        page = walk.open("Фроло", thread)
        assert page.locator("#reply-body").count() == 0, "a modkilled player can still post"
        page = walk.open("GM", votes)  # the GM's corrections offer only who may be voted for
        offered = page.locator(".correct-form select[name=target] option").all_inner_texts()
        assert offered and "Фроло" not in offered and "Негодяй" in offered, offered

        # --- The GM closes the day: Негодяй (the only mafioso) is jailed and the town wins.
        page = walk.open("GM", dashboard)
        confirmed(page, asked)
        page.click("button[value=close]")
        page.wait_for_selector(".message")
        assert asked[-1].startswith("Завершить фазу «День 1» сейчас и опубликовать итоги?"), asked[-1]
        assert "Отправляется в тюрьму: Негодяй (мафиози)." in asked[-1]  # a nickname: its gender is unknown
        walk.read("GM", "dashboard, day closed")
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        for who in readers:
            page = walk.open(who, f"{thread}?page=last")
            results = page.locator("ol.posts li:has-text('Итоги: день 1')").last.inner_text()
            assert "Отправляется в тюрьму: Негодяй (мафиози)" in results and "Победитель: честные жители" in results
            # The count said it: Кикимора's vote, and Негодяй's own as he never voted; one each for
            # the others who did not vote, Вася's refused bold vote among them.
            assert "Голоса: Негодяй — 2, Вася — 1, Красная Шапочка — 1, Маленький Джон — 1, Эсмеральда — 1, " \
                   "Алиса — 1." in results, results
            page = walk.open(who, f"/games/{game.pk}/archive/")
            roster = " ".join(page.inner_text(".archive-roster").split())
            assert "Фроло честный житель честные жители удаление из игры (день 1)" in roster, roster  # Фроло: no gender known, a noun
            assert "Негодяй мафиози мафия в тюрьме (день 1)" in roster, roster
        walk.open(PHONE_PLAYER, game.get_absolute_url())
        walk.open(PHONE_PLAYER, votes)
        # An anonymous reader of the GM's and a player's pages is sent to log in (the game is public).
        for path in (dashboard, f"/games/{game.pk}/role/"):
            response = walk.pages["anonymous"].goto(f"{live_server.url}{path}")
            assert response.status == 200 and "/accounts/login/" in walk.pages["anonymous"].url, path

        assert not walk.wide, walk.wide
        assert not walk.codes, "\n".join(walk.codes)
    finally:
        walk.close()
