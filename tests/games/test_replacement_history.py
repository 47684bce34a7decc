"""A replacement keeps the seat's history but not its authorship (issue 14, item 4): every act is
the person's who did it — in the archive, the replay, the vote page, the export and the
statistics (games.selectors.holders) — and the notice reads «Запасной вместо Эсмеральды».

The game: the seven-player forum game of tests/games/conftest.py. Day 1: Эсмеральда (the
killer) votes for Негодяй and orders a shot at Фроло; Кикимора votes for Эсмеральда. Between
day 1 and day 2 the GM gives Эсмеральда's seat to Запасной, who votes for Вася on day 2."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from games.selectors import stats
from games.selectors.holders import SeatHolders, count_as_cast, replaced_name
from games.models import Game, Phase, Post
from games.services.export import game_export
from games.services.moderation import seat_replace
from games.services.orders import order_submit
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.selectors.votes import vote_count
from tests.conftest import client_for, make_user
from tests.games.test_export import _valid
from tests.games.test_lifecycle import seat_named, user_named


def _post(game, name_or_user, body, now):
    author = user_named(game, name_or_user) if isinstance(name_or_user, str) else name_or_user
    return post_submit(thread=game.game_thread, author=author, body=body, now=now)


@pytest.fixture
def swapped(started):
    """The game above, played to the end of day 2 and then finished (mafia wins)."""
    cache.clear()
    game = started
    day1 = game.current_phase
    now = day1.opened_at
    esmeralda = user_named(game, "Эсмеральда")
    for minutes, name, body in [(1, "Эсмеральда", "[b]В тюрьму Негодяя[/b]"), (2, "Вася", "[b]В тюрьму Негодяя[/b]"),
                                (3, "Кикимора", "[b]В тюрьму Эсмеральду[/b]")]:
        _post(game, name, body, now + timedelta(minutes=minutes))
    order_submit(game=game, user=esmeralda, text="Стреляю в Фроло", now=now + timedelta(minutes=4))
    assert phase_close(phase_id=day1.pk, now=now + timedelta(hours=1))
    game.refresh_from_db()
    seat = seat_named(game, "Эсмеральда")
    newcomer = make_user("Запасной")
    seat_replace(game=game, seat=seat, new_user=newcomer, by=game.gm, reason="пропала", now=now + timedelta(hours=2))
    day2 = game.current_phase
    _post(game, newcomer, "[b]В тюрьму Васю[/b]", now + timedelta(hours=3))
    assert phase_close(phase_id=day2.pk, now=now + timedelta(hours=4))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner="mafia",
                                           finished_at=now + timedelta(hours=5))
    game.refresh_from_db()
    game.esmeralda, game.newcomer, game.day1, game.day2 = esmeralda, newcomer, day1, day2
    return game


def _phase_html(content: str, game, phase) -> str:
    start = content.index(f'id="phase-{phase.pk}"')
    later = [content.find(f'id="phase-{p.pk}"') for p in game.phases.exclude(pk=phase.pk)]
    ends = [i for i in later if i > start]
    return content[start:min(ends) if ends else len(content)]


# --- The archive ---------------------------------------------------------------------------------
def test_archive_names_the_day_one_voter_and_orderer_when_the_seat_was_replaced_later(swapped):
    content = client_for(None).get(reverse("games:archive", args=[swapped.pk])).content.decode()
    day1 = _phase_html(content, swapped, swapped.day1)
    count = day1[day1.index("vote-count"):day1.index("archive-orders")]
    orders = day1[day1.index("archive-orders"):]
    assert "Эсмеральда" in count and "Запасной" not in count  # her vote, and the wagon on her
    assert "Эсмеральда</strong>" in orders and "Запасной" not in orders
    day2 = _phase_html(content, swapped, swapped.day2)
    count2 = day2[day2.index("vote-count"):day2.index("archive-orders")]
    assert "Запасной" in count2 and "Эсмеральда" not in count2
    # The roster keeps the slot's history, in Russian with the genitive.
    roster = content[content.index("archive-roster"):]
    assert "Запасной вместо Эсмеральды" in roster


def test_archive_gm_log_names_each_seat_as_it_was_when_the_gm_acted_when_replaced_later(swapped):
    from games.selectors.archive import gm_log_rows
    from games.models import GMAction

    seat = seat_named(swapped, "Запасной")
    GMAction.objects.create(game=swapped, user=swapped.gm, action="foul", data={"seat": seat.pk},
                            created_at=swapped.day1.opened_at + timedelta(minutes=30))
    rows = {row.action.action: row for row in gm_log_rows(swapped.gm, swapped)}
    assert dict(rows["foul"].details)["игрок" if translation.get_language() == "ru" else "player"].endswith("Эсмеральда")
    assert dict(rows["replace"].details)["игрок" if translation.get_language() == "ru" else "player"].endswith("Запасной")


# --- The replay ----------------------------------------------------------------------------------
def test_replay_chart_names_the_wagon_by_its_holder_that_day_when_replaced_later(swapped):
    content = client_for(None).get(reverse("games:replay", args=[swapped.pk])).content.decode()
    day1 = _phase_html(content, swapped, swapped.day1)
    chart = day1[day1.index("<svg"):day1.index("</svg>")]
    assert "Эсмеральда — 1" in chart and "Запасной" not in chart


def test_replay_chart_names_both_holders_when_the_seat_changed_hands_that_day(started):
    from games.selectors.archive import day_chart

    game = started
    day1 = game.current_phase
    now = day1.opened_at
    _post(game, "Кикимора", "[b]В тюрьму Эсмеральду[/b]", now + timedelta(minutes=1))
    seat_replace(game=game, seat=seat_named(game, "Эсмеральда"), new_user=make_user("Запасной"), by=game.gm,
                 now=now + timedelta(minutes=2))
    assert phase_close(phase_id=day1.pk, now=now + timedelta(hours=1))
    day1.refresh_from_db()
    seats = list(game.seats.select_related("user"))
    svg = day_chart(game, day1, vote_count(phase=day1), seats)
    assert "Эсмеральда → Запасной — 1" in svg


# --- Counts during the game and the vote page ------------------------------------------------------
def test_live_count_names_the_present_player_and_the_history_the_author_when_replaced_mid_day(started):
    """The rule of docs/votes.md: the count of the open day names the seat's present player (the
    standing vote is his now), the history and "as of post #N" name who wrote each vote."""
    game = started
    day1 = game.current_phase
    now = day1.opened_at
    post = _post(game, "Эсмеральда", "[b]В тюрьму Негодяя[/b]", now + timedelta(minutes=1))
    seat_replace(game=game, seat=seat_named(game, "Эсмеральда"), new_user=make_user("Запасной"), by=game.gm,
                 now=now + timedelta(minutes=2))
    live = count_as_cast(vote_count(phase=day1), game=game)
    assert [s.user.display_name for s in live.wagons[0].voters[0][:1]] == ["Запасной"]
    past = count_as_cast(vote_count(phase=day1, as_of=post.number), game=game)
    assert past.wagons[0].voters[0][0].user.display_name == "Эсмеральда"
    page = client_for(None).get(reverse("games:votes", args=[game.pk])).content.decode()
    history = page[page.index("vote-history"):]
    assert ">Эсмеральда</td>" in history and ">Запасной</td>" not in history
    as_of = client_for(None).get(reverse("games:votes", args=[game.pk]), {"as_of": post.number}).content.decode()
    wagons = as_of[as_of.index('class="wagons"'):as_of.index("</ol>", as_of.index('class="wagons"'))]
    assert "Эсмеральда" in wagons and "Запасной" not in wagons


def test_vote_page_of_a_closed_day_names_the_voter_at_the_time_when_replaced_later(swapped):
    page = client_for(None).get(reverse("games:votes", args=[swapped.pk]), {"day": swapped.day1.pk}).content.decode()
    wagons = page[page.index('class="wagons"'):page.index("</ol>", page.index('class="wagons"'))]
    assert "Эсмеральда" in wagons and "Запасной" not in wagons


# --- The export ----------------------------------------------------------------------------------
def test_export_names_the_player_of_each_act_when_a_seat_was_replaced(swapped):
    data = game_export(swapped)
    _valid(data)
    number = seat_named(swapped, "Запасной").number
    votes = {(v["phase"], v["voter_seat"]): v for v in data["votes"] if v["voter_seat"] == number}
    assert votes[(swapped.day1.pk, number)]["voter_player"]["display_name"] == "Эсмеральда"
    assert votes[(swapped.day2.pk, number)]["voter_player"]["display_name"] == "Запасной"
    kikimora = next(v for v in data["votes"] if v["voter_player"]["display_name"] == "Кикимора")
    assert kikimora["target_seat"] == number and kikimora["target_player"]["display_name"] == "Эсмеральда"
    order = next(o for o in data["orders"] if o["actor_seat"] == number)
    assert order["actor_player"]["display_name"] == "Эсмеральда"
    roster = next(r for r in data["roster"] if r["number"] == number)
    assert [h["player"]["display_name"] for h in roster["holders"]] == ["Эсмеральда", "Запасной"]
    assert roster["holders"][0]["from"] is None and roster["holders"][1]["until"] is None
    assert roster["holders"][0]["until"] == roster["holders"][1]["from"] == roster["replacements"][0]["at"]


# --- Statistics ------------------------------------------------------------------------------------
def test_profile_credits_each_holder_with_his_own_votes_and_the_game_when_replaced(swapped):
    cache.clear()
    hers, his = stats.player_profile(swapped.esmeralda), stats.player_profile(swapped.newcomer)
    assert (hers.overall.games, hers.overall.wins, hers.overall.player_votes, hers.overall.enemy_votes) == (1, 1, 1, 1)
    assert hers.overall.survived == 0 and hers.overall.survival_pct is None  # she left alive, not "out"
    assert hers.games[0].replaced_out and not his.games[0].replaced_out and his.games[0].replaced_in
    assert (his.overall.games, his.overall.wins, his.overall.player_votes, his.overall.survived) == (1, 1, 1, 1)


def test_leaderboard_lists_the_replaced_player_with_his_own_figures_when_replaced(swapped):
    cache.clear()
    lines = {line.display_name: line for line in stats.leaderboard("forum", min_games=1)}
    assert lines["Эсмеральда"].tally.games == 1 and lines["Эсмеральда"].tally.player_votes == 1
    assert lines["Запасной"].tally.games == 1 and lines["Запасной"].tally.player_votes == 1
    page = client_for(None).get(reverse("games:leaderboard", args=["forum"]), {"min": 1}).content.decode()
    assert f'data-user="{swapped.esmeralda.pk}"' in page


# --- The notice ----------------------------------------------------------------------------------
def test_replacement_notice_puts_the_replaced_name_in_the_genitive_when_russian(started):
    seat_replace(game=started, seat=seat_named(started, "Эсмеральда"), new_user=make_user("Запасной"), by=started.gm)
    body = Post.objects.filter(thread=started.game_thread).order_by("-number").first().body
    assert "Запасной вместо Эсмеральды" in body


@pytest.mark.parametrize("name, expected", [
    ("Эсмеральда", "Эсмеральды"), ("Красная Шапочка", "Красной Шапочки"), ("Маленький Джон", "Маленького Джона"),
    ("Зелёный", "Зелёного"),  # an adjective alone: no animacy asked outside the accusative
    ("SleepWalker", "SleepWalker"), ("Вася_42", "Вася_42"), ("ЛунныйСвет", "ЛунныйСвет"), ("ЁЖИК", "ЁЖИК"),
    ("Аня K.", "Ани K."),
])
def test_replaced_name_inflects_what_it_can_and_keeps_the_rest_when_russian(name, expected):
    with translation.override("ru"):
        assert replaced_name(name) == expected
    with translation.override("en"):
        assert replaced_name(name) == name


def test_seat_holders_give_the_act_at_the_swap_to_the_newcomer(swapped):
    holders = SeatHolders.for_game(swapped)
    seat = seat_named(swapped, "Запасной")
    swap = seat.replacements.get().created_at
    assert holders.name_at(seat.pk, swap - timedelta(microseconds=1)) == "Эсмеральда"
    assert holders.name_at(seat.pk, swap) == "Запасной"
    assert holders.name_at(seat.pk, None) == "Запасной"
    assert Phase.objects.filter(game=swapped, closed_at__isnull=False).count() == 2


# --- The role page ---------------------------------------------------------------------------------
def test_role_page_marks_a_predecessors_order_as_his_when_the_seat_was_replaced(swapped):
    Game.objects.filter(pk=swapped.pk).update(status=Game.Status.RUNNING)
    page = client_for(swapped.newcomer).get(reverse("games:role", args=[swapped.pk])).content.decode()
    orders = page[page.index('class="orders"'):]
    orders = orders[:orders.index("</ul>")]
    assert "Стреляю в Фроло" in orders and "Эсмеральда" in orders  # the seat's history, with its author
