"""The browser play-through's reader of code-shaped words (tests/browser/visible_text.py) finds the
classes issue 28, item 13 names, and lets the site's own words, names and markup hints pass. No
browser: the text is given."""

import pytest

from tests.browser.visible_text import code_shaped


@pytest.mark.parametrize(("text", "found"), [
    ("day 1: Вася +1 — днём голосовал против Рептилоида", ["day 1"]),
    ("revote 1: Глеб +2", ["revote 1"]),
    ("Бремя получено (reptiloids) · +10 ㉿", ["(reptiloids)"]),
    ("ally_split · Шоу judge 2", ["ally_split", "judge 2"]),
    ("bet_raise (Вася)", ["bet_raise"]),
    ("coma_fee (day 1)", ["coma_fee", "day 1"]),
    ("Сила голоса: 0,010000000000000002", ["0,010000000000000002"]),
    ("Судьба: enslaved", ["enslaved"]),
    ("Богдан: раб (demon).", ["(demon)"]),
    ("Статус: enslaved.", ["enslaved"]),
    ("Итоги: greetings", ["greetings"]),
    ("Победитель: None", ["None"]),
    ("Голос: vote, в теме #vote", ["vote"]),  # a lone engine word still is one
])
def test_code_shaped_words_are_found(text, found):
    assert code_shaped(text) == found


@pytest.mark.parametrize("text", [
    "День 1: Вася +1 — днём голосовал против Рептилоида (Глеб)",
    "Рейтинг: 18,05 %. Бремя: 20 ㉿.",
    "[b]жирный[/b] [quote=\"Имя\"]…[/quote] [code]…[/code]",
    "SHA-256, /lull, e-mail, V/LA, Экспорт JSON, BBCode",
    "Игрок Bob и игрок alice_smith@example.com",
    "В этой игре голос пишут так: ##vote X; ##unvote. ##vote Негодяй",  # the forum's syntax, not code
])
def test_the_sites_words_pass(text):
    assert code_shaped(text) == []
