"""Every write a GM can make, in every rule set, declares what it changes, and right after it the
game thread, the vote count and the game page are the ones rendered from nothing, for an
anonymous reader, a player and the GM (issue 29: after «Изменить срок» or a modkill the thread
showed a logged-in reader the old deadline and the modkilled player under «Не голосовали»).

The GM writes are found on the GM's pages (the dashboard, the pages a rule set links from it,
the vote page, the game page and the game thread), as every POST form the GM is shown there and
a player is not, each submit button an action of its own. A new GM form that declares nothing
(games/services/gm_writes.py) fails `test_every_gm_form_declares_what_it_changes` (or, for the
forms of other moments, `test_the_gm_forms_of_other_moments_declare_what_they_change`), and one
not yet in CASES fails `test_the_gm_forms_are_these` until it is listed there and so played by
`test_after_each_gm_write_the_pages_are_current_for_everyone`.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from django.contrib.messages import constants as message_levels
from django.core.cache import cache
from django.urls import resolve, reverse
from django.utils import timezone

from games import scenarios
from games.models import Game
from games.rulesets import registry
from games.services import gm_writes
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.views import play
from tests.conftest import client_for, make_user


# --- The GM's forms, read from his pages -----------------------------------------------------------
@dataclass(frozen=True)
class Form:
    page: str  # the page it was found on
    url: str  # where it posts
    action: str  # the submit button's (or a hidden field's) `action`, "" if none
    fields: tuple  # (name, value) of the form's fields, the first choice of each select

    @property
    def url_name(self) -> str:
        return resolve(urlsplit(self.url).path).url_name

    @property
    def key(self) -> tuple[str, str]:
        return self.url_name, self.action


class _Forms(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and (attrs.get("method") or "").lower() == "post":
            self._form = {"url": attrs.get("action") or "", "fields": [], "buttons": [], "required": []}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input":
            kind = (attrs.get("type") or "text").lower()
            name = attrs.get("name")
            if not name or kind in ("file",):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self._form["fields"].append((name, attrs.get("value") or "on"))
            elif kind == "submit":
                self._form["buttons"].append((name, attrs.get("value") or ""))
            else:
                self._form["fields"].append((name, attrs.get("value") or ""))
        elif tag == "textarea" and attrs.get("name"):
            self._form["fields"].append((attrs["name"], ""))
        elif tag == "select" and attrs.get("name"):
            self._select = {"name": attrs["name"], "options": []}
        elif tag == "option" and self._select is not None:
            self._select["options"].append(attrs.get("value") or "")
        elif tag == "button" and (attrs.get("type") or "submit") == "submit":
            self._form["buttons"].append((attrs.get("name"), attrs.get("value") or ""))

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None and self._form is not None:
            options = [o for o in self._select["options"] if o] or self._select["options"] or [""]
            self._form["fields"].append((self._select["name"], options[0]))
            self._select = None
        elif tag == "form":
            self._form = None


def forms_on(html: str, page: str) -> list[Form]:
    parser = _Forms()
    parser.feed(html)
    out = []
    for form in parser.forms:
        fields = tuple((n, v) for n, v in form["fields"] if n != "csrfmiddlewaretoken")
        hidden_action = dict(fields).get("action")
        buttons = [(n, v) for n, v in form["buttons"] if n == "action"] or [(None, hidden_action or "")]
        for _name, value in buttons:
            out.append(Form(page=page, url=form["url"] or page, action=value or "", fields=fields))
    return out


def gm_pages(game: Game, gm_client) -> list[str]:
    """The GM's pages of a game: the dashboard and the pages a rule set links from it, the vote
    page, the game page and the game thread."""
    dashboard = reverse("games:gm_dashboard", args=[game.pk])
    pages = [dashboard, reverse("games:votes", args=[game.pk]), game.get_absolute_url(),
             reverse("games:thread", args=[game.game_thread_id])]
    html = gm_client.get(dashboard).content.decode()
    for href in re.findall(r'href="(/games/%d/gm/[^"?#]+)"' % game.pk, html):
        if href not in pages:
            pages.append(href)
    return pages


# Forms the GM is shown that are no GM write: the language, the logout, and a post (a quiet phase
# shows the reply form to the GM alone; post_submit places its own writes, pagecache.writing).
NOT_GM_WRITES = ("language", "account_logout", "thread_reply", "thread_preview")


def gm_forms(game: Game) -> list[Form]:
    """Every POST form the GM is shown on his pages and a player (the first seat's) is not."""
    gm, player = client_for(game.gm), client_for(game.seats.order_by("number").first().user)
    found: dict[tuple, Form] = {}
    for page in gm_pages(game, gm):
        response = gm.get(page)
        assert response.status_code == 200, page
        theirs = player.get(page)
        players = {f.key for f in forms_on(theirs.content.decode(), page)} if theirs.status_code == 200 else set()
        for form in forms_on(response.content.decode(), page):
            if form.key not in players and form.url_name not in NOT_GM_WRITES:
                found.setdefault(form.key, form)
    return list(found.values())


def declaration(game: Game, form: Form) -> gm_writes.GmWrite | None:
    """What the code declares for this form's write, or None."""
    if form.url_name == "gm_action":
        if form.action in play.GM_ACTIONS:
            return play.GM_ACTIONS[form.action]
        gm_input = registry.find(game.ruleset).gm_inputs().get(form.action)
        return gm_writes.changes(*gm_input.changes) if gm_input is not None else None
    return getattr(resolve(urlsplit(form.url).path).func, "gm_write", None)


# --- The games, one per rule set, at a day with votes ---------------------------------------------
def _players(game: Game, names: list[str]) -> dict:
    users = {name: make_user(name) for name in names}
    for user in users.values():
        game_signup(game=game, user=user)
    return users


def forum_day(db) -> Game:
    game = game_create(title="Форумная", gm=make_user("Ведущий"), size=7)
    _players(game, ["Вася", "Красная Шапочка", "Маленький Джон", "Фроло", "Кикимора", "Эсмеральда", "Негодяй"])
    game_start(game=game, by=game.gm, seed=5,
               roles_in_seat_order=["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"])
    return Game.objects.get(pk=game.pk)


def club_day(db) -> Game:
    game = game_create(title="Клуб", gm=make_user("Судья"), ruleset="club", size=10)
    _players(game, ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя", "Игорь", "Кира"])
    game_start(game=game, by=game.gm, seed=7, roles_in_seat_order=[
        "civilian", "don", "commissar", "civilian", "mafioso", "doctor", "civilian", "civilian", "civilian", "civilian"])
    game.refresh_from_db()
    _close(game)  # night 0 -> day 1
    return Game.objects.get(pk=game.pk)


def cards_day(db) -> Game:
    game = game_create(title="Карточная", gm=make_user("Ведущий карт"), ruleset="cards", size=6)
    _players(game, ["Вася", "Негодяй", "Маньяк", "Фроло", "Петя", "Киллер"])
    game_start(game=game, by=game.gm, seed=7,
               roles_in_seat_order=["sheriff", "boss", "maniac", "doctor", "commissioner", "killer"])
    game.refresh_from_db()
    _close(game)  # deck building -> night 1
    _close(game)  # night 1 -> day 1
    return Game.objects.get(pk=game.pk)


def _close(game: Game) -> None:
    game.refresh_from_db()
    phase = game.current_phase
    assert phase_close(phase_id=phase.pk, now=phase.deadline_at or timezone.now(), by=game.gm)
    game.refresh_from_db()


def _with_a_vote(make):
    def made(db) -> Game:
        game = make(db)
        _first_vote(game)
        return Game.objects.get(pk=game.pk)
    return made


GAMES = {"forum": _with_a_vote(forum_day), "club": _with_a_vote(club_day), "cards": _with_a_vote(cards_day)}


def _first_vote(game: Game) -> None:
    """One vote on the day, so that the count names a voter, a target and those who did not vote."""
    from games.services.votes import vote_button_text

    seats = list(game.seats.select_related("user").order_by("number"))
    post_submit(thread=game.game_thread, author=seats[0].user,
                body=vote_button_text(seats[-1].user.display_name, game.ruleset))


# --- What a form is sent with ---------------------------------------------------------------------
def _prepare(game: Game, case: str) -> dict:
    """What a write needs of the game before it (done before the pages are read), and the
    values its form is sent with that the page cannot give."""
    if case == "co_gm:remove":
        from games.services.lifecycle import game_set_co_gm

        game_set_co_gm(game=game, by=game.gm, name=make_user("Помощник").display_name, add=True)
        return {"name": "Помощник"}
    if case == "gm_action:rollback":
        _close(game)  # results to roll back
        return {}
    if case.endswith((":replace", ":ban", "co_gm:add")):
        return {"name": make_user("Запасной").display_name}
    if case == "gm_action:override":
        # A seat and an action of its role, on a target the rules take (the form offers every
        # role's actions: a GM who picks another's is told so).
        from games.selectors.state import allowed_actions, game_state
        from games.services.orders import order_targets

        state, seats = game_state(game), list(game.seats.select_related("user").order_by("number"))
        for seat in seats:
            for action in allowed_actions(game, state, seat.pk):
                targets = order_targets(game=game, state=state, actor=seat, actions=[action], seats=seats)
                if targets:
                    return {"seat": str(seat.pk), "order_action": action, "source": "", "target": str(targets[0].pk)}
        raise AssertionError("no order to replace in this phase")
    return {}


def _filled(form: Form, given: dict) -> dict:
    future = timezone.localtime(timezone.now() + timedelta(days=2, hours=3)).strftime("%Y-%m-%dT%H:%M")
    values = {"reason": "проверка ведущего", "text": "Событие от ведущего", "deadline_at": future,
              "lock_at": future, "note": "исправлено ведущим", "aliases": "Прозвище"}
    data: dict[str, list[str]] = {}
    for name, value in form.fields:
        if name in given:
            data[name] = [given[name]]
            continue
        data.setdefault(name, []).append(values.get(name) or value or "1")
    data["action"] = [form.action] if form.action else data.get("action", [""])
    data["confirm"] = ["yes"]
    return data


# --- The pages after it ----------------------------------------------------------------------------
PERSPECTIVES = ("anonymous", "player", "gm")


def _viewer(game: Game, who: str):
    return {"anonymous": None, "player": game.seats.order_by("number").first().user, "gm": game.gm}[who]


def _pages(game: Game) -> dict[str, str]:
    return {"thread": reverse("games:thread", args=[game.game_thread_id]) + "?page=last",
            "count": reverse("games:votes_live", args=[game.pk]), "game": game.get_absolute_url()}


def _normalised(html: str) -> str:
    html = re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+', r"\1T", html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "T", html)


def _read(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return _normalised(response.content.decode())


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


@pytest.mark.parametrize("ruleset", GAMES)
def test_every_gm_form_declares_what_it_changes(db, ruleset):
    game = GAMES[ruleset](db)
    forms = gm_forms(game)
    assert {f.url_name for f in forms} >= {"gm_action"}
    undeclared = [f"{f.url_name}:{f.action} ({f.page})" for f in forms if declaration(game, f) is None]
    assert not undeclared, f"GM writes with no declaration (games/services/gm_writes.py): {undeclared}"


# The GM forms each game shows on its day, as found on the pages (test_the_gm_forms_are_these):
# a form added to a GM's page shows up there first, and is then played by the test below.
CASES = {
    "forum": ["gm_action:close", "gm_action:deadline", "gm_action:tie_break", "gm_action:override",
              "gm_action:event", "gm_action:replace", "gm_action:modkill", "gm_action:rollback", "gm_action:ban",
              "votes_post_count:", "votes_correct:", "co_gm:add", "co_gm:remove", "communication:",
              "vote_options:", "seat_aliases:", "thread_moderate:lock", "thread_moderate:schedule",
              "post_delete:delete"],
    "club": ["gm_action:close", "gm_action:deadline", "gm_action:foul", "gm_action:forfeit", "gm_action:override",
             "gm_action:event", "gm_action:replace", "gm_action:modkill", "gm_action:rollback", "gm_action:ban",
             "votes_post_count:", "votes_correct:", "co_gm:add", "co_gm:remove", "communication:",
             "vote_options:", "seat_aliases:", "thread_moderate:lock", "thread_moderate:schedule",
             "post_delete:delete"],
    "cards": ["gm_action:close", "gm_action:deadline", "gm_action:tie_break", "gm_action:override",
              "gm_action:event", "gm_action:replace", "gm_action:modkill", "gm_action:rollback", "gm_action:ban",
              "votes_post_count:", "votes_correct:", "co_gm:add", "co_gm:remove", "communication:",
              "vote_options:", "seat_aliases:", "thread_moderate:lock", "thread_moderate:schedule",
              "post_delete:delete", "gm_card_effect:close", "gm_card_effect:add"],
}


@pytest.mark.parametrize("ruleset", GAMES)
def test_the_gm_forms_are_these(db, ruleset):
    game = GAMES[ruleset](db)
    assert sorted(f"{f.url_name}:{f.action}" for f in gm_forms(game)) == sorted(CASES[ruleset])


def _first_difference(kept: str, fresh: str) -> str:
    for old, new in zip(kept.splitlines(), fresh.splitlines()):
        if old != new:
            return f"kept: {old.strip()[:300]} / fresh: {new.strip()[:300]}"
    return "lengths differ"


def _messages(response) -> list:
    return list(response.wsgi_request._messages)


@pytest.mark.parametrize("ruleset,case", [(r, c) for r in CASES for c in CASES[r]])
def test_after_each_gm_write_the_pages_are_current_for_everyone(db, ruleset, case,
                                                                django_capture_on_commit_callbacks):
    """The thread page, the vote count and the game page, each read (and kept) by an anonymous
    reader, a player and the GM before the GM's write, are right after it the pages rendered from
    nothing (the cache emptied, a new session)."""
    game = GAMES[ruleset](db)
    _pages_current_after(game, case, _prepare(game, case), django_capture_on_commit_callbacks)


def _pages_current_after(game: Game, case: str, given: dict, django_capture_on_commit_callbacks) -> None:
    form = next(f for f in gm_forms(game) if f"{f.url_name}:{f.action}" == case)
    assert declaration(game, form) is not None
    viewers = {who: _viewer(game, who) for who in PERSPECTIVES}  # before the write (a replacement changes the seat's)
    clients = {who: client_for(user) for who, user in viewers.items()}
    for client in clients.values():
        for url in _pages(game).values():
            for _ in range(3):  # the CSRF cookie, then the frame and the post list kept, then a kept page
                client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(game.gm).post(form.url, _filled(form, given))
    assert response.status_code == 302, (case, response.content.decode()[:2000])
    # Done, not refused (a count posted says nothing: its answer is the post itself).
    said = _messages(response)
    assert not [m for m in said if m.level >= message_levels.ERROR], (case, [str(m) for m in said])
    assert said or case == "votes_post_count:", case
    kept = {(who, page): _read(clients[who], url) for who in PERSPECTIVES for page, url in _pages(game).items()}
    stale = []
    for who, user in viewers.items():
        for page, url in _pages(game).items():
            cache.clear()
            fresh = _read(client_for(user), url)
            if kept[(who, page)] != fresh:
                stale.append((who, page, _first_difference(kept[(who, page)], fresh)))
    assert not stale, f"{case}: stale right after it for {stale}"


# --- The GM forms of other moments: each declares too ----------------------------------------------
def _forum_signups(db) -> Game:
    game = game_create(title="Набор", gm=make_user("Ведущий набора"), size=3)
    _players(game, ["Вася", "Фроло", "Кикимора"])
    return Game.objects.get(pk=game.pk)


def _cards_deck_building(db) -> Game:
    """Deck building in a game whose GM builds the deck of a player with none (its «deck» form)."""
    game = game_create(title="Колоды", gm=make_user("Ведущий колод"), ruleset="cards", size=6,
                       options={"illegal_deck": "gm"})
    _players(game, ["Вася", "Негодяй", "Маньяк", "Фроло", "Петя", "Киллер"])
    game_start(game=game, by=game.gm, seed=7,
               roles_in_seat_order=["sheriff", "boss", "maniac", "doctor", "commissioner", "killer"])
    return Game.objects.get(pk=game.pk)


def _cards_with_an_effect(db) -> Game:
    """A cards day with an effect the GM added (its «remove» form)."""
    from games.rulesets.cards.services import card_gm_effect_add

    game = cards_day(db)
    seats = list(game.seats.select_related("user").order_by("number"))
    card_gm_effect_add(phase=game.current_phase, gm=game.gm,
                       effect={"op": "give", "target": seats[1].pk, "to": "hand", "card": "Пистолет"})
    return Game.objects.get(pk=game.pk)


def _forum_letter_waiting(db) -> Game:
    """A forum day with an anonymous message waiting for the GM (its «deliver»/«reject» form)."""
    from games.communication.anonymous import anonymous_send

    game = forum_day(db)
    Game.objects.filter(pk=game.pk).update(options={**(game.options or {}),
                                                    "anonymous_messages": {"limit": 3, "approval": True}})
    game = Game.objects.get(pk=game.pk)
    seats = list(game.seats.select_related("user").order_by("number"))
    anonymous_send(game=game, user=seats[0].user, recipient=seats[1], text="Привет от незнакомца")
    return Game.objects.get(pk=game.pk)


def _show_day(db) -> Game:
    """A show's day vote (its GM's «Заменить приказ»: the show's own GM input, issue 28 item 19)."""
    game = game_create(title="Шоу", gm=make_user("Ведущий шоу"), ruleset="show", size=5)
    users = _players(game, ["Аня", "Боря", "Вера", "Жора", "Кира"])
    game_start(game=game, by=game.gm, seed=7, roles_in_seat_order=["mason", "mason", "reptiloid", "saviour", "demon"])
    game.refresh_from_db()
    for user in users.values():  # the greetings by text: day 1 opens
        post_submit(thread=game.game_thread, author=user, body="Привет")
    return Game.objects.get(pk=game.pk)


def _show_trial(db) -> Game:
    """A show at day 2 with the slaves' trial open and unanswered (issue 28, item 6: the GM's task of
    the running trial and the tasks to come, his dashboard's two inputs)."""
    source = Path(__file__).resolve().parents[1] / "scenarios" / "show" / "trial-task-and-doomsday.yaml"
    data = yaml.safe_load(source.read_text("utf-8"))
    data["phases"] = [{k: v for k, v in p.items() if k != "expect"} for p in data["phases"][:6]]
    data.pop("expect", None)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "show.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
        scenarios.play(str(path), keep=True)
    return Game.objects.filter(ruleset="show").latest("pk")


OTHER_MOMENTS = {"forum signups": _forum_signups, "cards deck building": _cards_deck_building,
                 "cards effect": _cards_with_an_effect, "forum letter waiting": _forum_letter_waiting,
                 "show day": _show_day, "show trial": _show_trial}


@pytest.mark.parametrize("moment", OTHER_MOMENTS)
def test_the_gm_forms_of_other_moments_declare_what_they_change(db, moment):
    game = OTHER_MOMENTS[moment](db)
    forms = gm_forms(game)
    keys = {f"{f.url_name}:{f.action}" for f in forms}
    expected = {"forum signups": {"game_start:", "co_gm:add"},
                "cards deck building": {"gm_card_effect:gm_deck"},
                "cards effect": {"gm_card_effect:remove"}, "forum letter waiting": {"anonymous:"},
                "show day": {"gm_action:show_replace"},
                "show trial": {"gm_action:trial_task", "gm_action:trial_tasks"}}[moment]
    assert expected <= keys, keys
    if moment == "show day":  # the show's replacement is its own; the core's form is not offered
        assert "gm_action:override" not in keys and "vote_options:" not in keys
    undeclared = [f"{f.url_name}:{f.action}" for f in forms if declaration(game, f) is None]
    assert not undeclared, f"GM writes with no declaration (games/services/gm_writes.py): {undeclared}"


@pytest.mark.parametrize("case", ["gm_action:trial_task", "gm_action:trial_tasks"])
def test_after_the_shows_task_writes_the_pages_are_current_for_everyone(db, case, django_capture_on_commit_callbacks):
    """The show's GM inputs (issue 28, item 6), as every GM write above: the thread (the task told
    there), the count and the game page are current right after it for each reader."""
    _pages_current_after(_show_trial(db), case, {}, django_capture_on_commit_callbacks)
