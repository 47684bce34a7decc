"""Issue 29: the rule set's own vote words are a syntax a game can switch off (`native`).

"In a game set to `##vote` only, a bold name or a bold «vote X» without the `##` is talk, not a
vote." Every way the rule set's words cast something is tested with the syntax off: it counts for
nothing and is listed as `syntax_disabled` (the poster is told why), a bold name alone is not
listed at all, and the other syntaxes read exactly as they do with the words on."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.text.names import RosterMatcher
from games.text.votes import (
    CASTING_SYNTAXES,
    DEFAULT_PROFILE,
    INTERNATIONAL_PROFILE,
    SYNTAX_EXAMPLES,
    SYNTAX_ORDER,
    SYNTAXES,
    VoteProfile,
    parse_votes,
    profile_named,
    written_form,
)

PLAYERS = ["Вася", "Негодяй", "Кикимора", "Красная Шапочка", "Фроло", "Miar", "Bob", "Петя"]
MATCHER = RosterMatcher(PLAYERS)
HASH_ONLY = DEFAULT_PROFILE.only_syntaxes({"hash_vote", "hash_unvote"})
CLUB = DEFAULT_PROFILE.with_intent_words(("голос", "переголосование"))


def read(text, profile):
    return parse_votes(text, MATCHER, profile=profile)


# Every shape of the rule set's own reading: (text, what it casts with the words on).
NATIVE = [
    ("[b]В тюрьму Негодяя.[/b]", {"vote": "Негодяй"}),
    ("В клетку [b]Кикимору[/b]!", {"vote": "Кикимора"}),
    ("Голосую за нашего милого [b]Васю[/b]", {"vote": "Вася"}),
    ("[b]Гошу в тюрьму![/b] Нет, [b]Фроло в тюрьму![/b]", {"vote": "Фроло"}),
    ("[b]В тюрьму\nКрасную Шапочку[/b]", {"vote": "Красная Шапочка"}),
    ("[b]Снимаю голос[/b]", "unvote"),
    ("Снимаю голос с [b]Васи[/b]", "unvote"),
    ("[b]За мир[/b]", "peace"),
    ("[b]Голосую за мир[/b]", "peace"),
    ("[b]Казнить Петю[/b]", {"vote": "Петя"}),
]


@pytest.mark.parametrize(("text", "cast"), NATIVE)
def test_the_rule_sets_words_cast_nothing_when_the_game_has_them_off_and_say_why(text, cast):
    with_words = read(text, DEFAULT_PROFILE.with_peace(True)).to_json()
    assert with_words["final"] == cast  # the words on: the same text counts
    reading = read(text, HASH_ONLY.with_peace(True))
    assert reading.final is None
    assert reading.votes and all(v.reason == "syntax_disabled" and not v.valid for v in reading.votes)


@pytest.mark.parametrize("text", ["Голос: [b]Петя[/b]", "Переголосование: [b]Петя[/b]"])
def test_a_rule_sets_extra_words_are_its_own_words_too(text):
    """Club's «Голос: X» (its vote_intent_words) is read with the club's words, off with them."""
    assert read(text, CLUB).to_json()["final"] == {"vote": "Петя"}
    reading = read(text, CLUB.only_syntaxes({"hash_vote"}))
    assert reading.final is None and [v.reason for v in reading.votes] == ["syntax_disabled"]


@pytest.mark.parametrize("text", ["[b]Вася[/b] ведёт себя странно", "[b]Негодяй[/b]", "Кто такой [b]Miar[/b]?"])
def test_a_bold_name_alone_is_talk_in_a_game_without_the_words(text):
    """With the words on, a bold name alone is told `no_intent` (a vote that forgot its word); in a
    `##vote` game bold is emphasis, not a vote attempt: nothing is listed."""
    assert [v.reason for v in read(text, DEFAULT_PROFILE).votes] == ["no_intent"]
    assert read(text, HASH_ONLY).votes == ()


@pytest.mark.parametrize("text", ["[b]Vote: Bob[/b]", "[b]VOTE: Miar[/b]", "[b]UNVOTE[/b]"])
def test_a_bold_english_vote_is_told_not_counted_in_a_hash_only_game(text):
    reading = read(text, HASH_ONLY)
    assert reading.final is None and [v.reason for v in reading.votes] == ["syntax_disabled"]


def test_a_hash_vote_after_a_native_vote_counts_and_the_native_one_is_listed():
    reading = read("[b]В тюрьму Негодяя[/b]\n##vote Bob", HASH_ONLY)
    assert reading.to_json() == {"final": {"vote": "Bob"},
                                 "votes": [{"vote": "Негодяй", "reason": "syntax_disabled"}, {"vote": "Bob"}]}
    # and the other way round: the words on, the hash off
    reading = read("[b]В тюрьму Негодяя[/b]\n##vote Bob", DEFAULT_PROFILE)
    assert reading.to_json()["final"] == {"vote": "Негодяй"}


def test_the_english_words_alone_read_without_the_russian_ones():
    bold_only = DEFAULT_PROFILE.only_syntaxes({"bold_vote"})
    assert read("[b]Vote: Bob[/b]", bold_only).to_json()["final"] == {"vote": "Bob"}
    assert read("[b]Unvote[/b]", bold_only).to_json()["final"] == "unvote"
    assert read("[b]Vote: no lynch[/b]", bold_only.with_peace(True)).to_json()["final"] == "peace"
    assert read("[b]В тюрьму Негодяя[/b]", bold_only).to_json() == {
        "final": None, "votes": [{"vote": "Негодяй", "reason": "syntax_disabled"}]}


# Posts of every kind: the syntaxes other than the rule set's words read them the same with or
# without those words (the class: switching `native` off changes nothing else).
MIXED = [text for text, _cast in NATIVE] + [
    "##vote Bob", "##vote Miar\n##unvote", "[vote]Вася[/vote]", "[v]Фроло[/v] [unvote]", "[b]Vote: Bob[/b]",
    "##vote Negodyai", "[b]В тюрьму Негодяя[/b]\n##vote Bob", "##vote Bob\n[b]В тюрьму Негодяя[/b]",
    "[quote][b]В тюрьму Васю[/b][/quote]##vote Кикимора", "##vote: no lynch", "[b]Vote: no lynch[/b]",
    "Голосую за [b]Васю[/b], а потом ##vote Петя", "[b]Vote: Вася. В тюрьму Петю[/b]",
]


@pytest.mark.parametrize("text", MIXED)
@pytest.mark.parametrize("others", [frozenset({"hash_vote", "hash_unvote"}), frozenset(SYNTAXES - {"native"}),
                                    frozenset({"bold_vote"}), frozenset({"vote_tag", "v_tag", "unvote_tag"})])
def test_switching_the_words_off_changes_only_what_they_read(text, others):
    on = read(text, DEFAULT_PROFILE.only_syntaxes(others | {"native"}).with_peace(True))
    off = read(text, DEFAULT_PROFILE.only_syntaxes(others).with_peace(True))

    def shape(v):
        return v.kind, v.target, v.start, v.end, v.syntax

    assert [shape(v) for v in off.votes if v.valid] == [shape(v) for v in on.votes if v.valid and v.syntax != "native"]
    assert not any(v.valid for v in off.votes if v.syntax == "native")
    assert all(v.reason == "syntax_disabled" for v in off.votes if v.syntax == "native")


def test_the_words_are_a_syntax_of_every_profile_unless_left_out():
    assert "native" in SYNTAXES and "native" in DEFAULT_PROFILE.syntaxes
    assert "native" in INTERNATIONAL_PROFILE.syntaxes and "native" in profile_named("forum").syntaxes
    assert "native" in VoteProfile().syntaxes  # a rule set's own profile reads its words
    assert "native" not in DEFAULT_PROFILE.only_syntaxes({"hash_vote"}).syntaxes
    assert set(SYNTAX_ORDER) == SYNTAXES and len(SYNTAX_ORDER) == len(SYNTAXES)


@pytest.mark.parametrize("syntax", sorted(SYNTAXES - {"native"}))
def test_each_syntaxs_written_forms_are_read_back_by_that_syntax_alone(syntax):
    """The forms the site writes for a game (vote buttons, the GM's choices, the hint to a poster)
    are read by the reader under that syntax alone — a button never writes a vote the game refuses."""
    vote_form, unvote_form, peace_form = SYNTAX_EXAMPLES[syntax]
    alone = DEFAULT_PROFILE.only_syntaxes({syntax}).with_peace(True)
    assert (vote_form is not None) == (syntax in CASTING_SYNTAXES)
    if vote_form is not None:
        assert read(vote_form.format(name="Красная Шапочка"), alone).to_json()["final"] == {"vote": "Красная Шапочка"}
        assert read(vote_form.format(name="Miar"), alone).to_json()["final"] == {"vote": "Miar"}
    if unvote_form is not None:
        assert read(unvote_form, alone).to_json()["final"] == "unvote"
    if peace_form is not None:
        assert read(peace_form, alone).to_json()["final"] == "peace"


def test_the_written_form_is_the_first_syntax_on_that_can_write_the_kind():
    assert written_form("vote", {"hash_vote", "hash_unvote"}) == "##vote {name}"
    assert written_form("unvote", {"hash_vote", "hash_unvote"}) == "##unvote"
    assert written_form("unvote", {"hash_vote"}) is None  # no way to withdraw in such a game
    assert written_form("vote", {"v_tag", "bold_vote"}) == "[b]VOTE: {name}[/b]"
    assert written_form("peace", {"unvote_tag"}) is None


# --- The command mirrors any game's setting ------------------------------------------------------
def parse_vote(*args, stdin):
    out = StringIO()
    call_command("parse_vote", *args, stdin=StringIO(stdin), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


@pytest.mark.parametrize(("only", "text", "final", "reason"), [
    (["native"], "[b]В тюрьму Васю[/b]", {"vote": "Вася"}, None),
    (["native"], "##vote Bob", None, "syntax_disabled"),
    (["native"], "[b]Vote: Bob[/b]", None, "syntax_disabled"),
    (["hash_vote", "hash_unvote"], "[b]В тюрьму Васю[/b]", None, "syntax_disabled"),
    (["hash_vote", "hash_unvote"], "##vote Bob", {"vote": "Bob"}, None),
    (["native", "hash_vote"], "[b]В тюрьму Васю[/b]\n##vote Bob", {"vote": "Bob"}, None),
])
def test_parse_vote_only_syntax_takes_the_rule_sets_words_as_a_syntax(db, only, text, final, reason):
    args = [arg for syntax in only for arg in ("--only-syntax", syntax)]
    (result,) = parse_vote(*args, "--player", "Вася", "--player", "Bob", stdin=text)
    assert result["final"] == final
    if reason:
        assert [v["reason"] for v in result["votes"]] == [reason]


def test_json_lines_carry_a_games_settings_per_case(db):
    lines = [
        {"players": ["Вася", "Bob"], "text": "[b]В тюрьму Васю[/b]"},
        {"players": ["Вася", "Bob"], "text": "[b]В тюрьму Васю[/b]", "syntaxes": ["hash_vote"]},
        {"players": ["Вася", "Bob"], "text": "[spoiler]##vote Bob[/spoiler]", "syntaxes": ["hash_vote"],
         "spoilers": True},
        {"players": ["Вася", "Bob"], "text": "##vote Bob", "syntaxes": ["hash"]},
        {"players": ["Вася", "Bob"], "text": "[b]За мир[/b]", "peace": "yes"},
    ]
    out = parse_vote("--jsonl", stdin="\n".join(json.dumps(c, ensure_ascii=False) for c in lines))
    assert [r["final"] for r in out] == [{"vote": "Вася"}, None, {"vote": "Bob"}, None, None]
    assert out[1]["votes"] == [{"vote": "Вася", "reason": "syntax_disabled"}]
    assert "unknown vote syntax 'hash'" in out[3]["error"] and "'peace' must be true or false" in out[4]["error"]
