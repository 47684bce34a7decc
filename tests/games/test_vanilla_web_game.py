"""A whole `vanilla` game through the web pages (issue 15, item 7): the rule set only the tests
register (tests/rulesets/vanilla, docs/architecture.md, "Adding a rule set") is offered by the new-game form and
played with the core's own pages — sign-ups, the start, votes written in posts, the GM's vote
count, the night kill from the role page, the GM's close — to the town's win. Nothing of the core
names it: whatever it needed is a capability every rule set has."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.state import GameState
from games.models import Game, Order
from games.rulesets import registry
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина"]
ACCUSATIVE = {"Анна": "Анну", "Борис": "Бориса", "Вера": "Веру", "Глеб": "Глеба", "Дина": "Дину"}


def page(client: Client, name: str, game: Game) -> str:
    response = client.get(reverse(name, args=[game.pk]))
    assert response.status_code == 200, name
    return response.content.decode()


def vote(client: Client, game: Game, name: str) -> None:
    """A vote as a player writes it with the thread's vote button (the rule set's wording says
    what it inserts: «Голосую за [b]Бориса[/b]»)."""
    thread = client.get(game.game_thread.get_absolute_url()).content.decode()
    buttons = [html.unescape(b) for b in re.findall(r'data-insert="([^"]*)"', thread)]
    body = f"Голосую за [b]{ACCUSATIVE[name]}[/b]"
    assert body in buttons
    response = client.post(reverse("games:thread_reply", args=[game.game_thread.pk]), {"body": body, "post": "1"})
    assert response.status_code in (200, 302)


def close(gm: Client, game: Game):
    phase = game.current_phase
    response = gm.post(reverse("games:phase_control", args=[game.pk]), {"action": "close", "confirm": "yes"})
    assert response.status_code == 302
    phase.refresh_from_db()
    game.refresh_from_db()
    assert phase.closed_at is not None
    return phase


def test_vanilla_is_registered_from_the_test_settings():
    assert registry.site("vanilla").engine.key == "vanilla"
    assert "vanilla" in registry.keys()


def test_a_gm_runs_a_vanilla_game_from_the_web_pages_to_the_towns_win():
    gm_user = make_user("Ведущий")
    gm = client_for(gm_user)
    assert 'value="vanilla"' in gm.get(reverse("games:game_new")).content.decode()
    response = gm.post(reverse("games:game_new"), {"title": "Ваниль", "ruleset": "vanilla", "size": 5, "roles": "",
                                                   "phase_hours": 24})
    assert response.status_code == 302
    game = Game.objects.get(title="Ваниль")
    assert game.ruleset == "vanilla"

    clients = {name: client_for(make_user(name)) for name in NAMES}
    for name in NAMES:
        clients[name].post(reverse("games:game_join", args=[game.pk]), {"action": "join"})
    assert game.seats.count() == 5
    gm.post(reverse("games:game_start", args=[game.pk]), {"confirm": "yes"})
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 1)
    roles = {s.user.display_name: s.role for s in game.seats.select_related("user")}
    assert sorted(roles.values()) == ["citizen", "citizen", "citizen", "citizen", "mafioso"]
    (mafioso,) = [n for n, r in roles.items() if r == "mafioso"]
    town = [n for n in NAMES if n != mafioso]
    assert page(Client(), "games:game", game)
    assert page(clients[mafioso], "games:role", game)

    # Day 1: three votes for a citizen, one for the mafioso, in posts; the GM reads the count.
    for name in NAMES[:4]:
        vote(clients[name], game, town[0] if name != town[0] else mafioso)
    count = page(gm, "games:votes", game)
    assert town[0] in count
    assert town[0] in page(gm, "games:gm_dashboard", game)
    day = close(gm, game)
    assert day.outcome["lynched"] == [town[0]]
    assert (game.current_phase.kind, game.current_phase.number) == ("night", 1)

    # Night 1: the mafioso orders the kill from his role page.
    role_page = page(clients[mafioso], "games:role", game)
    assert 'name="action"' in role_page and 'value="kill"' in role_page
    victim = game.seats.get(user__display_name=town[1])
    response = clients[mafioso].post(reverse("games:order", args=[game.pk]), {"action": "kill", "target": victim.pk},
                                     follow=True)
    assert "Приказ принят" in response.content.decode()
    assert Order.objects.filter(phase=game.current_phase, valid=True, action="kill").count() == 1
    assert page(gm, "games:gm_dashboard", game)
    night = close(gm, game)
    assert night.outcome["killed"] == [town[1]]
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 2)

    # Day 2: the town votes out the mafioso and wins.
    for name in town[2:]:
        vote(clients[name], game, mafioso)
    close(gm, game)
    assert game.status == Game.Status.FINISHED and game.winner == "town"
    assert GameState.from_json(game.state).winner == "town"
    assert page(Client(), "games:game", game)
    assert page(gm, "games:archive", game)
    assert page(Client(), "games:replay", game)
    assert Client().get(reverse("games:export", args=[game.pk])).json()
    board = Client().get(reverse("games:leaderboard", args=["vanilla"]) + "?min=1")
    assert board.status_code == 200 and NAMES[0] in board.content.decode()
    thread = Client().get(game.game_thread.get_absolute_url()).content.decode()
    assert thread.count("Итоги") >= 3  # the results of each phase, posted by the close


def test_a_rule_set_without_text_orders_offers_no_text_order():
    gm = make_user("Ведущий")
    game = game_create(title="Ваниль", gm=gm, ruleset="vanilla", size=4)
    users = [make_user(name) for name in NAMES[:4]]
    for user in users:
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=1, roles_in_seat_order=["mafioso", "citizen", "citizen", "citizen"])
    game.refresh_from_db()
    close(client_for(gm), game)
    role_page = page(client_for(users[0]), "games:role", game)
    assert 'value="kill"' in role_page  # the order form
    assert 'id="order-text"' not in role_page  # the text order form (the anonymous letter's text field stays)
    assert "Проверяю Кикимору" not in role_page  # nor the hint that letters are read as orders


def test_a_forged_text_order_is_refused_where_the_rule_set_reads_none():
    """The role page of a rule set without text orders offers no text field; a text posted anyway
    gets a clear refusal and records nothing (no order, valid or not)."""
    gm = make_user("Ведущий 2")
    game = game_create(title="Ваниль 2", gm=gm, ruleset="vanilla", size=4)
    users = [make_user(f"{name} 2") for name in NAMES[:4]]
    for user in users:
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=1, roles_in_seat_order=["mafioso", "citizen", "citizen", "citizen"])
    game.refresh_from_db()
    close(client_for(gm), game)
    before = Order.objects.count()
    client = client_for(users[0])
    response = client.post(reverse("games:order", args=[game.pk]), {"text": f"Убиваю {users[1].display_name}."},
                           follow=True)
    assert "приказы отдаются только через форму приказа" in response.content.decode()
    assert Order.objects.count() == before
