"""Names in the site's sentences are inflected and lists of names joined the Russian way (issue 29,
item 6): «кража — у Эсмеральды для Фроло», «переголосование между Васей и Кикиморой», a card's
message «от Пети для Маши»; names pymorphy3 does not know (Фроло, SleepWalker) stay as written, and
an English reader reads them as written. The count no longer puts a space before its colon nor
numbers its «no votes yet»."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.services.orders import OrderConfirmation, OrderPreview
from games.wording import event_text, name_case, names_joined
from tests.conftest import client_for


def test_a_theft_order_reads_with_both_names_in_the_genitive():
    preview = OrderPreview(OrderConfirmation(True, action="steal", source="Эсмеральда", target="Фроло"))
    with translation.override("ru"):
        assert preview.message.endswith("у Эсмеральды для Фроло")
    with translation.override("en"):
        assert preview.message.endswith("from Эсмеральда to Фроло")


@pytest.mark.parametrize(("names", "joined"), [
    (["Вася", "Кикимора"], "Васей и Кикиморой"),
    (["Красная Шапочка", "Маленький Джон", "Фроло"], "Красной Шапочкой, Маленьким Джоном и Фроло"),
    (["SleepWalker", "Негодяй"], "SleepWalker и Негодяем"),
])
def test_a_list_of_names_is_joined_with_i_in_the_instrumental_after_mezhdu(names, joined):
    with translation.override("ru"):
        assert names_joined(names, "ablt") == joined


def test_the_club_revote_is_between_names_in_the_instrumental():
    data = {"leaders": [{"seat": 1, "name": "Вася"}, {"seat": 2, "name": "Кикимора"}]}
    with translation.override("ru"):
        assert event_text("club", "revote", data) == "Ничья: переголосование между Васей и Кикиморой."
    with translation.override("en"):
        assert "Вася and Кикимора" in event_text("club", "revote", data)


def test_a_card_message_names_sender_and_target_in_the_genitive():
    data = {"sender_name": "Петя", "target_name": "Маша", "text": "Берегись", "delivered": True}
    with translation.override("ru"):
        text = event_text("cards", "message", data)
        assert "от Пети для Маши" in text, text
        assert name_case("Фроло", "gent") == "Фроло"


@pytest.mark.django_db
def test_the_count_has_no_space_before_its_colon_and_no_numbered_empty_line(started):
    html = client_for(None).get(reverse("games:votes_live", args=[started.pk])).content.decode()
    assert "<ol" not in html and "wagons-empty" in html
    from datetime import timedelta

    from games.services.posting import post_submit

    post_submit(thread=started.game_thread, author=started.seats.get(number=1).user, body="[b]В тюрьму Фроло[/b]",
                now=started.current_phase.opened_at + timedelta(minutes=1))
    from django.core.cache import cache

    cache.clear()
    html = client_for(None).get(reverse("games:votes_live", args=[started.pk])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert " :" not in text and "Фроло 1:" in text, text
