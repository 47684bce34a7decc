"""Issue 16: vote reading on posts as players really write them, one test per class of miss.

The posts are our own, written the way forum players write: shortened nicknames, typos, the
`##vote` family with its variants, Russian word order and line breaks, club phrasing. Each
class is tested with several members, not just the example the issue quotes."""

import pytest

from games.text.names import RosterMatcher
from games.text.votes import DEFAULT_PROFILE, INTERNATIONAL_PROFILE, VoteProfile, parse_votes

ENGLISH = ["ImVladTheGreat", "TheNightOwl", "Pike2077", "KingWithoutSword", "MadKnight", "TheQuietBard",
           "Miar", "Quillan", "Stormbringer", "Bob", "Darkwing Duck", "Ravenclaw99"]
RUSSIAN = ["Кикимора", "Красная Шапочка", "Гоша", "Лёша", "Петя", "Вася", "Эсмеральда", "Маленький Джон",
           "Баба Яга", "Кощей"]
HASH_ONLY = VoteProfile(name="hash", syntaxes=frozenset({"hash_vote", "hash_unvote"}))


def final(text, players=ENGLISH, profile=INTERNATIONAL_PROFILE):
    return parse_votes(text, RosterMatcher(players), profile=profile).to_json()["final"]


def votes(text, players=ENGLISH, profile=INTERNATIONAL_PROFILE):
    return parse_votes(text, RosterMatcher(players), profile=profile).to_json()["votes"]


# --- Names as players write them --------------------------------------------------------------
@pytest.mark.parametrize(("written", "player"), [
    ("Vlad", "ImVladTheGreat"), ("VladTheGreat", "ImVladTheGreat"), ("NightOwl", "TheNightOwl"),
    ("Owl", "TheNightOwl"), ("Pike", "Pike2077"), ("Sword", "KingWithoutSword"), ("Raven", "Ravenclaw99"),
    ("the night owl", "TheNightOwl"), ("the quiet bard", "TheQuietBard"), ("Darkwing", "Darkwing Duck"),
])
def test_a_part_of_a_compound_nickname_names_its_player_when_only_one_fits(written, player):
    """Players shorten CamelCase and digit-split nicknames to a part, drop the article, or spell
    the parts out."""
    assert final(f"Scummy all day.\n##vote {written}") == {"vote": player}


@pytest.mark.parametrize(("written", "player"), [("KWS", "KingWithoutSword"), ("MK", "MadKnight"),
                                                 ("TQB", "TheQuietBard"), ("TNO", "TheNightOwl"),
                                                 ("DD", "Darkwing Duck")])
def test_initials_name_the_player_when_written_in_capitals(written, player):
    assert final(f"##vote {written}") == {"vote": player}
    assert final(f"##vote {written.lower()}") is None  # "mk" in lower case is a word, not initials


def test_a_part_two_players_share_is_refused_as_ambiguous_never_guessed():
    players = ["TheNightOwl", "NightHawk", "OwlBear"]
    assert votes("##vote Night", players) == [{"vote": None, "reason": "name_ambiguous"}]
    assert votes("##vote Owl", players) == [{"vote": None, "reason": "name_ambiguous"}]
    assert final("##vote Hawk", players) == {"vote": "NightHawk"}
    reading = parse_votes("##vote Night", RosterMatcher(players), profile=INTERNATIONAL_PROFILE)
    assert set(reading.votes[0].candidates) == {"TheNightOwl", "NightHawk"}


@pytest.mark.parametrize(("text", "player"), [
    ("[b]В тюрьму Кики[/b]", "Кикимора"), ("[b]В тюрьму Эсме[/b]", "Эсмеральда"), ("[b]Посадить Кощ[/b]", "Кощей"),
    ("[b]В тюрьму Красную[/b]", "Красная Шапочка"), ("[b]Голосую за Бабу[/b]", "Баба Яга"),
    ("[b]В тюрьму Маленького[/b]", "Маленький Джон"),
])
def test_russian_short_forms_name_the_player_with_inflection(text, player):
    """The first word of a two-word name (in its case form) and a unique prefix (Кики → Кикимора)."""
    assert final(text, RUSSIAN, DEFAULT_PROFILE) == {"vote": player}


def test_a_prefix_two_players_share_is_ambiguous():
    players = ["Кикимора", "Кикиморка", "Вася"]
    assert votes("[b]В тюрьму Кики[/b]", players, DEFAULT_PROFILE) == [{"vote": None, "reason": "name_ambiguous"}]


@pytest.mark.parametrize(("written", "player"), [
    ("Mrai", "Miar"), ("Quillon", "Quillan"), ("Stormbrigner", "Stormbringer"), ("Quilan", "Quillan"),
    ("Strombringer", "Stormbringer"), ("ImVladTheGreta", "ImVladTheGreat"),
])
def test_a_typo_in_a_name_is_read_when_one_player_is_closest(written, player):
    """A swapped pair of letters counts as one edit; the edits allowed grow with the length."""
    assert final(f"##vote {written}") == {"vote": player}


@pytest.mark.parametrize("written", ["Bobo", "Miur", "Qxillxn", "Stormbreaker"])
def test_a_name_too_far_for_its_length_is_not_guessed(written):
    # "Bobo" and "Miur": one letter off (not a swap, not a doubled letter) in four letters is another name.
    assert final(f"##vote {written}") is None


def test_a_typo_equally_close_to_two_players_is_ambiguous():
    players = ["Quillan", "Quillen"]
    assert votes("##vote Quillon", players) == [{"vote": None, "reason": "name_ambiguous"}]


def test_an_unresolved_name_after_an_unvote_is_listed_so_the_poster_can_be_told():
    """`##unvote` then `##vote <name nobody has>`: the post's vote is the unvote, and the failed
    vote after it is listed with its reason (the site tells the poster, games/services/votes.py)."""
    reading = votes("##unvote\n##vote Zorro")
    assert reading == ["unvote", {"vote": None, "reason": "name_unknown"}]


# --- The ##vote family and the profiles ---------------------------------------------------------
@pytest.mark.parametrize("text", ["## vote Miar", "#vote Miar", "#vote: Miar", "##VOTE Miar", "## Vote: Miar",
                                  "##vote:\n\nMiar", "##vote\nMiar"])
def test_hash_vote_variants_are_read_unbolded(text):
    assert final(text) == {"vote": "Miar"}


@pytest.mark.parametrize("text", ["##unvote", "## unvote", "#unvote"])
def test_hash_unvote_variants_are_read(text):
    assert final("##vote Miar\n" + text) == "unvote"


@pytest.mark.parametrize("text", ["##vote: no-lynch", "##vote no lynch", "##vote nolynch", "[b]vote: no-lynch[/b]"])
def test_no_lynch_is_read_in_every_spelling(text):
    assert final(text, profile=INTERNATIONAL_PROFILE.with_peace(True)) == "peace"


def test_a_hash_only_game_does_not_count_bold_english_votes_and_says_why():
    """The English words are the `bold_vote` syntax: a game that enables only `##vote` does not
    count `[b]Vote: X[/b]` (the host did not), and the poster reads `syntax_disabled`."""
    assert final("[b]Vote: Miar[/b]", profile=HASH_ONLY) is None
    assert votes("[b]Vote: Miar[/b]", profile=HASH_ONLY) == [{"vote": None, "reason": "syntax_disabled"}]
    assert votes("[b]UNVOTE[/b]", profile=HASH_ONLY) == [{"unvote": True, "reason": "syntax_disabled"}]
    assert final("[b]Vote: Miar[/b] … later:\n##vote Quillan", profile=HASH_ONLY) == {"vote": "Quillan"}
    assert final("[b]Vote: Miar[/b]", profile=HASH_ONLY.with_syntaxes({"bold_vote"})) == {"vote": "Miar"}


def test_votes_inside_spoilers_count_only_when_the_game_says_so():
    text = "[spoiler=старый пост][b]В тюрьму Гошу[/b][/spoiler]\nНу и что он тут писал?"
    assert final(text, RUSSIAN, DEFAULT_PROFILE) is None
    assert final(text, RUSSIAN, DEFAULT_PROFILE.with_spoilers()) == {"vote": "Гоша"}
    assert final(text, RUSSIAN, DEFAULT_PROFILE.with_spoilers().with_spoilers(False)) is None


@pytest.mark.parametrize("text", [
    "I'll unvote you if you keep this up.", "Honestly I'd rather unvote than guess.",
    "Я бы голосовать не стал, но в тюрьму Гошу отправил бы.", "голосовать не буду", "Кто будет голосовать за Петю?",
    "Я думаю, в тюрьму Лёшу надо, но подожду.",
])
def test_talk_that_mentions_vote_words_gives_no_warning(text):
    assert votes(text, RUSSIAN + ENGLISH, INTERNATIONAL_PROFILE) == []


@pytest.mark.parametrize(("text", "reason"), [("В тюрьму Гошу.", "not_bold"), ("Снимаю голос", "not_bold"),
                                              ("- в тюрьму Лёшу", "not_bold")])
def test_a_vote_shaped_line_without_bold_is_still_told_why(text, reason):
    found = votes(text, RUSSIAN, DEFAULT_PROFILE)
    assert found and found[0]["reason"] == reason


# --- Russian forms ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "player"), [
    ("[b]Гошу в тюрьму![/b]", "Гоша"), ("[b]Лёшу — в тюрьму[/b]", "Лёша"), ("[b]Кикимору, в клетку![/b]", "Кикимора"),
    ("[b]Красную Шапочку - посадить[/b]", "Красная Шапочка"),
])
def test_name_before_the_intent_in_the_same_bold_counts(text, player):
    assert final(text, RUSSIAN, DEFAULT_PROFILE) == {"vote": player}


def test_name_before_the_intent_does_not_steal_an_earlier_vote():
    text = "[b]В тюрьму Гошу. Лёшу — в тюрьму[/b]"
    assert votes(text, RUSSIAN, DEFAULT_PROFILE) == [{"vote": "Гоша"}, {"vote": "Лёша"}]


@pytest.mark.parametrize(("text", "player"), [("[b]В тюрьму\nГошу[/b]", "Гоша"),
                                              ("[b]Голосую за\n  Красную Шапочку[/b]", "Красная Шапочка")])
def test_a_line_break_inside_the_bold_between_intent_and_name_counts(text, player):
    assert final(text, RUSSIAN, DEFAULT_PROFILE) == {"vote": player}


def test_a_line_break_outside_the_bold_still_separates_intent_and_name():
    assert final("В тюрьму\n[b]Гошу[/b]", RUSSIAN, DEFAULT_PROFILE) is None


CLUB = DEFAULT_PROFILE.with_intent_words(("голос", "переголосование"))


@pytest.mark.parametrize("text", ["Голос: [b]Петя[/b]", "Мой голос — [b]Петя[/b]", "Переголосование: [b]Петя[/b]",
                                  "[b]Голос: Петя[/b]", "Голосую за [b]Петю[/b]"])
def test_club_players_vote_words_are_read_in_a_club_game(text):
    assert final(text, RUSSIAN, CLUB) == {"vote": "Петя"}


def test_club_vote_words_are_not_forum_vote_words():
    assert final("Голос: [b]Петя[/b]", RUSSIAN, DEFAULT_PROFILE) is None
    assert final("[b]Снимаю голос[/b]", RUSSIAN, CLUB) == "unvote"


@pytest.mark.parametrize(("text", "players"), [
    ("[b]В тюрьму его![/b]", ["Егор", "Вася"]), ("[b]Голосую за него[/b]", ["Негодяй", "Вася"]),
    ("[b]В тюрьму всех[/b]", ["Всеволод", "Вася"]), ("[b]Посадить эту[/b]", ["Эдуарда", "Эту-Эту"]),
    ("##vote him", ["Himmel", "Bob"]), ("[b]Vote: them[/b]", ["Themis", "Bob"]),
])
def test_a_pronoun_is_never_read_as_a_shortened_name(text, players):
    """«В тюрьму его!» points at someone without naming him: no player whose name starts with
    «его» (Егор) may be read from it, nor Негодяй from «него»."""
    assert final(text, players, INTERNATIONAL_PROFILE) is None


# --- Issue 29: handles as players shorten them on real `##vote` posts ------------------------------
@pytest.mark.parametrize(("written", "player"), [
    ("Miiar", "Miar"), ("Miarr", "Miar"), ("Bobb", "Bob"), ("Booob", "Bob"), ("Quilllan", "Quillan"),
])
def test_a_doubled_letter_is_one_edit_whatever_the_length(written, player):
    """Players stretch a short handle («Miiar», «Bobb»): a letter written twice (or once for a double)
    counts as one edit even where a short name allows no other typo. Only in Latin handles: a
    Russian name with a doubled letter («Вассю») is refused with «Может быть, Вася?» (item 7)."""
    assert final(f"##vote {written}") == {"vote": player}
    assert final("##vote Вассю", RUSSIAN) is None


@pytest.mark.parametrize(("written", "player"), [
    ("Фурия", "Ночная_Фурия"), ("Фурию", "Ночная_Фурия"), ("Ночная", "Ночная_Фурия"), ("Мария", "Анна-Мария"),
    ("Рыцаря", "ТёмныйРыцарь"), ("Шторм", "Шторм_2007"), ("Vlad", "[RU]Vlad"), ("Lena", "Lena_RU"),
])
def test_a_part_of_a_joined_russian_handle_names_its_player(written, player):
    """A handle joined by an underscore, a hyphen, digits or CamelCase is shortened to a part in
    Russian too, inflected («в тюрьму Фурию»), and a clan tag is dropped."""
    players = ["Ночная_Фурия", "Анна-Мария", "ТёмныйРыцарь", "Шторм_2007", "[RU]Vlad", "Lena_RU", "Вася"]
    assert final(f"##vote {written}", players) == {"vote": player}


def test_a_part_two_joined_handles_share_is_refused_with_both():
    players = ["Ночная_Фурия", "Дневная_Фурия", "Вася"]
    reading = parse_votes("##vote Фурия", RosterMatcher(players), profile=INTERNATIONAL_PROFILE)
    assert reading.votes[0].target is None and set(reading.votes[0].candidates) == {"Ночная_Фурия", "Дневная_Фурия"}
