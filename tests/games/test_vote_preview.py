"""How a vote reads before it is posted, and what an edit does to a vote (issue 14, item 5): the
preview says "read as → X", "no vote" or the refusal with its reason, with the posting path's own
reader and rule-set judgement; an edit of a post with a vote keeps the ledger's vote, says so, and
offers the changed vote as a new post."""

from datetime import timedelta
from html import unescape

import pytest
from django.urls import reverse

from games.models import Post, VoteRecord
from games.services.posting import post_submit
from games.services.posts import post_edit
from games.services.votes import vote_after_edit, vote_button_text, vote_preview, vote_text_for
from tests.conftest import client_for
from tests.games.test_lifecycle import seat_named, user_named


def preview(game, name, body, **kwargs):
    return vote_preview(thread=game.game_thread, author=user_named(game, name), body=body, **kwargs)


def test_preview_reads_the_vote_as_its_target_when_the_vote_counts(started):
    result = preview(started, "Вася", "Думаю, это она. [b]В тюрьму Кикимору[/b]")
    assert result.counted and result.confirmation.target == "Кикимора"
    assert "Кикимора" in result.message and "→" in result.message


def test_preview_says_no_vote_when_the_text_casts_none(started):
    result = preview(started, "Вася", "Доброе утро, город.")
    assert result is not None and result.confirmation is None and not result.counted


def test_preview_gives_the_refusal_and_its_reason_when_the_name_is_unknown(started):
    result = preview(started, "Вася", "[b]В тюрьму Пушкина[/b]")
    assert not result.counted and result.confirmation.reason == "name_unknown"
    assert "нет игрока" in result.message or "no player" in result.message


def test_preview_gives_the_refusal_when_the_day_is_over(started):
    after = started.current_phase.deadline_at + timedelta(minutes=1)
    result = preview(started, "Вася", "[b]В тюрьму Кикимору[/b]", now=after)
    assert not result.counted and result.confirmation.reason == "after_deadline"


def test_preview_reads_no_vote_for_the_gm_when_he_writes_bold_names(started):
    assert vote_preview(thread=started.game_thread, author=started.gm, body="[b]В тюрьму Кикимору[/b]") is None


def test_preview_reads_no_vote_outside_the_game_thread(started):
    assert vote_preview(thread=started.discussion_thread, author=user_named(started, "Вася"),
                        body="[b]В тюрьму Кикимору[/b]") is None


@pytest.mark.parametrize("body", [
    "[b]В тюрьму Кикимору[/b]",
    "[b]В тюрьму Кикимору[/b] ... нет, [b]в тюрьму Эсмеральду[/b]",
    "[b]В тюрьму Пушкина[/b]",
    "В тюрьму Кикимору",
    "[b]Снимаю голос[/b]",
    "[b]За мир[/b]",
    "[b]Не в тюрьму Кикимору[/b]",
    "[quote=Кикимора][b]В тюрьму Васю[/b][/quote] Ну уж нет.",
    "Ничего не скажу.",
])
def test_preview_says_what_posting_then_confirms_when_the_same_text_is_sent(started, body):
    """The preview's reader is the posting path's: what it announces is what the post gets."""
    vasya = user_named(started, "Вася")
    now = started.current_phase.opened_at + timedelta(minutes=5)
    said = vote_preview(thread=started.game_thread, author=vasya, body=body, now=now).confirmation
    got = post_submit(thread=started.game_thread, author=vasya, body=body, now=now).vote_confirmation
    if said is None or got is None:
        assert said is None and got is None
    else:
        assert (said.counted, said.kind, said.target, said.reason) == (got.counted, got.kind, got.target, got.reason)


# --- The preview through the views ----------------------------------------------------------------
def test_preview_partial_shows_the_reading_when_asked_by_htmx(started):
    posts = Post.objects.count()
    client = client_for(user_named(started, "Вася"))
    response = client.post(reverse("games:thread_preview", args=[started.game_thread_id]),
                           {"body": "[b]В тюрьму Кикимору[/b]"}, HTTP_HX_REQUEST="true")
    html = unescape(response.content.decode())
    assert response.status_code == 200 and 'class="preview-reading vote-reading ok"' in html
    assert "Кикимора" in html.split('vote-reading ok"')[1].split("</p>")[0]
    assert not VoteRecord.objects.exists() and Post.objects.count() == posts  # a preview writes nothing


def test_preview_partial_shows_the_refusal_when_asked_by_htmx(started):
    client = client_for(user_named(started, "Вася"))
    html = client.post(reverse("games:thread_preview", args=[started.game_thread_id]),
                       {"body": "[b]В тюрьму Пушкина[/b]"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'class="preview-reading vote-reading error"' in html


def test_preview_page_shows_the_reading_when_javascript_is_off(started):
    posts = Post.objects.count()
    client = client_for(user_named(started, "Вася"))
    response = client.post(reverse("games:thread_reply", args=[started.game_thread_id]),
                           {"body": "Просто пишу.", "preview": "1"})
    html = response.content.decode()
    assert response.status_code == 200 and 'class="preview-reading vote-reading muted"' in html
    assert Post.objects.count() == posts


def test_preview_shows_no_reading_to_a_reader_who_is_not_a_player(started):
    from tests.conftest import make_user

    client = client_for(make_user("Зритель"))
    html = client.post(reverse("games:thread_preview", args=[started.discussion_thread_id]),
                       {"body": "[b]В тюрьму Кикимору[/b]"}, HTTP_HX_REQUEST="true").content.decode()
    assert "preview-reading" not in html and "preview-body" in html


# --- Edits of posts with votes ----------------------------------------------------------------------
def vote_post(game, name="Вася", target="Кикимора"):
    return post_submit(thread=game.game_thread, author=user_named(game, name), body=vote_button_text(target))


def test_edit_keeps_the_ledgers_vote_and_offers_the_new_one_when_the_vote_changed(started):
    post = vote_post(started)
    edited = post_edit(post=post, editor=user_named(started, "Вася"), body=vote_button_text("Эсмеральда"))
    notice = vote_after_edit(post=edited, editor=user_named(started, "Вася"))
    assert notice.kept == "Кикимора" and notice.new_text == vote_button_text("Эсмеральда")
    assert VoteRecord.objects.get(post=post, is_final=True).target == seat_named(started, "Кикимора")


def test_edit_says_the_vote_stays_without_an_offer_when_the_vote_is_the_same(started):
    post = vote_post(started)
    edited = post_edit(post=post, editor=user_named(started, "Вася"), body=vote_button_text("Кикимора") + " (исправил опечатку)")
    notice = vote_after_edit(post=edited, editor=user_named(started, "Вася"))
    assert notice.kept == "Кикимора" and notice.new_text == ""


def test_edit_of_a_post_without_votes_says_nothing(started):
    post = post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="Привет")
    edited = post_edit(post=post, editor=user_named(started, "Вася"), body="Привет всем")
    assert vote_after_edit(post=edited, editor=user_named(started, "Вася")) is None


def test_edit_view_tells_the_editor_and_links_to_a_prefilled_reply_when_the_vote_changed(started):
    post = vote_post(started)
    client = client_for(user_named(started, "Вася"))
    response = client.post(reverse("games:post_edit", args=[post.pk]), {"body": vote_button_text("Эсмеральда")},
                           follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert '<a class="button" href="' in html.split('class="messages"')[1].split("</ul>")[0]  # a real link
    message = unescape(html.split('class="messages"')[1].split("</ul>")[0])
    assert "Кикимора" in message and f"vote_from={post.number}" in message
    link = message.split('href="')[1].split('"')[0]
    page = unescape(client.get(link).content.decode())
    assert f"{vote_button_text('Эсмеральда')}</textarea>" in page
    assert VoteRecord.objects.filter(valid=True, is_final=True).get().target == seat_named(started, "Кикимора")


def test_prefilled_vote_reads_as_the_changed_vote_when_posted(started):
    post = vote_post(started)
    post_edit(post=post, editor=user_named(started, "Вася"), body="[b]Снимаю голос[/b]")
    notice = vote_after_edit(post=Post.objects.get(pk=post.pk), editor=user_named(started, "Вася"))
    assert notice.new_text == vote_text_for(kind="unvote")
    again = post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body=notice.new_text)
    assert again.vote_confirmation.counted and again.vote_confirmation.kind == "unvote"


def test_prefill_is_not_offered_from_another_players_post(started):
    post = vote_post(started)
    post_edit(post=post, editor=user_named(started, "Вася"), body=vote_button_text("Эсмеральда"))
    page = client_for(user_named(started, "Фроло")).get(
        reverse("games:thread", args=[started.game_thread_id]) + f"?vote_from={post.number}").content.decode()
    assert vote_button_text("Эсмеральда") not in unescape(page.split("<textarea")[1].split("</textarea>")[0])


def test_edit_view_says_the_vote_stays_when_the_edit_keeps_it(started):
    post = vote_post(started)
    client = client_for(user_named(started, "Вася"))
    html = client.post(reverse("games:post_edit", args=[post.pk]),
                       {"body": vote_button_text("Кикимора") + "!"}, follow=True).content.decode()
    message = unescape(html.split('class="messages"')[1].split("</ul>")[0])
    assert "Кикимора" in message and "vote_from" not in message


@pytest.mark.parametrize("body", ["[b]Казнить Петю![/b]", "[b]За мир[/b]", "Передумала: [b]казнь[/b]",
                                  "[b]Голосую за Петю[/b], мера — [b]тюрьма[/b]"])
def test_preview_of_a_cards_post_reads_the_vote_and_the_measure_as_posting_does(db, body):
    """The cards Veche: a vote and a measure from one post; the preview announces both as the
    post then confirms them."""
    from django.utils import translation

    from tests.games.test_cards_services import cards_game, to_day

    game, _gm, users, _seats = cards_game()
    to_day(game)
    game.refresh_from_db()
    with translation.override("en"):
        said = vote_preview(thread=game.game_thread, author=users["Вася"], body=body).confirmation
        got = post_submit(thread=game.game_thread, author=users["Вася"], body=body).vote_confirmation
    assert (said.counted, said.kind, said.target, said.measure, said.measure_reason) == (
        got.counted, got.kind, got.target, got.measure, got.measure_reason)
