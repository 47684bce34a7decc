"""Issue 29 (the second walk, in the browser): the GM sets a game to `##vote` only from his
dashboard («Пульт ведущего»). The vote options were only on the game page, so a GM on his
dashboard had no way to them. The class: in every rule set that reads votes from posts the
dashboard carries the same form as the game page (the same choices, ticked the same), and the form
sent from the dashboard brings the GM back to it, saved or refused; a rule set that reads no vote
from posts (the Show) shows none. tests/browser/test_forum_vote_syntax_walk.py clicks it."""

from html import unescape

import pytest
from django.urls import reverse

from games.rulesets import registry
from games.services.games import game_create
from tests.conftest import client_for, make_user

HASH_ONLY = ["hash_unvote", "hash_vote"]
POSTING = [a.key for a in registry.adapters() if a.votes_in_posts]
PANEL_ONLY = [a.key for a in registry.adapters() if not a.votes_in_posts]


def _form(page: str, game) -> str:
    action = reverse("games:vote_options", args=[game.pk])
    return page.split(f'action="{action}"')[1].split("</form>")[0] if f'action="{action}"' in page else ""


def _boxes(form: str) -> list[tuple[str, bool]]:
    return [(part.split('"')[0], part.split(">")[0].rstrip().endswith("checked"))
            for part in form.split('name="syntax" value="')[1:]]


def test_every_rule_set_is_listed():
    assert POSTING and set(POSTING) | set(PANEL_ONLY) == set(registry.keys())


@pytest.mark.parametrize("ruleset", POSTING)
def test_the_dashboard_has_the_game_pages_vote_options(db, ruleset):
    gm = make_user("Ведущий")
    game = game_create(title="Игра", gm=gm, ruleset=ruleset, size=8)
    client = client_for(gm)
    dashboard = unescape(client.get(reverse("games:gm_dashboard", args=[game.pk])).content.decode())
    game_page = unescape(client.get(game.get_absolute_url()).content.decode())
    on_dashboard, on_game_page = _form(dashboard, game), _form(game_page, game)
    assert on_dashboard and _boxes(on_dashboard) == _boxes(on_game_page) != []
    assert "Синтаксис голосов" in dashboard
    assert 'name="back" value="gm"' in on_dashboard and 'name="back"' not in on_game_page


@pytest.mark.parametrize("ruleset", POSTING)
def test_the_form_sent_from_the_dashboard_saves_and_comes_back_to_it(db, ruleset):
    gm = make_user("Ведущий")
    game = game_create(title="Игра", gm=gm, ruleset=ruleset, size=8)
    client = client_for(gm)
    url = reverse("games:vote_options", args=[game.pk])
    response = client.post(url, {"syntax": HASH_ONLY, "back": "gm"})
    assert response.status_code == 302 and response.url == reverse("games:gm_dashboard", args=[game.pk])
    game.refresh_from_db()
    assert game.vote_syntaxes == HASH_ONLY
    page = unescape(client.get(response.url).content.decode())
    assert "Настройки голосования сохранены." in page
    assert [key for key, on in _boxes(_form(page, game)) if on] == sorted(HASH_ONLY, key=[
        key for key, _on in _boxes(_form(page, game))].index)
    # A refused choice also comes back to the dashboard, says why, and changes nothing.
    response = client.post(url, {"syntax": ["hash_unvote"], "back": "gm"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:gm_dashboard", args=[game.pk])
    assert "Оставьте хотя бы один способ голосовать" in unescape(response.content.decode())
    game.refresh_from_db()
    assert game.vote_syntaxes == HASH_ONLY
    # From the game page (or with anything else in «back») the form returns to the game page.
    for data in ({"syntax": HASH_ONLY}, {"syntax": HASH_ONLY, "back": "https://example.com/"}):
        assert client.post(url, data).url == game.get_absolute_url()


@pytest.mark.parametrize("ruleset", PANEL_ONLY)
def test_a_rule_set_without_votes_in_posts_shows_no_vote_options_on_the_dashboard(db, ruleset):
    gm = make_user("Ведущий")
    game = game_create(title="Игра", gm=gm, ruleset=ruleset, size=6)
    page = unescape(client_for(gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode())
    assert not _form(page, game) and "Синтаксис голосов" not in page
