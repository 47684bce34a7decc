"""The new-game form for a show (issue 28, item 18; docs/rulesets/show.md, "The new-game form"):
the player count starts at the rule set's own (SiteRuleset.default_size: the show's 10, the others'
the form's 9); the show's amounts (stages.COIN_OPTIONS and the grants) are on the form, each
checked with a translated error, and a forged POST with a bad amount creates nothing; the show's
game page offers its GM no forum vote syntaxes (SiteRuleset.votes_in_posts) but its own help."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.forms import GameCreateForm
from games.models import Game
from games.rulesets import registry
from games.rulesets.show.engine.stages import COIN_OPTIONS, OPTION_DEFAULTS
from games.services.games import game_create
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def _size_initial(html: str) -> int:
    match = re.search(r'<input[^>]*name="size"[^>]*>', html)
    assert match, "no size field"
    return int(re.search(r'value="(\d+)"', match.group(0)).group(1))


@pytest.mark.parametrize("ruleset", ["forum", "club", "cards", "show"])
def test_the_player_count_starts_at_the_rule_sets_own(ruleset):
    """«В каждом Большом Шоу всегда ровно 10 участников»: a show starts at 10; every other rule set
    at the form's 9 (the plug-in's default_size, asked by the form; no rule set's name in the core)."""
    gm = make_user("Ведущий")
    html = client_for(gm).get(reverse("games:game_new") + f"?ruleset={ruleset}").content.decode()
    expected = registry.site(ruleset).default_size or 9
    assert _size_initial(html) == expected
    assert (expected == 10) == (ruleset == "show")
    # The page tells the script every rule set's count, to move it when another is picked.
    assert "data-ruleset-sizes" in html and "&quot;show&quot;: 10" in html


def test_each_rule_sets_fields_are_marked_as_its_own_and_the_amounts_are_the_shows():
    form = GameCreateForm()
    amounts = [f"show_{name}" for name in COIN_OPTIONS] + ["show_grants"]
    for name in amounts:
        assert form.ruleset_of[name] == "show", name
        assert form.fields[name].initial not in (None, "")
    html = client_for(make_user("Ведущий")).get(reverse("games:game_new")).content.decode()
    for name in amounts:
        assert re.search(rf'data-ruleset-field="show">[^<]*<[^>]*>[^<]*<label[^>]*for="id_{name}"', html) or \
            f'id="id_{name}"' in html
    # every option field is inside its rule set's block
    blocks = re.findall(r'<div data-ruleset-field="(\w+)">(.*?)</div>\n', html, flags=re.S)
    for key, block in blocks:
        for name in re.findall(r'name="(\w+)"', block):
            assert form.ruleset_of.get(name) == key, (name, key)


def _post(gm, **fields):
    data = {"title": "Шоу с деньгами", "ruleset": "show", "size": 10, "roles": "", "phase_hours": 24, **fields}
    return client_for(gm).post(reverse("games:game_new"), data)


def test_the_gm_sets_the_shows_amounts_on_the_new_game_form():
    gm = make_user("Ведущий")
    response = _post(gm, show_entry_fee=70, show_stage_fee_min=2, show_stage_fee_max=12, show_coma_fee=15,
                     show_burden_public=30, show_burden_reptiloids=25, show_burden_demon=35, show_free_messages=5,
                     show_message_fee=3, show_anonymous_fee=7, show_observer_fee=9, show_base_stake=40,
                     show_pass_fee=33, show_grants="5, 20, 50")
    assert response.status_code == 302, response.content.decode()[:3000]
    options = Game.objects.get(title="Шоу с деньгами").options
    assert {k: options[k] for k in COIN_OPTIONS} == {
        "entry_fee": 70, "stage_fee_min": 2, "stage_fee_max": 12, "coma_fee": 15, "burden_public": 30,
        "burden_reptiloids": 25, "burden_demon": 35, "free_messages": 5, "message_fee": 3, "anonymous_fee": 7,
        "observer_fee": 9, "base_stake": 40, "pass_fee": 33}
    assert options["grants"] == [5, 20, 50]


def test_the_amounts_left_as_they_are_give_the_documented_defaults():
    gm = make_user("Ведущий")
    fields = {f"show_{name}": OPTION_DEFAULTS[name] for name in COIN_OPTIONS}
    assert _post(gm, **fields, show_grants="10, 15, 25").status_code == 302
    options = Game.objects.get(title="Шоу с деньгами").options
    assert all(options[name] == OPTION_DEFAULTS[name] for name in COIN_OPTIONS)


BAD_AMOUNTS = [
    ("show_entry_fee", "-5", "больше либо равно 0"),
    ("show_entry_fee", "12.5", "целое число"),
    ("show_entry_fee", "много", "целое число"),
    ("show_burden_demon", "1001", "меньше либо равно 1000"),
    ("show_base_stake", "0", "больше либо равно 1"),
    ("show_message_fee", "1e3", "целое число"),
    ("show_grants", "10, -15", "целыми числами"),
    ("show_grants", "10, 2000", "от 1 до 1000"),
    ("show_grants", "1, 2, 3, 4, 5, 6", "Не больше 5"),
    ("show_grants", "десять", "целыми числами"),
    ("show_timer_table", "8:100, пять", "героев на свободе:процент"),
]


@pytest.mark.parametrize("field,value,words", BAD_AMOUNTS)
def test_a_forged_post_with_a_bad_amount_is_refused_in_words_and_creates_nothing(field, value, words):
    gm = make_user("Ведущий")
    response = _post(gm, **{field: value})
    assert response.status_code == 400
    page = response.content.decode()
    assert words in page, page[page.find("errorlist") - 300:page.find("errorlist") + 500]
    assert not Game.objects.exists()


def test_the_least_stage_fee_above_the_greatest_is_refused_and_creates_nothing():
    gm = make_user("Ведущий")
    response = _post(gm, show_stage_fee_min=20, show_stage_fee_max=5)
    assert response.status_code == 400
    assert "не может быть меньше" in response.content.decode()
    assert not Game.objects.exists()


def test_another_rule_sets_game_ignores_the_shows_bad_amounts():
    """The show's fields are not a forum game's: their input is ignored, never refused."""
    gm = make_user("Ведущий")
    response = client_for(gm).post(reverse("games:game_new"), {
        "title": "Форум", "ruleset": "forum", "size": 9, "roles": "", "phase_hours": 24, "show_entry_fee": "-5"})
    assert response.status_code == 302
    assert "entry_fee" not in Game.objects.get(title="Форум").options


def _started_show(gm):
    from games.services.lifecycle import game_signup, game_start

    game = game_create(title="Шоу", gm=gm, ruleset="show", size=5)
    for name in ["Аня", "Боря", "Вера", "Жора", "Кира"]:
        game_signup(game=game, user=make_user(name))
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=["mason", "mason", "reptiloid", "saviour", "demon"])
    return Game.objects.get(pk=game.pk)


def test_the_shows_game_page_offers_no_forum_vote_syntaxes_but_its_own_help():
    """The show's ballots are cast on the hero's panel and read from no post: its GM is offered no
    `[b]VOTE …[/b]` syntax (the plug-in says so: votes_in_posts), but told how the show votes; a
    forged save of syntaxes is refused. A forum game keeps its vote options."""
    gm = make_user("Ведущий")
    show = _started_show(gm)
    page = client_for(gm).get(show.get_absolute_url()).content.decode()
    assert "VOTE" not in page and 'name="syntax"' not in page
    assert "show-vote-help" in page and "на панели героя" in page
    before = list(show.vote_syntaxes or [])
    response = client_for(gm).post(reverse("games:vote_options", args=[show.pk]),
                                   {"syntax": ["hash_vote", "v_tag"]}, follow=True)
    assert "не читают голоса из сообщений" in response.content.decode()
    show.refresh_from_db()
    assert list(show.vote_syntaxes or []) == before
    forum = game_create(title="Форум", gm=gm, size=7)
    page = client_for(gm).get(forum.get_absolute_url()).content.decode()
    assert 'name="syntax"' in page and "show-vote-help" not in page
