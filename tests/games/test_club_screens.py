"""What club players and GMs read (issue 14, item 14): no forum wording on club screens — no
majority or L-n in a plurality count, no GM tie-break where a tie goes to a re-vote, the club's own
vote words in hints, the re-vote titled as one, Russian role names on the rating, speeches and
votes numbered by seat, the silent night. The wording comes from the rule set (SiteStyle), so the
forum's screens keep theirs."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Game, Phase, Post, VoteRecord
from games.permissions import can_post
from games.services import ActionRefused
from games.services.games import game_set_communication, game_set_vote_options
from games.services.posting import post_submit
from games.services.votes import vote_count_bbcode
from games.selectors.votes import vote_count
from tests.conftest import client_for
from tests.games.test_club import club, close, say, seat  # noqa: F401 (the club fixture)

FORUM_COUNT_WORDS = ("Большинство", "большинство", "L-")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The count fragment is cached per ledger version, bumped on commit, which a test inside one
    transaction never reaches: a fragment cached by another test of the same ids must not show."""
    from django.core.cache import cache

    cache.clear()


def _votes(game, pairs):
    for voter, target in pairs:
        say(game, voter, f"Голосую за [b]{target}[/b]")


def _count_page(game, viewer=None) -> str:
    return client_for(viewer).get(reverse("games:votes", args=[game.pk])).content.decode()


def _fragment(game) -> str:
    return client_for(None).get(reverse("games:votes_live", args=[game.pk])).content.decode()


def test_club_count_shows_the_leaders_not_a_majority_when_votes_are_cast(club):
    close(club)  # night 0 → day 1
    _votes(club, [("Анна", "Бориса"), ("Вера", "Бориса"), ("Глеб", "Дину")])
    for page in (_count_page(club), _fragment(club)):
        count = page[page.index('class="vote-count'):]
        assert not any(word in count for word in FORUM_COUNT_WORDS)
        assert "Больше всего голосов:" in count and "<strong>Борис</strong>" in count
        assert "2 голоса" in count
    bbcode = vote_count_bbcode(vote_count(phase=club.current_phase))
    assert "большинство" not in bbcode and "L-" not in bbcode
    assert "[b]Подсчёт голосов, день 1[/b]" in bbcode and "Больше всего голосов: Борис" in bbcode


def test_club_count_names_both_leaders_when_the_vote_ties(club):
    close(club)
    _votes(club, [("Анна", "Бориса"), ("Вера", "Дину")])
    count = vote_count(phase=club.current_phase)
    assert [w.target.user.display_name for w in count.leaders] == ["Борис", "Дина"]
    assert count.majority_reached is None


def test_forum_count_keeps_the_majority_when_the_rule_set_has_one(started):
    game = started
    if game.current_phase.kind != Phase.Kind.DAY:
        close(game)
    # the majority decides where the GM chose it (docs/votes.md, "Majority or the most votes")
    Game.objects.filter(pk=game.pk).update(end_day_on_majority=True)
    game.refresh_from_db()
    post_submit(thread=game.game_thread, author=game.seats.get(number=1).user, body="[b]В тюрьму Фроло[/b]",
                now=game.current_phase.opened_at + timedelta(minutes=1))
    count = vote_count(phase=game.current_phase)
    assert not count.plurality and count.majority == 4
    assert "(большинство: 4)" in vote_count_bbcode(count) and "L-3" in vote_count_bbcode(count)
    page = _fragment(game)
    assert "Большинство: 4" in page and "L-3" in page and "Больше всего голосов" not in page


def test_club_revote_count_is_titled_as_the_revote_when_day_1_ties(club):
    close(club)
    _votes(club, [("Анна", "Бориса"), ("Вера", "Бориса"), ("Борис", "Анну"), ("Дина", "Анну")])
    close(club)
    assert club.current_phase.kind == Phase.Kind.REVOTE
    page = _count_page(club)
    assert "Подсчёт голосов, день 1, переголосование" in page
    assert "Переголосование между" in page
    assert "Подсчёт голосов, день 1</" not in page.replace("\n", "").replace("  ", "")
    assert club.current_phase.label == "День 1, переголосование"
    assert "[b]Подсчёт голосов, день 1, переголосование[/b]" in vote_count_bbcode(vote_count(phase=club.current_phase))
    _votes(club, [("Вера", "Бориса")])
    close(club)
    results = club.game_thread.posts.order_by("-number").first().body
    assert "[b]Итоги: день 1, переголосование[/b]" in results


def test_club_count_shows_the_order_of_voting_by_seat_when_a_day_is_open(club):
    close(club)
    page = _fragment(club)
    # Day 1: the monologues start at seat 1, so the vote starts at seat 2.
    assert "Порядок голосования" in page
    order = page[page.index("Порядок голосования"):]
    assert order.index(">2. Борис<") < order.index(">3. Вера<") < order.index(">12. Мила<") < order.index(">1. Анна<")


def test_club_count_lists_wagons_under_seat_numbers_when_votes_are_cast(club):
    close(club)
    _votes(club, [("Анна", "Дину"), ("Вера", "Дину"), ("Глеб", "Бориса")])
    page = _fragment(club)
    assert 'value="5">' in page and 'value="2">' in page  # Дина sits at 5, Борис at 2, not «1.», «2.»
    assert page.index('value="5">') < page.index('value="2">')  # still heaviest first


def test_club_dashboard_offers_no_tie_break_when_ties_go_to_a_revote(club):
    close(club)
    client = client_for(club.gm)
    page = client.get(reverse("games:gm_dashboard", args=[club.pk])).content.decode()
    assert "Ничья (кого посадить в тюрьму" not in page and 'value="tie_break"' not in page
    assert "идут на одно переголосование" in page
    assert "Подсчёт голосов, день 1" in page and "Большинство" not in page
    assert 'name="source"' not in page  # "stolen from" is the forum's theft
    response = client.post(reverse("games:gm_action", args=[club.pk]),
                           {"action": "tie_break", "seat": seat(club, "Анна").pk}, follow=True)
    assert "ведущий ничью не решает" in response.content.decode()
    club.current_phase.refresh_from_db()
    assert "tie_break" not in (club.current_phase.gm_decisions or {})


def test_club_game_page_offers_no_majority_close_when_the_rule_set_has_no_majority(club):
    page = client_for(club.gm).get(club.get_absolute_url()).content.decode()
    assert "end_day_on_majority" not in page
    with pytest.raises(ActionRefused) as refused:
        game_set_vote_options(game=club, by=club.gm, syntaxes=["native"], end_day_on_majority=True)
    assert refused.value.code == "no_majority"
    club.refresh_from_db()
    assert not club.end_day_on_majority


def test_club_day_stays_open_when_a_majority_votes_with_an_old_majority_flag(club):
    Game.objects.filter(pk=club.pk).update(end_day_on_majority=True)  # set before this fix
    close(club)
    day = club.current_phase
    _votes(club, [(name, "Бориса") for name in ("Анна", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя")])
    day.refresh_from_db()
    assert day.is_open


def test_club_refused_vote_hint_quotes_the_club_vote_word_when_the_vote_word_is_missing(club):
    close(club)
    post = say(club, "Анна", "Я думаю, что [b]Борис[/b] подозрителен.")
    confirmation = getattr(post, "vote_confirmation", None)
    row = VoteRecord.objects.filter(post=post).first()
    if row is None or row.reason != "no_intent":
        pytest.skip("the reader found no vote attempt here")
    assert "«голосую за»" in confirmation.message and "в тюрьму" not in confirmation.message
    assert "«голосую за»" in _count_page(club, club.gm)


def test_forum_refused_vote_hint_keeps_its_vote_word_when_the_game_is_forum():
    from games.services.votes import reason_text

    assert "«в тюрьму»" in reason_text("no_intent", game=Game(ruleset="forum"))
    assert "«голосую за»" in reason_text("no_intent", game=Game(ruleset="club"))


def test_rating_page_shows_russian_role_names_when_a_club_game_is_over(club):
    close(club)
    client_for(club.gm).post(reverse("games:gm_action", args=[club.pk]),
                             {"action": "forfeit", "faction": "black", "confirm": "yes"})
    club.refresh_from_db()
    assert club.status == Game.Status.FINISHED
    page = client_for(None).get(reverse("games:rating", args=[club.pk])).content.decode()
    table = page[page.index("rating-table"):page.index("</table>")]
    for english in ("civilian", "putana", "commissar", "mafioso", "maniac", "doctor", ">don<"):
        assert english not in table
    for russian in ("мирный", "путана", "комиссар", "доктор", "маньяк"):
        assert russian in table
    assert 'data-label="Итого"' in table


def test_game_page_numbers_speeches_and_votes_by_seat_when_a_club_day_is_open(club):
    close(club)  # day 1: speeches from seat 1, votes from seat 2
    close(club)  # a peaceful day 1 → night 1
    close(club)  # night 1 → day 2: «Каждый новый круг начинает говорить/голосовать следующий номер»
    assert (club.current_phase.kind, club.current_phase.number) == ("day", 2)
    page = client_for(None).get(club.get_absolute_url()).content.decode()
    speeches = page[page.index("Порядок выступлений"):page.index("Порядок голосования")]
    # Speeches from seat 3 (Вера), each under his seat number, not 1..N.
    assert '<li value="3">Вера</li>' in speeches and '<li value="2">Борис</li>' in speeches
    assert speeches.index('value="3"') < speeches.index('value="12"') < speeches.index('value="1"')
    votes = page[page.index("Порядок голосования"):]
    assert '<li value="4">Глеб</li>' in votes
    assert votes.index('value="4"') < votes.index('value="12"') < votes.index('value="3"')


def _at_night(club):
    close(club)
    close(club)  # a peaceful day 1
    assert club.current_phase.kind == Phase.Kind.NIGHT
    return club


def test_game_thread_is_closed_to_players_when_a_club_night_is_silent(club):
    _at_night(club)
    thread = club.game_thread
    anna = seat(club, "Анна").user
    verdict = can_post(anna, thread)
    assert not verdict and "за столом тишина" in str(verdict.reason)
    assert can_post(club.gm, thread)
    page = client_for(anna).get(thread.get_absolute_url()).content.decode()
    assert "за столом тишина" in page and 'id="reply-body"' not in page
    # The letters to the GM are not the table.
    letters = club.private_threads.filter(kind="gm_chat", seat__user=anna).first()
    if letters is not None:
        assert can_post(anna, letters)


def test_game_thread_stays_open_at_night_when_the_gm_lifts_the_silence(club):
    _at_night(club)
    anna = seat(club, "Анна").user
    game_set_communication(game=club, by=club.gm, private_messages="off", rooms=False, team_chat=True,
                           anonymous_limit=0, anonymous_approval=False, night_silence=False)
    club.refresh_from_db()
    assert can_post(anna, club.game_thread)


def test_voted_out_player_says_the_farewell_when_the_night_is_silent(club):
    close(club)
    _votes(club, [(name, "Бориса") for name in ("Анна", "Вера", "Глеб")])
    close(club)
    assert club.current_phase.kind == Phase.Kind.NIGHT and seat(club, "Борис").status != "active"
    assert can_post(seat(club, "Борис").user, club.game_thread)
    assert not can_post(seat(club, "Анна").user, club.game_thread)


def test_forum_night_keeps_the_thread_open_when_the_rule_set_declares_no_silence(db):
    from games.permissions import night_silence

    assert not night_silence(Game(ruleset="forum", options={}))
    assert night_silence(Game(ruleset="club", options={}))
    assert not night_silence(Game(ruleset="club", options={"night_silence": False}))


def test_gm_posts_in_the_game_thread_when_the_night_is_silent(club):
    _at_night(club)
    post = post_submit(thread=club.game_thread, author=club.gm, body="Город засыпает.",
                       now=club.current_phase.opened_at + timedelta(minutes=1))
    assert Post.objects.filter(pk=post.pk).exists()


def test_note_sent_as_its_own_order_is_the_note_of_the_check_when_sent_right_after_it(club):
    """«Записку можно оставить только сразу после проверки»: «Оставляю записку.» after an accepted
    «Проверяю Бориса.» is accepted as the note about Борис."""
    from games.services.orders import order_submit

    _at_night(club)
    vera = seat(club, "Вера").user
    _order, checked = order_submit(game=club, user=vera, text="Проверяю Бориса.")
    assert checked.accepted
    order, confirmation = order_submit(game=club, user=vera, text="Оставляю записку.")
    assert confirmation.accepted, confirmation.message
    assert (order.action, order.target.user.display_name) == ("note", "Борис")


def test_gm_events_read_as_sentences_when_the_club_engine_drops_a_vote_or_a_foul():
    from django.utils import translation

    from games.wording import event_text

    with translation.override("ru"):
        dropped = event_text("club", "vote_dropped", {"voter": 1, "voter_name": "Анна", "given": 1,
                                                      "reason": "self_vote_forbidden"})
        foul = event_text("club", "foul_ignored", {"given": 99, "reason": "unknown_player"})
    assert dropped == "Голос игрока Анна не мог быть учтён при подведении итогов: голос против себя."
    assert foul == "Фол не выдан: такого игрока нет в игре."


def test_desk_shows_votes_on_me_without_a_majority_when_the_club_counts_by_plurality(club):
    close(club)
    _votes(club, [("Анна", "Бориса"), ("Вера", "Бориса"), ("Глеб", "Дину")])
    page = client_for(seat(club, "Борис").user).get(reverse("games:dashboard")).content.decode()
    voted = page[page.index('id="desk-voted"'):]
    voted = voted[:voted.index("</section>")]
    assert "большинство" not in voted and "L-" not in voted
    assert "2 голоса за вас" in voted and "больше всего голосов у одного игрока: 2" in voted


def test_replay_chart_draws_no_majority_line_when_a_club_day_is_replayed(club):
    close(club)
    _votes(club, [("Анна", "Бориса"), ("Вера", "Бориса"), ("Глеб", "Дину")])
    close(club)
    client_for(club.gm).post(reverse("games:gm_action", args=[club.pk]),
                             {"action": "forfeit", "faction": "black", "confirm": "yes"})
    page = client_for(None).get(reverse("games:replay", args=[club.pk])).content.decode()
    assert "vote-chart" in page
    assert "Большинство" not in page and 'class="majority"' not in page


def test_gm_lifts_the_night_silence_from_the_game_page_when_he_unticks_it(club):
    from games.permissions import night_silence

    gm = client_for(club.gm)
    page = gm.get(club.get_absolute_url()).content.decode()
    assert 'name="night_silence" checked' in page  # the rule set's default: silence
    gm.post(reverse("games:communication", args=[club.pk]),
            {"private_messages": "off", "anonymous_limit": "0", "team_chat": "on"})
    club.refresh_from_db()
    assert club.options.get("night_silence") is False and not night_silence(club)
    gm.post(reverse("games:communication", args=[club.pk]),
            {"private_messages": "off", "anonymous_limit": "0", "team_chat": "on", "night_silence": "on"})
    club.refresh_from_db()
    assert night_silence(club)
