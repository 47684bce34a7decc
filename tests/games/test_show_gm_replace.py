"""The GM's «Заменить приказ» in a show (issue 28, item 19; docs/rulesets/show.md, "The GM's
card"): for each hero it offers exactly what the engine lets him give now among the inputs a
stage's close reads (services.GM_REPLACEABLE: ballots, re-vote words, the night choices and their
extras, the judge's decision, ...), built from the engine's menu, in every stage kind; what the GM
enters stands as the hero's last input and is counted at the close; a choice the engine refuses
changes nothing; the core's night-actions-only form is not offered (nor accepted) for a show. The
judge's lot on the GM's card is headed by what it is and written in the site's number format."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from games.engine.orders import PhaseInputs
from games.models import Game, GameEvent, GMAction, Order
from games.rulesets.show import services
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.menu import pairs
from games.rulesets.show.engine.privilege_keys import PRIVILEGES
from games.rulesets.show.engine.stages import parse_phase
from games.rulesets.show.selectors import judge_lot_rows
from games.rulesets.show.site import SITE
from games.selectors.state import game_state as game_state_of
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.engine.show_helpers import NOW
from tests.engine.test_show_menu_properties import with_part_two
from tests.engine.test_show_privilege_properties import at_once, privilege_inputs
from tests.engine.test_show_properties import random_inputs
from tests.games.test_show_panel_offers import NAMES, ROLES, _store

pytestmark = pytest.mark.django_db


class ReplaceForms(HTMLParser):
    """The GM's replacement forms: each one's hero (hidden `seat`), its `choice` options and the
    extras' selects."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "data-show-replace" in a:
            self.forms.append({"seat": None, "selects": {}})
        elif not self.forms:
            return
        elif tag == "input" and a.get("name") == "seat":
            self.forms[-1]["seat"] = int(a["value"])
        elif tag == "select":
            self._select = a.get("name")
            self.forms[-1]["selects"][self._select] = []
        elif tag == "option" and self._select is not None:
            self.forms[-1]["selects"][self._select].append(a.get("value"))

    def handle_endtag(self, tag):
        if tag in ("select", "form"):
            self._select = None


def offered(html: str) -> dict[int, set]:
    """{hero: the (action, choice) pairs his replacement form offers}."""
    parser = ReplaceForms()
    parser.feed(html)
    out: dict[int, set] = {}
    for form in parser.forms:
        got = out.setdefault(form["seat"], set())
        for value in form["selects"].get("choice", []):
            if not value:  # «— выберите —» while nothing of his stands
                continue
            action, _sep, raw = value.partition(":")
            got.add((action, int(raw) if raw.isdigit() else (raw or None)))
        for key in services.DETAIL_KEYS:
            got |= {(key, int(v)) for v in form["selects"].get(key, []) if v}
    return out


def gm_card(game: Game, user) -> str:
    request = RequestFactory().get("/")
    request.user = user
    context = {"game": game, "request": request}
    extra = SITE.panel_context("gm.decisions", context)
    return "".join(render_to_string(t, {**context, **extra}) for t in SITE.template_panels["gm.decisions"])


@pytest.fixture
def world(db):
    gm = make_user("Ведущий")
    game = game_create(title="Шоу замены", gm=gm, ruleset="show", size=len(NAMES),
                       options={"privileges": list(PRIVILEGES), "carousel": True})
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    return game, gm


def _states_by_kind(start, kinds: set[str], tries: int = 400) -> dict:
    """Random shows (the engine's random inputs, every privilege, the carousel, bets and alliances)
    until a state of each stage kind is found."""
    found: dict = {}
    rng = random.Random(28)
    for attempt in range(tries):
        state = start
        for _stage in range(rng.randrange(0, 30)):
            if state.over:
                break
            state, _events = at_once(state, rng)
            inputs = with_part_two(state, privilege_inputs(state, random_inputs(state, rng), rng), rng)
            state = SHOW.resolve(state, inputs, seed=attempt, now=NOW).state
            kind, _n = parse_phase(state.phase)
            if not state.over and kind in kinds and kind not in found:
                found[kind] = state
        if set(found) == kinds:
            break
    return found


def test_the_gms_options_are_the_engines_allowed_inputs_in_every_stage_kind(world):
    """«Заменить приказ» offers, for each hero, exactly the engine's menu of the inputs a close reads
    (day votes, re-votes and their words, the judge's decision, the night choices and extras, ...):
    the same list the hero's own panel is built from, so the GM can put any misclick right."""
    game, gm = world
    kinds = {"greetings", "day", "defence", "revote", "judge", "night", "allies"}
    states = _states_by_kind(game_state_of(game), kinds - {"greetings"})
    states["greetings"] = game_state_of(game)
    assert set(states) == kinds, sorted(states)
    keep = set(services.GM_REPLACEABLE) | set(services.DETAIL_KEYS)
    for kind, state in sorted(states.items()):
        _store(game, state)
        game = Game.objects.select_related("current_phase", "game_thread").get(pk=game.pk)
        shown = offered(gm_card(game, gm))
        for seat in game.seats.all():
            menu = SHOW.menu(state, seat.pk, PhaseInputs())
            expected = {(a, c) for a, c in pairs(menu) if a in keep}
            # the extras ride on a night choice: offered only beside one
            if not any(a in services.NIGHT_ACTIONS | {"spare"} for a, _c in expected):
                expected = {(a, c) for a, c in expected if a not in services.DETAIL_KEYS}
            assert shown.get(seat.pk, set()) == expected, (kind, seat.dealt_name)
            # every replaceable action the engine allows him now is there (with its valid choices)
            allowed = set(SHOW.allowed_actions(state, seat.pk)) & set(services.GM_REPLACEABLE)
            assert {a for a in allowed if menu.get(a)} <= {a for a, _c in shown.get(seat.pk, set())}, (kind, seat)
        if kind in ("day", "revote", "night"):
            assert shown, kind  # the day's ballots, the re-vote's, the night's choices are all there
        if kind == "judge":
            judge = [s for s, got in shown.items() if any(a in ("enslave", "spare") for a, _c in got)]
            assert judge, "the judge's decision is offered"


# --- A replaced input is counted ------------------------------------------------------------------
HEROES = ["Аня", "Боря", "Вера", "Жора", "Кира"]


@pytest.fixture
def small(db):
    gm = make_user("Ведущий")
    game = game_create(title="Малое шоу", gm=gm, ruleset="show", size=5)
    users = {n: make_user(n) for n in HEROES}
    for name in HEROES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=["mason", "mason", "reptiloid", "saviour", "demon"])
    game.refresh_from_db()
    for name in HEROES:  # the greetings by text: day 1 opens
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")
    game.refresh_from_db()
    assert game.current_phase.kind == "day"
    seats = {n: game.seats.get(user=users[n]) for n in HEROES}
    return game, gm, users, seats


def _replace(gm, game, seat, choice: str, **extra):
    return client_for(gm).post(reverse("games:gm_action", args=[game.pk]),
                               {"action": "show_replace", "seat": seat.pk, "choice": choice, **extra}, follow=True)


def test_a_vote_replaced_by_the_gm_is_counted_at_the_close(small):
    """A misclicked ballot put right: Аня voted for Боря, the GM replaces it with Вера; the close's
    public ballots say Вера, the ledger keeps both rows (hers and the GM's), the GM log says so."""
    game, gm, users, seats = small
    assert services.show_vote(game=game, user=users["Аня"], target=seats["Боря"], early_close=False).accepted
    page = client_for(gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    assert f'value="vote:{seats["Боря"].pk}" selected' in page  # her standing ballot shown to the GM
    response = _replace(gm, game, seats["Аня"], f"vote:{seats['Вера'].pk}")
    assert "заменён" in response.content.decode()
    row = Order.objects.filter(phase=game.current_phase, actor=seats["Аня"]).latest("pk")
    assert (row.action, row.target_id, row.source, row.recorded_by_id) == ("vote", seats["Вера"].pk, "gm", gm.pk)
    assert GMAction.objects.filter(game=game, action="order_override", data__accepted=True).exists()
    for name in HEROES[1:]:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name != "Аня" else "Боря"],
                           early_close=False)
    assert phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at, by=gm)
    ballots = GameEvent.objects.get(game=game, kind="day_votes").data["ballots"]
    assert ballots["Аня"] == "Вера"


def test_a_revote_ballot_replaced_by_a_word_is_counted(small):
    """«перед всеми кроме него стоит выбор "В рабство"/"Пощадить"»: the GM turns a «Пощадить» into
    «В рабство» and the close counts it."""
    game, gm, users, seats = small
    for name in HEROES:  # everyone against Кира: one defendant
        if name != "Кира":
            services.show_vote(game=game, user=users[name], target=seats["Кира"], early_close=False)
    services.show_vote(game=game, user=users["Кира"], target=seats["Аня"], early_close=False)
    phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at, by=gm)
    game.refresh_from_db()
    while game.current_phase.kind != "revote":  # the defence (her speech) and its close
        phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at, by=gm)
        game.refresh_from_db()
    services.show_vote(game=game, user=users["Аня"], ballot="spare", early_close=False)
    page = gm_card(game, gm)
    got = offered(page)
    assert ("vote", "enslave") in got[seats["Аня"].pk] and ("vote", "spare") in got[seats["Аня"].pk]
    assert seats["Кира"].pk not in got or not any(a == "vote" for a, _c in got[seats["Кира"].pk])
    _replace(gm, game, seats["Аня"], "vote:enslave")
    phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at, by=gm)
    result = GameEvent.objects.get(game=game, kind="revote_result").data
    assert result["ballots"]["Аня"] == "enslave"


def test_a_choice_the_engine_refuses_changes_nothing(small):
    """A forged replacement (a vote for himself, a word where a hero is asked, an extra on a day
    vote, an input no stage reads, an unknown hero) is refused with the engine's reason in words
    and writes no row."""
    game, gm, users, seats = small
    rows = Order.objects.count()
    for choice, extra in [(f"vote:{seats['Аня'].pk}", {}), ("vote:enslave", {}), ("stun:" + str(seats["Боря"].pk), {}),
                          (f"vote:{seats['Боря'].pk}", {"public_key": seats["Вера"].pk}), ("vote:999999", {}),
                          ("vote:hello", {})]:
        response = _replace(gm, game, seats["Аня"], choice, **extra)
        said = [str(m) for m in response.context["messages"]]
        assert said and not any("заменён" in m for m in said), (choice, said)
    assert Order.objects.count() == rows
    # someone who is no GM of the game: not found
    response = client_for(users["Боря"]).post(reverse("games:gm_action", args=[game.pk]),
                                             {"action": "show_replace", "seat": seats["Аня"].pk,
                                              "choice": f"vote:{seats['Боря'].pk}"})
    assert response.status_code == 404
    assert Order.objects.count() == rows


def test_the_cores_night_actions_only_form_is_neither_offered_nor_accepted_for_a_show(small):
    game, gm, _users, seats = small
    page = client_for(gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    assert 'value="override"' not in page and 'value="show_replace"' in page
    rows = Order.objects.count()
    response = client_for(gm).post(reverse("games:gm_action", args=[game.pk]), {
        "action": "override", "seat": seats["Аня"].pk, "order_action": "suspect", "target": seats["Боря"].pk},
        follow=True)
    assert "Неизвестное действие" in response.content.decode()
    assert Order.objects.count() == rows


# --- The judge's lot on the GM's card ---------------------------------------------------------------
def test_the_judges_lot_is_named_for_what_it_is_and_written_in_the_sites_number_format():
    """«вероятность для того стать Судьёй на следующее утро снижается на порядок»: the table says
    each hero's weight in the lot and his chance, never the float's raw digits
    (`0,010000000000000002`), and is not headed «Сила голоса» (a vote's weight, the cards')."""
    rows = judge_lot_rows({"weights": {"Аня": 1.0, "Боря": 0.010000000000000002, "Вера": 0.1, "Гоша": 0.001},
                           "suspicions": {"Боря": 2, "Вера": 1, "Гоша": 3}, "judge": "Аня", "day": 2})["rows"]
    assert [(r["name"], r["suspicions"], r["weight"], r["chance"], r["drawn"]) for r in rows] == [
        ("Аня", 0, "1", "90\u00a0%", True), ("Боря", 2, "0,01", "0,9\u00a0%", False),
        ("Вера", 1, "0,1", "9\u00a0%", False), ("Гоша", 3, "0,001", "<\u00a00,1\u00a0%", False)]
