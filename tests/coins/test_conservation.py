"""Conservation (issue 19): over random sequences of registrations (with and without a referral),
transfers among users and games' accounts, shows' money (entry fees and stage fees to the bank,
bets to the pot, burdens held in escrow, the bank and the pot split among the winners by the
engine's whole-coin split), fines, and refused posts, the sum over all accounts stays zero (the
mint is minus what registrations created) and every cached balance equals the ledger's sum.

«Монеты никуда не исчезают из системы, а только перераспределяются между пользователями в ходе сессий.»
"""

from __future__ import annotations

import itertools

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coins import services
from coins.models import Account, Entry
from coins.services import MINT, LedgerError, Line, post
from games.rulesets.show.engine.coins import Transfer, split
from games.services.games import game_create
from tests.conftest import make_user

_names = itertools.count()

operation = st.one_of(
    st.tuples(st.just("register"), st.one_of(st.none(), st.integers(0, 50))),
    st.tuples(st.just("transfer"), st.integers(0, 50), st.integers(0, 50), st.integers(1, 3000)),
    st.tuples(st.just("fine"), st.integers(0, 50), st.integers(0, 50)),
    st.tuples(st.just("show"), st.lists(st.integers(0, 50), min_size=2, max_size=6, unique=True),
              st.integers(1, 60), st.integers(1, 40), st.lists(st.integers(0, 5), min_size=6, max_size=6)),
    st.tuples(st.just("refused"), st.integers(0, 50), st.integers(0, 50)),
)


def _invariants(created: int) -> None:
    assert (Account.objects.aggregate(t=Sum("balance"))["t"] or 0) == 0
    assert services.check() == []
    assert Account.objects.get(key=MINT).balance == -1000 * created
    assert Entry.objects.filter(reason="registration").count() == created


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(operations=st.lists(operation, min_size=1, max_size=12))
def test_the_sum_of_all_accounts_changes_only_by_registrations(operations, django_user_model):
    gm = make_user(f"Ведущий {next(_names)}")
    users = [make_user(f"Герой {next(_names)}") for _ in range(3)]
    _invariants(django_user_model.objects.count())
    for op in operations:
        kind = op[0]
        if kind == "register":
            newcomer = make_user(f"Новичок {next(_names)}")
            if op[1] is not None:
                owner = users[op[1] % len(users)]
                services.register(newcomer, referral=services.ensure_indicode(owner).code)
                assert services.balance_of(newcomer) == 900
            users.append(newcomer)
        elif kind == "transfer":
            a, b = users[op[1] % len(users)], users[op[2] % len(users)]
            if a != b:
                post([Line(services.user_key(a), services.user_key(b), op[3], "bet")])
        elif kind == "fine":
            offender, reporter = users[op[1] % len(users)], users[op[2] % len(users)]
            if offender != reporter:
                services.fine(offender, reporter, by=gm, report="скриншот", decision="доказано")
        elif kind == "show":
            _play_show(gm, [users[i % len(users)] for i in op[1]], fee=op[2], bet=op[3], weights=op[4])
        elif kind == "refused":
            a, b = users[op[1] % len(users)], users[op[2] % len(users)]
            before = list(Account.objects.order_by("pk").values_list("key", "balance"))
            lines = Entry.objects.count()
            with pytest.raises(LedgerError):
                post([Line(services.user_key(a), MINT if a == b else services.user_key(b), 5, "bet"),
                      Line(services.user_key(a), "game:0:bank", 5, "stage_fee")])  # a game that is not
            assert list(Account.objects.order_by("pk").values_list("key", "balance")) == before
            assert Entry.objects.count() == lines
        _invariants(django_user_model.objects.count())


def _play_show(gm, heroes, *, fee: int, bet: int, weights: list[int]) -> None:
    """A show's money as the engine hands it over: the engine's Transfers with `hero:<seat>`
    mapped to the users' keys, posted stage by stage; the show's own accounts empty at the end."""
    heroes = list(dict.fromkeys(heroes))
    if len(heroes) < 2:
        return
    game = game_create(title=f"Шоу {next(_names)}", gm=gm, ruleset="show", size=10)
    hero = {n: services.user_key(u) for n, u in enumerate(heroes)}
    bank, pot = services.game_key(game, "bank"), services.game_key(game, "pot")
    post([Transfer(hero[n], bank, fee, "entry_fee") for n in hero], game=game, stage="greetings")
    post([Transfer(hero[n], pot, bet, "bet") for n in hero], game=game, stage="night 1")
    escrow = services.game_key(game, "escrow:0")
    post([Transfer(hero[n], escrow, 3, "burden") for n in hero if n], game=game, stage="day 2")
    post([Transfer(escrow, hero[0], 3 * (len(hero) - 1), "burden")], game=game, stage="day 2")
    shares = split(fee * len(hero), {n: weights[n] for n in hero}) or {0: fee * len(hero)}
    post([Transfer(bank, hero[n], amount, "bank_share") for n, amount in shares.items()], game=game, stage="end")
    pot_shares = split(bet * len(hero), {n: 1 for n in hero})
    post([Transfer(pot, hero[n], amount, "pot_share") for n, amount in pot_shares.items()], game=game, stage="end")
    assert [Account.objects.get(key=k).balance for k in (bank, pot, escrow)] == [0, 0, 0]
