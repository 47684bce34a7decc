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


def test_maniac_strike_stands_until_the_close_and_the_last_one_counts():
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник", "Бункер"]})
    _o, first = card_ability_submit(game=game, user=users["Маша"], ability="maniac_strike",
                                    data={"card": "Тайник", "mode": "damage", "target": seats["Петя"].pk})
    _o, second = card_ability_submit(game=game, user=users["Маша"], ability="maniac_strike",
                                     data={"card": "Бункер", "mode": "damage", "target": seats["Вася"].pk})
    assert first.accepted and second.accepted and not second.at_once
    assert [i["card"] for i in memory_of(game, "Маша", seats)["sleeve"]] == ["Тайник", "Бункер"]  # not yet
    phase = game.current_phase
    phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["damage"] == {"Вася": 2}
    assert phase.outcome["abilities"] == {"Маша": ["maniac_strike"]}
    report = GameEvent.objects.get(phase=phase, kind="phase_report", audience=f"seat:{seats['Маша'].pk}")
    assert "Бункер" in report.text
    game.refresh_from_db()  # by day it is refused when sent
    _o, by_day = card_ability_submit(game=game, user=users["Маша"], ability="maniac_strike",
                                     data={"card": "Тайник", "mode": "armour"})
    assert not by_day.accepted and by_day.reason == "wrong_phase"


def test_geek_takes_a_card_at_once_from_the_page(client):
    game, gm, users, seats = cards_game(overt={"Вася": "Гик"})
    client.force_login(users["Вася"])
    page = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    assert 'value="geek_card"' in page and ">Снайперская винтовка<" in page
    client.post(reverse("games:card_ability", args=[game.pk]),
                {"seat": seats["Вася"].pk, "ability": "geek_card", "f_card": "Снайперская винтовка"})
    assert memory_of(game, "Вася", seats)["sleeve"] == [{"card": "Снайперская винтовка", "overt": True}]
    page = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    assert 'value="geek_card"' not in page  # once a game


def test_marauder_copies_a_dead_sleeve_at_once():
    game, gm, users, seats = cards_game(overt={"Вася": "Мародер"}, sleeve={"Петя": ["Бункер"]})
    _o, early = card_ability_submit(game=game, user=users["Вася"], ability="marauder_copy",
                                    data={"target": seats["Петя"].pk})
    assert early.reason == "target_not_dead"
    game.current_phase.gm_decisions = {"damage": {str(seats["Петя"].pk): 9}}
    game.current_phase.save(update_fields=["gm_decisions"])
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    _o, done = card_ability_submit(game=game, user=users["Вася"], ability="marauder_copy",
                                   data={"target": seats["Петя"].pk})
    assert done.accepted
    assert [i["card"] for i in memory_of(game, "Вася", seats)["sleeve"]] == ["Бункер"]


JOKER_NAMES = ["Шут", "Вася", "Петя", "Маша", "Глаша"]


def joker_game():
    gm = make_user("Ведущий")
    game = game_create(title="Джокер", gm=gm, ruleset="cards", size=5)
    users = {n: make_user(n) for n in JOKER_NAMES}
    for name in JOKER_NAMES:
        game_signup(game=game, user=users[name], overt_role="", contacts="")
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {seats[n].pk: {"hand": list(HAND), "deck": ["Анонимка"]} for n in JOKER_NAMES}
    data[seats["Вася"].pk]["sleeve"] = ["Туз"]
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=["joker", "sheriff", "boss", "doctor", "killer"],
               seat_data=data)
    game.refresh_from_db()
    return game, users, {s.user.display_name: s for s in game.seats.select_related("user")}


def test_the_joker_wins_at_once_with_a_right_list_posted_in_the_game_thread():
    game, users, seats = joker_game()
    roles = {seats[n].pk: r for n, r in (("Вася", "sheriff"), ("Петя", "boss"), ("Маша", "doctor"),
                                          ("Глаша", "killer"))}
    _o, confirmation = card_ability_submit(game=game, user=users["Шут"], ability="joker_list", data={"roles": roles})
    assert confirmation.accepted
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "joker"
    assert game.phases.filter(closed_at__isnull=True).count() == 0
    assert GameEvent.objects.filter(game=game, kind="joker_won", audience="public").exists()
    assert Post.objects.filter(thread=game.game_thread, body__contains="Шут").exists()


def test_the_joker_leaves_at_once_with_a_wrong_list_and_the_aces_vanish():
    game, users, seats = joker_game()
    roles = {seats[n].pk: r for n, r in (("Вася", "boss"), ("Петя", "sheriff"), ("Маша", "doctor"),
                                          ("Глаша", "killer"))}
    _o, confirmation = card_ability_submit(game=game, user=users["Шут"], ability="joker_list", data={"roles": roles})
    assert confirmation.accepted
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    joker = game.seats.get(pk=seats["Шут"].pk)
    assert joker.status == "left" and not joker.is_alive
    assert memory_of(game, "Вася", seats)["sleeve"] == []
    _o, again = card_ability_submit(game=game, user=users["Шут"], ability="joker_list", data={"roles": roles})
    assert again.reason == "not_alive"


def test_the_role_page_says_what_the_overt_role_and_the_abilities_do(client):
    game, gm, users, seats = cards_game(overt={"Вася": "Гик", "Петя": "Своя роль"})
    client.force_login(users["Вася"])
    page = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert "набирает в Руку 5 карт" in page and 'id="role-abilities"' in page
    client.force_login(users["Маша"])  # the maniac: his own powers, not the geek's
    page = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert "поменять местами" in page and "набирает в Руку 5 карт" not in page
    client.force_login(users["Петя"])  # a class of his own: no ability
    page = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert "Своя роль" in page and "поменять местами" not in page


def test_a_standing_phase_end_ability_is_shown_on_my_cards(client):
    game, gm, users, seats = cards_game(sleeve={"Маша": ["Тайник"]})
    card_ability_submit(game=game, user=users["Маша"], ability="maniac_strike",
                        data={"card": "Тайник", "mode": "damage", "target": seats["Петя"].pk})
    client.force_login(users["Маша"])
    page = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    assert 'class="cards-standing-ability"' in page and "Тайник" in page and "→ Петя" in page
    client.force_login(users["Петя"])
    assert 'class="cards-standing-ability"' not in client.get(reverse("games:cards", args=[game.pk])).content.decode()
