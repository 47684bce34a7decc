"""Issue 17, helper D, on the site: the Sociopath's refusals in words, the Prosecutor's +2 in the
live count, the dead Avenger's talk and new rooms, the Joker's knowledge of the dead seen by him
alone (every perspective), the Hero's night action through the cards page and his no-damage note,
and the role page's line on what the class does."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import GameEvent, Thread
from games.rulesets.cards.ability_services import card_ability_submit
from games.rulesets.cards.services import card_gm_effect_add, card_input_submit
from games.selectors.votes import vote_weights_for
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

HAND = ["Пистолет", "Бункер", "Письмо", "Совет", "Кофе", "Запрет"]
NAMES = ["Вася", "Петя", "Маша", "Глаша", "Паша", "Саша"]


def cards_game(roles, *, overt=None, hands=None, options=None):
    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=len(NAMES))
    if options:
        game.options = {**(game.options or {}), **options}
        game.save(update_fields=["options"])
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name], overt_role=(overt or {}).get(name, ""), contacts="")
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {seats[n].pk: {"hand": list((hands or {}).get(n, HAND)), "deck": ["Анонимка", "Тайник", "Сделка"] * 3}
            for n in NAMES}
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=roles, seat_data=data)
    game.refresh_from_db()
    return game, gm, users, {s.user.display_name: s for s in game.seats.select_related("user")}


def close(game):
    game.refresh_from_db()
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()


def damage(game, gm, *seats):
    """The GM's hand-applied damage of 1 to each seat in the current phase."""
    for seat in seats:
        card_gm_effect_add(phase=game.current_phase, gm=gm, effect={"op": "damage", "target": seat.pk, "n": 1})


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


ROLES = ["sheriff", "boss", "joker", "judge", "killer", "doctor"]


def test_a_vote_for_the_sociopath_on_day_one_is_refused_with_a_sentence():
    """«Социопат: Не может быть целью карт и голосования в первые сутки»: the poster is told why in
    words; a card at him on night 1 is refused in words too."""
    game, gm, users, seats = cards_game(ROLES, overt={"Вася": "Социопат"})
    order, confirmation = card_input_submit(game=game, user=users["Петя"], action="play", detail={
        "card": "Пистолет", "from": "hand", "target": seats["Вася"].pk})
    assert not order.valid and order.reason == "target_protected"
    with translation.override("en"):
        assert "Sociopath" in confirmation.message and "target_protected" not in confirmation.message
    close(game)
    thread_page = client_for(users["Петя"]).get(game.game_thread.get_absolute_url()).content.decode()
    assert "Казнить Машу" in thread_page and "Казнить Васю" not in thread_page  # no vote button for him
    post = post_submit(thread=game.game_thread, author=users["Петя"], body="[b]Голосую за Васю[/b]")
    assert post.vote_confirmation is not None and not post.vote_confirmation.counted
    assert post.vote_confirmation.reason == "target_protected"
    with translation.override("en"):
        assert post.vote_confirmation.message == "Vote not counted: that character cannot be voted for now: his " \
                                                 "role protects him"


def test_the_prosecutors_boost_shows_in_the_live_count():
    """«Прокурор: Один раз за игру, голосуя, может получить на этот день +2 к силе голоса»: at once,
    so the vote count of the day weighs his vote 3."""
    game, gm, users, seats = cards_game(ROLES, overt={"Вася": "Прокурор"})
    close(game)
    seat_list = list(game.seats.all())
    assert vote_weights_for(game, seat_list)[seats["Вася"].pk] == 1
    _order, confirmation = card_ability_submit(game=game, user=users["Вася"], ability="prosecutor_boost", data={})
    assert confirmation.accepted
    game.refresh_from_db()
    assert vote_weights_for(game, seat_list)[seats["Вася"].pk] == 3
    with translation.override("en"):
        assert "3" in confirmation.message
    _order, again = card_ability_submit(game=game, user=users["Вася"], ability="prosecutor_boost", data={})
    assert not again.accepted and again.reason == "used_up"


def test_the_dead_avenger_posts_in_the_game_thread_and_joins_a_new_room():
    """«Мститель: Будучи мертвым, может продолжать публично общаться с другими игроками и участвовать
    в старых и новых чат-комнатах»: dead, he posts in the game thread and a new room of him and two
    living players opens; another dead player may do neither."""
    game, gm, users, seats = cards_game(ROLES, overt={"Вася": "Мститель"}, hands={"Вася": ["Совет"],
                                                                                  "Глаша": ["Совет"]})
    game.options = {**(game.options or {}), "rooms": True}
    game.save(update_fields=["options"])
    damage(game, gm, seats["Вася"], seats["Глаша"])
    close(game)
    seats["Вася"].refresh_from_db()
    assert seats["Вася"].status == "dead"
    post_submit(thread=game.game_thread, author=users["Вася"], body="Я всё ещё здесь.",
                comment="комната: Петя, Маша")
    post_submit(thread=game.game_thread, author=users["Петя"], body="...", comment="комната: Вася, Маша")
    post_submit(thread=game.game_thread, author=users["Маша"], body="...", comment="комната: Вася, Петя")
    with pytest.raises(ActionRefused):
        post_submit(thread=game.game_thread, author=users["Глаша"], body="Я тоже здесь.")
    day = game.current_phase
    close(game)
    room = Thread.objects.get(kind=Thread.Kind.ROOM, game=game)
    assert set(room.members.values_list("user__display_name", flat=True)) == {"Вася", "Петя", "Маша"}
    assert room.opened_by_id == day.pk
    post_submit(thread=room, author=users["Вася"], body="В комнате.")
    assert room.posts.filter(author=users["Вася"]).exists()


def _joker_game():
    game, gm, users, seats = cards_game(["sheriff", "boss", "joker", "judge", "killer", "doctor"],
                                        hands={"Вася": ["Совет"]})
    damage(game, gm, seats["Вася"])
    close(game)
    return game, gm, users, seats


def test_the_joker_sees_the_secret_roles_of_the_dead_on_his_role_page_and_nobody_else_does():
    """«Джокер: Знает Тайные роли мёртвых персонажей»: on his role page as they die; the other
    players (living or dead), spectators and anonymous visitors learn nothing from it; the GM sees."""
    game, gm, users, seats = _joker_game()
    event = GameEvent.objects.get(game=game, kind="dead_role")
    assert event.audience == f"seat:{seats['Маша'].pk}"
    role_url = reverse("games:role", args=[game.pk])
    with translation.override("en"):
        joker = client_for(users["Маша"]).get(role_url, HTTP_ACCEPT_LANGUAGE="en")
    assert joker.status_code == 200
    text = joker.content.decode()
    assert "cards-dead-roles" in text and "Вася —" in text
    for name in ("Петя", "Глаша", "Вася"):  # another player, another player, the dead one himself
        page = client_for(users[name]).get(role_url).content.decode()
        assert "cards-dead-roles" not in page
    spectator = make_user("Зритель")
    assert client_for(spectator).get(role_url).status_code == 404
    assert Client().get(role_url).status_code in (302, 404)
    for url in (game.get_absolute_url(), game.game_thread.get_absolute_url()):
        for client in (Client(), client_for(spectator), client_for(users["Петя"])):
            page = client.get(url).content.decode()
            assert "dead_role" not in page and "cards-dead-roles" not in page
    gm_page = client_for(gm).get(reverse("games:role", args=[game.pk]) + f"?pov={seats['Маша'].pk}")
    assert "cards-dead-roles" in gm_page.content.decode()


def test_the_heros_night_armour_through_the_cards_page():
    """«Герой: Ночью, если не применяет карт из Рукава, может дать 3 брони любому другому
    персонажу»: the cards page offers it, it stands to the close, Маша gets 3 armour; the page says
    his damage is not dealt («Не может наносить урон никаким образом»)."""
    game, gm, users, seats = cards_game(["hero", "boss", "doctor", "judge", "killer", "sheriff"],
                                        hands={"Вася": ["Пролом", "Совет", "Кофе"]})
    hero = client_for(users["Вася"])
    with translation.override("en"):
        page = hero.get(reverse("games:cards", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="ability-hero_armour"' in page and 'id="ability-hero_guess"' in page
    assert "cards-hero-note" in page and "Пролом" in page
    response = hero.post(reverse("games:card_ability", args=[game.pk]),
                         {"seat": seats["Вася"].pk, "ability": "hero_armour", "f_target": seats["Маша"].pk})
    assert response.status_code == 302
    other = client_for(users["Петя"]).get(reverse("games:cards", args=[game.pk])).content.decode()
    assert "ability-hero_armour" not in other and "cards-hero-note" not in other
    close(game)
    summary = GameEvent.objects.get(game=game, kind="phase_summary")
    assert summary.data["armour"] == {str(seats["Маша"].pk): 3}
    report = GameEvent.objects.get(game=game, kind="phase_report", audience=f"seat:{seats['Вася'].pk}")
    with translation.override("en"):
        from games.wording import event_text

        assert "3 armour" in event_text("cards", "phase_report", report.data)


def test_the_role_page_says_what_the_class_does():
    """«Каждая Явная роль получает особое игровое преимущество»: the role page quotes the seed's words
    for the player's class."""
    game, gm, users, seats = cards_game(ROLES, overt={"Вася": "Политик"})
    page = client_for(users["Вася"]).get(reverse("games:role", args=[game.pk])).content.decode()
    assert "cards-role-abilities" in page and "+0,5 к силе голоса" in page
    other = client_for(users["Петя"]).get(reverse("games:role", args=[game.pk])).content.decode()
    assert "+0,5 к силе голоса" not in other


def test_the_gm_may_admit_several_avengers(client):
    """«если до игры допущено несколько мстителей»: the new-game form's option lets a second player
    take «Мститель»; without it the class is taken («Каждой явной роли может быть только один
    представитель»)."""
    gm = make_user("Ведущий")
    client.force_login(gm)
    response = client.post(reverse("games:game_new"), {"title": "Мстители", "ruleset": "cards", "size": 6,
                                                       "phase_hours": 24, "extra_neutral": "random",
                                                       "several_avengers": "on"})
    assert response.status_code == 302
    from games.models import Game

    game = Game.objects.get(title="Мстители")
    assert game.options.get("several_avengers") is True
    game_signup(game=game, user=make_user("Вася"), overt_role="Мститель", contacts="")
    game_signup(game=game, user=make_user("Петя"), overt_role="мститель", contacts="")
    plain = game_create(title="Один", gm=gm, ruleset="cards", size=6)
    game_signup(game=plain, user=make_user("Маша"), overt_role="Мститель", contacts="")
    with pytest.raises(ActionRefused):
        game_signup(game=plain, user=make_user("Глаша"), overt_role="Мститель", contacts="")
