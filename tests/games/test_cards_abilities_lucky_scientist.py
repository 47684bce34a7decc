"""The site's side of part 2 (c) of the cards rule set: the overt roles on draws, Hands, damage and
armour on the pages a player uses — Экстрасенс's top of the deck on «My cards» (and only there, for
him and the GM), the line on the role page saying what his overt role does, and the results of
these roles told in words at the end of a phase.

«Количество карт в Рукаве и колоде знает только владелец.» Экстрасенс: «Всегда видит верхние 3 карты
в своей Колоде»."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import GameEvent
from games.rulesets.cards.engine.roles import OVERT_ROLES
from games.services.resolution import phase_close
from games.wording import event_text
from tests.games.test_cards_pages import (  # noqa: F401  (fixtures)
    PLAYERS,
    deckbuilding,
    night,
    night_with_dead,
    text_of,
)

pytestmark = pytest.mark.django_db

TOP = [f"ВЕРХ-КОЛОДЫ-{i}" for i in range(1, 5)]
PERSPECTIVES = ("anonymous", "spectator", "Вася", "Негодяй", "Маньяк", "Фроло", "other_gm", "gm")


def set_overt(world, name: str, overt: str) -> None:
    """Give a player an overt role in the running game (the state's and the seat's «Класс»)."""
    seat = world.seat(name)
    seat.overt_role = overt
    seat.save(update_fields=["overt_role"])
    game = world.game
    game.refresh_from_db()
    data = dict(game.state)
    data["memory"]["overt"][str(seat.pk)] = overt
    game.state = data
    game.save(update_fields=["state"])


def plant_deck_top(world, name: str) -> None:
    """Four canary cards on top of the player's deck (added, undeckable, to the game's collection)."""
    game = world.game
    game.refresh_from_db()
    data = dict(game.state)
    memory = data["memory"]
    template = next(c for c in memory["collection"]["cards"] if c["name"] == "Бронежилет")
    for card in TOP:
        memory["collection"]["cards"].append({**template, "name": card, "text": f"{card} text", "deckable": False})
    player = memory["players"][str(world.seat(name).pk)]
    player["deck"] = [*TOP, *player["deck"]]
    game.state = data
    game.save(update_fields=["state"])


def pages(world) -> list[str]:
    pk = world.game.pk
    seats = [world.seat(name).pk for name, _role in PLAYERS]
    return [world.game.get_absolute_url(), reverse("games:cards", args=[pk]), reverse("games:role", args=[pk]),
            reverse("games:gm_cards", args=[pk]), reverse("games:deck", args=[pk]),
            *[f"{reverse('games:cards', args=[pk])}?pov={s}" for s in seats]]


@pytest.mark.parametrize("who", PERSPECTIVES)
def test_the_psychics_deck_top_is_shown_to_him_and_the_gm_only(night_with_dead, who):
    """Экстрасенс: «Всегда видит верхние 3 карты в своей Колоде» — the top three (not the fourth) on his
    «My cards»; anonymous, a spectator, the other players (mafia, maniac, the dead) and another game's
    GM see none of them; the GM sees them through the player's point of view."""
    world = night_with_dead
    set_overt(world, "Вася", "Экстрасенс")
    plant_deck_top(world, "Вася")
    client = world.client(who)
    found = set()
    for url in pages(world):
        response = client.get(url)
        assert response.status_code < 500, (who, url)
        if response.status_code == 200:
            found |= {c for c in TOP if c in text_of(response)}
    if who == "Вася":
        assert found == set(TOP[:3])
    elif who == "gm":  # the GM's dashboard lists every deck in order; the player's view shows his three
        assert set(TOP[:3]) <= found
        pov = text_of(client.get(f"{reverse('games:cards', args=[world.game.pk])}?pov={world.seat('Вася').pk}"))
        assert [c for c in TOP if c in pov] == TOP[:3]
    else:
        assert not found, f"{who} sees {sorted(found)}"


def test_only_the_psychic_gets_a_deck_top(night):
    """Экстрасенс's power is his alone: another player's «My cards» shows no top of his deck."""
    world = night
    plant_deck_top(world, "Вася")
    body = text_of(world.client("Вася").get(reverse("games:cards", args=[world.game.pk])))
    assert not any(c in body for c in TOP)
    assert "Psychic" not in body


def test_the_role_page_says_what_the_overt_role_does(night):
    """«Каждая Явная роль получает особое игровое преимущество»: the role page names the player's overt
    role with the seed's sentence of what it does, and for Воин how many of his two cards are left; a
    name of the player's own «не обладает дополнительными способностями»."""
    world = night
    set_overt(world, "Вася", "Воин")
    set_overt(world, "Негодяй", "Дегустатор")
    role_url = reverse("games:role", args=[world.game.pk])
    body = text_of(world.client("Вася").get(role_url))
    assert "overt role" in body.lower() and "Воин" in body
    assert OVERT_ROLES["Воин"].seed in body
    assert "instead of discarding them because of damage: 2 of 2." in body
    other = text_of(world.client("Негодяй").get(role_url))
    assert "Дегустатор" in other and "it has no special ability" in other and OVERT_ROLES["Воин"].seed not in other
    pov = text_of(world.client("gm").get(f"{role_url}?pov={world.seat('Вася').pk}"))
    assert OVERT_ROLES["Воин"].seed in pov


def test_the_warrior_is_told_in_words_what_the_damage_did(night):
    """Воин: «Первые две карты за игру, которые сбрасывает из Руки из-за урона, вместо этого переносит в
    Рукав» — at the phase's end (the GM deals him 1 damage) his report says the card went to his Sleeve,
    in words, and his role page counts one card left."""
    world = night
    set_overt(world, "Вася", "Воин")
    phase = world.phase()
    vasya = world.seat("Вася")
    phase.gm_decisions = {"damage": {str(vasya.pk): 1}}
    phase.save(update_fields=["gm_decisions"])
    assert phase_close(phase_id=phase.pk, by=world.gm)
    report = GameEvent.objects.filter(game=world.game, kind="phase_report", audience=f"seat:{vasya.pk}").latest("pk")
    moved = report.data["to_sleeve"]
    assert len(moved) == 1
    body = text_of(world.client("Вася").get(reverse("games:cards", args=[world.game.pk])))
    assert f"as the Warrior, you moved {moved[0]} from your Hand into your Sleeve" in body
    role = text_of(world.client("Вася").get(reverse("games:role", args=[world.game.pk])))
    assert "1 of 2." in role


@pytest.mark.parametrize("data,words", [
    ({"damage": 9, "damage_capped": 3}, "as the Highlander, you took no more than 6 damage from others' cards this "
                                        "night (3 more did not reach you)"),
    ({"idle_armour": 3, "armour": 3}, "as the Idler, you played no card this night and got 3 armour"),
    ({"drawn": ["Кофе"], "low_hand_draw": "Кофе"}, "as the Monk, you had one or two cards left and drew Кофе"),
    ({"rebuilt": True, "rebuild_draw": ["Нож"]}, "as the Banker, you drew Нож from your new deck into your Sleeve"),
    ({"to_sleeve": ["Нож", "Кофе"]}, "as the Warrior, you moved Нож, Кофе from your Hand into your Sleeve"),
])
def test_each_roles_result_is_a_sentence(data, words):
    """Each of these roles' results at a phase's end is told to the player in words, not codes."""
    from django.utils import translation

    with translation.override("en"):
        text = event_text("cards", "phase_report", {"seat": 1, "name": "Вася", **data})
    assert words in text
    for code in ("damage_capped", "idle_armour", "low_hand_draw", "rebuild_draw", "to_sleeve"):
        assert code not in text


def test_the_psychics_containers_tell_him_the_top_in_words():
    """Экстрасенс: the containers he is told at each phase's end name the top of his deck."""
    from django.utils import translation

    with translation.override("en"):
        text = event_text("cards", "containers", {"hand": ["Кофе"], "sleeve": [], "deck_size": 5,
                                                  "deck_top": ["Нож", "Бункер", "Совет"]})
    assert "The top of your deck: Нож, Бункер, Совет." in text


# --- Везунчик and Учёный through the page a player uses --------------------------------------------
from games.models import Post  # noqa: E402
from tests.games.test_cards_abilities_maniac_joker_geek_marauder import cards_game, memory_of  # noqa: E402
from tests.conftest import client_for  # noqa: E402


def en_client(user):
    from django.conf import settings

    client = client_for(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_the_lucky_redraws_from_my_cards_at_once_and_is_told_in_words():
    """Везунчик: «В первую ночь может до двух раз отменить пришедшие ему 6 карт, перемешать колоду, и
    набрать 6 карт снова» — a button on «My cards» on night 1; the Hand is redrawn at once, the player
    reads his new Hand in words (the page's message and his letters to the GM), the GM's log says it
    acted at once, and his role page counts the redraws left; the third is refused in words."""
    game, gm, users, seats = cards_game(overt={"Вася": "Везунчик"})
    client = en_client(users["Вася"])
    cards_url = reverse("games:cards", args=[game.pk])
    page = client.get(cards_url).content.decode()
    assert 'value="lucky_redraw"' in page and "Send back your six cards" in page
    before = memory_of(game, "Вася", seats)
    response = client.post(reverse("games:card_ability", args=[game.pk]),
                           {"seat": seats["Вася"].pk, "ability": "lucky_redraw"}, follow=True)
    after = memory_of(game, "Вася", seats)
    assert sorted(after["hand"] + after["deck"]) == sorted(before["hand"] + before["deck"])
    body = response.content.decode()
    assert "your Hand went back into your deck, the deck was shuffled and you drew six" in body
    assert "Redraws left this night: 1." in body
    letters = Post.objects.filter(thread__kind="gm_chat", thread__seat=seats["Вася"])
    assert any(after["hand"][0] in p.body for p in letters)  # his confirmation names the new Hand
    log = GameEvent.objects.filter(game=game, kind="ability", audience="gm").latest("pk")
    assert log.data["at_once"] is True and log.data["ability"] == "lucky_redraw"
    role = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert "1 of 2 uses left." in role
    client.post(reverse("games:card_ability", args=[game.pk]), {"seat": seats["Вася"].pk, "ability": "lucky_redraw"})
    third = client.post(reverse("games:card_ability", args=[game.pk]),
                        {"seat": seats["Вася"].pk, "ability": "lucky_redraw"}, follow=True).content.decode()
    assert "you have used this ability as many times as a game allows" in third
    assert 'value="lucky_redraw"' not in third
    # another player has no such button, and cannot use it
    assert 'value="lucky_redraw"' not in en_client(users["Петя"]).get(cards_url).content.decode()


def test_the_scientist_discards_two_from_my_cards_beside_a_play():
    """Учёный: «Раз за игру, ночью может сбросить две карты из руки, добирая на замену, даже если
    играет какие-нибудь карты» — chosen on «My cards» beside a standing play; at the close the two go,
    three cards are drawn, and the phase report says so in words."""
    game, gm, users, seats = cards_game(overt={"Вася": "Учёный"})
    client = en_client(users["Вася"])
    client.post(reverse("games:card_input", args=[game.pk]),
                {"seat": seats["Вася"].pk, "action": "play", "card": "Бункер", "from": "hand"})
    response = client.post(reverse("games:card_ability", args=[game.pk]),
                           {"seat": seats["Вася"].pk, "ability": "scientist_discard", "f_cards": ["Письмо", "Совет"]},
                           follow=True)
    assert "it acts at the end of the phase" in response.content.decode()
    game.refresh_from_db()
    assert phase_close(phase_id=game.current_phase.pk, by=gm)
    after = memory_of(game, "Вася", seats)
    assert after["hand"] == ["Пистолет", "Кофе", "Запрет", "Анонимка", "Тайник", "Сделка"]
    page = client.get(reverse("games:cards", args=[game.pk])).content.decode()
    assert "you discarded Письмо, Совет and draw replacements" in page
    role = client.get(reverse("games:role", args=[game.pk])).content.decode()
    assert "0 of 1 uses left." in role
