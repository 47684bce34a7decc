"""Issue 29, the second walk: a forum day's count said «Негодяй 1 … Не голосовали: Вася, …» and the
results of the same day «Голоса: Негодяй — 2, Вася — 1, …»: by the forum's rules («По умолчанию
считается, что игрок голосует сам за себя») whoever has not voted votes for himself at the close,
and the count never said so. The class: a count says what the rules make of the players not
voting (SiteRuleset.not_voting_note) everywhere it is shown (the thread, /votes/, the GM's count
post), and what it says is what the close then counts: the wagons plus one vote for each
non-voter on himself are the results' tally."""

from html import unescape

import pytest

from games.models import Game
from games.rulesets import registry
from games.selectors.votes import vote_count
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.votes import vote_count_bbcode
from tests.conftest import client_for
from tests.games.test_lifecycle import user_named

NOTE = "по правилам каждый из них голосует сам за себя"


def test_only_the_rule_set_whose_engine_defaults_the_vote_has_a_note():
    assert {a.key for a in registry.adapters() if a.not_voting_note} == {"forum"}


def test_the_forum_count_says_it_and_the_close_counts_it(started):
    game = started
    for voter, target in (("Вася", "Кикимору"), ("Фроло", "Кикимору"), ("Кикимора", "Васю")):
        post = post_submit(thread=game.game_thread, author=user_named(game, voter), body=f"[b]В тюрьму {target}[/b]")
        assert post.vote_confirmation.counted
    phase = Game.objects.get(pk=game.pk).current_phase
    count = vote_count(phase=phase)
    assert count.not_voting and count.not_voting_note == NOTE
    reader = user_named(game, "Эсмеральда")
    for url in (game.game_thread.get_absolute_url(), f"/games/{game.pk}/votes/"):
        page = unescape(client_for(reader).get(url).content.decode())
        assert f"({NOTE})" in page.split('class="not-voting"')[1].split("</p>")[0], url
    assert f"({NOTE})" in vote_count_bbcode(count)  # the GM's count post

    # What the count says is what the close counts.
    said = {w.target.user.display_name: w.weight for w in count.wagons if w.target is not None}
    for seat in count.not_voting:
        said[seat.user.display_name] = said.get(seat.user.display_name, 0) + 1
    assert phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["tally"] == said
