"""`manage.py seed_demo` (the README's first command runs it): the demo site, safe to repeat."""

import pytest
from django.core.management import call_command

from games.models import Game, Post
from games.services.lifecycle import game_start

pytestmark = pytest.mark.django_db


def test_seed_demo_builds_the_demo_site_and_is_safe_to_repeat(capsys):
    call_command("seed_demo")
    call_command("seed_demo")
    assert "mafia-demo" in capsys.readouterr().out
    forum = Game.objects.get(title__startswith="Демо: Город")
    assert forum.status == Game.Status.RUNNING and Post.objects.filter(thread=forum.game_thread).count() >= 6
    cards = Game.objects.get(ruleset="cards")
    assert cards.status == Game.Status.SIGNUPS and cards.seats.count() == cards.size == 8
    assert all(seat.overt_role and seat.contacts for seat in cards.seats.all())
    assert Game.objects.count() == 2
    # The GM may start it straight away: deck building opens.
    game_start(game=cards, by=cards.gm, seed=1)
    cards.refresh_from_db()
    assert cards.current_phase.kind == "deckbuilding"
