"""The cards Veche's count in its own words (issue 29, item 2): the thread page, the live fragment,
the count page and the GM's count post of a cards game say what decides the Veche (its leader is
punished whatever the margin; only a strict majority for peace spares everyone), what the votes
standing now would do, and each vote's weight beside its voter — no forum «Большинство» nor L-n.
The forum's count keeps its majority and L-n.

«По окончании дня персонаж, набравший больше всего голосов, получает 6 урона, если была выбрана
казнь. Если же была выбрана тюрьма, он теряет карты из рукава ... Если строгое большинство голосов
"за мир", то казни и посадки не происходит.»
"""

import re

import pytest

from games.models import Game
from django.urls import reverse

from games.selectors.votes import vote_count
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.votes import vote_count_bbcode
from tests.conftest import client_for
from tests.games.test_cards_services import cards_game, to_day

FORUM_COUNT_WORDS = ("Большинство", "большинство", "L-")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The count fragment is cached per ledger version, bumped on commit, which a test inside one
    transaction never reaches: a fragment cached by another test of the same ids must not show."""
    from django.core.cache import cache

    cache.clear()


def _say(game, users, name, body):
    game.refresh_from_db()
    post_submit(thread=game.game_thread, author=users[name], body=body)


def _count_block(html: str) -> str:
    """The count's box of a page (the thread page holds posts too)."""
    start = html.index('class="vote-count')
    return html[start:html.index("</div>", start)]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def _pages(game, viewer) -> dict[str, str]:
    """The count as each reader meets it: the game thread, its live fragment, the count page."""
    client = client_for(viewer)
    return {
        "thread": client.get(game.game_thread.get_absolute_url()).content.decode(),
        "live": client.get(reverse("games:votes_live", args=[game.pk])).content.decode(),
        "votes": client.get(reverse("games:votes", args=[game.pk])).content.decode(),
    }


@pytest.mark.django_db
def test_cards_count_speaks_the_veche_and_shows_each_weight_when_an_authority_votes():
    """«Авторитет +1 к силе голоса (голос считается за 2)»: Петя's 3 votes are Вася's 2 and Маша's
    1, each shown beside its voter; the leader by one vote is punished, the measure execution
    (2 against 1)."""
    game, _gm, users, seats = cards_game(overt={"Вася": "Авторитет"})
    to_day(game)
    _say(game, users, "Вася", "[b]Казнить Петю![/b]")
    _say(game, users, "Маша", "[b]В тюрьму Петю[/b]")
    _say(game, users, "Глаша", "[b]Голосую за Васю[/b]")
    _say(game, users, "Паша", "[b]За мир[/b]")
    for viewer in (None, users["Маша"], _gm):
        for where, html in _pages(game, viewer).items():
            box = _text(_count_block(html))
            assert not any(word in box for word in FORUM_COUNT_WORDS), (where, box)
            assert "Вече наказывает лидера голосования при любом перевесе" in box, where
            assert "Если бы день закончился сейчас: казнь: Петя (6 урона)" in box, (where, box)
            assert "Вася ×2" in box and "Маша ×1" in box and "Глаша ×1" in box and "Паша ×1" in box, (where, box)
            assert "лидер — наказание" in box, where
            assert "для мира нужно больше 2,5" in box, (where, box)  # 1 of 5 cast
            assert "казнь — 2 (Вася ×2)" in box and "тюрьма — 1 (Маша ×1)" in box, (where, box)
    bbcode = vote_count_bbcode(vote_count(phase=game.current_phase))
    assert "L-" not in bbcode and "большинство:" not in bbcode
    assert "Вася ×2 (#" in bbcode and "казнь: Петя" in bbcode
    # What the count said is what the close does.
    phase = game.current_phase
    phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["executed"] == ["Петя"]


@pytest.mark.django_db
def test_cards_count_says_prison_when_the_measure_ties_and_the_lead_is_one_vote():
    """«При равенстве голосов побеждает тюрьма»: a lead of one vote is punished, and a measure tie
    (1 against 1) is prison — the count says so before the close, and the close agrees."""
    game, _gm, users, seats = cards_game()
    to_day(game)
    _say(game, users, "Вася", "[b]Казнить Петю[/b]")
    _say(game, users, "Маша", "[b]Голосую за Глашу[/b], мера — [b]тюрьма[/b]")
    _say(game, users, "Паша", "[b]Голосую за Петю[/b]")
    count = vote_count(phase=game.current_phase)
    assert count.words is not None
    assert count.words.outcome.startswith("Если бы день закончился сейчас: тюрьма: Петя")
    phase = game.current_phase
    phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["imprisoned"] == ["Петя"]
    closed = vote_count(phase=phase)
    assert closed.words.outcome.startswith("Итог Вече: тюрьма: Петя")


@pytest.mark.django_db
def test_cards_count_says_nobody_is_punished_when_peace_holds_a_strict_majority():
    """«Если строгое большинство голосов "за мир", то казни и посадки не происходит»: 3 of 5 for
    peace spares everyone; 2 of 4 is not a strict majority and the leader is punished."""
    game, _gm, users, seats = cards_game()
    to_day(game)
    _say(game, users, "Вася", "[b]За мир[/b]")
    _say(game, users, "Маша", "[b]За мир[/b]")
    _say(game, users, "Глаша", "[b]Казнить Петю[/b]")
    _say(game, users, "Паша", "[b]Казнить Петю[/b]")
    half = vote_count(phase=game.current_phase)
    assert "казнь: Петя" in half.words.outcome
    peace_wagon = next(w for w in half.wagons if w.target is None)
    assert peace_wagon.note == "для мира нужно больше 2"
    _say(game, users, "Петя", "[b]За мир[/b]")
    count = vote_count(phase=game.current_phase)
    assert count.words.outcome == ("Если бы день закончился сейчас: никого не наказывают: строгое большинство "
                                   "«за мир» (3 из 5).")
    assert next(w for w in count.wagons if w.target is None).note == "строгое большинство: никого не наказывают"
    text = _text(_count_block(_pages(game, users["Вася"])["live"]))
    assert "никого не наказывают" in text and "L-" not in text


@pytest.mark.django_db
def test_cards_count_names_the_tie_and_the_rule_that_settles_it_when_the_lead_is_tied():
    """«Приоритет повешения - по алфавиту»: Петя («Богач») and Маша («Авантюрист»)... by the
    classes' alphabet the first class is punished; the other tied wagon is marked as tied."""
    game, _gm, users, seats = cards_game(overt={"Петя": "Богач", "Маша": "Гадалка"})
    to_day(game)
    _say(game, users, "Вася", "[b]В тюрьму Петю[/b]")
    _say(game, users, "Глаша", "[b]В тюрьму Машу[/b]")
    count = vote_count(phase=game.current_phase)
    assert "тюрьма: Петя" in count.words.outcome
    assert "ничья между Петей и Машей, выбор по алфавиту классов" in count.words.outcome
    notes = {w.target.user.display_name: w.note for w in count.wagons}
    assert notes == {"Петя": "лидер — наказание", "Маша": "поровну с лидером"}


@pytest.mark.django_db
def test_cards_count_before_any_vote_says_nobody_is_punished():
    game, _gm, users, seats = cards_game()
    to_day(game)
    count = vote_count(phase=game.current_phase)
    assert count.words.outcome == "Если бы день закончился сейчас: никого не наказывают: ни у кого нет голосов."


def test_forum_count_keeps_the_majority_and_l_n_when_the_rule_set_has_one(started):
    """The forum's count is unchanged: «Большинство: N» and each wagon's L-n, no weights."""
    from datetime import timedelta

    from games.models import Phase
    from tests.games.test_club import close

    game = started
    if game.current_phase.kind != Phase.Kind.DAY:
        close(game)
    # the majority decides where the GM chose it (docs/votes.md, "Majority or the most votes")
    Game.objects.filter(pk=game.pk).update(end_day_on_majority=True)
    game.refresh_from_db()
    post_submit(thread=game.game_thread, author=game.seats.get(number=1).user, body="[b]В тюрьму Фроло[/b]",
                now=game.current_phase.opened_at + timedelta(minutes=1))
    count = vote_count(phase=game.current_phase)
    assert count.words is None and not count.plurality
    for where, html in _pages(game, None).items():
        box = _text(_count_block(html))
        assert "Большинство: 4" in box and "L-3" in box, where
        assert "×" not in box and "Вече" not in box and "Если бы день закончился" not in box, where


@pytest.mark.django_db
def test_cards_measure_tally_counts_one_per_voter_when_the_gm_weighs_measures_equally():
    """The GM's option `measure_weight` off: «Авторитет»'s measure vote counts 1, as the close counts
    it; his vote for a character still counts 2."""
    game, _gm, users, seats = cards_game(overt={"Вася": "Авторитет"}, options={"measure_weight": False})
    to_day(game)
    _say(game, users, "Вася", "[b]Казнить Петю![/b]")
    _say(game, users, "Маша", "[b]В тюрьму Петю[/b]")
    count = vote_count(phase=game.current_phase)
    assert count.wagons[0].weight == 3
    assert {row["measure"]: row["weight"] for row in count.measures} == {"execution": 1, "prison": 1}
    assert "тюрьма: Петя" in count.words.outcome  # a tie of the measure is prison
    phase = game.current_phase
    phase_close(phase_id=phase.pk)
    phase.refresh_from_db()
    assert phase.outcome["imprisoned"] == ["Петя"]
