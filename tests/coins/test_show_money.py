"""The show's money posted to the ledger: the engine's `hero:<seat>`, `bank`, `pot` and
`escrow:<seat>` become the users' balances and the show's own accounts.

«Перед раздачей Ролей все участники отправляют в Банк со своих Балансов первоначальный сбор.»"""

from __future__ import annotations

import pytest
from django.urls import reverse

from coins import services
from coins.models import Account, Entry
from games.rulesets.show.engine.coins import Transfer, escrow, hero
from games.rulesets.show.coins.ledger import post_transfers
from games.services.games import game_create
from tests.conftest import client_for, make_user


@pytest.fixture
def show_seats(gm):
    game = game_create(title="Шоу", gm=gm, ruleset="show", size=10)
    users = [make_user("Первый"), make_user("Второй")]
    seats = [game.seats.create(user=u, number=n + 1) for n, u in enumerate(users)]
    return game, users, seats


def test_a_stages_transfers_reach_the_users_and_the_shows_accounts(show_seats):
    game, (first, second), (s1, s2) = show_seats
    batch = post_transfers(game=game, stage="greetings", transfers=[
        Transfer(hero(s1.pk), "bank", 25, "entry_fee").to_dict(),
        Transfer(hero(s2.pk), "bank", 25, "entry_fee"),
        Transfer(hero(s1.pk), escrow(s2.pk), 10, "burden"),
        Transfer(hero(s2.pk), "pot", 25, "bet"),
    ])
    assert (services.balance_of(first), services.balance_of(second)) == (965, 950)
    assert Account.objects.get(key=f"game:{game.pk}:bank").balance == 50
    assert Account.objects.get(key=f"game:{game.pk}:escrow:{s2.pk}").balance == 10
    assert Account.objects.get(key=f"game:{game.pk}:pot").balance == 25
    assert set(Entry.objects.filter(batch=batch).values_list("stage", "game_id")) == {("greetings", game.pk)}
    page = client_for(first).get(reverse("coins:balance", args=[first.pk])).content.decode()
    assert "Первоначальный сбор в Банк шоу" in page and "Бремя уплачено" in page and "Второй" not in page


def test_a_transfer_naming_a_seat_of_another_game_posts_nothing(show_seats, game):
    show, (first, _second), (s1, _s2) = show_seats
    foreign = game.seats.create(user=make_user("Чужой"), number=1)
    lines = Entry.objects.count()
    with pytest.raises(services.LedgerError):
        post_transfers(game=show, transfers=[Transfer(hero(s1.pk), "bank", 25, "entry_fee"),
                                             Transfer(hero(foreign.pk), "bank", 25, "entry_fee")])
    assert Entry.objects.count() == lines and services.balance_of(first) == 1000


def test_no_transfers_post_nothing(show_seats):
    game, _users, _seats = show_seats
    assert post_transfers(game=game, transfers=[]) is None
