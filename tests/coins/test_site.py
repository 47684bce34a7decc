"""The coins on the site: the signup's referral bonus, the ИндиКод on the first entry into a show,
the refusal to join a show without a positive balance, the «Баланс» page by perspective, fines."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import User
from coins import services
from coins.models import Entry, Fine, IndiCode
from coins.services import Line, post
from games.models import Game, GMAction
from games.services import ActionRefused
from games.services.games import game_create
from games.services.lifecycle import game_signup
from tests.conftest import PASSWORD, client_for, make_user


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def _signup(client: Client, **extra):
    data = {"email": "new@example.com", "display_name": "Новичок", "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("account_signup"), {**data, **extra})


@pytest.fixture
def show(gm):
    return game_create(title="Шоу", gm=gm, ruleset="show", size=10)


# --- Registration --------------------------------------------------------------------------------

def test_signup_pays_the_referral_bonus_to_the_owner_of_the_typed_code(db):
    """«либо самостоятельно ввести ИндиКод, который он получил от своего знакомого, который привёл
    его. Тот, чей ИндиКод будет выбран/указан, немедленно получит регистрационный бонус 100㉿»."""
    friend = make_user("Друг")
    code = services.ensure_indicode(friend).code
    response = _signup(Client(), referral_code=code.upper())
    assert response.status_code == 302
    newcomer = User.objects.get(email="new@example.com")
    assert (services.balance_of(newcomer), services.balance_of(friend)) == (900, 1100)


def test_signup_offers_the_codes_of_heroes_in_running_games_and_pays_the_picked_one(running_game, town_player):
    """«выбрать один из предлагаемых ему ИндиКодов героев, которые сейчас активны и находятся в сессиях»."""
    offered = services.ensure_indicode(town_player).code
    idle = make_user("Бездельник")
    not_offered = services.ensure_indicode(idle).code
    page = Client().get(reverse("account_signup")).content.decode()
    assert offered in page and not_offered not in page
    response = _signup(Client(), referral_pick=offered)
    assert response.status_code == 302
    assert services.balance_of(town_player) == 1100


def test_signup_without_a_code_keeps_the_whole_capital_only_while_the_site_has_no_hero(db):
    """«100㉿ нужно отдать одному из уже имеющихся героев»: the very first users of a site have
    nobody to give it to (no user has entered a show, so nobody has an ИндиКод): the form asks
    nothing, says so, and the newcomer keeps his 1000 (docs/rulesets/show.md, "Sign-up")."""
    page = Client().get(reverse("account_signup")).content.decode()
    assert "referral_pick" not in page and "referral_code" not in page
    assert "Или ИндиКод" not in page and "никому" not in page
    assert "пока нет ни одного героя" in page
    assert _signup(Client()).status_code == 302
    assert services.balance_of(User.objects.get(email="new@example.com")) == 1000


def test_signup_refuses_an_unknown_code_and_creates_nobody(db):
    services.ensure_indicode(make_user("Герой"))
    response = _signup(Client(), referral_code="никакой-такой-код")
    assert response.status_code == 200
    assert "Ни у кого нет такого ИндиКода" in response.content.decode()
    assert not User.objects.filter(email="new@example.com").exists()


def test_signup_refuses_nobody_when_a_hero_in_play_could_get_the_bonus(running_game, town_player):
    """«никому (без бонуса)» is no answer while a hero exists: the heroes in play are offered, nothing
    before «Или» is empty, and a sign-up that gives the bonus to nobody creates nobody."""
    code = services.ensure_indicode(town_player).code
    page = Client().get(reverse("account_signup")).content.decode()
    assert code in page and "никому" not in page
    assert page.index("ИндиКод героя, который сейчас в игре") < page.index("Или ИндиКод")
    for extra in ({}, {"referral_pick": ""}, {"referral_pick": "", "referral_code": ""}):
        response = _signup(Client(), **extra)
        assert response.status_code == 200, extra
        assert "Отдайте 100 ㉿ одному из героев" in response.content.decode()
        assert not User.objects.filter(email="new@example.com").exists()
    assert services.balance_of(town_player) == 1000


def test_signup_offers_the_sites_newest_heroes_when_nobody_is_in_a_session(db):
    """Nobody in a session now, but heroes exist: their codes are offered («одному из уже
    имеющихся героев»), so a newcomer who knows nobody still gives the bonus; «никому» is refused."""
    hero = make_user("Герой прошлого шоу")
    code = services.ensure_indicode(hero).code
    page = Client().get(reverse("account_signup")).content.decode()
    assert code in page and "ИндиКод одного из героев сайта" in page and "никому" not in page
    assert _signup(Client()).status_code == 200
    assert not User.objects.filter(email="new@example.com").exists()
    assert _signup(Client(), referral_pick=code).status_code == 302
    assert services.balance_of(hero) == 1100


def test_signup_refuses_a_picked_code_that_nobody_offered(db):
    services.ensure_indicode(make_user("Герой"))
    response = _signup(Client(), referral_pick="весёлый-синий-кит")
    assert response.status_code == 200
    assert not User.objects.filter(email="new@example.com").exists()


# --- Joining a show ----------------------------------------------------------------------------

def test_joining_a_show_gives_the_first_indicode_and_keeps_it(show):
    """«ИндиКод ... создаётся при его первом входе в любую сессию»."""
    user = make_user("Игрок")
    assert not IndiCode.objects.filter(user=user).exists()
    game_signup(game=show, user=user)
    code = IndiCode.objects.get(user=user).code
    other = game_create(title="Шоу 2", gm=show.gm, ruleset="show", size=10)
    game_signup(game=other, user=user)
    assert IndiCode.objects.get(user=user).code == code


def test_joining_a_show_is_refused_when_the_balance_is_not_positive(show):
    """«Для участия в Шоу нужно иметь положительный Баланс»."""
    user, other = make_user("Должник"), make_user("Кредитор")
    post([Line(services.user_key(user), services.user_key(other), 1000, "bet")])
    with pytest.raises(ActionRefused, match="положительный баланс"):
        game_signup(game=show, user=user)
    assert not show.seats.filter(user=user).exists()
    assert not IndiCode.objects.filter(user=user).exists()


def test_joining_a_plain_game_needs_no_coins(game):
    user, other = make_user("Должник"), make_user("Кредитор")
    post([Line(services.user_key(user), services.user_key(other), 1000, "bet")])
    game_signup(game=game, user=user)
    assert game.seats.filter(user=user).exists()


def test_the_join_button_shows_the_refusal(show):
    user, other = make_user("Должник"), make_user("Кредитор")
    post([Line(services.user_key(user), services.user_key(other), 1500, "bet")])
    response = client_for(user).post(reverse("games:game_join", args=[show.pk]), follow=True)
    assert "положительный баланс" in response.content.decode()
    assert not show.seats.filter(user=user).exists()


# --- The «Баланс» page -------------------------------------------------------------------------------

def test_balance_page_lists_every_ledger_line_for_its_owner(game):
    owner, other = make_user("Хозяин"), make_user("Другой")
    post([Line(services.user_key(owner), services.game_key(game, "bank"), 25, "entry_fee", "первоначальный сбор")],
         game=game, stage="greetings")
    post([Line(services.user_key(other), services.user_key(owner), 7, "bet")], game=game)
    page = client_for(owner).get(reverse("coins:balance", args=[owner.pk])).content.decode()
    assert page.count('class="coins-line"') == Entry.objects.filter(debit__user=owner).count() + \
        Entry.objects.filter(credit__user=owner).count() == 3
    assert 'id="balance">982 ㉿' in page  # 1000 - 25 + 7
    assert "+1\xa0000 ㉿" in page and "−25 ㉿" not in page and "-25 ㉿" in page and "+7 ㉿" in page
    assert "Стартовый капитал" in page and "Эмиссия" in page
    assert "Банк «Тестовая игра»" in page
    assert "Другой" not in page  # a hero inside a game is not named: «герой «Тестовая игра»»


def test_balance_page_is_404_for_another_user_and_the_anonymous(db):
    owner, other = make_user("Хозяин"), make_user("Другой")
    url = reverse("coins:balance", args=[owner.pk])
    assert client_for(other).get(url).status_code == 404
    assert Client().get(url).status_code == 404
    assert client_for(make_user("Админ", staff=True)).get(url).status_code == 200


def test_balance_mine_leads_the_owner_to_his_page_and_the_anonymous_to_the_login(db):
    owner = make_user("Хозяин")
    assert client_for(owner).get(reverse("coins:balance_mine"))["Location"] == reverse("coins:balance", args=[owner.pk])
    assert "login" in Client().get(reverse("coins:balance_mine"))["Location"]


def test_balance_page_is_paginated(db):
    owner, other = make_user("Хозяин"), make_user("Другой")
    post([Line(services.user_key(other), services.user_key(owner), 1, "bet") for _ in range(60)])
    client = client_for(owner)
    first = client.get(reverse("coins:balance", args=[owner.pk])).content.decode()
    second = client.get(reverse("coins:balance", args=[owner.pk]) + "?page=2").content.decode()
    assert first.count('class="coins-line"') == 50 and second.count('class="coins-line"') == 11


def test_profile_shows_the_indicode_to_everybody_and_the_balance_link_to_its_owner(db):
    owner = make_user("Хозяин")
    code = services.ensure_indicode(owner).code
    url = reverse("accounts:profile", args=[owner.pk])
    stranger_view = Client().get(url).content.decode()
    assert code in stranger_view and reverse("coins:balance", args=[owner.pk]) not in stranger_view
    assert reverse("coins:balance", args=[owner.pk]) in client_for(owner).get(url).content.decode()


# --- Fines ---------------------------------------------------------------------------------------

@pytest.fixture
def running_show(show):
    Game.objects.filter(pk=show.pk).update(status=Game.Status.RUNNING)
    show.refresh_from_db()
    return show


def _fine_data(seat, reporter_name="Доносчик"):
    return {"offender": seat.pk, "reporter": reporter_name, "report": "Скриншот роли в чате", "decision": "Доказано"}


def test_gm_fines_a_hero_and_the_reporter_gets_1000_anonymously(running_show):
    """«первый сообщивший об этом получит анонимно сумму в 1000㉿ с Баланса нарушителя»."""
    offender, reporter = make_user("Нарушитель"), make_user("Доносчик")
    seat = running_show.seats.create(user=offender, number=1, dealt_name="Нарушитель")
    response = client_for(running_show.gm).post(reverse("games:show_fines", args=[running_show.pk]), _fine_data(seat))
    assert response.status_code == 302
    assert (services.balance_of(offender), services.balance_of(reporter)) == (0, 2000)
    record = Fine.objects.get()
    assert (record.offender, record.reporter, record.decided_by, record.report) == \
        (offender, reporter, running_show.gm, "Скриншот роли в чате")
    assert Entry.objects.get(batch=record.batch).reason == "fine"
    log = GMAction.objects.get(game=running_show, action="fine")
    assert "Доносчик" not in str(log.data)
    # The offender's history shows the fine, not who reported it.
    history = client_for(offender).get(reverse("coins:balance", args=[offender.pk])).content.decode()
    assert "Штраф" in history and "анонимно" in history and "Доносчик" not in history


def test_a_player_cannot_open_or_post_the_fines_page(running_show):
    offender, reporter = make_user("Нарушитель"), make_user("Доносчик")
    seat = running_show.seats.create(user=offender, number=1, dealt_name="Нарушитель")
    url = reverse("games:show_fines", args=[running_show.pk])
    assert client_for(reporter).get(url).status_code == 404
    assert client_for(reporter).post(url, _fine_data(seat)).status_code == 404
    assert Client().post(url, _fine_data(seat)).status_code == 404
    assert not Fine.objects.exists() and services.balance_of(offender) == 1000


def test_a_site_moderator_may_fine(running_show, moderator):
    offender, _reporter = make_user("Нарушитель"), make_user("Доносчик")
    seat = running_show.seats.create(user=offender, number=1, dealt_name="Нарушитель")
    response = client_for(moderator).post(reverse("games:show_fines", args=[running_show.pk]), _fine_data(seat))
    assert response.status_code == 302 and Fine.objects.count() == 1


def test_a_fine_with_the_offender_as_reporter_or_of_another_games_seat_is_refused(running_show, game):
    offender = make_user("Нарушитель")
    seat = running_show.seats.create(user=offender, number=1, dealt_name="Нарушитель")
    foreign = game.seats.create(user=make_user("Чужой"), number=1)
    client = client_for(running_show.gm)
    url = reverse("games:show_fines", args=[running_show.pk])
    assert client.post(url, _fine_data(seat, reporter_name="Нарушитель")).status_code == 400
    assert client.post(url, _fine_data(foreign, reporter_name="Нарушитель")).status_code == 400
    assert client.post(url, _fine_data(seat, reporter_name="Никто")).status_code == 400
    assert client.post(url, {**_fine_data(seat), "report": "  "}).status_code == 400
    assert not Fine.objects.exists() and services.balance_of(offender) == 1000


def test_the_fines_page_is_404_for_a_game_of_another_rule_set(game):
    assert client_for(game.gm).get(reverse("games:show_fines", args=[game.pk])).status_code == 404


# --- ИндиКод -------------------------------------------------------------------------------------

def test_indicodes_are_unique_even_when_the_generator_repeats(db):
    users = [make_user(f"Игрок {n}") for n in range(3)]
    codes = [services.ensure_indicode(u, rng=random.Random(7)).code for u in users]
    assert len(set(codes)) == 3


def test_the_desk_links_the_balance(db):
    """The header has no room for a «Баланс» link at 1150 px (tests/browser/test_phone_layout.py): the
    desk and the profile lead to it."""
    owner = make_user("Владелец баланса")
    page = client_for(owner).get(reverse("games:dashboard")).content.decode()
    assert reverse("coins:balance_mine") in page
