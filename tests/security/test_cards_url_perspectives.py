"""Every URL pattern, every perspective, on a running cards game (tests/security/cards_world.py):
the messages only cards have — a card's «Письмо», delivered by the GM without the sender, and a
mafia message between two mafiosi — are seen by their recipient, their sender and the GMs, and by
nobody else (a site moderator who is not the GM included). The sweep and its judge are
test_url_perspectives.py's."""

from __future__ import annotations

import pytest
from tests.security.conftest import module_world

from tests.security.cards_world import ALLOWED, NOT_REQUIRED_FOR, PERSPECTIVES, build_cards_world
from tests.security.test_url_perspectives import _judge, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def cards_world(django_db_setup, django_db_blocker):
    """build_cards_world() once for the module, rolled back after it (conftest.module_world)."""
    yield from module_world(django_db_blocker, build_cards_world)


@pytest.mark.parametrize("who", PERSPECTIVES)
def test_cards_messages_every_url_every_perspective(cards_world, who):
    found, problems = sweep(cards_world, who, secrets=ALLOWED, salt=cards_world.game.commitment_salt.lower())
    not_required = {canary for canary, whom in NOT_REQUIRED_FOR.items() if who in whom}
    report = problems + _judge(who, found, ALLOWED, salt_allowed=False, not_required=not_required)
    assert report == [], "\n".join(report)
