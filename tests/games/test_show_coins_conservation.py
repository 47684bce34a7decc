"""Conservation at the site level (issue 19): random short shows played through the real services
(greetings, votes, night choices, bets and raises, sympathies and ally picks, trial answers and
grants, paid messages, anonymous messages, fines), each stage closed as the deadline task closes it.
After every action and every close the sum over all coin accounts is zero, every cached balance
equals its ledger lines (coins.services.check), the show's heroes and the show's own accounts still
hold the coins the heroes brought, and after each close the engine's bank and pot equal the
ledger's. tests/coins/test_conservation.py checks the ledger with the engine's transfers posted by
hand; this one lets the services decide what moves.

«Монеты никуда не исчезают из системы, а только перераспределяются между пользователями в ходе сессий.»"""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coins import services as coins
from coins.models import Account
from games.communication.anonymous import anonymous_send
from games.models import Game
from games.rulesets.show import services
from games.rulesets.show.coins import services as services_coins
from games.rulesets.show.engine import SHOW
from games.rulesets.show.scenario_inputs import TINY_PNG
from games.selectors.state import game_state
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import make_user

_names = itertools.count()
ROLES = ["mason", "mason", "reptiloid", "saviour", "demon"]
# Small fees so that every kind of money moves in a short show: a message past the first costs 2.
OPTIONS = {"entry_fee": 20, "stage_fee_min": 0, "stage_fee_max": 6, "coma_fee": 4, "free_messages": 1,
           "message_fee": 2}
KINDS = ("message", "anonymous", "fine", "vote", "order", "bet", "raise", "sympathy", "ally", "trial", "grant")


def _invariants(game: Game, heroes: list, brought: int) -> None:
    assert (Account.objects.aggregate(t=Sum("balance"))["t"] or 0) == 0
    assert coins.check() == []
    keys = [coins.user_key(u) for u in heroes]
    held = (Account.objects.filter(key__in=keys).aggregate(t=Sum("balance"))["t"] or 0) \
        + (Account.objects.filter(game=game).aggregate(t=Sum("balance"))["t"] or 0)
    assert held == brought  # fines move coins between heroes; nothing else reaches them


def _engine_agrees(game: Game) -> None:
    """Right after a close every fee row belongs to a closed stage: the engine's books are the ledger's."""
    game.refresh_from_db()
    state = game_state(game)
    accounts = (state.memory.get("coins") or {}).get("accounts") or {}
    ledger = dict(Account.objects.filter(game=game).values_list("key", "balance"))
    for name in ("bank", "pot"):
        if name in accounts:
            assert int(accounts[name]) == ledger.get(coins.game_key(game, name), 0), name


def _act(data, game: Game, heroes: list, seats: list, gm, now) -> None:
    game.refresh_from_db()
    if game.status != Game.Status.RUNNING:
        return
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    i = data.draw(st.integers(0, len(heroes) - 1), label="hero")
    user, target = heroes[i], seats[data.draw(st.integers(0, len(seats) - 1), label="target")]
    state = game_state(game)
    try:
        if kind == "message":
            post_submit(thread=game.game_thread, author=user, body=f"Слово {next(_names)}", now=now)
        elif kind == "anonymous":
            anonymous_send(game=game, user=user, recipient=target, text="Я знаю, кто ты.", now=now)
        elif kind == "fine":
            reporter = heroes[(i + 1 + data.draw(st.integers(0, len(heroes) - 2), label="reporter")) % len(heroes)]
            coins.fine(user, reporter, by=gm, game=game, report="скриншот", decision="доказано")
        elif kind == "vote":
            ballot = data.draw(st.sampled_from([None, None, "enslave", "spare"]), label="ballot")
            services.show_vote(game=game, user=user, target=None if ballot else target, ballot=ballot, now=now,
                               early_close=False)
        elif kind == "order":
            seat = seats[i]
            allowed = sorted(a for a in SHOW.allowed_actions(state, seat.pk) if a in services.NIGHT_ACTIONS
                             | services.JUDGE_ACTIONS) if state.has_seat(seat.pk) else []
            action = data.draw(st.sampled_from(allowed or ["suspect"]), label="action")
            services.show_order(game=game, user=user, action=action, target=target, now=now, early_close=False)
        elif kind == "bet":
            services_coins.show_bet(game=game, user=user, target=target, now=now)
        elif kind == "raise":
            services_coins.show_raise(game=game, user=user, target=target, now=now)
        elif kind == "sympathy":
            services_coins.show_sympathy(game=game, user=user, target=target, now=now)
        elif kind == "ally":
            services_coins.show_pick_ally(game=game, user=user, target=target, now=now, early_close=False)
        elif kind == "trial":
            services_coins.show_trial_answer(game=game, user=user, now=now, upload=SimpleUploadedFile(
                "a.png", TINY_PNG, content_type="image/png"))
        else:
            answers = [post for post, _author in services_coins.open_answers(game, state)]
            post = data.draw(st.sampled_from([None, *answers]), label="answer")
            amount = data.draw(st.sampled_from([10, 15, 25, 11]), label="amount") if post else None
            services_coins.show_grant(game=game, user=user, post=post, amount=amount, now=now)
    except ActionRefused:
        pass  # refused as a whole, nothing written: the invariants below say so


@pytest.mark.django_db
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(1, 10_000), stages=st.integers(4, 14))
def test_random_shows_through_the_services_neither_create_nor_lose_a_coin(data, seed, stages):
    n = next(_names)
    gm = make_user(f"Ведущий {n}")
    game = game_create(title=f"Шоу {n}", gm=gm, ruleset="show", size=len(ROLES), options=dict(OPTIONS))
    heroes = [make_user(f"Герой {n}-{k}") for k in range(len(ROLES))]
    brought = sum(coins.balance_of(u) for u in heroes)
    seats = [game_signup(game=game, user=u) for u in heroes]
    game_start(game=game, by=gm, seed=seed, roles_in_seat_order=ROLES)
    _invariants(game, heroes, brought)
    for _stage in range(stages):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        phase = game.current_phase
        for minute in range(data.draw(st.integers(0, 6), label="actions")):
            _act(data, game, heroes, seats, gm, phase.opened_at + timedelta(minutes=minute + 1))
            _invariants(game, heroes, brought)
        phase.refresh_from_db()
        if phase.closed_at is None:
            phase_close(phase_id=phase.pk, now=phase.deadline_at)
        _invariants(game, heroes, brought)
        _engine_agrees(game)
    game.refresh_from_db()
    if game.status == Game.Status.FINISHED:
        # The show's own accounts are empty once it is settled.
        assert set(Account.objects.filter(game=game).values_list("balance", flat=True)) <= {0}
