"""Reading special-action orders sent to the GM: the seed's examples, natural variants, names in
any case, self-references, several orders in one text, and what is refused."""

from __future__ import annotations

import pytest

from games.text.names import RosterMatcher
from games.text.orders import (
    FORUM_VOCABULARY,
    REASONS,
    SELF,
    ActionWords,
    OrderVocabulary,
    ParsedOrder,
    parse_order,
)
from games.wording import order_vocabulary as vocabulary_for

ROSTER = ["Вася", "Кикимора", "Маленький Джон", "Красная Шапочка", "Эсмеральда", "Фроло", "SleepWalker",
          "Негодяй", "Джеймс Бонд"]
MATCHER = RosterMatcher(ROSTER)


def read(text: str, actor: str | None = "Негодяй") -> ParsedOrder:
    return parse_order(text, MATCHER, actor_name=actor)


def ok(action, target, source=None) -> ParsedOrder:
    return ParsedOrder(action, target, source, True, None)


# -- the seed's own examples -----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Проверяю Кикимору.", ok("check", "Кикимора")),
        ("Защищаю Красную Шапочку", ok("protect", "Красная Шапочка")),
        ("Стреляю в Маленького Джона", ok("shoot", "Маленький Джон")),
        ("Краду действие у Эсмеральды и применяю к Фроло", ok("steal", "Фроло", "Эсмеральда")),
        ("Краду действие у Эсмеральды и применяю к Васе", ok("steal", "Вася", "Эсмеральда")),
        ("Проверяю SleepWalker", ok("check", "SleepWalker")),
    ],
)
def test_seed_example_is_read_when_written_as_in_the_rules(text, expected):
    assert read(text) == expected


# -- natural variants ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # check
        ("проверить Кикимору", ok("check", "Кикимора")),
        ("Проверка: Кикимора", ok("check", "Кикимора")),
        ("Проверка Кикиморы", ok("check", "Кикимора")),
        ("Проверяю игрока Васю", ok("check", "Вася")),
        ("Хочу проверить роль Джеймса Бонда.", ok("check", "Джеймс Бонд")),
        ("Проверяем SleepWalker'а", ok("check", "SleepWalker")),
        ("проверю Фроло!", ok("check", "Фроло")),
        ("Узнаю роль Негодяя", ok("check", "Негодяй")),
        # protect
        ("Защищаю Васю", ok("protect", "Вася")),
        ("Лечу Маленького Джона", ok("protect", "Маленький Джон")),
        ("Охраняю Красную Шапочку", ok("protect", "Красная Шапочка")),
        ("защита — Эсмеральда", ok("protect", "Эсмеральда")),
        ("Спасаю Джеймса Бонда", ok("protect", "Джеймс Бонд")),
        # shoot
        ("Стреляем в Васю", ok("shoot", "Вася")),
        ("Выстрел в Красную Шапочку", ok("shoot", "Красная Шапочка")),
        ("Убиваю Фроло", ok("shoot", "Фроло")),
        ("Выстрел: Кикимора", ok("shoot", "Кикимора")),
        ("Стреляю во Фроло", ok("shoot", "Фроло")),
        ("стреляю по SleepWalker", ok("shoot", "SleepWalker")),
        ("Убить Джеймса Бонда", ok("shoot", "Джеймс Бонд")),
        # steal
        ("Краду у Эсмеральды, применяю к Фроло", ok("steal", "Фроло", "Эсмеральда")),
        ("Краду действие у Эсмеральды и использую на Фроло", ok("steal", "Фроло", "Эсмеральда")),
        ("Краду у Кикиморы. Применяю к Васе.", ok("steal", "Вася", "Кикимора")),
        ("Краду действие Эсмеральды и применяю его к Фроло", ok("steal", "Фроло", "Эсмеральда")),
        ("ворую у Васи и применяю на Джеймса Бонда", ok("steal", "Джеймс Бонд", "Вася")),
        ("Обкрадываю Красную Шапочку и применяю к Маленькому Джону", ok("steal", "Маленький Джон", "Красная Шапочка")),
        ("Краду у Эсмеральды и применяю к ней же", ParsedOrder("steal", None, "Эсмеральда", False, "name_unknown")),
        ("Краду действие у Эсмеральды и применяю к Эсмеральде", ok("steal", "Эсмеральда", "Эсмеральда")),
    ],
)
def test_natural_variant_is_read_when_players_write_it_their_way(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "ПРОВЕРЯЮ КИКИМОРУ",
        "проверяю кикимору",
        "Проверяю [b]Кикимору[/b].",
        "[b]Проверяю Кикимору[/b]",
        "Проверяю «Кикимору»!",
        'Проверяю "Кикимору"',
        "Проверяю [color=red][b]Кикимору[/b][/color]...",
        "  Проверяю   Кикимору  ",
    ],
)
def test_case_quotes_bbcode_and_punctuation_are_tolerated_when_around_the_name(text):
    assert read(text) == ok("check", "Кикимора")


def test_yo_is_read_as_ye_when_either_is_written():
    matcher = RosterMatcher(["Алёна", "Пётр", "Федя", "Зоя", "Ника", "Ира", "Оля"])
    assert parse_order("Проверяю Алену", matcher) == ok("check", "Алёна")
    assert parse_order("Крадём у Петра и применяем к Феде", matcher) == ok("steal", "Федя", "Пётр")
    assert parse_order("ПРОВЕРЯЮ ПЕТРА", matcher) == ok("check", "Пётр")


# -- self references -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Краду у Васи и применяю к себе", "Краду действие у Васи, применяю на себя",
                                  "краду у Васи и использую на себе"])
def test_self_reference_names_the_writer_when_his_name_is_given(text):
    assert read(text, actor="Негодяй") == ok("steal", "Негодяй", "Вася")


def test_self_reference_is_the_self_marker_when_the_writer_is_unknown():
    assert read("Краду у Васи и применяю к себе", actor=None) == ok("steal", SELF, "Вася")
    # The parser only reads; the rule set refuses a reanimator protecting himself.
    assert read("Защищаю себя", actor="Красная Шапочка") == ok("protect", "Красная Шапочка")


# -- several orders in one text --------------------------------------------------------------------

def test_last_order_counts_when_a_text_holds_several():
    assert read("Стреляю в Васю. Нет, передумал: стреляю в Фроло.") == ok("shoot", "Фроло")
    assert read("Проверяю Кикимору.\nА вообще проверяю Эсмеральду") == ok("check", "Эсмеральда")


def test_last_valid_order_counts_when_a_later_one_is_broken():
    assert read("Проверяю Кикимору. Проверяю Волан-де-Морта") == ok("check", "Кикимора")


def test_negated_action_is_skipped_when_another_order_follows():
    assert read("Не стреляю в Васю, стреляю в Фроло") == ok("shoot", "Фроло")
    assert read("Не стреляю в Васю") == ParsedOrder("shoot", None, None, False, "negated")


def test_names_inside_a_theft_are_not_read_as_new_orders_when_they_follow_the_verb():
    assert read("Краду у Васи и применяю к Джеймсу Бонду") == ok("steal", "Джеймс Бонд", "Вася")


# -- refusals --------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Привет, ГМ! Как дела?", "no_action_word"),
        ("", "no_action_word"),
        ("   ", "no_action_word"),
        ("Кикимора", "no_action_word"),
        ("Проверяю", "name_missing"),
        ("Проверяю.", "name_missing"),
        ("Стреляю в Волан-де-Морта", "name_unknown"),
        ("Защищаю Ёжика", "name_unknown"),
        ("Краду у Васи", "name_missing"),
        ("Краду у Дракулы и применяю к Васе", "name_unknown"),
    ],
)
def test_order_is_refused_with_a_reason_when_it_cannot_be_read(text, reason):
    parsed = read(text)
    assert not parsed.valid
    assert parsed.reason == reason
    assert reason in REASONS


def test_ambiguous_name_is_refused_with_the_candidates_when_it_fits_two_players():
    matcher = RosterMatcher(["Джон Сильвер", "Джон Леннон", "Вася", "Фроло", "Кикимора", "Бонд", "Негодяй"])
    parsed = parse_order("Стреляю в Джона", matcher)
    assert parsed == ParsedOrder("shoot", None, None, False, "name_ambiguous", ("Джон Леннон", "Джон Сильвер"))
    assert parse_order("Стреляю в Джона Сильвера", matcher) == ok("shoot", "Джон Сильвер")


def test_partial_theft_keeps_the_source_when_the_target_is_missing():
    parsed = read("Краду у Эсмеральды")
    assert (parsed.action, parsed.source, parsed.target, parsed.reason) == ("steal", "Эсмеральда", None, "name_missing")


# -- vocabularies ----------------------------------------------------------------------------------

def test_vocabulary_is_found_by_rule_set_when_asked():
    assert vocabulary_for("forum") is FORUM_VOCABULARY
    assert {a.action for a in FORUM_VOCABULARY.actions} == {"check", "protect", "shoot", "steal"}
    assert FORUM_VOCABULARY.words_for("check").label == "проверка"
    with pytest.raises(KeyError):
        vocabulary_for("nosuch")


def test_another_rule_set_adds_its_actions_when_it_builds_a_vocabulary():
    """club's kill/freeze/heal/check/note/take are one more vocabulary; the parser does not change."""
    club = OrderVocabulary(
        actions=(
            ActionWords("kill", verbs=("убиваю", "стреляю в")),
            ActionWords("freeze", verbs=("замораживаю", "морожу")),
            ActionWords("heal", verbs=("лечу",)),
            ActionWords("check", verbs=("проверяю",)),
            ActionWords("note", verbs=("записка на", "записка:")),
            ActionWords("take", verbs=("забираю с собой", "забираю")),
        )
    )
    assert parse_order("Замораживаю Кикимору", MATCHER, vocabulary=club) == ok("freeze", "Кикимора")
    assert parse_order("Забираю с собой Васю", MATCHER, vocabulary=club) == ok("take", "Вася")
    assert parse_order("Записка: Фроло", MATCHER, vocabulary=club) == ok("note", "Фроло")
    assert parse_order("Стреляю в Васю", MATCHER, vocabulary=club) == ok("kill", "Вася")
    assert parse_order("Защищаю Васю", MATCHER, vocabulary=club).reason == "no_action_word"
    extended = FORUM_VOCABULARY.with_actions(ActionWords("shoot", verbs=("мочу",)))
    assert parse_order("Мочу Васю", MATCHER, vocabulary=extended) == ok("shoot", "Вася")
    assert parse_order("Стреляю в Васю", MATCHER, vocabulary=extended).reason == "no_action_word"


def test_module_does_not_import_django_when_loaded():
    import games.text.orders as module

    with open(module.__file__, encoding="utf-8") as handle:
        assert "import django" not in handle.read().lower()


# -- the club vocabulary (seed 003) ----------------------------------------------------------------

CLUB_ROSTER = RosterMatcher(["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Игорь"])


def read_club(text: str, actor: str | None = "Егор") -> ParsedOrder:
    from games.rulesets.club.wording import CLUB_VOCABULARY

    return parse_order(text, CLUB_ROSTER, vocabulary=CLUB_VOCABULARY, actor_name=actor)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # kill: the mafia's and the maniac's
        ("Убиваю Анну", ok("kill", "Анна")),
        ("Стреляю в Бориса", ok("kill", "Борис")),
        ("Убить Веру", ok("kill", "Вера")),
        ("убиваем Глеба!", ok("kill", "Глеб")),
        ("Выстрел: Дина", ok("kill", "Дина")),
        # freeze: the putana's
        ("Замораживаю Егора", ok("freeze", "Егор")),
        ("Морожу Игоря", ok("freeze", "Игорь")),
        ("Заморозка: Вера", ok("freeze", "Вера")),
        ("Заморозить Жанну", ok("freeze", "Жанна")),
        # heal: the doctor's
        ("Лечу Анну", ok("heal", "Анна")),
        ("Лечение — Борис", ok("heal", "Борис")),
        ("Спасаю Веру", ok("heal", "Вера")),
        ("Лечу себя", ok("heal", "Егор")),
        # check and note: the commissar's
        ("Проверяю Дину", ok("check", "Дина")),
        ("Проверка: Жанна", ok("check", "Жанна")),
        ("Записка про Дину", ok("note", "Дина")),
        ("Оставляю записку про Жанну", ok("note", "Жанна")),
        ("Пишу записку про Бориса", ok("note", "Борис")),
        ("Записка: Игорь", ok("note", "Игорь")),
        ("Проверяю Дину и оставляю записку про Дину", ok("note", "Дина")),
        # take: the don voted out
        ("Забираю Веру", ok("take", "Вера")),
        ("Забираю с собой Игоря", ok("take", "Игорь")),
        ("Беру с собой Егора", ok("take", "Егор")),
        ("Если меня заголосуют — забираю с собой Веру", ok("take", "Вера")),
    ],
)
def test_club_order_is_read_when_written_with_the_clubs_words(text, expected):
    assert read_club(text) == expected


def test_club_vocabulary_is_found_by_rule_set_when_asked():
    from games.rulesets.club.wording import CLUB_VOCABULARY

    assert vocabulary_for("club") is CLUB_VOCABULARY
    assert {a.action for a in CLUB_VOCABULARY.actions} == {"kill", "freeze", "heal", "check", "note", "take"}
    assert CLUB_VOCABULARY.words_for("freeze").label == "заморозка"


def test_club_vocabulary_leaves_forum_words_out_when_reading_club_orders():
    assert read_club("Защищаю Анну").reason == "no_action_word"
    assert read_club("Краду у Анны и применяю к Борису").reason == "no_action_word"
    # and the forum keeps its own words: "лечу" is a protection there, "убиваю" a shot.
    assert parse_order("Лечу Васю", MATCHER) == ok("protect", "Вася")
    assert parse_order("Убиваю Васю", MATCHER) == ok("shoot", "Вася")


def test_club_order_is_refused_with_a_reason_when_it_cannot_be_read():
    assert read_club("Не убиваю Анну").reason == "negated"
    assert read_club("Замораживаю").reason == "name_missing"
    assert read_club("Лечу Волан-де-Морта").reason == "name_unknown"
    assert read_club("Оставляю записку").reason == "name_missing"


def test_last_club_order_counts_when_a_text_holds_several():
    assert read_club("Убиваю Анну. Нет, убиваю Бориса") == ok("kill", "Борис")
    assert read_club("Морожу Веру, а вообще замораживаю Игоря") == ok("freeze", "Игорь")
