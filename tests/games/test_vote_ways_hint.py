"""Issue 29, the second walk: in a game whose GM switched the rule set's own vote words off (a
«##vote only» game), a player learnt how votes are written there only once his bold vote had been
refused. The reply form now says it beside the vote buttons, in the words the refusal uses, for
every syntax choice that leaves the rule set's words off, and after an htmx reply too; a game that
reads its rule set's words says nothing, and nobody who cannot vote is told."""

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.selectors.votes import syntax_examples
from games.services.posting import post_submit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import user_named

HINT = "В этой игре голос пишут так:"


def _page(game, user=None, **params) -> str:
    client = client_for(user) if user is not None else Client()  # Client(): anonymous
    return unescape(client.get(game.game_thread.get_absolute_url(), params).content.decode())


def _set(game, syntaxes):
    game.vote_syntaxes = sorted(syntaxes)
    game.save(update_fields=["vote_syntaxes"])


@pytest.mark.parametrize("syntaxes", [["hash_vote", "hash_unvote"], ["bold_vote"], ["hash_vote", "bold_vote", "unvote_tag"]])
def test_a_game_without_its_rule_sets_words_tells_the_voter_how_votes_are_written(started, syntaxes):
    _set(started, syntaxes)
    ways = "; ".join(example for _key, example, on, _note in syntax_examples(started) if on)
    page = _page(started, user_named(started, "Вася"))
    assert f"{HINT} {ways}." in page
    hint = page.split('class="vote-ways')[1].split("</p>")[0]
    for key, example, on, _note in syntax_examples(started):
        assert (example in hint) == on, (key, example)


def test_the_hint_is_the_refusals_words(started):
    _set(started, ["hash_vote", "hash_unvote"])
    vasya = user_named(started, "Вася")
    post = post_submit(thread=started.game_thread, author=vasya, body="[b]В тюрьму Кикимору[/b]")
    assert not post.vote_confirmation.counted
    told = post.vote_confirmation.message.split(HINT)[1].strip()
    assert f"{HINT} {told}" in _page(started, vasya)


def test_after_an_htmx_reply_the_hint_is_still_there(started):
    _set(started, ["hash_vote", "hash_unvote"])
    vasya = user_named(started, "Вася")
    response = client_for(vasya).post(reverse("games:thread_reply", args=[started.game_thread.pk]),
                                      {"body": "Доброе утро.", "post": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and f"{HINT} ##vote X; ##unvote." in unescape(response.content.decode())


def test_a_game_with_its_rule_sets_words_says_nothing(started):
    assert "native" in started.vote_syntaxes
    assert HINT not in _page(started, user_named(started, "Вася"))


def test_nobody_who_cannot_vote_is_told(started):
    _set(started, ["hash_vote", "hash_unvote"])
    assert HINT not in _page(started)  # anonymous
    assert HINT not in _page(started, make_user("Зритель"))
    assert HINT not in _page(started, started.gm)
