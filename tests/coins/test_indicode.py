"""ИндиКоды: «легко запоминающееся сочетание из нескольких слов», Russian words agreeing in gender."""

from __future__ import annotations

import random

import pymorphy3
import pytest

from coins.indicode import ADJECTIVES, NOUNS, random_code
from coins.models import code_key

GENDERS = {"m": "masc", "f": "femn", "n": "neut"}


@pytest.fixture(scope="module")
def morph():
    return pymorphy3.MorphAnalyzer()


def _can_be(morph, word: str, *grammemes: str) -> bool:
    return any(all(g in p.tag for g in grammemes) for p in morph.parse(word))


def test_every_adjective_form_is_the_nominative_singular_of_its_gender(morph):
    for forms in ADJECTIVES:
        for form, gender in zip(forms, ("masc", "femn", "neut")):
            assert _can_be(morph, form, "ADJF", "nomn", "sing", gender), form


def test_every_noun_has_the_gender_it_is_listed_with(morph):
    for noun, gender in NOUNS:
        assert _can_be(morph, noun, "NOUN", "nomn", "sing", GENDERS[gender]), noun


def test_a_code_is_two_different_adjectives_agreeing_with_a_noun(morph):
    rng = random.Random(3)
    for _ in range(200):
        *adjectives, noun = random_code(rng).split("-")
        assert len(adjectives) == 2 and adjectives[0] != adjectives[1]
        gender = GENDERS[dict(NOUNS)[noun]]
        assert all(_can_be(morph, a, "ADJF", "nomn", "sing", gender) for a in adjectives)


def test_the_lists_give_enough_codes_and_no_two_words_fold_alike():
    words = [w for forms in ADJECTIVES for w in forms] + [n for n, _g in NOUNS]
    assert len({code_key(w) for w in words}) == len(words)
    assert len(ADJECTIVES) * (len(ADJECTIVES) - 1) * len(NOUNS) > 50_000


def test_a_typed_code_is_found_in_any_case_with_e_for_yo_and_any_separators():
    assert code_key(" Весёлый  синий_КИТ ") == code_key("веселый-синий-кит") == "веселый-синий-кит"
