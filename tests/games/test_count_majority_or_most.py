"""A forum count speaks the rule the game is played by. The seed: «Набравший большинство при
голосовании игрок садится в тюрьму... Если большинство голосов набрали несколько игроков, ведущий
случайным образом выбирает, кто из них сядет» — several can lead, so the most votes at the close
decide. A count of «Большинство: 5» and «Вася 4 L-1» told players of a threshold that decides
nothing, unless the GM chose to end the day as soon as a majority is reached
(Game.end_day_on_majority). The class: wherever a count is shown (the thread's live block, the
count page, the GM's count post, the desk, the replay), the majority and L-n appear exactly when a
majority ends the day, and the leaders otherwise."""

from html import unescape

import pytest

from games.models import Game
from games.selectors.votes import vote_count
from games.services.games import game_set_vote_options
from games.services.posting import post_submit
from games.services.votes import vote_count_bbcode
from tests.conftest import client_for
from tests.games.test_lifecycle import user_named


def _vote(game, voter, target):
    post = post_submit(thread=game.game_thread, author=user_named(game, voter), body=f"[b]В тюрьму {target}[/b]")
    assert post.vote_confirmation.counted


def _pages(game, reader) -> list[str]:
    client = client_for(reader)
    return [unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
            for url in (game.game_thread.get_absolute_url(), f"/games/{game.pk}/votes/")]


@pytest.mark.parametrize("ends_on_majority", [False, True])
def test_the_count_shows_a_majority_only_where_one_ends_the_day(started, ends_on_majority):
    game = started
    if ends_on_majority:
        game_set_vote_options(game=game, by=game.gm, syntaxes=list(game.vote_syntaxes),
                              end_day_on_majority=True, count_spoiler_votes=False)
    game = Game.objects.get(pk=game.pk)
    _vote(game, "Вася", "Кикимору")
    _vote(game, "Фроло", "Кикимору")
    count = vote_count(phase=Game.objects.get(pk=game.pk).current_phase)
    assert count.plurality is not ends_on_majority
    post = vote_count_bbcode(count)
    reader = user_named(game, "Эсмеральда")
    for page in _pages(game, reader):
        block = page.split('class="vote-count')[1].split("</div>")[0]
        if ends_on_majority:
            assert f"Большинство: {count.majority}" in block and "L-" in block
        else:
            assert "Большинство" not in block and "L-" not in block
            assert "Больше всего голосов:" in block and "Кикимора" in block.split("Больше всего голосов:")[1]
    assert ("L-" in post) is ends_on_majority
    assert (f"majority: {count.majority}" in post or f"большинство: {count.majority}" in post.lower()) is ends_on_majority
