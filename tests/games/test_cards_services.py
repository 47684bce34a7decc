"""The cards rule set's site core (001_666f92ca90d279a9.txt): the card ledger (games.rulesets.cards.services),
the start, radio silence, the dead's silence, the Veche read from posts, and the event texts."""

from datetime import timedelta

import pytest
from django.utils import translation

from games.rulesets.cards.engine import CARDS, DECK_REASONS
from games.rulesets.cards.engine.ruleset import REASONS, VOTE_REASONS
from games.models import Game, GMAction, Order, Seat
from games.permissions import can_post
from games.services import ActionRefused
from games.rulesets.cards.services import (
    card_gm_effect_add,
    card_gm_effect_remove,
    card_hand_sizes,
    card_input_submit,
    card_inputs_standing,
    card_reason_text,
    card_view,
    deck_refusal_texts,
)
from games.rulesets.cards.wording import CARD_REASONS, DECK_REASON_TEXTS
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close, phase_inputs
from tests.conftest import make_user

HAND = ["Пистолет", "Бункер", "Письмо", "Совет", "Кофе", "Запрет"]
NAMES = ["Вася", "Петя", "Маша", "Глаша", "Паша"]
ROLES = ["sheriff", "boss", "doctor", "judge", "killer"]


def cards_game(*, hands=True, overt=None, sleeve=None, options=None):
    """A started five-player cards game: given Hands skip deck building (night 1 opens)."""
    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=len(NAMES), options=options)
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name], overt_role=(overt or {}).get(name, ""), contacts=f"tg @{name}")
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = None
    if hands:
        data = {seats[n].pk: {"hand": list(HAND), "deck": ["Анонимка", "Тайник", "Сделка"],
                              **({"sleeve": sleeve[n]} if sleeve and n in sleeve else {})} for n in NAMES}
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=ROLES, seat_data=data)
    game.refresh_from_db()
    return game, gm, users, {s.user.display_name: s for s in game.seats.select_related("user")}


def submit(game, user, action, **detail):
    game.refresh_from_db()
    return card_input_submit(game=game, user=user, action=action, detail=detail)


def to_day(game):
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    assert game.current_phase.kind == "day"


# --- The ledger ----------------------------------------------------------------------------------
def test_every_engine_reason_code_has_a_translated_text():
    """Every refusal is explained: REASONS, VOTE_REASONS and DECK_REASONS all have a site text."""
    assert set(REASONS) <= set(CARD_REASONS)
    assert set(VOTE_REASONS) - {"bad_target"} <= set(CARD_REASONS)
    assert set(DECK_REASONS) <= set(DECK_REASON_TEXTS)
    with translation.override("en"):
        for code in REASONS:
            assert card_reason_text(code) != code


def test_deck_refusal_texts_carry_their_numbers():
    """«15 несвободных карт. 0-3 свободных карт. Не больше 2 копий одной карты.»"""
    refusals = CARDS.check_deck(_engine_state(), 0, ["Пистолет"] * 3)
    with translation.override("en"):
        texts = deck_refusal_texts(refusals)
    assert any("Пистолет" in t and "3" in t and "2" in t for t in texts)
    assert any("15" in t and "3" in t for t in texts)


def _engine_state():
    from games.engine.state import GameState

    state, _events = CARDS.new_game([(0, "А", "sheriff"), (1, "Б", "boss"), (2, "В", "doctor")])
    assert isinstance(state, GameState)
    return state


@pytest.mark.django_db
@pytest.mark.parametrize("action, detail, reason", [
    ("play", {"card": "Свидетель", "from": "hand", "target": "Петя"}, "not_in_hand"),
    ("play", {"card": "Пистолет", "from": "sleeve", "target": "Петя"}, "not_in_sleeve"),
    ("play", {"card": "Запрет", "from": "hand", "target": "Петя"}, "day_only"),
    ("play", {"card": "Пистолет", "from": "hand", "target": "Вася"}, "self_target"),
    ("play", {"card": "Пистолет", "from": "hand"}, "missing_target"),
    ("play", {"card": "Бункер", "from": "hand", "target": "Петя"}, "unexpected_target"),
    ("play", {"card": "Письмо", "from": "hand", "target": "Петя", "message": "см. https://example.com"}, "message_link"),
    ("play", {"card": "Пистолет", "from": "nowhere", "target": "Петя"}, "bad_zone"),
    ("discard", {"cards": ["Пистолет"]}, "discard_count"),
    ("discard", {"cards": ["Пистолет", "Свидетель"]}, "discard_not_in_hand"),
    ("reorder", {"hand": ["Пистолет"]}, "bad_reorder"),
    ("mafia_message", {"to": "Петя", "text": "привет"}, "not_your_action"),
    ("deck", {"cards": ["Пистолет"]}, "already_built"),
    ("measure", {"measure": "execution"}, "not_a_voter"),
    ("withdraw", {"what": "play", "from": "hand"}, "nothing_standing"),
    ("fly", {}, "bad_action"),
])
def test_each_refusal_is_stored_with_its_reason(action, detail, reason):
    """«Целью можно выбрать любого живого персонажа, кроме себя.» «Если на карте не указано обратного,
    то сыграть ее можно только Ночью.» «Сообщение не должно содержать ссылок» ... each refused input
    is kept (valid=False) with the engine's reason, and explained."""
    game, _gm, users, seats = cards_game()
    for key in ("target", "to"):
        if key in detail:
            detail[key] = seats[detail[key]].pk
    order, confirmation = submit(game, users["Вася"], action, **detail)
    assert not confirmation.accepted and confirmation.reason == reason
    assert order is not None and not order.valid and order.reason == reason
    with translation.override("en"):
        assert "not accepted" in confirmation.message and card_reason_text(reason) in confirmation.message


@pytest.mark.django_db
def test_a_stranger_is_refused_and_nothing_is_written():
    game, _gm, _users, _seats = cards_game()
    with pytest.raises(ActionRefused):
        card_input_submit(game=game, user=make_user("Зритель"), action="play", detail={})
    assert not Order.objects.exists()


@pytest.mark.django_db
def test_after_the_deadline_an_input_is_refused():
    """«Заявки на игру карт можно менять сколько угодно, вплоть до наступления дедлайна.»"""
    game, _gm, users, seats = cards_game()
    late = game.current_phase.deadline_at + timedelta(seconds=1)
    order, confirmation = card_input_submit(game=game, user=users["Вася"], action="play", now=late,
                                            detail={"card": "Бункер", "from": "hand"})
    assert confirmation.reason == "after_deadline" and not order.valid


@pytest.mark.django_db
def test_the_dead_input_nothing():
    """«Мертвые персонажи не участвуют в игре»."""
    game, gm, users, seats = cards_game()
    card_gm_effect_add(phase=game.current_phase, gm=gm, effect={"op": "damage", "target": seats["Маша"].pk, "n": 6})
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    assert Seat.objects.get(pk=seats["Маша"].pk).status == "dead"
    _order, confirmation = submit(game, users["Маша"], "play", card="Кофе", **{"from": "hand"})
    assert confirmation.reason == "not_alive"


@pytest.mark.django_db
def test_the_last_play_per_zone_stands_and_a_withdrawal_takes_it_back():
    """«Каждую фазу можно сыграть не более одной карты из Руки и не более одной карты из Рукава ...
    Заявки на игру карт можно менять сколько угодно»."""
    game, _gm, users, seats = cards_game(sleeve={"Вася": ["Нож"]})
    petya = seats["Петя"].pk
    assert submit(game, users["Вася"], "play", card="Пистолет", target=petya, **{"from": "hand"})[1].accepted
    assert submit(game, users["Вася"], "play", card="Бункер", **{"from": "hand"})[1].accepted
    assert submit(game, users["Вася"], "play", card="Нож", target=petya, **{"from": "sleeve"})[1].accepted
    plays = card_inputs_standing(phase=game.current_phase)["plays"]
    assert sorted((p["card"], p["from"]) for p in plays) == [("Бункер", "hand"), ("Нож", "sleeve")]
    view = card_view(game=game, seat=seats["Вася"])
    assert view.standing["hand"]["card"] == "Бункер" and view.standing["sleeve"]["card"] == "Нож"
    assert submit(game, users["Вася"], "withdraw", what="play", **{"from": "hand"})[1].accepted
    plays = card_inputs_standing(phase=game.current_phase)["plays"]
    assert [(p["card"], p["from"]) for p in plays] == [("Нож", "sleeve")]
    # the close sees the same standing inputs (the GM's preview too)
    assert phase_inputs(game.current_phase).extra["plays"] == plays


@pytest.mark.django_db
def test_the_night_discard_is_instead_of_playing():
    """«Ночью, вместо того, чтобы играть карты, можно сбросить две карты из Руки.»"""
    game, _gm, users, seats = cards_game()
    assert submit(game, users["Вася"], "discard", cards=["Пистолет", "Кофе"])[1].accepted
    assert card_inputs_standing(phase=game.current_phase)["discards"] == {seats["Вася"].pk: ["Пистолет", "Кофе"]}
    submit(game, users["Вася"], "withdraw", what="discard")
    assert "discards" not in card_inputs_standing(phase=game.current_phase)
    submit(game, users["Вася"], "play", card="Бункер", **{"from": "hand"})
    assert submit(game, users["Вася"], "discard", cards=["Пистолет", "Кофе"])[1].reason == "played_instead"


@pytest.mark.django_db
def test_the_price_is_paid_from_the_sleeve_and_overt_cards_do_not_pay():
    """«Карты, добавленные в Рукав этими ролями, нельзя сбрасывать на оплату Цены»: Параноик's
    Бункер cannot pay the Дробовик's Price of 1."""
    game, _gm, users, seats = cards_game(overt={"Вася": "Параноик"})
    view = card_view(game=game, seat=seats["Вася"])
    assert [(c.name, overt) for c, overt in view.sleeve] == [("Бункер", True)]
    state = game.state
    state["memory"]["players"][str(seats["Вася"].pk)]["hand"].append("Дробовик")
    Game.objects.filter(pk=game.pk).update(state=state)
    _o, confirmation = submit(game, users["Вася"], "play", card="Дробовик", target=seats["Петя"].pk,
                              **{"from": "hand"})
    assert confirmation.reason == "cannot_pay"


@pytest.mark.django_db
def test_deck_building_submits_and_refuses_with_every_reason():
    """«Требования к колоде: 15 несвободных карт, 0-3 свободных карт. Не больше 2 копий одной карты.»"""
    game, _gm, users, seats = cards_game(hands=False)
    assert game.current_phase.kind == "deckbuilding"
    order, confirmation = submit(game, users["Вася"], "deck", cards=["Пистолет"] * 3)
    assert confirmation.reason == "bad_deck" and {r.code for r in confirmation.refusals} >= {
        "too_many_copies", "non_free_count"}
    with translation.override("en"):
        assert "15" in confirmation.message
    from games.rulesets.cards.engine import collection_of, starter_deck
    from games.engine.state import GameState
    import random

    deck = starter_deck("sheriff", collection_of(GameState.from_json(game.state)), random.Random(1))
    assert submit(game, users["Вася"], "deck", cards=deck)[1].accepted
    assert card_view(game=game, seat=seats["Вася"]).standing["deck"] == deck
    assert submit(game, users["Вася"], "play", card="Бункер", **{"from": "hand"})[1].reason in (
        "wrong_phase", "not_your_action")


@pytest.mark.django_db
def test_card_view_and_public_hand_sizes():
    """«Количество карт в Руке каждого игрока все узнают в конце каждой фазы.»"""
    game, _gm, _users, seats = cards_game(overt={"Вася": "Патрульный"})
    view = card_view(game=game, seat=seats["Вася"])
    assert [c.name for c in view.hand] == HAND and view.deck_size == 3 and view.built
    assert view.secret_role == "sheriff" and view.overt_role == "Патрульный"
    assert view.colours == ["damage", "recon"] and "play" in view.allowed and "discard" in view.allowed
    assert card_hand_sizes(game=game) == {s.pk: 6 for s in seats.values()}


# --- GM effects ---------------------------------------------------------------------------------
@pytest.mark.django_db
def test_gm_effects_are_the_gms_validated_and_logged():
    game, gm, users, seats = cards_game()
    phase = game.current_phase
    vasya = seats["Вася"].pk
    with pytest.raises(ActionRefused):
        card_gm_effect_add(phase=phase, gm=users["Петя"], effect={"op": "damage", "target": vasya, "n": 2})
    for bad in ({"op": "explode", "target": vasya}, {"op": "damage", "target": 999999, "n": 1},
                {"op": "damage", "target": vasya, "n": -1}, {"op": "reveal", "target": vasya, "what": "soul"},
                {"op": "give", "target": vasya, "card": "Нет такой"}, {"op": "message", "target": vasya, "text": ""}):
        with pytest.raises(ActionRefused):
            card_gm_effect_add(phase=phase, gm=gm, effect=bad)
    card_gm_effect_add(phase=phase, gm=gm, effect={"op": "damage", "target": vasya, "n": 2})
    card_gm_effect_add(phase=phase, gm=gm, effect={"op": "armour", "target": vasya, "n": 1})
    card_gm_effect_add(phase=phase, gm=gm, effect={"op": "give", "target": vasya, "card": "Туз"})
    card_gm_effect_add(phase=phase, gm=gm, effect={"op": "draw", "target": vasya, "n": 1, "to": "sleeve"})
    phase.refresh_from_db()
    assert phase.gm_decisions["damage"] == {str(vasya): 2} and phase.gm_decisions["armour"] == {str(vasya): 1}
    assert [e["op"] for e in phase.gm_decisions["effects"]] == ["give", "draw"]
    card_gm_effect_remove(phase=phase, gm=gm, index=1)
    phase.refresh_from_db()
    assert [e["op"] for e in phase.gm_decisions["effects"]] == ["give"]
    with pytest.raises(ActionRefused):
        card_gm_effect_remove(phase=phase, gm=gm, index=5)
    assert GMAction.objects.filter(game=game, action__startswith="card_effect").count() == 5
    phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["damage"] == {"Вася": 2} and phase.outcome["armour"] == {"Вася": 1}
    assert phase.outcome["sleeves"]["Вася"] == ["Туз"]
    with pytest.raises(ActionRefused):  # a closed phase
        card_gm_effect_add(phase=phase, gm=gm, effect={"op": "damage", "target": vasya, "n": 2})


# --- Signups and the start -----------------------------------------------------------------------
@pytest.mark.django_db
def test_the_overt_role_is_unique_at_signup():
    """«Каждой явной роли может быть только один представитель» (case and «ё» do not matter);
    «Можете сами вписать любое другое незанятое наименование роли»."""
    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=10)
    game_signup(game=game, user=make_user("Вася"), overt_role="Мародёр", contacts="tg @vasya")
    with pytest.raises(ActionRefused) as refused, translation.override("en"):
        game_signup(game=game, user=make_user("Петя"), overt_role="  мародер ")
    assert refused.value.code == "overt_taken" and "Мародёр" in str(refused.value.message)
    seat = game_signup(game=game, user=make_user("Маша"), overt_role="Космонавт")
    assert seat.overt_role == "Космонавт"
    assert not Seat.objects.filter(user__display_name="Петя").exists()


@pytest.mark.django_db
def test_contacts_are_seen_by_the_gms_only(client):
    """«В поле "Внешность" пишете ваши идентификаторы во всех сторонних мессенджерах» — for the GM."""
    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=10)
    player = make_user("Вася")
    game_signup(game=game, user=player, overt_role="Патрульный", contacts="tg @secret_vasya")
    other = make_user("Петя")
    client.force_login(other)
    page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "secret_vasya" not in page and 'name="overt_role"' in page
    client.force_login(gm)
    page = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "secret_vasya" in page and "Патрульный" in page


@pytest.mark.django_db
def test_signup_view_takes_class_and_appearance(client):
    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=10)
    client.force_login(make_user("Вася"))
    client.post(_join_url(game),
                {"action": "join", "overt_role": "Богач", "contacts": "discord vasya"})
    seat = Seat.objects.get(game=game)
    assert (seat.overt_role, seat.contacts) == ("Богач", "discord vasya")


def _join_url(game):
    from django.urls import reverse

    return reverse("games:game_join", args=[game.pk])


@pytest.mark.django_db
def test_start_draws_the_placeholders_and_commits_to_the_drawn_roles():
    """«Каждый законник получает одну из следующих ролей, случайным образом»: the default table for
    10 has `law` placeholders; the seats get the drawn roles, and the commitment names them."""
    import hashlib

    from games.rulesets.cards.engine.roles import LAW_ROLES
    from games.selectors.commitment import commitment_payload

    gm = make_user("Ведущий")
    game = game_create(title="Карты", gm=gm, ruleset="cards", size=10)
    for i in range(10):
        game_signup(game=game, user=make_user(f"Игрок {i}"), overt_role=f"Роль {i}")
    assert "law" in CARDS.default_roles(10)
    game_start(game=game, by=gm, seed=11)
    game.refresh_from_db()
    seats = list(game.seats.select_related("user"))
    roles = [s.role for s in seats]
    assert "law" not in roles and sorted(r for r in roles if r in ("boss", "advisor", "killer")) == [
        "advisor", "boss", "killer"]
    assert all(s.role in LAW_ROLES for s in seats if s.faction == "law")
    from games.engine.state import GameState

    state = GameState.from_json(game.state)
    assert all(state.seat(s.pk).role == s.role for s in seats)
    assert CARDS.overt_of(state, seats[0].pk) == "Роль 0"
    assert hashlib.sha256(commitment_payload(game, seats).encode()).hexdigest() == game.commitment
    assert '"law"' not in commitment_payload(game, seats)
    assert game.current_phase.kind == "deckbuilding"


@pytest.mark.django_db
def test_the_new_game_form_offers_the_cards_rule_set(client):
    gm = make_user("Ведущий")
    client.force_login(gm)
    from django.urls import reverse

    response = client.post(reverse("games:game_new"), {"title": "Карточная", "ruleset": "cards", "size": 13,
                                                       "phase_hours": 24, "hero": "on", "extra_neutral": "traitor"})
    assert response.status_code == 302
    game = Game.objects.get(title="Карточная")
    assert game.ruleset == "cards" and game.options == {"hero": True, "extra_neutral": "traitor", "tie_break": "overt",
                                                        "measure_weight": True, "illegal_deck": "random"}


# --- Talking ---------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_cards_mafia_has_no_team_chat_unless_the_gm_opens_one():
    """«Любые способы коммуникации, не специфицированные правилами игры - личка, криптография,
    заглядывание через плечо и т.д. - запрещены.» The mafia knows itself («После получения ролей
    члены Мафии узнают личности друг друга») and has one message each («Один раз каждый мафиози
    может прислать сообщение другому мафу»), not a chat: none by default; a GM may open one
    before the start."""
    game, gm, users, seats = cards_game(hands=False)
    assert not game.private_threads.filter(kind="faction").exists()
    assert game.private_threads.filter(kind="gm_chat").count() == len(NAMES)


@pytest.mark.django_db
def test_the_cards_mafia_gets_a_team_chat_when_the_gm_opens_one():
    game, gm, users, seats = cards_game(hands=False, options={"team_chat": True})
    assert game.private_threads.filter(kind="faction", faction="mafia").count() == 1


# --- Radio silence and the dead -----------------------------------------------------------------
@pytest.mark.django_db
def test_deck_building_is_radio_silence_for_everyone_but_the_gm():
    """«Также недопустима любая, в том числе публичная, коммуникация до начала первой ночи, пока идет
    сбор колод.» «Во время набора колоды должно поддерживаться радиомолчание.»"""
    game, gm, users, seats = cards_game(hands=False, options={"team_chat": True})
    team = game.private_threads.get(kind="faction")
    for thread in (game.game_thread, game.discussion_thread, team):
        with translation.override("en"):
            verdict = can_post(users["Петя"], thread)
            assert not verdict and "Radio silence" in str(verdict.reason)
    assert can_post(gm, game.game_thread)
    assert can_post(users["Вася"], game.private_threads.get(kind="gm_chat", seat=seats["Вася"]))
    with pytest.raises(ActionRefused):
        post_submit(thread=game.game_thread, author=users["Вася"], body="Привет!")
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    assert game.current_phase.kind == "night" and can_post(users["Вася"], game.game_thread)


@pytest.mark.django_db
def test_the_dead_do_not_post_in_a_cards_game():
    """«Мертвые персонажи не участвуют в игре, не получают сообщений и не должны продолжать общение со
    все еще участвующими в игре.»"""
    game, gm, users, seats = cards_game()
    card_gm_effect_add(phase=game.current_phase, gm=gm, effect={"op": "damage", "target": seats["Маша"].pk, "n": 6})
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    for thread in (game.game_thread, game.discussion_thread):
        assert not can_post(users["Маша"], thread)
    assert can_post(users["Маша"], game.private_threads.get(kind="lounge"))
    assert can_post(users["Вася"], game.game_thread)


@pytest.mark.django_db
def test_the_forum_dead_keep_their_current_behaviour(started):
    seat = started.seats.select_related("user").get(user__display_name="Фроло")
    Seat.objects.filter(pk=seat.pk).update(status="dead", is_alive=False)
    before = bool(can_post(seat.user, started.game_thread))
    assert before is True


# --- The Veche through posts --------------------------------------------------------------------
@pytest.mark.django_db
def test_the_veche_reads_peace_and_the_measure_from_posts():
    """«Днем каждый персонаж может публично отдать голос за любого персонажа. ... Также можно
    проголосовать "за мир". Кроме этого днём проводится голосование за меру наказания - казнь или
    тюрьма.»"""
    from games.selectors.votes import vote_count

    game, _gm, users, seats = cards_game()
    to_day(game)
    with translation.override("en"):
        post = post_submit(thread=game.game_thread, author=users["Вася"], body="[b]Казнить Петю![/b]")
        assert "Measure counted" in post.vote_confirmation.message
    post_submit(thread=game.game_thread, author=users["Маша"], body="[b]За мир[/b]")
    post_submit(thread=game.game_thread, author=users["Глаша"], body="[b]Голосую за Петю[/b], мера — [b]тюрьма[/b]")
    post_submit(thread=game.game_thread, author=users["Глаша"], body="Передумала: [b]казнь[/b]")
    measure_rows = Order.objects.filter(phase=game.current_phase, action="measure")
    assert measure_rows.count() == 3 and set(measure_rows.values_list("source", flat=True)) == {"text"}
    count = vote_count(phase=game.current_phase)
    wagons = {(w.target.user.display_name if w.target else "peace"): w.weight for w in count.wagons}
    assert wagons == {"Петя": 2, "peace": 1}
    assert {row["measure"]: row["weight"] for row in count.measures} == {"execution": 2, "prison": 0}
    game.refresh_from_db()
    phase = game.current_phase
    phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["executed"] == ["Петя"] and phase.outcome["measure"] == "execution"
    assert phase.outcome["tally"] == {"Петя": 2, "peace": 1}


@pytest.mark.django_db
def test_vote_weights_come_from_the_rule_set(monkeypatch):
    """«Политик +0,5 к силе голоса (голос считается за 1,5)»: the weights of the count are the rule
    set's (part 2 fills the roles in; here the hook is patched)."""
    from games.selectors.votes import vote_count

    game, _gm, users, seats = cards_game()
    to_day(game)
    politician = seats["Вася"].pk
    monkeypatch.setattr(type(CARDS), "vote_weight", lambda self, state, seat: 1.5 if seat == politician else 1.0)
    post_submit(thread=game.game_thread, author=users["Вася"], body="[b]В тюрьму Петю[/b]")
    post_submit(thread=game.game_thread, author=users["Маша"], body="[b]Казнить Петю[/b]")
    count = vote_count(phase=game.current_phase)
    assert count.wagons[0].weight == 2.5
    assert {row["measure"]: row["weight"] for row in count.measures} == {"execution": 1, "prison": 1.5}


@pytest.mark.django_db
def test_the_vote_buttons_offer_execution_prison_and_peace(client):
    from games.services.votes import vote_buttons

    texts = [text for _label, text in vote_buttons("Петя", "cards")]
    assert texts == ["[b]Казнить Петю[/b]", "[b]В тюрьму Петю[/b]"]
    assert CARDS.parse_measure(texts[0]) == "execution" and CARDS.parse_measure(texts[1]) == "prison"
    assert vote_buttons("Петя", "forum") == [("Петя", "[b]В тюрьму Петю[/b]")]
    game, _gm, users, _seats = cards_game()
    to_day(game)
    client.force_login(users["Вася"])
    page = client.get(game.game_thread.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-insert="[b]Казнить Петю[/b]"' in page and 'data-insert="[b]В тюрьму Петю[/b]"' in page
    assert 'data-insert="[b]За мир[/b]"' in page


# --- Event texts and messages ---------------------------------------------------------------------
EVENT_SAMPLES = {
    "game_started": {"players": [{"seat": 1, "name": "Вася", "overt": "Патрульный"}], "phase": "deckbuilding"},
    "role": {"seat": 1, "name": "Вася", "role": "joker", "faction": "joker", "colours": [], "chooses_colours": 2},
    "team": {"faction": "mafia", "members": [{"seat": 1, "name": "Петя", "role": "boss"}]},
    "deck_refused": {"seat": 1, "name": "Вася", "refusals": [{"code": "non_free_count", "cards": [],
                                                              "detail": {"count": 3, "needed": 15}}]},
    "deck_auto": {"seat": 1, "name": "Вася", "deck": ["Пистолет"], "colours": []},
    "mafia_decks": {"members": [{"seat": 1, "name": "Петя", "role": "boss", "deck": ["Нож"], "hand": ["Кофе"]}]},
    "deck_order": {"seat": 1, "name": "Вася", "deck": ["Нож"]},
    "containers": {"seat": 1, "name": "Вася", "hand": ["Кофе"], "sleeve": [], "deck_size": 0, "can_rebuild": True,
                   "restricted": 2},
    "phase_report": {"seat": 1, "name": "Вася", "plays": [{"card": "Бункер", "from": "hand", "result": "done",
                                                           "paid": []}], "damage": 4, "armour": 2},
    "reveal": {"card": "Оракул", "target": 2, "target_name": "Петя", "what": "role", "value": "boss"},
    "message": {"card": "Письмо", "text": "Берегись"},
    "mafia_message": {"seat": 2, "name": "Петя", "text": "Завтра Васю"},
    "hand_sizes": {"sizes": [{"seat": 1, "name": "Вася", "size": 3}]},
    "veche_result": {"tally": [{"target": 2, "target_name": "Петя", "votes": 2}, {"target": "peace", "votes": 1}],
                     "measure_tally": {"execution": 1.5}, "leader": {"seat": 2, "name": "Петя"},
                     "measure": "execution", "peace": False, "reason": ""},
    "tie_break": {"leaders": [{"seat": 1, "name": "Вася", "overt": "Богач"}], "seat": 1, "name": "Вася",
                  "by": "overt_alphabet"},
    "executed": {"seat": 2, "name": "Петя", "damage": 6},
    "imprisoned": {"seat": 2, "name": "Петя", "phases": 4},
    "died": {"seat": 2, "name": "Петя"},
    "joker_won": {"seat": 3, "name": "Маша"},
    "joker_left": {"seat": 3, "name": "Маша", "aces_vanished": 2},
    "game_over": {"winner": "law", "winners": [{"seat": 1, "name": "Вася"}],
                  "seats": [{"seat": 1, "name": "Вася", "role": "sheriff", "overt": "Богач"}]},
    "play": {"by": 1, "by_name": "Вася", "card": "Пистолет", "from": "hand", "target_name": "Петя",
             "result": "refused", "reason": "restricted", "paid": []},
    "gm_resolve": {"by_name": "Вася", "card": "Шантаж", "target_name": "Петя", "note": "решает мастер"},
    "phase_summary": {"damage": {"1": 4}, "armour": {}, "dead": []},
    "input_ignored": {"seat": 1, "name": "Вася", "reason": "bad_reorder"},
    "vote_dropped": {"voter": 1, "voter_name": "Вася", "reason": "not_a_voter"},
    "measure_dropped": {"voter": 1, "voter_name": "Вася", "given": "казнь"},
    "gm_effect_ignored": {"reason": "target_not_alive"},
}


@pytest.mark.parametrize("kind", sorted(EVENT_SAMPLES))
def test_every_cards_event_kind_has_a_text(kind):
    from games.wording import event_text

    with translation.override("en"):
        text = event_text("cards", kind, EVENT_SAMPLES[kind])
    assert text and not text.startswith(f"{kind}:") and "%(" not in text


def test_role_and_faction_labels_follow_the_seed():
    """«Вигиланте», «Сыщик»: the seed's words for the vigilante and the detective."""
    from games.rulesets.cards.wording import ROLE_NAMES
    from games.wording import faction_label, role_label

    from games.rulesets.cards.engine.roles import SECRET_ROLES

    assert set(SECRET_ROLES) <= set(ROLE_NAMES)
    with translation.override("en"):
        assert role_label("cards", "vigilante") == "vigilante"
        assert {faction_label(f) for f in ("law", "traitor", "hero", "maniac", "joker")} == {
            "the Law", "the traitor", "the hero", "the maniac", "the joker"}


@pytest.mark.django_db
def test_a_card_message_reaches_its_target_only_and_the_results_post_is_public_only():
    """«Некоторые карты позволяют отправить цели сообщение. В таком случае цель получит его в конце
    фазы в сообщении от мастера. Цель не узнает, кто отправил сообщение.»"""
    from games.models import GameEvent
    from games.permissions import filter_visible_events

    game, gm, users, seats = cards_game()
    assert submit(game, users["Вася"], "play", card="Письмо", target=seats["Петя"].pk, message="Я шериф",
                  **{"from": "hand"})[1].accepted
    phase_close(phase_id=game.current_phase.pk)
    events = GameEvent.objects.filter(game=game, kind="message")
    seen_by = {name: filter_visible_events(users[name], game, events).filter(text__contains="Я шериф").exists()
               for name in NAMES}
    assert seen_by == {"Вася": False, "Петя": True, "Маша": False, "Глаша": False, "Паша": False}
    assert filter_visible_events(gm, game, events).filter(data__sender_name="Вася").exists()
    results = game.game_thread.posts.order_by("-number").first().body
    assert "Я шериф" not in results and "Вася" in results  # the Hand sizes, public
