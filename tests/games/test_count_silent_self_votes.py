"""Issue 29: a forum count named its leaders from the votes cast only, so a one-vote wagon
«led» while every silent player stood level with it at the close. The seed: «Голосовать можно
неограниченное число раз в течении дня, но засчитывается только последний голос. По умолчанию
считается, что игрок голосует сам за себя.» and «Набравший большинство при голосовании игрок
садится в тюрьму… Если большинство голосов набрали несколько игроков, ведущий случайным образом
выбирает, кто из них сядет». The class: wherever a count names who leads (the thread's count, its
live fragment, /votes/, the GM's dashboard and count post, the desk, the archive and the replay)
it names the players the close will find level, by the very count the close decides by (the
engine's count_at_close): silent players tie a wagon, do not tie a heavier one, or outnumber it
with their own vote; the line is the same for every reader (it shows no secret), and the close
then decides between exactly those. Where the GM chose to end the day on a majority, the
majority line stays as it was: a player's own default vote is no vote cast, and ends no day."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from games.engine.rulesets import RULESETS
from games.models import Game
from games.selectors.desk import desk_for
from games.selectors.votes import vote_count
from games.services.games import game_set_vote_options
from games.services.moderation import seat_modkill
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.votes import vote_count_bbcode
from tests.conftest import client_for, make_user
from tests.games.conftest import NAMES
from tests.games.test_club import club, close, say  # noqa: F401 (the club fixture)
from tests.games.test_lifecycle import seat_named, user_named

EVERYONE = set(NAMES)
# (votes in post order, the count's line of who leads, the players the close finds level)
CASES = {
    "nobody_voted": ([], "Все поровну: каждый голосует за себя.", EVERYONE),
    "silent_players_tie_a_wagon": (
        [("Вася", "Кикимору"), ("Кикимора", "Васю")],
        "Больше всего голосов: Кикимора, Вася (1 голос) — столько же у каждого из не голосовавших: свой голос за себя",
        EVERYONE),
    "silent_players_do_not_tie_a_heavier_wagon": (
        [("Вася", "Кикимору"), ("Фроло", "Кикимору"), ("Кикимора", "Васю")],
        "Больше всего голосов: Кикимора (2 голоса)", {"Кикимора"}),
    "a_silent_player_outnumbers_the_wagon": (
        [("Вася", "Кикимору"), ("Фроло", "Васю")],
        "Больше всего голосов: Кикимора (2 голоса — вместе со своим голосом за себя)", {"Кикимора"}),
    "a_silent_player_ties_a_heavier_wagon": (
        [("Вася", "Кикимору"), ("Фроло", "Васю"), ("Негодяй", "Васю")],
        "Больше всего голосов: Вася, Кикимора (2 голоса; Кикимора — со своим голосом за себя)",
        {"Вася", "Кикимора"}),
}


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The count fragment is cached per ledger version, bumped on commit, which a test inside one
    transaction never reaches: a fragment cached by another case of the same ids must not show."""
    from django.core.cache import cache

    cache.clear()


def _vote(game, voter, target):
    post = post_submit(thread=game.game_thread, author=user_named(game, voter), body=f"[b]В тюрьму {target}[/b]")
    assert post.vote_confirmation.counted
    return post


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html))).strip()


def _leaders_line(html: str) -> str:
    """The count's «Больше всего голосов» line of a page (the first: the count's own); its names
    are in <strong>, so the line's span closes at the first </span>."""
    start = html.index('class="leaders">') + len('class="leaders">')
    return _text(html[start:html.index("</span>", start)])


def _readers(game) -> dict[str, object]:
    """Every perspective: the GM, players of each side, a spectator, nobody logged in."""
    return {"gm": game.gm, "town": user_named(game, "Фроло"), "mafia": user_named(game, "Кикимора"),
            "thief": user_named(game, "Негодяй"), "spectator": make_user("Зритель"), "anonymous": None}


def _public_pages(game, reader, day=None) -> dict[str, str]:
    client = client_for(reader)
    query = f"?day={day}" if day else ""
    pages = {"votes": client.get(reverse("games:votes", args=[game.pk]) + query, HTTP_ACCEPT_LANGUAGE="ru")}
    if day is None:
        pages["thread"] = client.get(game.game_thread.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru")
        pages["live"] = client.get(reverse("games:votes_live", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    for where, response in pages.items():
        assert response.status_code == 200, where
    return {where: response.content.decode() for where, response in pages.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_every_count_names_the_leaders_the_close_will_find(started, case):
    votes, line, level = CASES[case]
    game = started
    for voter, target in votes:
        _vote(game, voter, target)
    game = Game.objects.get(pk=game.pk)
    phase = game.current_phase

    readers = _readers(game)
    count = vote_count(phase=phase)
    assert count.plurality and count.lead is not None
    assert {seat.user.display_name for seat in count.lead.seats} == level
    # The wagons marked as leading are those of the leaders with votes cast on them.
    assert {w.target.user.display_name for w in count.leaders} <= level

    # The thread's count, its live fragment and /votes/: the same line for every reader.
    for who, reader in readers.items():
        for where, html in _public_pages(game, reader).items():
            assert _leaders_line(html) == line, (who, where)
    # The GM's dashboard and his count post.
    assert _leaders_line(client_for(game.gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()) == line
    assert line in vote_count_bbcode(count).splitlines()

    # The desk of a player who has not voted: his own vote is on him, and the most votes are the close's.
    silent = next(name for name in ("Кикимора", "Маленький Джон") if name not in {v for v, _t in votes})
    row = next(r for r in desk_for(user_named(game, silent)).voted if r.game.pk == game.pk)
    cast_on_him = next((w.weight for w in count.wagons if w.target.user.display_name == silent), 0)
    assert (row.weight, row.own_vote, row.top) == (cast_on_him, True, count.lead.weight)
    desk = _text(client_for(user_named(game, silent)).get(reverse("games:dashboard")).content.decode())
    assert f"пока вы не проголосовали, ваш голос — за вас самих: всего {cast_on_him + 1}" in desk

    # The close decides between exactly those: its tally's leaders, by the engine.
    assert phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    tally = phase.outcome["tally"]
    assert {name for name, weight in tally.items() if weight == max(tally.values())} == level
    assert phase.outcome["jailed"][0] in level

    # The closed day's count says what it said before the close, to every reader ...
    for who, reader in readers.items():
        assert _leaders_line(_public_pages(game, reader, day=phase.pk)["votes"]) == line, who
    # ... and so do the archive's count and the replay (the GM's preview of a running game).
    gm = client_for(game.gm)
    assert _leaders_line(gm.get(reverse("games:archive", args=[game.pk])).content.decode()) == line
    if votes:  # a day with no vote has no chart, and the replay's line stands under the chart
        assert _leaders_line(gm.get(reverse("games:replay", args=[game.pk])).content.decode()) == line


def test_a_count_as_of_an_earlier_post_names_the_leaders_of_that_moment(started):
    """«засчитывается только последний голос»: as of Фроло's vote, Кикимора's own vote put her
    ahead; Негодяй's vote after it brought Вася level."""
    game = started
    _vote(game, "Вася", "Кикимору")
    frolo = _vote(game, "Фроло", "Васю")
    _vote(game, "Негодяй", "Васю")
    page = client_for(None).get(reverse("games:votes", args=[game.pk]) + f"?as_of={frolo.number}",
                                HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert _leaders_line(page) == CASES["a_silent_player_outnumbers_the_wagon"][1]
    assert _leaders_line(client_for(None).get(reverse("games:votes", args=[game.pk])).content.decode()) \
        == CASES["a_silent_player_ties_a_heavier_wagon"][1]


def test_a_silent_players_own_vote_ends_no_day_where_a_majority_does(started):
    """Where the GM chose «Закончить день, как только набрано большинство», the count keeps its
    majority and L-n and no leaders line: three votes on a silent player of seven are not the
    majority of four, though the close at the deadline adds her own."""
    game = started
    game_set_vote_options(game=game, by=game.gm, syntaxes=list(game.vote_syntaxes),
                          end_day_on_majority=True, count_spoiler_votes=False)
    for voter in ("Вася", "Фроло", "Негодяй"):
        _vote(game, voter, "Кикимору")
    game = Game.objects.get(pk=game.pk)
    phase = game.current_phase
    assert phase.is_open
    count = vote_count(phase=phase)
    assert not count.plurality and count.lead is None and count.majority == 4
    html = client_for(None).get(reverse("games:votes", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    block = _text(html[html.index('class="vote-count'):])
    assert "Большинство: 4" in block and "L-1" in block and 'class="leaders"' not in html
    row = next(r for r in desk_for(user_named(game, "Кикимора")).voted if r.game.pk == game.pk)
    assert (row.weight, row.majority, row.to_majority, row.own_vote) == (3, 4, 1, False)
    assert phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["tally"]["Кикимора"] == 4 and phase.outcome["jailed"] == ["Кикимора"]


def test_only_the_forum_counts_a_default_vote_at_the_close():
    """The club («Нельзя голосовать против себя») and the cards' Veche count the votes cast: their
    counts keep their own words (tests/games/test_club_screens.py, test_cards_veche_count.py)."""
    assert {key for key, ruleset in RULESETS.items() if callable(getattr(ruleset, "count_at_close", None))} == {"forum"}


def test_a_club_count_names_its_leaders_from_the_votes_cast(club):
    close(club)  # night 0 → day 1
    say(club, "Анна", "Голосую за [b]Бориса[/b]")
    count = vote_count(phase=Game.objects.get(pk=club.pk).current_phase)
    assert count.lead is None and [w.target.user.display_name for w in count.leaders] == ["Борис"]
    assert count.not_voting  # silent players, who are no leaders in the club


def test_a_vote_for_a_player_modkilled_since_stands_for_nobody_on_the_wagons_and_at_the_close(started):
    """«засчитывается только последний голос»: Вася voted Кикимору, then Фроло, and Фроло was
    modkilled. Вася's vote brings back no earlier one: the wagons show him as not voting, and the
    close counts him for himself, as the leaders line says (the line and the wagons agree)."""
    game = started
    _vote(game, "Вася", "Кикимору")
    _vote(game, "Вася", "Фроло")
    _vote(game, "Негодяй", "Кикимору")
    seat_modkill(game=game, seat=seat_named(game, "Фроло"), by=game.gm, reason="ушёл")
    game = Game.objects.get(pk=game.pk)
    count = vote_count(phase=game.current_phase)
    assert [(w.target.user.display_name, [s.user.display_name for s, _n in w.voters]) for w in count.wagons] \
        == [("Кикимора", ["Негодяй"])]
    assert "Вася" in {seat.user.display_name for seat in count.not_voting}
    assert {seat.user.display_name for seat in count.lead.seats} == {"Кикимора"}
    phase = game.current_phase
    assert phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["tally"]["Кикимора"] == 2 and phase.outcome["tally"]["Вася"] == 1
