"""The Talent's raise on the site (issue 19, docs/rulesets/show.md "Part 2 on the site"): the panel's
form, games.rulesets.show.coins.services.show_raise, the close's `extra["raise"]`, and the ledger.

«Каждый Талантливый раб имеет возможность на этапе Защитных Речей поменять своего ставленника и
одновременно с этим увеличить Ставки всех рабов включая свою на размер Базовой Ставки.»"""

from __future__ import annotations

import pytest
from django.urls import reverse

from coins import services as coins
from coins.models import Account, Entry
from games.models import Order
from games.rulesets.show import services
from games.rulesets.show.coins import services as services_coins
from games.selectors.state import game_state
from tests.conftest import client_for
from tests.games.test_show_coins import _close, _kept

pytestmark = pytest.mark.django_db

FILE = "coins-talent-raise-masons-win.yaml"  # Вера, a public slave, is day 2's Talent; Боря is Зина's slave


def _snapshot(game):
    """Everything a raise could change: the valid raise rows, the bets in the state, the ledger."""
    state = game_state(game)
    return (list(Order.objects.filter(phase__game=game, action="raise", valid=True).values_list("pk", flat=True)),
            dict(state.memory.get("bets") or {}),
            Entry.objects.count(),
            dict(Account.objects.values_list("key", "balance")))


def test_a_talent_raises_in_the_defence_changing_his_pick_and_every_slaves_stake(tmp_path):
    """The raise: Вера's pick becomes Аня, every slave (Вера and Боря) pays the base stake (25) more
    into the pot at the defence's close, their stakes in the state go 25 → 50; refused for a slave
    who is no Talent, a second time, and outside the defence — and a refusal changes nothing."""
    game, users, seats = _kept(tmp_path, FILE, 11)
    assert (game.current_phase.kind, game.current_phase.number) == ("defence", 3)
    url = reverse("games:show_act", args=[game.pk])
    vera, borya, anya = seats["Вера"].pk, seats["Боря"].pk, seats["Аня"].pk

    # The form is on the Talent's panel, with its cost shown before; not on another slave's.
    page = client_for(users["Вера"]).get(game.get_absolute_url()).content.decode()
    assert 'name="act" value="raise"' in page
    assert 'name="act" value="raise"' not in client_for(users["Боря"]).get(game.get_absolute_url()).content.decode()

    # Боря is a slave but no Talent: refused, nothing changed.
    before = _snapshot(game)
    client_for(users["Боря"]).post(url, {"act": "raise", "target": anya})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Боря"], action="raise").reason == "not_your_action"
    assert _snapshot(game) == before
    # A free hero (Аня) is no Talent either.
    client_for(users["Аня"]).post(url, {"act": "raise"})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Аня"], action="raise").reason == "not_your_action"
    # A pick that is a slave is refused too (Боря), and changes nothing.
    client_for(users["Вера"]).post(url, {"act": "raise", "target": borya})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Вера"], action="raise").reason == "bad_target"
    assert _snapshot(game) == before

    # (her raise is the last thing the defence waits for: kept open here to try a second one)
    assert services_coins.show_raise(game=game, user=users["Вера"], target=anya, early_close=False).accepted
    assert services.ledger_inputs(game.current_phase).extra["raise"] == [vera]
    assert services.ledger_inputs(game.current_phase).extra["bets"] == {vera: anya}
    page = client_for(users["Вера"]).get(game.get_absolute_url()).content.decode()
    assert 'name="act" value="raise"' not in page  # done: the panel says so instead of the form
    client_for(users["Вера"]).post(url, {"act": "raise", "target": anya})  # a second raise
    assert Order.objects.filter(actor=seats["Вера"], action="raise", valid=False).latest("pk").reason == "already_raised"
    assert Order.objects.filter(phase=game.current_phase, action="raise", valid=True).count() == 1

    pot_before = Account.objects.get(key=coins.game_key(game, "pot")).balance
    _close(game)  # the defence's close charges the raise
    assert (game.current_phase.kind, game.current_phase.number) == ("judge", 3)
    bets = game_state(game).memory["bets"]
    assert int(bets[str(vera)]["pick"]) == anya
    assert {name: int(bets[str(seats[name].pk)]["stake"]) for name in ("Вера", "Боря", "Аня")} == {
        "Вера": 50, "Боря": 50, "Аня": 25}
    lines = sorted(Entry.objects.filter(game=game, reason="bet_raise").values_list("debit__key", "amount", "stage"))
    assert lines == sorted([(coins.user_key(users["Вера"]), 25, "defence 3"), (coins.user_key(users["Боря"]), 25, "defence 3")])
    assert Account.objects.get(key=coins.game_key(game, "pot")).balance == pot_before + 50 == 200
    assert coins.check() == []

    # Outside the defence (the judge's stage): refused, nothing changed.
    before = _snapshot(game)
    client_for(users["Вера"]).post(url, {"act": "raise", "target": seats["Жора"].pk})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Вера"], action="raise").reason == "not_your_action"
    assert _snapshot(game) == before


def test_a_raise_before_the_defence_is_refused(tmp_path):
    """On day 3 (before the defence speeches) the Talent's raise is refused and changes nothing."""
    game, users, seats = _kept(tmp_path, FILE, 10)
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 3)
    before = _snapshot(game)
    assert 'name="act" value="raise"' not in client_for(users["Вера"]).get(game.get_absolute_url()).content.decode()
    client_for(users["Вера"]).post(reverse("games:show_act", args=[game.pk]), {"act": "raise", "target": seats["Аня"].pk})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Вера"], action="raise").reason == "not_your_action"
    assert _snapshot(game) == before
