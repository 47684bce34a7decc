"""The vote ledger: votes read from game-thread posts, refusals with reasons, edits, GM
corrections, the count and its pages, per perspective."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games.models import Phase, Seat, VoteRecord
from games.services import ActionRefused
from games.services.phases import phase_open
from games.services.resolution import phase_close, phases_close_due
from games.services.posting import post_submit
from games.services.posts import post_edit
from games.services.votes import vote_correct, vote_count_post
from games.selectors.votes import vote_count
from tests.conftest import client_for, make_user


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()


@pytest.fixture
def day(running_game):
    return phase_open(game=running_game, kind=Phase.Kind.DAY, by=None, deadline_at=timezone.now() + timedelta(hours=5),
                      now=timezone.now() - timedelta(hours=1))


@pytest.fixture
def third_player(running_game):
    from games.services.games import seat_add

    user = make_user("Красная Шапочка")
    seat_add(game=running_game, user=user)
    return user


def say(game, user, body, **kw):
    return post_submit(thread=game.game_thread, author=user, body=body, **kw)


def seat(game, user) -> Seat:
    return Seat.objects.get(game=game, user=user)


def test_vote_in_game_post_is_stored_and_confirmed(day, running_game, town_player, mafia_player):
    """«Голосование отмечается в сообщении и выделяется полужирным шрифтом» — В тюрьму Негодяя."""
    post = say(running_game, town_player, "Думаю так. [b]В тюрьму Негодяя.[/b]")
    assert post.vote_confirmation.counted
    assert post.vote_confirmation.message == "Голос засчитан: Негодяй"
    record = VoteRecord.objects.get(post=post)
    assert (record.voter.user, record.target.user, record.valid, record.is_final) == (town_player, mafia_player, True, True)
    count = vote_count(phase=day)
    assert [(w.target.user, [s.user for s, _ in w.voters]) for w in count.wagons] == [(mafia_player, [town_player])]


def test_vote_not_counted_is_explained_to_the_poster(day, running_game, town_player):
    post = say(running_game, town_player, "[b]В тюрьму Волан-де-Морта[/b]")
    assert not post.vote_confirmation.counted
    assert post.vote_confirmation.message == "Голос не засчитан: нет игрока с таким именем"
    assert VoteRecord.objects.get(post=post).reason == "name_unknown"


def test_plain_talk_records_nothing(day, running_game, town_player):
    post = say(running_game, town_player, "Привет всем, я мирный.")
    assert post.vote_confirmation is None
    assert not VoteRecord.objects.exists()


def test_only_the_last_vote_of_a_post_and_of_the_day_counts(day, running_game, town_player, mafia_player, third_player):
    """«засчитывается только последний голос»"""
    say(running_game, town_player, "[b]В тюрьму Негодяя[/b]\nХотя нет. [b]В тюрьму Красную Шапочку[/b]")
    rows = list(VoteRecord.objects.order_by("pk"))
    assert [r.is_final for r in rows] == [False, True]
    say(running_game, town_player, "[b]Снимаю голос[/b]")
    assert vote_count(phase=day).wagons == []
    say(running_game, town_player, "[b]Посадить Негодяя[/b]")
    assert vote_count(phase=day).wagons[0].target.user == mafia_player


def test_vote_after_deadline_is_refused_and_kept_in_the_ledger(day, running_game, town_player):
    late = day.deadline_at + timedelta(seconds=1)
    post = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]", now=late)
    assert not post.vote_confirmation.counted
    assert "голосование уже закончилось" in post.vote_confirmation.message
    record = VoteRecord.objects.get(post=post)
    assert (record.valid, record.reason) == (False, "after_deadline")
    assert vote_count(phase=day).wagons == []


def test_vote_after_phase_closed_is_refused(day, running_game, town_player):
    phase_close(phase_id=day.pk)
    post = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    assert VoteRecord.objects.get(post=post).reason == "after_deadline"


def test_dead_player_may_talk_but_not_vote(day, running_game, dead_player):
    """«голосуют ... (доступно только активным игрокам, т.е. не убитым и не посаженным в тюрьму)»"""
    post = say(running_game, dead_player, "[b]В тюрьму Негодяя[/b]")
    assert VoteRecord.objects.get(post=post).reason == "voter_not_allowed"
    assert vote_count(phase=day).wagons == []


def test_vote_for_an_eliminated_player_is_refused(day, running_game, town_player, dead_player):
    post = say(running_game, town_player, "[b]В тюрьму Фроло[/b]")
    assert VoteRecord.objects.get(post=post).reason == "target_not_alive"


def test_gm_bold_text_is_never_a_vote(day, running_game, gm):
    post = say(running_game, gm, "[b]В тюрьму Негодяя[/b] — так пишут голос.")
    assert post.vote_confirmation is None and not VoteRecord.objects.exists()


def test_no_voting_phase_means_no_ledger_rows(running_game, town_player):
    post = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    assert not post.vote_confirmation.counted
    assert post.vote_confirmation.reason == "no_voting_phase"
    assert not VoteRecord.objects.exists()


def test_editing_a_post_never_changes_its_votes(day, running_game, town_player, mafia_player, third_player):
    post = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    post_edit(post=post, editor=town_player, body="[b]В тюрьму Красную Шапочку[/b]")
    assert vote_count(phase=day).wagons[0].target.user == mafia_player
    page = client_for(town_player).get(reverse("games:votes", args=[running_game.pk])).content.decode()
    assert "голос в изменённом сообщении" in page


def test_gm_correction_replaces_a_posts_reading_and_is_shown(day, running_game, gm, town_player, mafia_player, third_player):
    post = say(running_game, town_player, "[b]В тюрьму Красную[/b] Шапочку")  # misread: partial bold
    vote_correct(post=post, gm=gm, kind="vote", target=seat(running_game, third_player), note="имя разорвано")
    assert vote_count(phase=day).wagons[0].target.user == third_player
    correction = VoteRecord.objects.get(source=VoteRecord.Source.GM)
    assert correction.recorded_by == gm
    vote_correct(post=post, gm=gm, kind="none")
    assert vote_count(phase=day).wagons == []
    history = client_for(gm).get(reverse("games:votes", args=[running_game.pk])).content.decode()
    assert "имя разорвано" in history and "исправление: Ведущий" in history


def test_only_the_gm_corrects_votes(day, running_game, town_player, mafia_player):
    post = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    with pytest.raises(ActionRefused):
        vote_correct(post=post, gm=mafia_player, kind="none")
    client_for(mafia_player).post(reverse("games:votes_correct", args=[running_game.pk]), {"post": post.pk, "kind": "none"})
    assert not VoteRecord.objects.filter(source=VoteRecord.Source.GM).exists()


def test_gm_correction_refuses_forged_target_from_another_game(day, running_game, gm, town_player, mafia_player):
    from games.services.games import game_create, seat_add

    other = game_create(title="Другая", gm=gm)
    stranger = seat_add(game=other, user=make_user("Чужой"))
    post = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    response = client_for(gm).post(reverse("games:votes_correct", args=[running_game.pk]),
                                   {"post": post.pk, "kind": "vote", "target": stranger.pk}, follow=True)
    assert response.status_code == 200
    assert not VoteRecord.objects.filter(source=VoteRecord.Source.GM).exists()


def test_count_as_of_a_post(day, running_game, town_player, mafia_player):
    first = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    say(running_game, mafia_player, "[b]В тюрьму Васю[/b]")
    assert len(vote_count(phase=day, as_of=first.number).wagons) == 1
    page = client_for(None).get(reverse("games:votes", args=[running_game.pk]), {"as_of": first.number})
    assert page.context["count"].as_of == first.number
    assert len(page.context["count"].wagons) == 1


def test_majority_ends_the_day_when_the_game_asks_for_it(day, running_game, town_player, mafia_player, third_player):
    running_game.end_day_on_majority = True
    running_game.save()
    # 3 living players: majority is 2.
    say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    day.refresh_from_db()
    assert day.is_open
    say(running_game, third_player, "[b]В тюрьму Негодяя[/b]")
    day.refresh_from_db()
    assert not day.is_open
    late = say(running_game, mafia_player, "[b]В тюрьму Васю[/b]")
    assert VoteRecord.objects.get(post=late).reason == "after_deadline"


def test_gm_posts_the_count_as_a_formatted_post(day, running_game, gm, town_player, mafia_player):
    say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    post = vote_count_post(game=running_game, gm=gm)
    assert "[b]Негодяй[/b] — 1 (L-1): Вася (#1)" in post.body
    assert "Не голосовали: Негодяй" in post.body
    with pytest.raises(ActionRefused):
        vote_count_post(game=running_game, gm=town_player)


def test_live_fragment_changes_when_a_vote_arrives(day, running_game, town_player, mafia_player, django_capture_on_commit_callbacks, anonymous_client):
    url = reverse("games:votes_live", args=[running_game.pk])
    before = anonymous_client.get(url).content.decode()
    assert "Пока никто не голосовал" in before
    with django_capture_on_commit_callbacks(execute=True):
        say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    after = anonymous_client.get(url).content.decode()
    assert "Негодяй" in after and after != before


def test_vote_pages_per_perspective(day, running_game, gm, town_player, mafia_player, dead_player, spectator, moderator):
    say(running_game, town_player, "[b]В тюрьму Негодяя[/b]")
    url = reverse("games:votes", args=[running_game.pk])
    correct_url = reverse("games:votes_correct", args=[running_game.pk])
    for user in (None, spectator, town_player, mafia_player, dead_player):
        content = client_for(user).get(url).content.decode()
        assert "Негодяй" in content
        assert correct_url not in content, user
    assert correct_url in client_for(gm).get(url).content.decode()
    assert correct_url in client_for(moderator).get(url).content.decode()


def test_thread_shows_vote_buttons_only_to_living_players(day, running_game, town_player, dead_player, spectator):
    thread_url = running_game.game_thread.get_absolute_url()
    living = client_for(town_player).get(thread_url).content.decode()
    assert "[b]В тюрьму Негодяя[/b]" in living
    for user in (dead_player, spectator, None):
        assert "data-insert" not in client_for(user).get(thread_url).content.decode()


def test_reply_shows_how_the_vote_was_read(day, running_game, town_player):
    url = reverse("games:thread_reply", args=[running_game.game_thread.pk])
    client = client_for(town_player)
    response = client.post(url, {"body": "[b]В тюрьму Негодяя[/b]"}, follow=True)
    assert "Голос засчитан: Негодяй" in response.content.decode()
    response = client.post(url, {"body": "[b]В тюрьму Пушкина[/b]"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region")
    assert "Голос не засчитан: нет игрока с таким именем" in response.content.decode()
    assert response["HX-Trigger-After-Swap"] == "votes-changed"


def test_phase_open_and_close_by_the_gm(running_game, gm, town_player):
    deadline = timezone.now() + timedelta(hours=2)
    client = client_for(gm)
    client.post(reverse("games:phase_control", args=[running_game.pk]), {"action": "open_day"})
    phase = running_game.phases.get()
    assert phase.kind == "day" and phase.is_open
    client.post(reverse("games:phase_control", args=[running_game.pk]), {"action": "close", "confirm": "yes"})
    phase.refresh_from_db()
    assert not phase.is_open
    with pytest.raises(ActionRefused):
        phase_open(game=running_game, kind="night", by=town_player, deadline_at=deadline)
    night = phase_open(game=running_game, kind="night", by=gm, deadline_at=deadline)
    with pytest.raises(ActionRefused):
        phase_open(game=running_game, kind="day", by=gm, deadline_at=None)
    assert phases_close_due(now=deadline) == 1
    assert phases_close_due(now=deadline) == 0
    night.refresh_from_db()
    assert night.closed_at == deadline


def test_phase_control_is_404_for_non_gm(running_game, town_player):
    response = client_for(town_player).post(reverse("games:phase_control", args=[running_game.pk]), {"action": "open_day"})
    assert response.status_code == 404
    assert not running_game.phases.exists()


def test_gm_enables_international_syntax_and_it_counts(day, running_game, gm, town_player, mafia_player):
    say(running_game, town_player, "[vote]Негодяй[/vote]")
    assert vote_count(phase=day).wagons == []
    assert VoteRecord.objects.get().reason == "syntax_disabled"
    client_for(gm).post(reverse("games:vote_options", args=[running_game.pk]), {"syntax": ["vote_tag"]})
    running_game.refresh_from_db()
    assert running_game.vote_syntaxes == ["vote_tag"]
    say(running_game, town_player, "[vote]Негодяй[/vote]")
    assert vote_count(phase=day).wagons[0].target.user == mafia_player


def test_vote_options_refuse_forged_syntax_and_non_gm(running_game, gm, town_player):
    client_for(gm).post(reverse("games:vote_options", args=[running_game.pk]), {"syntax": ["<script>"]})
    running_game.refresh_from_db()
    assert running_game.vote_syntaxes == ["bold_vote", "native"]  # unchanged: a new game's default
    response = client_for(town_player).post(reverse("games:vote_options", args=[running_game.pk]), {"syntax": ["vote_tag"]})
    assert response.status_code == 404


def test_game_page_shows_gm_tools_only_to_the_gm(day, running_game, gm, town_player, mafia_player, dead_player, spectator):
    tools = [reverse("games:vote_options", args=[running_game.pk]), reverse("games:phase_control", args=[running_game.pk])]
    page = client_for(gm).get(running_game.get_absolute_url()).content.decode()
    assert all(url in page for url in tools)
    for user in (None, spectator, town_player, mafia_player, dead_player):
        page = client_for(user).get(running_game.get_absolute_url()).content.decode()
        assert not any(url in page for url in tools)
        assert reverse("games:votes", args=[running_game.pk]) in page


def test_vote_for_an_alias_reaches_the_player(day, running_game, gm, town_player, mafia_player):
    villain_seat = seat(running_game, mafia_player)
    client_for(gm).post(reverse("games:seat_aliases", args=[running_game.pk, villain_seat.pk]), {"aliases": "Злодей, Негодник"})
    villain_seat.refresh_from_db()
    assert villain_seat.aliases == ["Злодей", "Негодник"]
    say(running_game, town_player, "[b]В тюрьму Злодея[/b]")
    assert vote_count(phase=day).wagons[0].target.user == mafia_player


def test_aliases_refuse_brackets_and_non_gm(running_game, gm, town_player, mafia_player):
    villain_seat = seat(running_game, mafia_player)
    client_for(gm).post(reverse("games:seat_aliases", args=[running_game.pk, villain_seat.pk]), {"aliases": '[b]x[/b]'})
    response = client_for(town_player).post(reverse("games:seat_aliases", args=[running_game.pk, villain_seat.pk]), {"aliases": "x"})
    assert response.status_code == 404
    villain_seat.refresh_from_db()
    assert villain_seat.aliases == []
