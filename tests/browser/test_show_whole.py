"""A whole small show through the real site (issue 28, "Done when"): the GM creates it on the new-game
form, four newcomers sign up through the site's sign-up (the IndiCode step as they see it: the first
finds none offered, the others type hers) and join, the GM deals, and the heroes play it to its end
on their panels and in the game thread — greetings, the day vote with sympathies, the defence, the
re-vote, «Выбор Союзника», a night with every role's choice and the bets, the slave's trial answer
and the grants, day 2 with the judge, and a stage the rules open after the end if there is one —
one hero on a 390 px phone throughout. Then every page a player reads at the end («Итоги Шоу», the
commitment, «Баланс», «Обо мне», the status and /fullstatus, the game thread, the archive ...) is
read at 390 px as each hero, a spectator, an anonymous visitor and the GM: the right status, the
commitment matches, the settlement sums to zero, nothing scrolls sideways and no code-shaped word
is in the visible text (tests/browser/visible_text.py) — on those pages and on every page read
during the play (docs/rulesets/show.md, "A whole show in the browser").

The game's seed is fixed (the start's secret seed is patched), so the deal and every lot are the
same each run; the heroes' choices still read the deal from the database, as players who know
their roles would. A stage ends early when its last awaited input arrives (and, where it holds
optional inputs, when everyone said «Я всё»); on day 2 the defendant sleeps, and the day ends at its
deadline through the Celery sweep's service, called in process with the deadline's time.

SHOW_WHOLE_DUMP=<file> writes the visible text of every page read, by whom, to that file: the
pages as the players read them, for a person to check the wording."""

from __future__ import annotations

import os
import re
import secrets
import wave
from types import SimpleNamespace

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import User
from coins.models import Account, Entry
from games.models import Game, GameEvent
from games.rulesets.show.engine.facts import judge_today
from games.rulesets.show.scenario_inputs import TINY_PNG
from games.selectors.state import game_state
from games.services import lifecycle
from games.services.resolution import phases_close_due
from tests.browser.conftest import PHONE, desktop_page, phone_page
from tests.browser.visible_text import page_codes, visible_text
from tests.conftest import make_user

pytestmark = pytest.mark.browser

SEED = 280028
NAMES = ["Алиса", "Богдан", "Варвара", "Глеб"]  # the smallest show: four heroes
PHONE_HERO = "Алиса"
PASSWORD = "Very-secret-pass-28"
LOGIN_FIRST = ("/gm/", "/role/", "/me/notifications/", "/me/")  # pages that send an anonymous visitor to log in
DESKTOP = {"width": 1100, "height": 900}


def _stage(game: Game) -> tuple[str, int]:
    game.refresh_from_db()
    phase = game.current_phase
    return (phase.kind, phase.number) if phase is not None and phase.closed_at is None else ("", 0)


def _wav(path) -> str:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\x00\x00" * 800)
    return str(path)


class Site:
    """One browser context per person (each hero, the GM, a spectator, an anonymous visitor), the
    steps they take on the site's pages, and what they read on them: every page a person opens is
    read (its code-shaped words, and at a phone's width its overflow) and kept for the end."""

    def __init__(self, browser, base: str):
        self.browser, self.base = browser, base
        self.pages: dict[str, object] = {}
        self.users: dict[str, User] = {}
        self.game: Game | None = None
        self.codes: dict[tuple[str, str], tuple[str, list[str]]] = {}  # (page, token) -> (its line, who saw it)
        self.wide: list[str] = []
        self.fresh: set[str] = set()  # whose page is his game page as his own last input left it

    # --- people -------------------------------------------------------------------------------
    def new_page(self, who: str, *, phone: bool = False, user: User | None = None):
        if phone:
            page = phone_page(self.browser, self.base, user)
        else:
            page = desktop_page(self.browser, self.base, user, **DESKTOP)
        self.pages[who] = page
        if user is not None:
            self.users[who] = user
        return page

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()

    # --- reading ------------------------------------------------------------------------------
    def open(self, who: str, path: str, label: str | None = None, *, expect: int | str = 200):
        """`who` opens `path`: never a server error, and the status expected ("login": the page
        sends an anonymous visitor to the login form); a page shown is read."""
        page = self.pages[who]
        self.fresh.discard(who)
        response = page.goto(f"{self.base}{path}")
        status = response.status if response is not None else 0
        assert status < 500, f"{who}: {path} answered {status}"
        if expect == "login":
            assert status == 200 and "/accounts/login/" in page.url, f"{who}: {path} did not ask to log in"
            return page
        assert status == expect, f"{who}: {label or path} ({path}) answered {status}, not {expect}"
        if status == 200:
            self.read(who, label or path)
        return page

    def read(self, who: str, label: str) -> None:
        page = self.pages[who]
        if os.environ.get("SHOW_WHOLE_DUMP"):
            with open(os.environ["SHOW_WHOLE_DUMP"], "a", encoding="utf-8") as out:
                out.write(f"\n===== {who} | {label} | {page.url}\n{visible_text(page)}\n")
        for token, line in page_codes(page):
            self.codes.setdefault((label, token), (line, []))[1].append(who)
        if page.viewport_size["width"] <= PHONE["width"]:
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                self.wide.append(f"{who}: {label} is {width} px wide at {PHONE['width']} px")

    def stage_label(self) -> str:
        kind, number = _stage(self.game)
        return f"{kind} {number}" if kind else self.game.status

    def game_page(self, who: str):
        return self.open(who, self.game.get_absolute_url(), f"the game page ({self.stage_label()})")

    def look_around(self) -> None:
        """At each new stage: the GM reads the game page and his dashboard, the spectator the game
        page, the anonymous visitor the status, a slave the slaves' chat."""
        stage = self.stage_label()
        self.game_page("GM")
        self.open("GM", f"/games/{self.game.pk}/gm/", f"the GM's dashboard ({stage})")
        self.game_page("spectator")
        self.open("anonymous", f"/games/{self.game.pk}/show/status/", f"the status ({stage})")
        lounge = self.game.private_threads.filter(kind="lounge").first()
        for seat in self.game.seats.filter(status="enslaved").select_related("user"):
            self.open(seat.user.display_name, lounge.get_absolute_url(), f"the slaves' chat ({stage})")

    # --- acting -------------------------------------------------------------------------------
    def thread_post(self, who: str, body: str, media: str | None = None, *, thread=None) -> None:
        thread = thread or self.game.game_thread
        page = self.open(who, f"{thread.get_absolute_url()}?page=last", f"{thread.title} ({self.stage_label()})")
        page.fill("#reply-body", body)
        if media is not None:
            page.set_input_files("#reply input[type=file][name=media]", media)
        page.click("#reply button[name=post]")
        page.wait_for_selector(f"ol.posts .post-body:has-text('{body}')")
        self.fresh.clear()

    def form(self, who: str, act: str, *, extra: str = ""):
        page = self.pages[who] if who in self.fresh else self.game_page(who)
        return page, page.locator(f".show-panel form:has(input[name=act][value={act}]){extra}").first

    def submit(self, who: str, page, form, *, button=None, **selects) -> str:
        for field, label in selects.items():
            form.locator(f"select[name={field}]").select_option(label=label)
        (button or form.locator("button[type=submit]").first).click()
        page.wait_for_selector(".message")
        message = page.locator(".message").first
        assert "success" in (message.get_attribute("class") or ""), f"{who}: {message.inner_text()}"
        self.fresh = {who}
        self.read(who, f"the game page after an input ({self.stage_label()})")
        return message.inner_text()

    def act(self, who: str, act: str, *, extra: str = "", **selects) -> str:
        page, form = self.form(who, act, extra=extra)
        assert form.count() == 1, f"{who} has no «{act}» form on his panel ({self.stage_label()})"
        return self.submit(who, page, form, **selects)

    def vote(self, who: str, target: str) -> str:
        return self.act(who, "vote", target=target)

    def ballot(self, who: str, value: str) -> str:
        page, form = self.form(who, "vote")
        return self.submit(who, page, form, button=form.locator(f"button[name=ballot][value={value}]"))

    def night(self, who: str, action: str, target: str, **extras) -> str:
        return self.act(who, "order", extra=f":has(input[name=action][value={action}])", target=target, **extras)

    def done(self, who: str) -> bool:
        """«Я всё» where the panel offers it."""
        page, form = self.form(who, "done")
        if not form.count():
            return False
        self.submit(who, page, form)
        return True


def _sign_up(site: Site, name: str, *, phone: bool, friend_code: str | None) -> User:
    """A newcomer on the game's page: «Зарегистрироваться, чтобы играть», the sign-up form with its
    IndiCode step, the e-mail's link, and back on the game's page «Записаться»."""
    page = site.new_page(name, phone=phone)
    site.open(name, site.game.get_absolute_url(), "the game page (sign-ups, anonymous)")
    page.get_by_role("link", name="Зарегистрироваться, чтобы играть").click()
    page.wait_for_load_state()
    assert "/accounts/signup/" in page.url
    site.read(name, "the sign-up form")
    # The referral step as a newcomer to a show sees it (issue 28, item 22): the field for a friend's
    # IndiCode once a hero exists; the very first newcomer of the site is told there is nobody to
    # give the bonus to, and keeps his 1,000.
    if friend_code:
        assert page.locator("input[name=referral_code]").is_visible()
        assert "ИндиКод" in page.inner_text("main")
    else:
        assert not page.locator("input[name=referral_code]").count()
        assert "нет ни одного героя" in page.inner_text("main")
    email = f"hero{NAMES.index(name)}@example.com"
    page.fill("input[name=email]", email)
    page.fill("input[name=display_name]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    if friend_code:
        page.fill("input[name=referral_code]", friend_code)
    sent = len(mail.outbox)
    page.click("main form [type=submit]")
    page.wait_for_url(re.compile(r".*/confirm-email/.*"))
    for _ in range(100):
        if len(mail.outbox) > sent:
            break
        page.wait_for_timeout(50)
    letter = next(m for m in reversed(mail.outbox) if email in m.to)
    page.goto(re.search(r"https?://\S+", letter.body).group(0))
    page.click("main form [type=submit]")
    page.wait_for_load_state()
    user = User.objects.get(email=email)
    site.users[name] = user
    page = site.open(name, site.game.get_absolute_url(), "the game page (sign-ups)")
    page.locator("form[action$='/join/'] button[name=action][value=join]").click()
    page.wait_for_selector(".message.success")
    site.read(name, "the game page (signed up)")
    return user


def _to_the_end(site: Site) -> None:
    """Whatever stage the show still has after the judge's sentence (none today; a closing stage the
    rules may add): every hero says he is done where his panel asks, and a stage left waiting ends
    at its deadline through the sweep's service, as the Celery beat would close it."""
    game = site.game
    for _ in range(10):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return
        phase = game.current_phase
        site.look_around()
        for name in NAMES:
            site.done(name)
        game.refresh_from_db()
        if game.current_phase_id == phase.pk and game.status != Game.Status.FINISHED:
            phases_close_due(now=phase.deadline_at or timezone.now())
    raise AssertionError(f"the show did not end: {_stage(game)}")


def test_a_small_show_from_sign_up_to_its_end_read_by_everyone(live_server, browser, transactional_db, tmp_path,
                                                               monkeypatch):
    # The start's secret seed, fixed: the deal and every lot of the show are the same each run.
    monkeypatch.setattr(lifecycle, "secrets", SimpleNamespace(randbits=lambda _bits: SEED, token_hex=secrets.token_hex))
    site = Site(browser, live_server.url)
    gm = make_user("Ведущая")
    site.new_page("GM", user=gm)
    site.new_page("spectator", phone=True, user=make_user("Зритель"))
    site.new_page("anonymous", phone=True)
    try:
        seats = _play(site, gm, tmp_path)
        _settlement_sums_to_zero(site)
        _read_the_end(site, seats)
    finally:
        site.close()
    # What every page said, read as each person along the way and at the end: the last check, so
    # that a wrong status, a stage cut short or a failed commitment fails first.
    seen = [f"{label}: «{token}» in «{line}» (as {', '.join(whom)})"
            for (label, token), (line, whom) in site.codes.items()]
    assert not (site.wide or seen), "\n".join(["wider than a phone:", *site.wide, "code-shaped words:", *seen])


def _play(site: Site, gm: User, tmp_path) -> dict:
    # The GM creates the show on the new-game form: «Шоу», four heroes (the smallest show).
    page = site.open("GM", "/games/new/", "the new-game form")
    page.fill("input[name=title]", "Шоу от начала до конца")
    page.select_option("select[name=ruleset]", "show")
    page.fill("input[name=size]", str(len(NAMES)))
    page.click("main form button[type=submit]")
    page.wait_for_selector(".message.success")
    site.game = Game.objects.get(title="Шоу от начала до конца")
    game = site.game
    assert (game.ruleset, game.size, game.gm_id) == ("show", len(NAMES), gm.pk)
    site.read("GM", "the game page (sign-ups, the GM)")

    # The first newcomer finds no hero in play to pick: she leaves the IndiCode empty; joining the
    # show gives her an IndiCode, which she reads on her «Баланс» and hands to her friends.
    first = _sign_up(site, NAMES[0], phone=NAMES[0] == PHONE_HERO, friend_code=None)
    page = site.open(NAMES[0], "/coins/", "«Баланс» (sign-ups)")
    code = page.locator("main p:has-text('ИндиКод') strong").inner_text().strip()
    assert code
    for name in NAMES[1:]:
        _sign_up(site, name, phone=name == PHONE_HERO, friend_code=code)
    assert Entry.objects.filter(reason="referral", credit__key=f"user:{first.pk}").count() == len(NAMES) - 1

    # The GM deals: the start's confirmation, then the greetings open.
    page = site.game_page("GM")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("form[action$='/start/'] button[type=submit]")
    page.wait_for_selector(".message.success")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.rng_seed == SEED
    assert _stage(game) == ("greetings", 0)
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    role = {seat.role: name for name, seat in seats.items()}
    mason, saviour, reptiloid, demon = role["mason"], role["saviour"], role["reptiloid"], role["demon"]
    site.look_around()

    # Greetings: the phone's hero greets with a recording through the thread's reply form, the
    # others write theirs (the GM lets text stand in); the last greeting ends the stage.
    site.thread_post(PHONE_HERO, "Привет, я Алиса!", media=_wav(tmp_path / "hello.wav"))
    assert site.pages[PHONE_HERO].locator("ol.posts .post-media audio[controls]").count() == 1
    for name in NAMES:
        if name != PHONE_HERO:
            site.thread_post(name, f"Привет от {name}")
    assert _stage(game) == ("day", 1)
    site.look_around()

    # Day 1: the first sympathies with their messages, then the votes: Глеб to the bench.
    for name, other in ((demon, reptiloid), (reptiloid, demon), (saviour, mason), (mason, saviour)):
        page, form = site.form(name, "sympathy")
        form.locator("textarea[name=message]").fill(f"{other}, давай [b]дружить[/b]!")
        site.submit(name, page, form, target=other)
    for name in (demon, reptiloid, saviour):
        site.vote(name, mason)
    site.vote(mason, demon)
    assert _stage(game) == ("defence", 1)
    site.look_around()

    # Defence 1: Глеб speaks in the thread; nobody else owes anything here.
    site.thread_post(mason, "Я простой масон, пощадите!")
    assert _stage(game) == ("revote", 1)
    site.look_around()

    # The re-vote: two «Пощадить» against one «В рабство»: Глеб stays free. The second sympathies
    # («после повторного») are optional: each hero says he is done.
    site.ballot(demon, "spare")
    site.ballot(saviour, "spare")
    site.ballot(reptiloid, "enslave")
    assert _stage(game) == ("revote", 1)
    for name in NAMES:
        assert site.done(name), f"{name} has no «Я всё» in the re-vote"
    assert _stage(game) == ("allies", 1)
    assert game.seats.get(pk=seats[mason].pk).status == "active"
    site.look_around()

    # «Выбор Союзника»: each reads the message sent to him, and two mutual choices make two alliances.
    page = site.game_page(mason)
    assert "дружить" in page.locator(".show-panel [data-sympathy-received]").first.inner_text()
    for name, other in ((demon, reptiloid), (reptiloid, demon), (saviour, mason), (mason, saviour)):
        site.act(name, "ally", target=other)
    assert _stage(game) == ("night", 1)
    assert GameEvent.objects.get(game=game, kind="alliances").data["count"] == 2
    site.look_around()

    # Night 1: every role's choice; Глеб changes the bet he was given; the others keep theirs and
    # say they are done (the bets «до утра» hold the night open until then).
    site.act(mason, "bet", target=saviour)
    site.night(mason, "suspect", demon)
    site.night(saviour, "save", mason)
    site.night(reptiloid, "enslave", mason)
    site.night(demon, "enslave", saviour)
    assert _stage(game) == ("night", 1)
    for name in NAMES:
        site.done(name)
    assert _stage(game) == ("day", 2)
    morning = GameEvent.objects.filter(game=game, kind="morning").latest("pk").data
    assert morning["saved"] and [e["name"] for e in morning["enslaved"]] == [saviour]
    site.look_around()

    # Day 2: Варвара, the Demon's slave, writes in the slaves' chat and answers the day's trial with
    # a picture on her panel; the free heroes grant it. A Secret Knowledge right the lot gave is used.
    lounge = game.private_threads.get(kind="lounge")
    site.thread_post(saviour, "Меня забрали ночью.", thread=lounge)
    # «что пишут рабы в чате, видят только другие рабы и наблюдатели»: the spectator reads it, a
    # free hero does not; and a slave has no reply form in the free heroes' game thread.
    page = site.open("spectator", lounge.get_absolute_url(), "the slaves' chat (day 2)")
    assert "Меня забрали ночью." in page.inner_text("main")
    site.open(mason, lounge.get_absolute_url(), expect=404)
    page = site.open(saviour, f"{game.game_thread.get_absolute_url()}?page=last", "the game thread (day 2, a slave)")
    assert page.locator("#reply-body").count() == 0
    answer = tmp_path / "answer.png"
    answer.write_bytes(TINY_PNG)
    page, form = site.form(saviour, "trial")
    assert form.count() == 1, "the slave has no trial form"
    form.locator("input[type=file][name=answer_file]").set_input_files(str(answer))
    site.submit(saviour, page, form)
    for name, amount in ((mason, 25), (reptiloid, 10), (demon, 15)):
        page = site.game_page(name)
        page.locator(f".trial-answer[data-answer='1'] button[name=amount][value='{amount}']").click()
        page.wait_for_selector(".message.success")
    rights = game_state(game).memory.get("knowledge_rights") or {}
    for name in (mason, reptiloid, demon):
        if rights.get(str(seats[name].pk)):
            site.act(name, "knowledge", target=next(n for n in (demon, reptiloid, mason) if n != name))

    # The judge of day 2 was drawn in the morning; the heroes send someone who is not the judge to
    # the bench: the Reptiloid (or the Demon when the Reptiloid judges). Глеб asks the Demon's
    # opinion first; she gives it in the thread.
    judge = next(n for n, s in seats.items() if s.pk == judge_today(game_state(game)))
    defendant = reptiloid if judge != reptiloid else demon
    site.act(mason, "request", target=demon)
    site.thread_post(demon, "Моё мнение: виноват не я.")
    for name in (mason, demon):
        site.vote(name, defendant)
    # The defendant sleeps through the vote: the day waits for him until its deadline, when the
    # Celery sweep's service closes it.
    assert _stage(game) == ("day", 2)
    assert phases_close_due(now=game.current_phase.deadline_at) == 1
    assert _stage(game) == ("defence", 2)
    page = site.open("anonymous", f"/games/{game.pk}/show/status/", "the status (defence 2)")
    assert "Спит" in page.locator("tr", has=page.locator(f"td:text-is('{defendant}')")).inner_text()
    site.look_around()

    # Defence 2: the defendant speaks; the judge alone decides on his panel, and his sentence ends
    # the show (one bad team's free heroes are as many as all the others).
    site.thread_post(defendant, "Это ошибка, я свой!")
    assert _stage(game) == ("judge", 2)
    site.look_around()
    page, form = site.form(judge, "order")
    form.locator("select[name=action]").select_option(value="enslave")
    site.submit(judge, page, form, target=defendant)
    _to_the_end(site)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == ("demon" if defendant == reptiloid else "reptiloids")
    _epilogue(site)
    return seats


def _epilogue(site: Site) -> None:
    """A stage the rules open after the end («Судный День»: every role and secret open, a last
    word from every hero, slaves too), if the rule set has one: each hero says his last word in the
    game thread, and its deadline closes it through the sweep's service."""
    game = site.game
    game.refresh_from_db()
    phase = game.current_phase
    if phase is None or phase.closed_at is not None:
        return
    site.look_around()
    for name in NAMES:
        site.thread_post(name, f"Последнее слово: {name}")
    phases_close_due(now=phase.deadline_at or timezone.now())
    phase.refresh_from_db()
    assert phase.closed_at is not None


def _settlement_sums_to_zero(site: Site) -> None:
    """The show's own accounts are empty, and what the heroes won and lost in it adds up to
    nothing: no coin left the show, none came from nowhere."""
    game = site.game
    show_accounts = Account.objects.filter(key__startswith=f"game:{game.pk}:")
    assert show_accounts.exists() and not show_accounts.exclude(balance=0).exists()
    hero_keys = {f"user:{site.users[name].pk}" for name in NAMES}
    net = 0
    for debit, credit, amount in Entry.objects.filter(game=game).values_list("debit__key", "credit__key", "amount"):
        net += (amount if credit in hero_keys else 0) - (amount if debit in hero_keys else 0)
    assert net == 0


def _read_the_end(site: Site, seats: dict) -> None:
    """Every page a player reads at the end, as every hero, a spectator, an anonymous visitor and
    the GM, at 390 px: its status (a page a perspective may not see: 404), and the commitment
    matching, on the server and in the browser. (Site.read keeps the words and the widths.)"""
    game = site.game
    people = {name: site.users[name] for name in NAMES} | {"GM": game.gm, "spectator": site.users["spectator"]}
    everyone = None
    lounge = game.private_threads.get(kind="lounge")
    common = [
        ("the game page (the end)", game.get_absolute_url(), everyone),
        ("«Итоги Шоу»", f"/games/{game.pk}/show/results/", everyone),
        ("the commitment", f"/games/{game.pk}/commitment/", everyone),
        ("the status (the end)", f"/games/{game.pk}/show/status/", everyone),
        ("the game thread", f"{game.game_thread.get_absolute_url()}?page=1", everyone),
        ("the game thread's last page", f"{game.game_thread.get_absolute_url()}?page=last", everyone),
        ("the discussion thread", game.discussion_thread.get_absolute_url(), everyone),
        ("the slaves' chat (the end)", lounge.get_absolute_url(), everyone),
        ("the archive", f"/games/{game.pk}/archive/", everyone),
        ("the replay", f"/games/{game.pk}/replay/", everyone),
        ("the votes page", f"/games/{game.pk}/votes/", everyone),
        ("my role", f"/games/{game.pk}/role/", {*NAMES, "GM"}),
        ("my «Обо мне»", f"/games/{game.pk}/show/about/", set(NAMES)),
        ("my /fullstatus", f"/games/{game.pk}/show/fullstatus/", set(NAMES)),
        # «Баланс»: its owner's only (and the staff's)
        *[(f"«Баланс» of {who}", f"/coins/users/{user.pk}/", {who}) for who, user in people.items()],
        ("the GM's dashboard (the end)", f"/games/{game.pk}/gm/", {"GM"}),
        ("my notifications", "/me/notifications/", {*people}),
        ("my desk", "/me/", {*people}),
        ("the show's leaderboard", "/leaderboards/show/", everyone),
        *[(f"the profile of {name}", f"/me/users/{site.users[name].pk}/", everyone) for name in NAMES],
    ]
    for who in [*NAMES, "spectator", "anonymous", "GM"]:
        page = site.pages[who]
        page.set_viewport_size(PHONE)
        # A hero reads his own «Обо мне» and /fullstatus above and the next hero's here; the others
        # read every hero's (after the end they are everyone's).
        others = [NAMES[(NAMES.index(who) + 1) % len(NAMES)]] if who in NAMES else NAMES
        pages = [*common, *[(f"«Обо мне» of {name}", f"/games/{game.pk}/show/about/{seats[name].pk}/", everyone)
                            for name in others],
                 *[(f"/fullstatus of {name}", f"/games/{game.pk}/show/fullstatus/{seats[name].pk}/", everyone)
                   for name in others]]
        for label, path, only in pages:
            allowed = only is None or who in only
            expect = 200 if allowed else ("login" if who == "anonymous" and path.endswith(LOGIN_FIRST) else 404)
            site.open(who, path, label, expect=expect)
            if label == "my role" and who in NAMES:
                # «Ваша команда» at the end: his own team, every role now public (issue 28)
                team = {n for n in NAMES if n != who and seats[n].faction == seats[who].faction}
                line = page.locator("main p").filter(has_text=re.compile(r"^\s*Ваша команда:"))
                named = set(line.locator("strong").all_inner_texts()) if line.count() else set()
                assert named == team, f"{who}: «Ваша команда» names {named}, not {team}"
            if label == "the commitment":
                main = page.inner_text("main")
                assert "✔ совпадает" in main and "не совпадает" not in main, f"{who}: {main[:600]}"
                page.wait_for_function("() => document.getElementById('browser-verdict').textContent.trim() !== ''")
                assert page.inner_text("#browser-verdict").strip() == "✔", f"{who}: the browser's digest differs"
