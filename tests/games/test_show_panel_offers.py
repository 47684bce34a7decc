"""The show's panels offer exactly the engine's menu (issue 28, item 3; docs/rulesets/show.md,
"The panel's offers"): random shows played by the engine are stored in a running game, and each
hero's rendered panels (the stage's, the coins', the privileges') and his reply form's «Отправить
от имени» are read back as (action, choice) pairs — the same set as the engine's menu, whose every
choice the engine accepts (tests/engine/test_show_menu_properties.py). A slave Talent has his vote
form; yourself, slaves and a spent public key are never offered where the engine refuses them."""

from __future__ import annotations

import random
from dataclasses import replace
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.orders import PhaseInputs
from games.models import Game
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.menu import GUESS_FIELDS, pairs
from games.rulesets.show.engine.privilege_keys import PRIVILEGES
from games.rulesets.show.engine.stages import parse_phase
from games.rulesets.show.site import SITE
from games.selectors.state import game_state as game_state_of
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.conftest import make_user
from tests.engine.show_helpers import NOW
from tests.engine.test_show_menu_properties import with_part_two
from tests.engine.test_show_privilege_properties import at_once, privilege_inputs
from tests.engine.test_show_properties import random_inputs

pytestmark = pytest.mark.django_db

NAMES = ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Зина", "Илья", "Кира"]
ROLES = ["mason", "mason", "mason", "mason", "mason", "mason", "saviour", "reptiloid", "reptiloid", "demon"]
# the show_act / show_privilege forms' `act` as the menu's action
ACTS = {"vote": "vote", "request": "request_opinion", "knowledge": "use_knowledge", "lull": "lull", "bet": "bet",
        "raise": "raise", "sympathy": "sympathy", "ally": "pick_ally", "stun": "stun", "exclude": "exclude",
        "extra_vote": "extra_vote", "mole": "mole_coma", "steal": "steal"}
DETAILS = ("question", "public_key", "extra_knowledge")


class Forms(HTMLParser):
    """Each <form>'s hidden inputs, its selects' option values and its named buttons' values."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"hidden": {}, "selects": {}, "buttons": []})
        elif not self.forms:
            return
        elif tag == "input" and a.get("type") == "hidden":
            self.forms[-1]["hidden"][a.get("name")] = a.get("value")
        elif tag == "select":
            self._select = a.get("name")
            self.forms[-1]["selects"][self._select] = []
        elif tag == "option" and self._select is not None:
            self.forms[-1]["selects"][self._select].append(a.get("value"))
        elif tag == "button" and a.get("name"):
            self.forms[-1]["buttons"].append((a.get("name"), a.get("value")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def _seat(value):
    return None if value in ("", None) else int(value)


def offered(html: str) -> set:
    """The (action, choice) pairs the rendered forms offer."""
    parser = Forms()
    parser.feed(html)
    out: set = set()
    for form in parser.forms:
        act, selects = form["hidden"].get("act"), form["selects"]
        if act == "order":
            actions = [form["hidden"]["action"]] if "action" in form["hidden"] else selects.get("action", [])
            for action in actions:
                if action == "spare":
                    out.add(("spare", None))
                    continue
                out |= {(action, int(v)) for v in selects.get("target", [])}
                out |= {(d, int(v)) for d in DETAILS for v in selects.get(d, []) if v}
        elif act == "intercept":
            out |= {("intercept", (int(n), f, int(h))) for n in selects["number"] for f in selects["field"]
                    for h in selects["target"]}
            assert set(selects["field"]) == set(GUESS_FIELDS)
        elif act in ACTS:
            out |= {(ACTS[act], _seat(v)) for v in selects.get("target", [])}
            out |= {(ACTS[act], v) for name, v in form["buttons"] if name == "ballot"}
    return out


@pytest.fixture
def world(db):
    gm = make_user("Ведущий")
    game = game_create(title="Шоу меню", gm=gm, ruleset="show", size=len(NAMES),
                       options={"privileges": list(PRIVILEGES), "carousel": True})
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    return game, users


def _store(game: Game, state) -> None:
    """The engine's state as the running game's, its open stage renamed to match (its ledger empty)."""
    kind, number = parse_phase(state.phase)
    phase = game.current_phase
    phase.kind, phase.number, phase.closed_at = kind, number, None
    phase.save(update_fields=["kind", "number", "closed_at"])
    phase.orders.all().delete()
    game.state = state.to_json()
    game.save(update_fields=["state"])


def panels_html(game: Game, user, seat) -> str:
    request = RequestFactory().get("/")
    request.user = user
    context = {"game": game, "request": request, "my_seat": seat}
    html = ""
    for template in SITE.template_panels["game.public"]:
        html += render_to_string(template, {**context, **SITE.panel_context("game.public", context)})
    return html


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**6), st.integers(0, 30))
def test_every_panel_offers_exactly_the_engines_menu(world, seed, stages):
    game, users = world
    game.refresh_from_db()
    state = game_state_of(game)
    rng = random.Random(seed)
    for _stage in range(stages):
        if state.over:
            break
        state, _events = at_once(state, rng)
        inputs = with_part_two(state, privilege_inputs(state, random_inputs(state, rng), rng), rng)
        state = SHOW.resolve(state, inputs, seed=seed, now=NOW).state
    if state.over:
        return
    _store(game, state)
    game = Game.objects.select_related("current_phase", "game_thread").get(pk=game.pk)
    for name, user in users.items():
        seat = game.seats.get(user=user)
        menu = SHOW.menu(state, seat.pk, PhaseInputs())
        shown = offered(panels_html(game, user, seat))
        fakes = {("fake", s.pk) for s in game.seats.filter(user_id__in=[u for u, _n in
                                                                       SITE.post_sender_choices(game=game, user=user)])}
        assert shown | fakes == pairs(menu), (state.phase, name)
        if seat.pk in SHOW.extra_voters(state):  # a slave Talent has his vote form
            assert any(action == "vote" for action, _c in shown)


def test_a_slave_talent_has_his_vote_form(world):
    """«На этом этапе в голосовании могут поучаствовать Талантливые рабы»: the Talent of the day, a
    slave, finds the vote form on his panel (it sat inside the free heroes' block)."""
    game, users = world
    state = game_state_of(game)
    vasya = game.seats.get(user=users["Аня"])
    state = replace(state, phase="day 2")
    memory = dict(state.memory)
    memory["talents"] = {"day": 2, "seats": [vasya.pk]}
    memory["slaves"] = {str(vasya.pk): {"by": "setup", "owners": ["public"], "phase": "night 1"}}
    state = replace(state.with_seats([replace(state.seat(vasya.pk), status="enslaved")]), memory=memory)
    assert vasya.pk in SHOW.voters(state)
    _store(game, state)
    game = Game.objects.select_related("current_phase", "game_thread").get(pk=game.pk)
    shown = offered(panels_html(game, users["Аня"], vasya))
    votes = {c for a, c in shown if a == "vote"}
    assert votes and vasya.pk not in votes
    assert votes == set(SHOW.vote_targets(state)) - {vasya.pk}
