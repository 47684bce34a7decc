"""A typo gets the closest names, never a guess (issue 29, item 7): «в тюрьму Фролу», «Вассю» are
refused as before — nobody's vote is counted for a name nobody has — and the refusal and the
preview offer the names they come closest to («Может быть, Фроло?»), found with rapidfuzz
(games.text.names.RosterMatcher.suggest). So do a [private] tag and a room naming nobody."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.models import VoteRecord
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.votes import vote_preview
from games.text.names import RosterMatcher
from tests.games.conftest import NAMES
from tests.games.test_lifecycle import user_named

# (what the player wrote, the typo's kind, the name he meant)
TYPOS = [
    ("Вассю", "a letter doubled", "Вася"),
    ("Ваасю", "a letter doubled", "Вася"),
    ("Фролу", "a case ending on an indeclinable name", "Фроло"),
    ("Фрола", "a case ending on an indeclinable name", "Фроло"),
    ("Кекимра", "a letter off and one missing", "Кикимора"),
    ("Негадяйа", "a letter off and a wrong ending", "Негодяй"),
]


@pytest.mark.parametrize(("typo", "kind", "meant"), TYPOS, ids=[f"{t[0]}-{t[1]}" for t in TYPOS])
def test_a_typo_is_refused_and_suggests_the_closest_name(typo, kind, meant):
    matcher = RosterMatcher(NAMES)
    result = matcher.match_start(typo)
    assert result.reason == "unknown" and result.name is None
    assert result.candidates and result.candidates[0] == meant, (typo, result.candidates)


@pytest.mark.parametrize("far", ["Петю", "Пушкина", "его", "всех", "Ив"])
def test_a_name_far_from_every_player_or_a_pronoun_suggests_nobody(far):
    result = RosterMatcher(NAMES).match_start(far)
    assert not result.ok and result.candidates == ()


def test_suggestions_are_at_most_three_closest_first():
    matcher = RosterMatcher(["Вася", "Вафя", "Ваня", "Валя", "Ася"])
    found = matcher.suggest("Вадя")
    assert len(found) == 3 and set(found) <= {"Вася", "Вафя", "Ваня", "Валя"}


@pytest.mark.django_db
@pytest.mark.parametrize(("typo", "meant"), [("Фролу", "Фроло"), ("Вассю", "Вася"), ("Негадяйа", "Негодяй")])
def test_a_vote_with_a_typo_is_refused_and_the_poster_and_the_preview_read_the_suggestion(started, typo, meant):
    author = user_named(started, "Кикимора")
    body = f"[b]В тюрьму {typo}[/b]"
    with translation.override("ru"):
        preview = vote_preview(thread=started.game_thread, author=author, body=body)
        assert not preview.counted and preview.confirmation.reason == "name_unknown"
        assert preview.message.endswith(f"Может быть, {meant}?"), preview.message
        post = post_submit(thread=started.game_thread, author=author, body=body)
        message = post.vote_confirmation.message
    assert "нет игрока с таким именем" in message and message.endswith(f"Может быть, {meant}?"), message
    # Never guessed: no ballot counts for the suggested player.
    assert not VoteRecord.objects.filter(post=post, valid=True).exists()


@pytest.mark.django_db
def test_two_close_names_are_offered_joined_the_russian_way(started):
    from games.wording import suggestion_text

    with translation.override("ru"):
        assert suggestion_text(["Вася", "Ваня"]) == "Может быть, Вася или Ваня?"
        assert suggestion_text(["Вася", "Ваня", "Валя"]) == "Может быть, Вася, Ваня или Валя?"


@pytest.mark.django_db
def test_a_private_tag_naming_nobody_suggests_the_closest_name(started):
    author = user_named(started, "Кикимора")
    with translation.override("ru"), pytest.raises(ActionRefused) as refused:
        post_submit(thread=started.game_thread, author=author, body="[private=Фролу]Привет[/private]")
    assert "Может быть, Фроло?" in str(refused.value)


@pytest.mark.django_db
def test_a_written_order_with_a_typo_is_refused_and_suggests_the_closest_name(started):
    """A letter to the GM: «Проверяю Кекимру.» names nobody; the preview and the confirmation
    offer Кикимора, and no order stands for her."""
    from games.models import Order
    from games.services.orders import order_preview
    from tests.games.test_letter_orders import letters, write

    thread = letters(started, "Вася")
    with translation.override("ru"):
        preview = order_preview(thread=thread, author=user_named(started, "Вася"), body="Проверяю Кекимру.")
        assert not preview.accepted and preview.message.endswith("Может быть, Кикимора?"), preview.message
    write(started, "Вася", "Проверяю Кекимру.")
    assert not Order.objects.filter(phase=started.current_phase, valid=True).exists()
    confirmation = thread.posts.order_by("-number").first().body
    assert "Может быть, Кикимора?" in confirmation, confirmation
