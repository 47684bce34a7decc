"""Issue 29, the second walk: the GM's «Завершить сейчас» asked «Закрыть День 1 сейчас и опубликовать
итоги?», a phase's label («День 1», «Сбор колоды», a show's stage) standing capitalised in the
middle of a sentence. The class: every confirmation question that names a phase names it where a
label stands in Russian, in quotes or after a colon, never as a word of the sentence."""

import re

import pytest
from django.utils import translation

from games.confirm import QUESTIONS, question

LABELS = ["День 1", "Сбор колоды", "День 1, переголосование"]
WITH_PHASE = sorted(kind for kind, text in QUESTIONS.items() if "{phase}" in str(text))


def test_the_questions_with_a_phase_are_found():
    assert {"close", "close_outcome", "deadline", "rollback"} <= set(WITH_PHASE)


@pytest.mark.parametrize("kind", WITH_PHASE)
@pytest.mark.parametrize("label", LABELS)
def test_a_phase_is_named_as_a_label(kind, label):
    with translation.override("ru"):
        text = question(kind, phase=label, outcome="", deadline_at="29.11 12:00")
    assert label in text
    assert f"«{label}»" in text or re.search(rf":\s+{re.escape(label)}", text), text
