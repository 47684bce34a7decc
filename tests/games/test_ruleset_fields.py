"""Each rule set's fields only for its own games (issue 29, item 5): the new-game form marks every
rule set's option field with its key (static/js/site.js shows the chosen one's) and ignores the
fields of a rule set not chosen; the account sign-up on the way to a game asks the referral bonus
(«ИндиКод ..., 1000 ㉿») only for a rule set that uses it (SiteRuleset.signup_referral: the show)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import User
from coins import services as coins
from games.forms import GameCreateForm
from games.models import Game
from games.rulesets import registry
from games.services.games import game_create
from tests.conftest import PASSWORD, client_for, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def _base(ruleset: str, **extra) -> dict:
    return {"title": "Игра", "ruleset": ruleset, "size": "9" if ruleset != "show" else "10", "roles": "",
            "phase_hours": "24", **extra}


def _groups(page: str) -> dict[str, str]:
    """Each field's name -> the rule-set key of the group it renders in ("" for everyone's)."""
    form = page[page.index('<form method="post" class="card narrow">'):]
    form = form[:form.index("</form>")]
    owner = {}
    for chunk in re.split(r'\n  (?=<div(?: data-ruleset-field="[a-z]+")?>)', form)[1:]:
        key = re.match(r'<div(?: data-ruleset-field="([a-z]+)")?>', chunk).group(1) or ""
        for name in re.findall(r'name="([a-z_]+)"', chunk):
            owner.setdefault(name, key)
    return owner


def test_new_game_form_marks_every_option_field_with_its_own_rule_set_when_rendered():
    gm = make_user("Ведущий")
    owner = _groups(client_for(gm).get(reverse("games:game_new")).content.decode())
    form = GameCreateForm()
    assert form.ruleset_of  # the rule sets do add fields
    for adapter in registry.adapters():
        for name in adapter.option_fields():
            assert form.ruleset_of[name] == adapter.key
            assert owner[name] == adapter.key, name
    for name in ("title", "ruleset", "size", "roles", "phase_hours"):  # everyone's fields carry no key
        assert owner[name] == "", name


def test_new_game_form_ignores_another_rule_sets_bad_input_when_a_forum_game_is_made():
    form = GameCreateForm(data=_base("forum", extra_neutral="nonsense", tie_break="??", newcomers="Вася"))
    assert form.is_valid(), form.errors
    assert "extra_neutral" not in form.cleaned_data and "newcomers" not in form.cleaned_data
    assert form.options_of() == {}


def test_new_game_form_refuses_the_chosen_rule_sets_bad_input():
    form = GameCreateForm(data=_base("cards", extra_neutral="nonsense"))
    assert not form.is_valid()
    assert "extra_neutral" in form.errors


def test_new_game_keeps_only_the_chosen_rule_sets_options_when_posted():
    gm = make_user("Ведущий")
    response = client_for(gm).post(reverse("games:game_new"), _base("club", newcomers="Вася, Петя", hero="on",
                                                                    extra_neutral="joker"))
    assert response.status_code == 302
    game = Game.objects.get(title="Игра")
    assert game.options == {"newcomer_immunity": ["Вася", "Петя"]}


def _signup_page(next_url: str = "") -> str:
    url = reverse("account_signup") + (f"?next={next_url}" if next_url else "")
    return Client().get(url).content.decode()


def test_signup_on_the_way_to_a_forum_game_asks_no_indicode():
    gm = make_user("Ведущий")
    forum = game_create(title="Форум", gm=gm, ruleset="forum", size=9)
    show = game_create(title="Шоу", gm=gm, ruleset="show", size=10)
    coins.ensure_indicode(make_user("Герой"))  # a hero exists: the bonus is owed (with none, nothing is asked)
    assert "referral_code" not in _signup_page(forum.get_absolute_url())
    assert "referral_code" in _signup_page(show.get_absolute_url())
    assert "referral_code" in _signup_page()  # a sign-up from the header, heading nowhere in particular


def test_signup_on_the_way_to_a_forum_game_pays_no_bonus_even_when_a_code_is_posted():
    gm = make_user("Ведущий")
    forum = game_create(title="Форум", gm=gm, ruleset="forum", size=9)
    friend = make_user("Друг")
    code = coins.ensure_indicode(friend).code
    data = {"email": "new@example.com", "display_name": "Новичок", "password1": PASSWORD, "password2": PASSWORD,
            "referral_code": code, "next": forum.get_absolute_url()}
    assert Client().post(reverse("account_signup"), data).status_code == 302
    assert coins.balance_of(friend) == 1000
    assert coins.balance_of(User.objects.get(email="new@example.com")) == 1000


def test_forum_game_in_signups_links_an_anonymous_visitor_to_the_sign_up_with_the_way_back():
    gm = make_user("Ведущий")
    forum = game_create(title="Форум", gm=gm, ruleset="forum", size=9)
    page = Client().get(forum.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'{reverse("account_signup")}?next=/games/{forum.pk}/' in page
