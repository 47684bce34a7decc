"""The vote-correction flow (issue 14, item 7): after «Исправить» the GM lands on the count as of
the corrected post, and the "post this count" button there publishes exactly that count (as of that
post, saying so), not the current one."""

import re
from html import unescape

from django.urls import reverse

from games.models import Post
from games.services.posting import post_submit
from games.services.votes import vote_button_text, vote_count_bbcode
from games.selectors.votes import vote_count
from tests.conftest import client_for
from tests.games.test_lifecycle import seat_named, user_named


def vote(game, voter, target):
    return post_submit(thread=game.game_thread, author=user_named(game, voter), body=vote_button_text(target))


def form_fields(html: str, action: str) -> dict:
    """The fields the page's form for `action` would send (its hidden inputs)."""
    form = html[html.index(f'action="{action}"'):]
    form = form[:form.index("</form>")]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_published_count_is_the_one_shown_when_the_gm_lands_on_a_count_as_of_a_post(started):
    first = vote(started, "Вася", "Кикимора")
    vote(started, "Фроло", "Кикимора")  # a later vote: not in the count as of the first post
    gm = client_for(started.gm)
    response = gm.post(reverse("games:votes_correct", args=[started.pk]),
                       {"post": first.pk, "kind": "vote", "target": seat_named(started, "Эсмеральда").pk,
                        "note": "имелась в виду Эсмеральда"})
    landing = response["Location"]
    assert f"as_of={first.number}" in landing
    page = unescape(gm.get(landing).content.decode())
    action = reverse("games:votes_post_count", args=[started.pk])
    fields = form_fields(page, action)
    form = page[page.index(f'action="{action}"'):]
    button = form[form.index("<button"):form.index("</button>")]
    assert f"#{first.number}" in button  # the button names what it publishes
    assert fields["as_of"] == str(first.number)

    published = gm.post(action, {**fields, "csrfmiddlewaretoken": "x"})
    assert published.status_code == 302
    post = Post.objects.filter(thread=started.game_thread, author=started.gm).order_by("-number").first()
    shown = vote_count(phase=started.current_phase, as_of=first.number)
    assert post.body == vote_count_bbcode(shown)
    assert "[b]Эсмеральда[/b]" in post.body and "Вася (#" in post.body
    assert "Фроло (#" not in post.body and "[b]Кикимора[/b]" not in post.body  # the later vote is not shown
    assert f"#{first.number}" in post.body.splitlines()[1]


def test_published_count_is_the_current_one_when_the_gm_views_the_current_count(started):
    vote(started, "Вася", "Кикимора")
    vote(started, "Фроло", "Кикимора")
    gm = client_for(started.gm)
    page = unescape(gm.get(reverse("games:votes", args=[started.pk])).content.decode())
    action = reverse("games:votes_post_count", args=[started.pk])
    fields = form_fields(page, action)
    assert "as_of" not in fields
    gm.post(action, fields)
    post = Post.objects.filter(thread=started.game_thread, author=started.gm).order_by("-number").first()
    assert post.body == vote_count_bbcode(vote_count(phase=started.current_phase))
    assert "Вася" in post.body and "Фроло" in post.body


def test_publishing_is_refused_when_the_count_shown_is_not_the_current_days(started):
    vote(started, "Вася", "Кикимора")
    gm = client_for(started.gm)
    before = Post.objects.count()
    response = gm.post(reverse("games:votes_post_count", args=[started.pk]),
                       {"day": started.current_phase_id + 1000, "as_of": 2}, follow=True)
    assert Post.objects.count() == before
    assert response.status_code == 200 and 'class="message error"' in response.content.decode()
