"""Issue 17, helper A, on the site: card_ability_submit (at once under a lock, or standing for the
close), the ability forms of "my cards" and who sees them, the results told in words."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game, GameEvent, Order, Post
from games.rulesets.cards.ability_services import card_ability_submit
from games.rulesets.cards.engine.ruleset import REASONS
from games.rulesets.cards.wording import CARD_REASONS, card_reason_text
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.resolution import phase_close
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

HAND = ["Пистолет", "Бункер", "Письмо", "Совет", "Кофе", "Запрет"]
NAMES = ["Вася", "Петя", "Маша", "Глаша", "Паша"]
ROLES = ["sheriff", "boss", "maniac", "judge", "killer"]


def cards_game(*, overt=None, sleeve=None, hands=None):
    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=len(NAMES))
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name], overt_role=(overt or {}).get(name, ""), contacts="")
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {seats[n].pk: {"hand": list((hands or {}).get(n, HAND)), "deck": ["Анонимка", "Тайник", "Сделка"],
                          **({"sleeve": sleeve[n]} if sleeve and n in sleeve else {})} for n in NAMES}
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=ROLES, seat_data=data)
    game.refresh_from_db()
    return game, gm, users, {s.user.display_name: s for s in game.seats.select_related("user")}


def memory_of(game, name, seats):
    game.refresh_from_db()
    return game.state["memory"]["players"][str(seats[name].pk)]


def test_every_ability_reason_has_a_text():
    with translation.override("en"):
        for code in ("no_such_ability", "not_your_ability", "used_up", "used_this_phase"):
            assert code in REASONS and code in CARD_REASONS and card_reason_text(code) != code


def test_maniac_swap_acts_at_once_is_logged_and_told_in_words():
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник"]})
    order, confirmation = card_ability_submit(game=game, user=users["Маша"], ability="maniac_swap",
                                              data={"card": "Пистолет", "sleeve_card": "Тайник"})
    assert confirmation.accepted and order.valid and order.detail["at_once"] is True
    player = memory_of(game, "Маша", seats)
    assert player["hand"][0] == "Тайник" and [i["card"] for i in player["sleeve"]][-1] == "Пистолет"
    with translation.override("en"):
        assert "at once" in confirmation.message and "Пистолет" in confirmation.message
    logged = GameEvent.objects.get(game=game, kind="ability", audience="gm")
    assert logged.phase_id == game.current_phase_id
    assert "at once" in logged.text or "сразу" in logged.text
    told = GameEvent.objects.get(game=game, kind="ability", audience=f"seat:{seats['Маша'].pk}")
    assert "Пистолет" in told.text
    letters = Post.objects.filter(thread__kind="gm_chat", thread__seat=seats["Маша"])
    assert letters.exists()


def test_a_refused_ability_changes_nothing_and_says_why():
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник"]})
    before = dict(game.state)
    order, confirmation = card_ability_submit(game=game, user=users["Вася"], ability="maniac_swap",
                                              data={"card": "Пистолет", "sleeve_card": "Тайник"})
    assert not confirmation.accepted and order.reason == "not_your_ability"
    game.refresh_from_db()
    assert game.state == before
    with translation.override("en"):
        assert "ability" in confirmation.message and "not_your_ability" not in confirmation.message
    _order, late = card_ability_submit(game=game, user=users["Маша"], ability="maniac_swap",
                                       data={"card": "Пистолет", "sleeve_card": "Тайник"},
                                       now=game.current_phase.deadline_at)
    assert late.reason == "after_deadline"
    outsider = make_user("Чужой")
    with pytest.raises(ActionRefused):
        card_ability_submit(game=game, user=outsider, ability="maniac_swap", data={})


def test_the_swap_stands_through_the_close():
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник"]})
    card_ability_submit(game=game, user=users["Маша"], ability="maniac_swap",
                        data={"card": "Пистолет", "sleeve_card": "Тайник"})
    phase = game.current_phase
    phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["abilities"] == {"Маша": ["maniac_swap"]}
    assert phase.outcome["hands"]["Маша"][0] == "Тайник"


def test_the_ability_form_is_shown_to_its_holder_only(client):
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник"]})
    url = reverse("games:cards", args=[game.pk])
    client.force_login(users["Маша"])
    page = client.get(url).content.decode()
    assert 'name="ability" value="maniac_swap"' in page and 'name="f_sleeve_card"' in page
    client.force_login(users["Вася"])  # another player
    assert "maniac_swap" not in client.get(url).content.decode()
    client.force_login(gm)  # the GM's view of her cards is read-only
    assert "maniac_swap" not in client.get(url + f"?pov={seats['Маша'].pk}").content.decode()
    client.logout()  # anonymous: no cards page
    assert client.get(url).status_code in (302, 404)
    spectator = make_user("Зритель")
    client.force_login(spectator)
    assert client.get(url).status_code == 404


def test_the_dead_see_no_ability_form(client):
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник"]})
    game.current_phase.gm_decisions = {"damage": {str(seats["Маша"].pk): 9}}
    game.current_phase.save(update_fields=["gm_decisions"])
    phase_close(phase_id=game.current_phase.pk)
    client.force_login(users["Маша"])
    page = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    assert "maniac_swap" not in page


def test_the_ability_view_uses_the_requesters_seat_only(client):
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник"]})
    url = reverse("games:card_ability", args=[game.pk])
    client.force_login(users["Маша"])
    client.post(url, {"seat": seats["Вася"].pk, "ability": "maniac_swap", "f_card": "Пистолет",
                      "f_sleeve_card": "Тайник"})
    assert not Order.objects.filter(action="ability").exists()
    response = client.post(url, {"seat": seats["Маша"].pk, "ability": "maniac_swap", "f_card": "Пистолет",
                                 "f_sleeve_card": "Тайник"})
    assert response.status_code == 302
    assert memory_of(game, "Маша", seats)["hand"][0] == "Тайник"
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
