"""Every message that puts a person's name in a sentence is reviewed (issue 29, item 6), and stays
so: tests/games/names_reviewed.py lists each msgid with a name placeholder and how the name is put
in (N, LIST, JOINED, a case...). Held against it:

(a) the catalogue: every placeholder name is known to hold a person or not, and every message
    with a person's placeholder is in the list (a new one fails until it is reviewed), and used;
(b) the code: each place that fills a message in (Python or a template, tests/games/name_sites.py)
    puts the name in the listed case: name_case / names_joined where the Russian governs it;
(c) the Russian: a name listed as written never follows a preposition or a transitive verb that
    governs another case; an enumeration follows a colon or a dash; a neutral Russian text has no
    word that agrees with a person (a past tense, a short participle, «его»), but for the nouns
    AGREES_WITH names; a message written three times has three different forms;
(d) the words of every event kind of every rule set, rendered for a man (Вася), a woman (Маша)
    and a player of unknown gender (Кикимора): no nominative where a case is governed, no word
    beside the name in the wrong gender, and the three differ where the message agrees.
Each check is shown to fail on a mutation at the end."""

from __future__ import annotations

import re
from itertools import product

import pytest
from django.utils import translation

from games.rulesets import registry
from games.wording import event_text, speaking_of
from tests.games import name_checks, name_sites
from tests.games.names_reviewed import AGREES_WITH, OTHER_KEYS, PERSON_KEYS, REVIEWED
from tests.test_i18n import ALL_ENTRIES
from tests.test_wording_complete import event_kinds, site_event_kinds

PLACEHOLDER = re.compile(r"%\((\w+)\)|\{(\w+)\}")
CONTEXTS = ("masculine", "feminine")
NOT_CHECKED_IN_CODE = {"text", "thing"}


def _keys(msgid: str) -> list[str]:
    return list(dict.fromkeys(a or b for a, b in PLACEHOLDER.findall(msgid)))


def _catalogue():
    """{msgid: {None: neutral Russian, "masculine": ..., "feminine": ...}} of the .po."""
    out: dict[str, dict[str | None, str]] = {}
    for entry in ALL_ENTRIES:
        if entry.msgid:
            out.setdefault(entry.msgid, {})[entry.msgctxt] = entry.msgstr.get(0, "")
    return out


CATALOGUE = _catalogue()


def person_messages(catalogue=None) -> set[str]:
    catalogue = CATALOGUE if catalogue is None else catalogue
    return {msgid for msgid in catalogue if set(_keys(msgid)) & PERSON_KEYS}


# --- (a) the catalogue ---------------------------------------------------------------------------
def test_every_placeholder_name_is_known_to_hold_a_person_or_not():
    unknown = sorted({key for msgid in CATALOGUE for key in _keys(msgid)} - PERSON_KEYS - OTHER_KEYS)
    assert unknown == [], "say in tests/games/names_reviewed.py whether these hold a person's name"


def test_every_message_with_a_name_is_reviewed_and_every_reviewed_one_exists():
    assert len(REVIEWED) > 200
    missing = sorted(person_messages() - set(REVIEWED))
    stale = sorted(set(REVIEWED) - person_messages())
    assert missing == [], "review these messages in tests/games/names_reviewed.py"
    assert stale == []


@pytest.mark.parametrize("msgid", sorted(REVIEWED))
def test_the_review_names_each_person_placeholder_of_its_message(msgid):
    assert set(REVIEWED[msgid]) == set(_keys(msgid)) & PERSON_KEYS


def test_every_reviewed_message_is_used_by_the_code_or_a_template():
    unused = sorted(m for m in REVIEWED if not name_sites.sites_of(m))
    assert unused == [], "remove these stale entries from the .po"


# --- (b) the code ----------------------------------------------------------------------------------
def code_mismatches(reviewed=None) -> list[str]:
    """Each site whose value for a reviewed placeholder is not put in the reviewed case."""
    reviewed = REVIEWED if reviewed is None else reviewed
    wrong = []
    for msgid, handling in reviewed.items():
        sites = name_sites.sites_of(msgid) + [s for c in CONTEXTS for s in name_sites.sites_of(msgid, c)]
        for site, (key, how) in product(sites, handling.items()):
            if how in NOT_CHECKED_IN_CODE:
                continue
            expected = "nomn" if how in ("nomn", "subject", "listing") else how
            if site.values is None:  # filled in elsewhere (a table, the browser): never inflected
                if expected != "nomn":  # a table's message filled in by format_map or in the browser
                    wrong.append(f"{site}: {msgid!r} {key}: {how} wanted, filled in as written")
                continue
            found = site.values.get(key, "nomn")
            if found not in (expected, name_sites.ANY):
                wrong.append(f"{site}: {msgid!r} {key}: {how} wanted, {found} found")
    return wrong


def test_the_code_puts_each_name_in_the_case_its_sentence_governs():
    assert code_mismatches() == []


# --- (c) the Russian -------------------------------------------------------------------------------
def russian_mismatches(catalogue=None, reviewed=None) -> list[str]:
    catalogue = CATALOGUE if catalogue is None else catalogue
    reviewed = REVIEWED if reviewed is None else reviewed
    wrong = []
    for msgid, handling in reviewed.items():
        forms = catalogue.get(msgid, {})
        as_written = {k for k, how in handling.items() if how in ("nomn", "subject", "listing", "joined:nomn")}
        subjects = {k for k, how in handling.items() if how == "subject"}
        for context, text in forms.items():
            for governed in name_checks.governed_placeholders(text, as_written, subjects):
                wrong.append(f"{msgid!r} [{context}]: «{governed}» governs another case")
            for key in (k for k, how in handling.items() if how == "listing"):
                if not name_checks.after_a_colon_or_dash(text, key):
                    wrong.append(f"{msgid!r} [{context}]: the enumeration %({key})s is not after «:» or «—»")
    return wrong


def test_no_russian_text_puts_a_name_as_written_where_a_case_is_governed():
    assert russian_mismatches() == []


def gender_mismatches(catalogue=None, reviewed=None, agrees_with=None) -> list[str]:
    """A neutral Russian text (the plain msgid's) whose gendered words are not all explained by a
    noun of AGREES_WITH; a message with agreeing forms whose three forms are not all different."""
    catalogue = CATALOGUE if catalogue is None else catalogue
    reviewed = REVIEWED if reviewed is None else reviewed
    agrees_with = AGREES_WITH if agrees_with is None else agrees_with
    wrong = []
    for msgid, handling in reviewed.items():
        if all(how == "thing" for how in handling.values()):
            continue
        forms = catalogue.get(msgid, {})
        neutral = forms.get(None, "")
        nouns = agrees_with.get(msgid, ())
        genders = {name_checks.noun_gender(n) for n in nouns}
        present = name_checks.lemmas(neutral)
        for noun in nouns:
            if noun not in present:
                wrong.append(f"{msgid!r}: «{noun}» is not in «{neutral}»")
        for word, word_genders in name_checks.gendered_words(neutral):
            if not word_genders & genders:
                wrong.append(f"{msgid!r}: «{word}» agrees with a person in «{neutral}»")
        if any(c in forms for c in CONTEXTS) and len({forms.get(None), forms.get(CONTEXTS[0]), forms.get(CONTEXTS[1])}) != 3:
            wrong.append(f"{msgid!r}: its neutral, masculine and feminine Russian are not three forms")
        for context, other in (("masculine", "femn"), ("feminine", "masc")):  # «ей выдана», never «ему выдана»
            for word, word_genders in name_checks.gendered_words(forms.get(context, "")):
                if other in word_genders and not word_genders & genders - {"neut"}:
                    wrong.append(f"{msgid!r} [{context}]: «{word}» agrees with the other gender")
    return wrong


def test_no_neutral_russian_text_agrees_with_a_persons_gender():
    assert gender_mismatches() == []


# --- (d) every event text, for a man, a woman and a player of unknown gender -------------------
PEOPLE = {"Вася": "m", "Маша": "f", "Кикимора": ""}
NAME_KEYS = ("name", "target_name", "seat_name", "voter_name", "by_name", "sender_name", "actor_name", "source_name",
             "victim", "mole", "bouncer", "lawyer", "authority", "hacker", "holder_name", "judge", "about", "enslaved",
             "spared")
LIST_KEYS = ("heroes", "members", "leaders", "players", "avengers", "winners", "dead", "wrong", "talents",
             "requested", "posted", "names")
# The variants of an event's data that word it differently.
VARIANTS = ({}, {"right": True}, {"at_once": True}, {"result": "done"}, {"result": "refused"}, {"delivered": True},
            {"by": "gm"}, {"enslaved": None, "spared": None}, {"changed": True})


def sample(name: str, variant: dict) -> dict:
    data = {key: name for key in NAME_KEYS}
    data.update({key: [{"name": name, "role": "boss", "overt": "Гик"}] for key in LIST_KEYS})
    data["requested"], data["posted"], data["enslaved"] = [name], [name], name
    data.update({"role": "boss", "text": "Привет", "n": 2, "fouls": 2, "reason": "bad_target", "card": "Пистолет",
                 "cards": ["Пистолет"], "deck": ["Пистолет"], "goal": "armour", "day": 1, "key": "not_mason",
                 "tally": [{"target": 1, "target_name": name, "name": name, "votes": 2}],
                 "leader": {"name": name}, "measure": "execution", "at_once": False})
    data.update({k: (name if v is None else v) for k, v in variant.items()})
    return data


def rendered_texts():
    """(rule set, kind, person, Russian text) for every kind of every rule set and every variant."""
    kinds = site_event_kinds()
    for adapter, (name, gender) in product(registry.adapters(), PEOPLE.items()):
        for kind in sorted(event_kinds(adapter) | kinds):
            texts = set()
            with translation.override("ru"), speaking_of({name: gender}):
                for variant in VARIANTS:
                    try:
                        texts.add(event_text(adapter.key, kind, sample(name, variant)))
                    except (KeyError, TypeError, ValueError, AttributeError):
                        continue  # a variant this kind's data cannot take
            for text in texts:
                yield adapter.key, kind, name, gender, text


def rendering_mismatches(texts) -> list[str]:
    wrong = []
    for ruleset, kind, name, gender, text in texts:
        for found in name_checks.governed_nominatives(text, [name]) + name_checks.disagreements(text, {name: gender}):
            wrong.append(f"{ruleset} {kind} ({name}): «{found}» in «{text}»")
    return wrong


def test_every_event_text_inflects_and_agrees_for_a_man_a_woman_and_an_unknown_gender():
    texts = list(rendered_texts())
    assert len({(r, k) for r, k, *_rest in texts}) > 150
    assert rendering_mismatches(texts) == []


@pytest.mark.parametrize(("ruleset", "kind", "data", "words"), [
    ("forum", "killed", {"name": "{}"}, ("Убит: Вася", "Убита: Маша", "Погибает: Кикимора")),
    ("forum", "jailed", {"name": "{}"}, ("Посажен в тюрьму: Вася", "Посажена в тюрьму: Маша", "Отправляется в тюрьму: Кикимора")),
    ("forum", "executed", {"name": "{}"}, ("Выгнан голосованием: Вася", "Выгнана голосованием: Маша",
                                           "Выбывает по итогам голосования: Кикимора")),
    ("club", "removed", {"name": "{}"}, ("Удалён за фолы: Вася", "Удалена за фолы: Маша", "Удаляется за фолы: Кикимора")),
    ("cards", "joker_won", {"name": "{}"}, ("Джокер Вася верно назвал", "Джокер Маша верно назвала",
                                            "Джокер Кикимора верно называет")),
    ("show", "buried_gm", {"mole": "{}", "name": "Фроло"}, ("Крот Вася закопал", "Крот Маша закопала",
                                                            "Крот Кикимора закапывает")),
])
def test_a_sentence_about_a_player_has_his_her_and_a_neutral_form(ruleset, kind, data, words):
    for (name, gender), expected in zip(PEOPLE.items(), words):
        filled = {k: v.format(name) for k, v in data.items()}
        with translation.override("ru"), speaking_of({name: gender}):
            assert expected in event_text(ruleset, kind, filled)


@pytest.mark.parametrize(("ruleset", "kind", "data", "expected"), [
    ("club", "revote", {"leaders": [{"name": "Вася"}, {"name": "Кикимора"}]}, "переголосование между Васей и Кикиморой"),
    ("cards", "hero_mark", {"name": "Маша", "target_name": "Кикимора", "role": "boss", "right": True},
     "Герой Маша назвала Кикимору: босс — верно, Кикимора получает метку."),
    ("cards", "avenger_dice", {"avengers": [{"name": "Вася"}, {"name": "Петя"}, {"name": "Маша"}], "name": "Маша"},
     "Мстители Вася, Петя и Маша погибли одновременно"),
    ("cards", "message", {"sender_name": "Эсмеральда", "target_name": "Фроло", "text": "?", "delivered": True},
     "от Эсмеральды для Фроло"),
    ("show", "opinions", {"requested": ["Зина", "Илья"], "posted": ["Зина"]}, "Мнения запрошены у Зины и Ильи"),
    ("show", "judge_decision", {"enslaved": "Кикимора"}, "Судья отправляет в рабство Кикимору."),
    ("show", "greetings", {"heroes": ["Вася", "Маша", "Кикимора"]}, "Поприветствовали Шоу: Вася, Маша и Кикимора."),
])
def test_names_are_inflected_and_lists_joined_the_russian_way(ruleset, kind, data, expected):
    with translation.override("ru"):
        assert expected in event_text(ruleset, kind, data)


# --- The checks fail when a message goes wrong ---------------------------------------------------------
def test_a_new_message_with_a_name_fails_until_it_is_reviewed():
    catalogue = {**CATALOGUE, "%(voter)s switched to %(target)s.": {None: "%(voter)s переходит на %(target)s."}}
    assert person_messages(catalogue) - set(REVIEWED) == {"%(voter)s switched to %(target)s."}


def test_the_code_check_finds_a_name_no_longer_inflected(monkeypatch):
    """The mutation: the club's re-vote stops joining the names in the instrumental."""
    site = name_sites.Site("games/rulesets/club/wording.py", 1, {"names": "nomn"})
    monkeypatch.setattr(name_sites, "sites_of", lambda msgid, context=None: [site] if context is None else [])
    assert code_mismatches({"Tie: a re-vote between %(names)s.": {"names": "joined:ablt"}}) == [
        "games/rulesets/club/wording.py:1: 'Tie: a re-vote between %(names)s.' names: joined:ablt wanted, nomn found"]


def test_the_russian_check_finds_a_nominative_after_mezhdu_and_a_list_without_a_colon():
    catalogue = {"a": {None: "переголосование между %(names)s."}, "b": {None: "Голоса %(tally)s."}}
    assert russian_mismatches(catalogue, {"a": {"names": "joined:nomn"}, "b": {"tally": "listing"}}) == [
        "'a' [None]: «между %(names)s» governs another case",
        "'b' [None]: the enumeration %(tally)s is not after «:» or «—»"]


def test_the_gender_check_finds_a_mans_past_tense_in_a_neutral_text():
    catalogue = {"a": {None: "Убит: %(name)s."}, "b": {None: "Голос игрока %(name)s не засчитан."}}
    reviewed = {"a": {"name": "nomn"}, "b": {"name": "nomn"}}
    assert gender_mismatches(catalogue, reviewed, {"b": ("голос",)}) == ["'a': «Убит» agrees with a person in «Убит: %(name)s.»"]
    assert gender_mismatches(catalogue, reviewed, {}) == [
        "'a': «Убит» agrees with a person in «Убит: %(name)s.»",
        "'b': «засчитан» agrees with a person in «Голос игрока %(name)s не засчитан.»"]


def test_the_rendering_check_finds_what_the_issue_found():
    texts = [("club", "revote", "Вася", "m", "Ничья: переголосование между Вася и Кикимора."),
             ("forum", "killed", "Маша", "f", "Убит: Маша."),
             ("archive", "gm_log", "Маша", "f", "Маша: перенёс срок")]
    assert rendering_mismatches(texts) == [
        "club revote (Вася): «между Вася» in «Ничья: переголосование между Вася и Кикимора.»",
        "forum killed (Маша): «Убит: Маша» in «Убит: Маша.»",
        "archive gm_log (Маша): «Маша перенёс» in «Маша: перенёс срок»"]
