"""Issue 29: `manage.py parse_vote --score FILE` measures how a corpus of posts is read — the share
of posts and of votes read as meant, the misreads, the names read by a short form or a typo — and
refuses a corpus it cannot read as written, naming the case and the key, printing nothing else."""

import json
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.text.test_votes import SAMPLES, SAMPLES_PATH

CORPUS = Path(__file__).parent / "data" / "real_posts_corpus.yaml"
PLAYERS = ["Вася", "Негодяй", "Quillan", "Bob", "Miar"]


def score(path, *args):
    out = StringIO()
    call_command("parse_vote", "--score", str(path), *args, stdout=out)
    text = out.getvalue()
    return text, json.loads(text.strip().splitlines()[-1])


def corpus(tmp_path, cases, name="corpus.yaml", **top):
    path = tmp_path / name
    path.write_text(yaml.safe_dump({**top, "cases": cases}, allow_unicode=True), encoding="utf-8")
    return path


def refused(path, *args):
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("parse_vote", "--score", str(path), *args, stdout=out)
    assert out.getvalue() == ""  # nothing scored, nothing printed
    return str(error.value)


def test_the_specs_samples_are_all_read_as_meant():
    _text, figures = score(SAMPLES_PATH)
    posts = len(SAMPLES["cases"])
    votes = sum(1 for c in SAMPLES["cases"] if c["final"] is not None)
    assert figures["posts"] == posts and figures["votes"] == votes and 0 < votes < posts
    assert (figures["posts_percent"], figures["votes_percent"], figures["misreads"]) == (100.0, 100.0, 0)


def test_our_own_real_style_posts_are_all_read_as_meant_and_their_short_forms_counted():
    """The cases of tests/text/test_votes_real_posts.py as a corpus, each with its game's settings."""
    _text, figures = score(CORPUS)
    assert figures["posts"] == figures["posts_right"] > 90 and figures["votes"] == figures["votes_right"]
    assert figures["guesses"] > 0 and figures["guesses_wrong"] == 0
    assert set(figures["guesses_by_method"]) <= {"partial", "nickname", "prefix", "fuzzy"}


def test_a_misread_is_counted_and_listed_with_what_was_meant_and_what_was_read(tmp_path):
    path = corpus(tmp_path, [
        {"players": PLAYERS, "text": "[b]В тюрьму Негодяя[/b]", "final": {"vote": "Негодяй"}},
        {"players": PLAYERS, "text": "[b]В тюрьму Бэтмена[/b]", "final": {"vote": "Вася"}, "id": "batman"},
        {"players": PLAYERS, "text": "Я бы всех в тюрьму отправил.", "final": None},
        {"players": PLAYERS, "text": "[b]В тюрьму Васю[/b]", "final": None, "note": "read, but not meant"},
    ])
    text, figures = score(path)
    assert (figures["posts"], figures["posts_right"], figures["posts_percent"]) == (4, 2, 50.0)
    # votes: the posts whose expected final is a ballot (two here), right when read as it
    assert (figures["votes"], figures["votes_right"], figures["votes_percent"]) == (2, 1, 50.0)
    assert figures["misreads"] == 2
    assert 'case 2 (batman): expected {"vote": "Вася"}, read null — refused name_unknown' in text
    assert 'case 4: expected null, read {"vote": "Вася"}' in text
    assert "Posts read as meant: 2/4 = 50.0 %" in text and "Votes read as meant: 1/2 = 50.0 %" in text


def test_names_read_by_a_short_form_or_a_typo_are_counted_apart_right_or_wrong(tmp_path):
    path = corpus(tmp_path, [
        {"players": PLAYERS, "text": "##vote Miiar", "final": {"vote": "Miar"}},
        {"players": PLAYERS, "text": "##vote Quillon", "final": {"vote": "Bob"}},  # the reader's guess is not it
        {"players": PLAYERS, "text": "##vote Bob", "final": {"vote": "Bob"}},  # exact: no guess
    ], settings={"profile": "international"})
    text, figures = score(path)
    assert (figures["guesses"], figures["guesses_wrong"], figures["guesses_by_method"]) == (2, 1, {"fuzzy": 2})
    assert 'case 1: read {"vote": "Miar"} from «##vote Miiar» by fuzzy — right' in text
    assert 'case 2: read {"vote": "Quillan"} from «##vote Quillon» by fuzzy — WRONG, expected {"vote": "Bob"}' in text


def test_each_case_is_read_with_its_games_settings(tmp_path):
    """A `##vote`-only game (`syntaxes`), peace, spoilers: as the GM's vote options set a game."""
    cases = [
        {"players": PLAYERS, "text": "[b]В тюрьму Негодяя[/b]", "final": None,
         "syntaxes": ["hash_vote", "hash_unvote"]},
        {"players": PLAYERS, "text": "[b]В тюрьму Негодяя[/b]\n##vote Bob", "final": {"vote": "Bob"},
         "syntaxes": ["hash_vote", "hash_unvote"]},
        {"players": PLAYERS, "text": "[b]За мир[/b]", "final": "peace", "peace": True},
        {"players": PLAYERS, "text": "[spoiler][b]В тюрьму Васю[/b][/spoiler]", "final": {"vote": "Вася"},
         "spoilers": True},
    ]
    assert score(corpus(tmp_path, cases))[1]["posts_right"] == 4
    bare = [{k: v for k, v in c.items() if k not in ("syntaxes", "peace", "spoilers")} for c in cases]
    assert score(corpus(tmp_path, bare))[1]["posts_right"] == 0
    # the same settings for every case: the corpus's `settings`, or the command's options
    hash_cases = cases[:2]
    plain = [{k: v for k, v in c.items() if k != "syntaxes"} for c in hash_cases]
    path = corpus(tmp_path, plain, settings={"syntaxes": ["hash_vote", "hash_unvote"]})
    assert score(path)[1]["posts_right"] == 2
    path = corpus(tmp_path, plain)
    assert score(path, "--only-syntax", "hash_vote", "--only-syntax", "hash_unvote")[1]["posts_right"] == 2
    assert score(path)[1]["posts_right"] == 0


def test_a_corpus_of_json_lines_is_scored_too(tmp_path):
    lines = [json.dumps(c, ensure_ascii=False) for c in SAMPLES["cases"]]
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    assert score(path)[1]["posts_right"] == len(SAMPLES["cases"])
    other = tmp_path / "corpus.txt"
    other.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    assert score(other, "--jsonl")[1]["posts_right"] == len(SAMPLES["cases"])
    other.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    assert "line 2: not JSON" in refused(other, "--jsonl")


@pytest.mark.parametrize(("case", "message"), [
    ({"players": PLAYERS, "text": "x", "finale": None}, "case 2: unknown key 'finale'"),
    ({"players": PLAYERS, "text": "x", "final": None, "syntax": ["hash_vote"]}, "case 2: unknown key 'syntax'"),
    ({"players": PLAYERS, "text": "x", "final": None, "id": "q7", "speler": 1}, "case 2 (q7): unknown key 'speler'"),
    ({"players": PLAYERS, "text": "x"}, "case 2: missing key 'final'"),
    ({"text": "x", "final": None}, "case 2: missing key 'players'"),
    ({"players": PLAYERS, "text": "x", "final": {"vote": "Зорро"}}, "case 2: 'final' votes for 'Зорро'"),
    ({"players": PLAYERS, "text": "x", "final": "vote"}, "case 2: 'final' must be"),
    ({"players": PLAYERS, "text": "x", "final": {"vote": "Вася", "x": 1}}, "case 2: 'final' must be"),
    ({"players": PLAYERS, "text": 5, "final": None}, "case 2: 'text' must be a string"),
    ({"players": "Вася", "text": "x", "final": None}, "case 2: 'players' must be a list"),
    ({"players": [["Вася", "alias", 3]], "text": "x", "final": None}, "case 2: 'players':"),
    ({"players": PLAYERS, "text": "x", "final": None, "syntaxes": ["hash"]}, "case 2: 'syntaxes': unknown vote syntax 'hash'"),
    ({"players": PLAYERS, "text": "x", "final": None, "peace": "yes"}, "case 2: 'peace' must be true or false"),
    ({"players": PLAYERS, "text": "x", "final": None, "profile": "chess"}, "case 2: unknown vote profile 'chess'"),
    (["Вася", "x"], "case 2: a case is a mapping"),
])
def test_a_wrong_case_is_refused_naming_the_case_and_the_key(tmp_path, case, message):
    good = {"players": PLAYERS, "text": "[b]В тюрьму Васю[/b]", "final": {"vote": "Вася"}}
    error = refused(corpus(tmp_path, [good, case]))
    assert message in error, error


@pytest.mark.parametrize(("top", "message"), [
    ({"setings": {}}, "unknown key 'setings' at the top"),
    ({"settings": {"syntax": ["hash_vote"]}}, "settings: unknown key 'syntax'"),
    ({"settings": {"syntaxes": ["nope"]}}, "settings: 'syntaxes': unknown vote syntax 'nope'"),
    ({"settings": ["hash_vote"]}, "'settings' must be a mapping"),
])
def test_a_wrong_key_at_the_top_or_in_the_settings_is_refused(tmp_path, top, message):
    good = {"players": PLAYERS, "text": "[b]В тюрьму Васю[/b]", "final": {"vote": "Вася"}}
    assert message in refused(corpus(tmp_path, [good], **top))


def test_a_file_that_is_no_corpus_is_refused(tmp_path):
    path = tmp_path / "corpus.yaml"
    path.write_text("- just\n- a list\n", encoding="utf-8")
    assert "a corpus is a mapping with 'cases'" in refused(path)
    path.write_text("cases: [\n", encoding="utf-8")
    assert "not YAML" in refused(path)
    assert "cannot read" in refused(tmp_path / "missing.yaml")
