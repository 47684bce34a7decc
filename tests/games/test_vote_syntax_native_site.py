"""Issue 29 on the site: a game set to `##vote` only reads only `##vote`. "In a game set to `##vote`
only, a bold name or a bold «vote X» without the `##` is talk, not a vote."

The rule set's own words are the `native` syntax: on in every game (new, and old ones through
migration 0013), switched by the GM among the others. Every place that reads a vote is checked with
them off: posting (what the poster is told, the ledger, the count), the preview, an edit with a
vote, the vote buttons, the history page; the GM's form is the reader's list of syntaxes and
refuses a choice that leaves no way to vote; each rule set keeps voting (club's words, the cards'
measure, the show's panel)."""

from datetime import timedelta
from html import unescape
from importlib import import_module

import pytest
from django.apps import apps
from django.urls import reverse

from games.models import Game, Post, VoteRecord
from games.rulesets.cards.engine import CARDS
from games.selectors.votes import vote_count, vote_profile_for
from games.services import ActionRefused
from games.services.autohost import game_create_automatic
from games.services.games import game_create, game_set_vote_options
from games.services.posting import post_submit
from games.services.posts import post_edit
from games.services.votes import vote_after_edit, vote_preview
from games.text.votes import SYNTAX_ORDER, SYNTAXES
from tests.conftest import client_for, make_user
from tests.games.test_cards_services import cards_game, to_day
from tests.games.test_club import club, close, say as club_say  # noqa: F401  (the club fixture)
from tests.games.test_lifecycle import user_named
from tests.games.test_vote_ledger import day, say  # noqa: F401  (the day fixture)

HASH_ONLY = ["hash_vote", "hash_unvote"]


def set_options(game, gm, syntax, **fields):
    data = {"syntax": syntax, **{k: "on" for k, v in fields.items() if v}}
    response = client_for(gm).post(reverse("games:vote_options", args=[game.pk]), data, follow=True)
    game.refresh_from_db()
    return unescape(response.content.decode())


def hash_only(game):
    game.vote_syntaxes = list(HASH_ONLY)
    game.save(update_fields=["vote_syntaxes"])


# --- The GM's form ----------------------------------------------------------------------------------
def test_the_gms_form_lists_every_syntax_the_reader_knows_with_the_rule_sets_words_on(running_game, gm):
    page = unescape(client_for(gm).get(running_game.get_absolute_url()).content.decode())
    form = page.split(reverse("games:vote_options", args=[running_game.pk]))[1].split("</form>")[0]
    boxes = [part.split('"')[0] for part in form.split('name="syntax" value="')[1:]]
    assert boxes == list(SYNTAX_ORDER) and set(boxes) == SYNTAXES
    assert 'value="native" checked' in form and 'value="bold_vote" checked' in form
    assert 'value="hash_vote" checked' not in form
    assert "[b]В тюрьму X[/b]" in form  # the forum's words, as its vote button writes them


def test_the_club_form_shows_the_clubs_own_words(club):
    page = unescape(client_for(club.gm).get(club.get_absolute_url()).content.decode())
    assert "Голосую за [b]X[/b]" in page


def test_the_gm_sets_a_hash_only_game(running_game, gm):
    page = set_options(running_game, gm, HASH_ONLY)
    assert running_game.vote_syntaxes == sorted(HASH_ONLY)
    assert "Настройки голосования сохранены." in page
    assert "native" not in vote_profile_for(running_game).syntaxes


@pytest.mark.parametrize("syntax", [[], ["hash_unvote"], ["unvote_tag", "hash_unvote"]])
def test_a_choice_that_leaves_no_way_to_vote_is_refused_and_changes_nothing(running_game, gm, syntax):
    before = (list(running_game.vote_syntaxes), running_game.count_spoiler_votes, running_game.end_day_on_majority)
    page = set_options(running_game, gm, syntax, count_spoiler_votes=True, end_day_on_majority=True)
    assert "Оставьте хотя бы один способ голосовать" in page
    running_game.refresh_from_db()
    assert (running_game.vote_syntaxes, running_game.count_spoiler_votes, running_game.end_day_on_majority) == before


@pytest.mark.parametrize("syntax", [["native", "<script>"], ["bold"], ["NATIVE"]])
def test_a_forged_syntax_is_refused_and_changes_nothing(running_game, gm, syntax):
    page = set_options(running_game, gm, syntax)
    assert "Неизвестный способ голосования." in page
    assert running_game.vote_syntaxes == ["bold_vote", "native"]


def test_a_player_cannot_switch_the_words_off(running_game, town_player):
    response = client_for(town_player).post(reverse("games:vote_options", args=[running_game.pk]),
                                            {"syntax": HASH_ONLY})
    assert response.status_code == 404
    running_game.refresh_from_db()
    assert "native" in running_game.vote_syntaxes


# --- Posting, the ledger and the count ---------------------------------------------------------------
@pytest.mark.parametrize("text", ["[b]В тюрьму Негодяя[/b]", "Голосую за [b]Негодяя[/b]", "[b]Vote: Негодяй[/b]",
                                  "[b]Негодяя в тюрьму![/b]"])
def test_a_native_or_bold_english_vote_in_a_hash_only_game_is_told_stored_and_not_counted(
        day, running_game, town_player, text):
    hash_only(running_game)
    post = say(running_game, town_player, text)
    confirmation = post.vote_confirmation
    assert not confirmation.counted and confirmation.reason == "syntax_disabled"
    assert "этот способ голосования в игре не включён" in confirmation.message
    assert "##vote X" in confirmation.message  # how to vote here
    assert list(VoteRecord.objects.filter(post=post).values_list("valid", "reason")) == [(False, "syntax_disabled")]
    assert vote_count(phase=day).wagons == []


def test_a_hash_vote_counts_in_a_hash_only_game_and_a_bold_name_is_talk(day, running_game, town_player, mafia_player):
    hash_only(running_game)
    talk = say(running_game, town_player, "[b]Негодяй[/b] опять молчит.")
    assert talk.vote_confirmation is None and not VoteRecord.objects.filter(post=talk).exists()
    post = say(running_game, town_player, "[b]В тюрьму Негодяя[/b]\nНет, по правилам: ##vote Негодяй")
    assert post.vote_confirmation.counted and post.vote_confirmation.target == "Негодяй"
    assert [w.target.user for w in vote_count(phase=day).wagons] == [mafia_player]
    withdrawn = say(running_game, town_player, "[b]Снимаю голос[/b]")
    assert not withdrawn.vote_confirmation.counted  # the words are off: the vote stands
    assert [w.target.user for w in vote_count(phase=day).wagons] == [mafia_player]
    say(running_game, town_player, "##unvote")
    assert vote_count(phase=day).wagons == []


def test_an_old_game_keeps_its_words_and_a_new_one_has_them(running_game):
    assert running_game.vote_syntaxes == ["bold_vote", "native"]
    assert {"native", "bold_vote"} <= vote_profile_for(running_game).syntaxes


def test_the_migration_gives_the_words_to_every_existing_game_and_takes_them_back(running_game):
    migration = import_module("games.migrations.0013_vote_syntax_native")
    Game.objects.filter(pk=running_game.pk).update(vote_syntaxes=["hash_vote", "hash_unvote"])
    migration.rule_set_words_always_on(apps, None)
    migration.rule_set_words_stay_on(apps, None)
    running_game.refresh_from_db()
    assert running_game.vote_syntaxes == ["hash_unvote", "hash_vote", "native"]
    Game.objects.filter(pk=running_game.pk).update(vote_syntaxes=[])
    migration.rule_set_words_stay_on(apps, None)
    running_game.refresh_from_db()
    assert running_game.vote_syntaxes == ["native"]  # an old game with no extra syntax read its words
    migration.rule_set_words_always_on(apps, None)
    running_game.refresh_from_db()
    assert running_game.vote_syntaxes == []


# --- Who is told what: the poster in the thread, the others, the history page ------------------------
def test_the_poster_reads_why_in_the_thread_and_nobody_else_does(day, running_game, gm, town_player, mafia_player,
                                                                  spectator):
    hash_only(running_game)
    thread_url = reverse("games:thread_reply", args=[running_game.game_thread_id])
    html = unescape(client_for(town_player).post(
        thread_url, {"body": "[b]В тюрьму Негодяя[/b]", "post": "1"},
        HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region").content.decode())
    notice = html.split('class="vote-confirmation error"')[1].split("</p>")[0]
    assert "не включён" in notice and "##vote X" in notice
    page = unescape(client_for(town_player).post(thread_url, {"body": "##vote Негодяй"}, follow=True).content.decode())
    assert "Голос засчитан: Негодяй" in page, page
    for user in (None, spectator, mafia_player, gm):
        other = client_for(user).get(running_game.game_thread.get_absolute_url()).content.decode()
        assert "vote-confirmation" not in other
    history = unescape(client_for(gm).get(reverse("games:votes", args=[running_game.pk])).content.decode())
    assert "этот способ голосования в игре не включён" in history


# --- The preview and the edit, the started forum game ------------------------------------------------
BODIES = ["[b]В тюрьму Кикимору[/b]", "##vote Кикимора", "[b]Кикимора[/b] молчит", "##vote Кикимора\n##unvote",
          "[b]Vote: Кикимора[/b]", "[b]Снимаю голос[/b]", "Голосую за [b]Кикимору[/b]\n##vote Эсмеральда",
          "##vote Кекимора", "Доброе утро."]


@pytest.mark.parametrize("body", BODIES)
def test_the_preview_says_what_posting_then_answers_in_a_hash_only_game(started, body):
    hash_only(started)
    vasya = user_named(started, "Вася")
    now = started.current_phase.opened_at + timedelta(minutes=5)
    said = vote_preview(thread=started.game_thread, author=vasya, body=body, now=now)
    got = post_submit(thread=started.game_thread, author=vasya, body=body, now=now).vote_confirmation
    said = said.confirmation if said is not None else None
    if said is None or got is None:
        assert said is None and got is None
    else:
        assert said == got


def test_the_preview_tells_the_refusal_and_how_to_vote_here(started):
    hash_only(started)
    client = client_for(user_named(started, "Вася"))
    html = unescape(client.post(reverse("games:thread_preview", args=[started.game_thread_id]),
                                {"body": "[b]В тюрьму Кикимору[/b]"}, HTTP_HX_REQUEST="true").content.decode())
    reading = html.split('class="preview-reading vote-reading error"')[1].split("</p>")[0]
    assert reading.endswith("Голос не будет засчитан: этот способ голосования в игре не включён. "
                            "В этой игре голос пишут так: ##vote X; ##unvote.")
    html = unescape(client.post(reverse("games:thread_preview", args=[started.game_thread_id]),
                                {"body": "[b]Кикимора[/b] молчит"}, HTTP_HX_REQUEST="true").content.decode())
    assert 'class="preview-reading vote-reading muted"' in html  # talk: "no vote"
    assert not Post.objects.filter(body__contains="Кикимору").exists()


def test_an_edit_offers_the_changed_vote_written_the_way_the_game_reads_it(started):
    hash_only(started)
    vasya = user_named(started, "Вася")
    post = post_submit(thread=started.game_thread, author=vasya, body="##vote Кикимора")
    post_edit(post=post, editor=vasya, body="##vote Эсмеральда")
    notice = vote_after_edit(post=Post.objects.get(pk=post.pk), editor=vasya)
    assert notice.kept == "Кикимора" and notice.new_text == "##vote Эсмеральда"
    post_edit(post=post, editor=vasya, body="[b]В тюрьму Эсмеральду[/b]")  # the words are off: no vote to offer
    assert vote_after_edit(post=Post.objects.get(pk=post.pk), editor=vasya).new_text == ""
    post_edit(post=post, editor=vasya, body="##unvote")
    assert vote_after_edit(post=Post.objects.get(pk=post.pk), editor=vasya).new_text == "##unvote"


def test_the_vote_buttons_write_the_vote_the_game_reads(started):
    vasya = user_named(started, "Вася")
    page = unescape(client_for(vasya).get(started.game_thread.get_absolute_url()).content.decode())
    assert 'data-insert="[b]В тюрьму Кикимору[/b]"' in page
    hash_only(started)
    page = unescape(client_for(vasya).get(started.game_thread.get_absolute_url()).content.decode())
    assert 'data-insert="##vote Кикимора"' in page and "В тюрьму Кикимору" not in page
    started.vote_syntaxes = ["bold_vote"]
    started.save(update_fields=["vote_syntaxes"])
    page = unescape(client_for(vasya).get(started.game_thread.get_absolute_url()).content.decode())
    assert 'data-insert="[b]VOTE: Кикимора[/b]"' in page
    # what a button writes is what the game counts
    post = post_submit(thread=started.game_thread, author=vasya, body="[b]VOTE: Кикимора[/b]")
    assert post.vote_confirmation.counted


# --- Each rule set ----------------------------------------------------------------------------------
def test_an_automatic_game_reads_its_rule_sets_words(db):
    game = game_create_automatic(title="Сам", ruleset="forum", size=7)
    assert "native" in game.vote_syntaxes and "native" in vote_profile_for(game).syntaxes


def test_a_club_game_reads_its_own_words_until_the_judge_switches_them_off(club):
    close(club)  # night 0 → day 1
    post = club_say(club, "Анна", "Голос: [b]Борис[/b]")
    assert post.vote_confirmation.counted and post.vote_confirmation.target == "Борис"
    set_options(club, club.gm, HASH_ONLY)
    post = club_say(club, "Вера", "Голосую за [b]Бориса[/b]")
    assert not post.vote_confirmation.counted and post.vote_confirmation.reason == "syntax_disabled"
    post = club_say(club, "Вера", "##vote Борис")
    assert post.vote_confirmation.counted


def test_the_cards_measure_is_still_read_when_the_veche_votes_by_hash(db):
    """The measure (казнь / тюрьма) is the Veche's own, read from bold text whatever the vote syntax;
    the buttons write the vote as the game reads it and the measure beside it."""
    game, _gm, users, _seats = cards_game()
    to_day(game)
    hash_only(game)
    client = client_for(users["Вася"])
    page = unescape(client.get(game.game_thread.get_absolute_url()).content.decode())
    assert 'data-insert="##vote Петя\nМера — [b]казнь[/b]"' in page
    assert 'data-insert="##vote Петя\nМера — [b]тюрьма[/b]"' in page
    assert 'data-insert="##vote no lynch"' in page  # the Veche has peace
    text = "##vote Петя\nМера — [b]казнь[/b]"
    assert CARDS.parse_measure(text) == "execution"
    post = post_submit(thread=game.game_thread, author=users["Вася"], body=text)
    assert post.vote_confirmation.counted and post.vote_confirmation.target == "Петя"
    assert post.vote_confirmation.measure == "execution" and not post.vote_confirmation.measure_reason
    post = post_submit(thread=game.game_thread, author=users["Маша"], body="##vote no lynch")
    assert post.vote_confirmation.counted and post.vote_confirmation.kind == "peace"
    post = post_submit(thread=game.game_thread, author=users["Глаша"], body="[b]Казнить Петю[/b]")
    assert post.vote_confirmation.reason == "syntax_disabled" and post.vote_confirmation.measure == "execution"


def test_the_show_reads_no_vote_from_posts_and_offers_no_syntaxes(db):
    """The Show's ballots are cast on its panel (SiteRuleset.votes_in_posts): no form, and the
    service refuses it whatever is sent (tests/games/test_show_new_game_form.py for the page)."""
    gm = make_user("Ведущий шоу")
    show = game_create(title="Шоу", gm=gm, ruleset="show", size=6)
    with pytest.raises(ActionRefused) as refused:
        game_set_vote_options(game=show, by=gm, syntaxes=HASH_ONLY, end_day_on_majority=False)
    assert refused.value.code == "no_post_votes"
