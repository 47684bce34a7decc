"""Issue 16 on the site: what a game's vote options and its rule set change in how posts are
read, and what the poster is told (the vote profile is games.selectors.votes.vote_profile_for)."""

from django.urls import reverse

from games.models import VoteRecord
from games.selectors.votes import vote_count
from tests.conftest import client_for
from tests.games.test_club import club, close, say as club_say  # noqa: F401  (the club fixture)
from tests.games.test_vote_ledger import day, say  # noqa: F401  (the day fixture)


def _set_options(game, gm, **fields):
    data = {"syntax": fields.pop("syntax", [])}
    data.update({k: "on" for k, v in fields.items() if v})
    response = client_for(gm).post(reverse("games:vote_options", args=[game.pk]), data)
    assert response.status_code == 302
    game.refresh_from_db()


def test_a_new_game_reads_bold_english_votes_until_the_gm_switches_them_off(day, running_game, gm, town_player,
                                                                             mafia_player):
    assert running_game.vote_syntaxes == ["bold_vote", "native"]
    say(running_game, town_player, "[b]Vote: Негодяй[/b]")
    assert vote_count(phase=day).wagons[0].target.user == mafia_player
    _set_options(running_game, gm, syntax=["hash_vote", "hash_unvote"])
    post = say(running_game, town_player, "[b]Vote: Вася[/b]")
    assert post.vote_confirmation.counted is False and post.vote_confirmation.reason == "syntax_disabled"
    assert VoteRecord.objects.get(post=post).reason == "syntax_disabled"
    say(running_game, town_player, "##vote Негодяй")
    assert [w.target.user for w in vote_count(phase=day).wagons] == [mafia_player]


def test_the_gm_decides_whether_votes_in_spoilers_count(day, running_game, gm, town_player, mafia_player):
    text = "[spoiler=вчерашнее][b]В тюрьму Негодяя[/b][/spoiler] Вот что он писал."
    post = say(running_game, town_player, text)
    assert post.vote_confirmation is None and vote_count(phase=day).wagons == []
    _set_options(running_game, gm, syntax=["native", "bold_vote"], count_spoiler_votes=True)
    assert running_game.count_spoiler_votes
    say(running_game, town_player, text)
    assert vote_count(phase=day).wagons[0].target.user == mafia_player


def test_a_failed_vote_after_an_unvote_is_told_to_the_poster(day, running_game, gm, town_player):
    _set_options(running_game, gm, syntax=["bold_vote", "hash_vote", "hash_unvote"])
    post = say(running_game, town_player, "##unvote\n##vote Зорро")
    confirmation = post.vote_confirmation
    assert confirmation.counted and confirmation.kind == "unvote" and confirmation.later_reason == "name_unknown"
    assert not confirmation.all_good
    assert "Зорро" not in confirmation.message and confirmation.later_reason
    rows = list(VoteRecord.objects.filter(post=post).order_by("pk").values_list("kind", "valid", "reason"))
    assert rows == [("unvote", True, ""), ("vote", False, "name_unknown")]


def test_the_poster_sees_the_failed_later_vote_as_a_warning_in_the_thread(day, running_game, gm, town_player):
    _set_options(running_game, gm, syntax=["bold_vote", "hash_vote", "hash_unvote"])
    response = client_for(town_player).post(reverse("games:thread_reply", args=[running_game.game_thread_id]),
                                            {"body": "##unvote\n##vote Зорро", "post": "1"},
                                            HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region")
    html = response.content.decode()
    assert 'class="vote-confirmation error"' in html


def test_club_players_vote_with_their_own_words(club):
    """«Голос: [b]Петя[/b]» is how club players write a vote (docs/rulesets/club.md)."""
    close(club)  # night 0 → day 1
    post = club_say(club, "Анна", "Голос: [b]Борис[/b]")
    assert post.vote_confirmation.counted and post.vote_confirmation.target == "Борис"
    post = club_say(club, "Вера", "Мой голос — [b]Бориса[/b]")
    assert post.vote_confirmation.counted


def test_a_correction_offers_and_accepts_peace_only_where_the_rule_set_has_it(club):
    """Club has no vote «за мир» (a peaceful day comes only from a tie): the GM's correction form
    does not offer it, and a forged one is refused and changes nothing."""
    from games.services import ActionRefused
    from games.services.votes import vote_correct

    close(club)
    post = club_say(club, "Анна", "Голосую за [b]Бориса[/b]")
    page = client_for(club.gm).get(reverse("games:votes", args=[club.pk]))
    assert "peace" not in [value for value, _label in page.context["kinds"]]
    before = VoteRecord.objects.count()
    try:
        vote_correct(post=post, gm=club.gm, kind="peace")
    except ActionRefused as refused:
        assert refused.code == "bad_kind"
    else:
        raise AssertionError("a peace correction was accepted in a club game")
    assert VoteRecord.objects.count() == before


def test_the_peace_button_is_offered_only_where_the_rule_set_has_a_peace_vote(day, running_game, town_player):
    """Forum has no vote «за мир» («кто-то один сядет обязательно»): no such button; the cards
    Veche has one (tests/games/test_cards_services.py)."""
    page = client_for(town_player).get(running_game.game_thread.get_absolute_url()).content.decode()
    assert 'data-insert="[b]В тюрьму' in page and 'data-insert="[b]За мир[/b]"' not in page
