"""The show's words, each example of issue 28's items 14, 16 and 23 tested as its class
(docs/rulesets/show.md, "Every code in words (issue 28, items 13, 14, 16, 17, 23)"):

- one name per stage, everywhere (the core's phase label, the thread, the ledger, the results);
- one number format for the ratings' shares (the thread and the results page);
- what is left of a stage as a duration, the deadline apart;
- a list with nobody in it left out or said in words, never «—»;
- a phrase or a name in the case its sentence governs (pymorphy3: «Опубликуйте защитную речь»);
- a sentence about a hero agrees with the gender of his profile, and says nothing twice;
- a hero's freedom, his ballot, his role and team each said once, in the words of the buttons;
- the vote count page of a show shows its votes; the results page groups the history by stage and
  draws each hero's rating and coins, for whoever may see it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.urls import reverse
from django.utils import translation

from games.models import Game, Post
from games.rulesets import registry
from games.rulesets.show import services
from games.rulesets.show.engine.stages import STAGE_KINDS
from games.rulesets.show.wording import (
    LEDGER,
    WORDING,
    ballot_label,
    duration_text,
    percent_text,
    role_line,
    stage_label,
    stage_name,
    you_are_text,
)
from games.services.resolution import phase_close
from games.wording import event_text, speaking_of
from tests.conftest import client_for, make_user
from tests.games.show_kept import kept_show

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "show"


_kept = kept_show


def _thread_text(game) -> str:
    return "\n".join(Post.objects.filter(thread=game.game_thread).order_by("number").values_list("body", flat=True))


# --- One name per stage ---------------------------------------------------------------------------------
def test_each_stage_has_one_name_in_the_core_the_ledger_the_thread_and_the_results_heading():
    """«Переголосование 1», «День 1, переголосование» and «Повторное голосование» were one stage:
    the seed's «Повторное Голосование» is its one name, asked of wording.stage_name everywhere."""
    site = registry.site("show")
    with translation.override("ru"):
        for kind in STAGE_KINDS:
            for number in (0, 1, 3):
                name = stage_name(kind, number)
                assert site.phase_label(kind, number) == name
                assert LEDGER.stage_text(f"{kind} {number}" if number else kind) == name
                assert event_text("show", "stage", {"phase": f"{kind} {number}" if number else kind}) == (
                    f"Начинается этап: {name}.")

                class Phase:  # what results_heading reads of a phase
                    pass

                phase = Phase()
                phase.kind, phase.number = kind, number
                assert WORDING.results_heading(phase) == f"[b]{name}: итоги[/b]"
        assert stage_name("revote", 2) == "Повторное голосование 2"
        assert stage_name("greetings", 0) == "Приветствия"  # not «приветствия 0»
        assert stage_label("night 2") == "Ночной выбор 2"


def test_a_played_show_names_its_stages_one_way_in_its_thread(tmp_path):
    game, _users, _seats = _kept(tmp_path, "big-show-masons-win.yaml")
    text = _thread_text(game)
    assert "Переголосование" not in text and "переголосование 1" not in text and "Итоги: " not in text
    assert "[b]Приветствия: итоги[/b]" in text and "[b]Повторное голосование 1: итоги[/b]" in text
    assert "Начинается этап: Повторное голосование 1." in text


# --- One number format ----------------------------------------------------------------------------------
def test_the_ratings_shares_read_the_same_in_the_thread_and_on_the_results_page(tmp_path):
    """«18.05%» in the thread and «18,05» on the results page: one formatter, the reader's locale."""
    game, _users, _seats = _kept(tmp_path, "big-show-masons-win.yaml")
    thread = _thread_text(game)
    line = next(line for line in thread.splitlines() if line.startswith("Итоги Шоу. Рейтинги:"))
    shares = dict(re.findall(r"(\w+) (\d+(?:,\d+)?\xa0%)", line))
    assert shares and all("." not in share for share in shares.values())
    page = client_for(None).get(reverse("games:show_results", args=[game.pk])).content.decode()
    for name, share in shares.items():
        assert re.search(rf"{name}</td>.*?{re.escape(share)}", page, re.S), (name, share)
    with translation.override("ru"):
        assert [percent_text(v) for v in (18.05, 12.2, 0.0, 100)] == ["18,05\xa0%", "12,20\xa0%", "0\xa0%", "100\xa0%"]
    with translation.override("en"):
        assert percent_text(18.05) == "18.05\xa0%"


# --- A duration is not a date ------------------------------------------------------------------------------
def test_what_is_left_of_a_stage_is_a_duration_and_the_deadline_is_apart(tmp_path):
    with translation.override("ru"):
        assert [duration_text(s) for s in (3 * 3600 + 20 * 60 + 5, 2 * 86400 + 4 * 3600, 45 * 60, 30, 3 * 3600)] == [
            "3 ч 20 мин", "2 д 4 ч", "45 мин", "меньше минуты", "3 ч"]
    game, users, _seats = _kept(tmp_path, "big-show-masons-win.yaml", 1)  # day 1 runs
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    panel = page[page.index('class="card show-panel"'):][:1500]
    assert re.search(r'Осталось <strong data-remaining="[^"]+" data-units="[^"]+">\d+ ч( \d+ мин)?</strong> '
                     r'\(срок <time datetime="[^"]+">\d+ \w+, \d\d:\d\d</time>\)', panel), panel
    thread = client_for(None).get(game.game_thread.get_absolute_url()).content.decode()
    assert "data-remaining" in thread[thread.index("data-show-stage"):][:600]


# --- Nobody is not «—» ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "data"), [
    ("morning", {"enslaved": [], "saved": False, "burdens": []}),
    ("opinions", {"requested": [], "posted": []}),
    ("opinions", {"requested": [{"seat": 1, "name": "Зина"}], "posted": []}),
    ("revote_result", {"ballots": {"Аня": "spare"}, "enslaved": []}),
    ("revote_result", {"ballots": {}, "enslaved": []}),
    ("day_votes", {"ballots": {}, "tally": {}}),
    ("greetings", {"heroes": []}),
    ("trial_results", {"talents": []}),
    ("ratings_gm", {"changes": []}),
    ("night_choices", {"choices": {"Аня": ["suspect", "Кира"]}, "auto": []}),
])
def test_a_list_with_nobody_in_it_is_said_in_words_not_as_a_dash(kind, data):
    """«Утро. Новые рабы: —.», «Мнения запрошены у: —; высказались: —.»"""
    with translation.override("ru"):
        text = event_text("show", kind, data)
    assert text and "—" not in text and ": ." not in text, text


def test_a_morning_without_new_slaves_says_so_after_the_hares_slavery():
    with translation.override("ru"):
        assert event_text("show", "morning", {"enslaved": [], "saved": True}) == (
            "Утро. Этой ночью никто не лишился свободы. Спаситель отразил атаку.")
        assert event_text("show", "opinions", {"requested": [{"name": "Зина"}, {"name": "Илья"}],
                                                "posted": [{"name": "Зина"}]}) == (
            "Мнения запрошены у Зины и Ильи; высказались: Зина.")


# --- The case a sentence governs ----------------------------------------------------------------------------
def test_a_phrase_and_a_name_take_the_case_their_sentence_governs(tmp_path):
    """«Опубликуйте защитная речь» → «защитную речь»; «Судья отправляет в рабство: Зина» → «Зину»."""
    from games.wording import phrase_case

    with translation.override("ru"):
        assert [phrase_case(p, "accs") for p in ("защитная речь", "приветствие", "мнение")] == [
            "защитную речь", "приветствие", "мнение"]
        assert event_text("show", "judge_decision", {"enslaved": {"seat": 1, "name": "Зина"}}) == (
            "Судья отправляет в рабство Зину.")
        assert event_text("show", "bench", {"heroes": [{"name": "Зина"}]}) == "На скамье подсудимых: Зина."
    game, users, _seats = _kept(tmp_path, "big-show-masons-win.yaml", 2)  # day 1 closed: Кира defends
    page = client_for(users["Кира"]).get(game.get_absolute_url()).content.decode()
    assert "Опубликуйте защитную речь в игровой теме" in page


# --- Gender and no line twice --------------------------------------------------------------------------------
def test_the_judge_who_missed_agrees_with_the_gender_of_his_profile_and_the_coma_is_said_once(tmp_path):
    """«Судья Эсмеральда не успел…» right after a duplicate coma line: the results post agrees with the
    gender the user gave in his profile («Пол»), and the close's coma line is not said again."""
    game, users, seats = _kept(tmp_path, "judge-several-defendants-and-missed.yaml", 11)
    assert (game.current_phase.kind, game.current_phase.number) == ("judge", 3)
    judge = users["Боря"]  # a first name pymorphy3 takes for a man's
    judge.gender = "f"
    judge.save(update_fields=["gender"])
    phase = game.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    post = Post.objects.filter(thread=game.game_thread).order_by("-number").first().body
    assert "Судья Боря не успела принять решение: переголосовывают все свободные." in post
    assert post.count("впадает в кому") == 1 and "Боря пропускает этап и впадает в кому." in post
    with translation.override("ru"), speaking_of({"Эсмеральда": "f", "Вася": "m"}):
        assert "не успела" in event_text("show", "judge_missed", {"name": "Эсмеральда"})
        assert "не успел " in event_text("show", "judge_missed", {"name": "Вася"})
    with translation.override("ru"), speaking_of({}):
        assert "не принимает решения вовремя" in event_text("show", "judge_missed", {"name": "Кикимора"})


# --- Each thing said once, in the buttons' words ---------------------------------------------------------------
def test_a_heros_role_team_freedom_and_ballot_are_each_said_once_in_the_buttons_words(tmp_path):
    """«Вы — Демон (Демон).», «Вы — Неизвестна: …», «Свобода: свободная», «Ваш голос: поработить» under
    buttons that say «В рабство»."""
    with translation.override("ru"):
        assert you_are_text("demon", "demon") == "Вы — Демон."
        assert you_are_text("mason", "masons") == "Вы — Масон, команда: Масоны."
        assert you_are_text(None, None) == "Вы не знаете своей Роли: её предстоит выяснить в ходе Шоу."
        assert role_line("reptiloid", "reptiloids") == "Рептилоид, команда: Рептилоиды"
        assert ballot_label("enslave") == "В рабство" and ballot_label("spare") == "Пощадить"
    game, users, seats = _kept(tmp_path, "big-show-masons-win.yaml", 3)  # revote 1: one defendant, Кира
    assert services.show_vote(game=game, user=users["Аня"], ballot="enslave").accepted
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert 'name="ballot" value="enslave" aria-pressed="true">В рабство</button>' in page
    assert "Ваш голос: В рабство." in page and "поработить" not in page
    status = client_for(None).get(reverse("games:show_status", args=[game.pk])).content.decode()
    assert 'data-label="Положение">на свободе</td>' in status and "свободная" not in status
    kira = client_for(users["Кира"]).get(game.get_absolute_url()).content.decode()
    assert "Вы — Демон." in kira and "Демон (Демон)" not in kira


# --- Item 16: the show's votes on the vote count page -----------------------------------------------------------
def test_the_vote_count_page_of_a_show_shows_its_closed_stages_votes_to_all(tmp_path):
    """«Подсчёт голосов и история» said «Ни один день ещё не начался.» after four days."""
    game, users, seats = _kept(tmp_path, "big-show-masons-win.yaml", 4)  # day 1 .. revote 1 closed
    url = reverse("games:votes", args=[game.pk])
    for reader in (None, make_user("Зритель"), users["Кира"], users["Аня"], game.gm):
        page = client_for(reader).get(url).content.decode()
        assert "Ни один день ещё не начался" not in page
        block = page[page.index("<h2>Дневное голосование 1</h2>"):]
        assert "<strong>Кира</strong> — 6" in block and "<li>Аня → Кира</li>" in block
        assert "На скамье подсудимых: Кира." in block
        revote = page[page.index("<h2>Повторное голосование 1</h2>"):]
        assert "<li>Даша → Пощадить</li>" in revote and "В рабство: Кира." in revote


def test_the_running_stages_ballots_stay_off_the_vote_count_page_until_it_ends(tmp_path):
    game, users, seats = _kept(tmp_path, "big-show-masons-win.yaml", 1)  # day 1 runs
    assert services.show_vote(game=game, user=users["Аня"], target=seats["Кира"], early_close=False).accepted
    for reader in (None, users["Боря"], users["Аня"]):
        page = client_for(reader).get(reverse("games:votes", args=[game.pk])).content.decode()
        assert "Аня → Кира" not in page and f"showballot-{seats['Аня'].pk}" not in page
        assert "Голоса этапа «Дневное голосование 1» будут видны, когда он закончится." in page


# --- Item 23: the results page -------------------------------------------------------------------------------------
def test_the_results_page_groups_the_history_by_stage_and_draws_each_heros_rating_and_coins(tmp_path):
    from coins.models import Entry

    game, users, seats = _kept(tmp_path, "coins-talent-raise-masons-win.yaml")
    page = client_for(None).get(reverse("games:show_results", args=[game.pk])).content.decode()
    history = page[page.index('id="history"'):]
    stages = re.findall(r"<h3>([^<]+)</h3>", history)
    assert stages and all(re.fullmatch(r"[А-ЯЁ][а-яё ]+ \d+", s) for s in stages), stages
    assert not re.search(r"\b(day|revote|night|judge|defence) \d", history)
    cards = re.findall(r"<figure class=\"show-hero-card\".*?</figure>", page, re.S)
    assert len(cards) == len(seats)
    results = game.events.get(kind="show_results").data
    for seat in seats.values():
        card = next(c for c in cards if f"<strong>{seat.dealt_name}</strong>" in c)
        # the rating line ends at the hero's rating; no script draws anything
        assert f'data-final="{results["ratings"][seat.dealt_name]}"' in card and "<script" not in card
        # the bars add up to the hero's coins in this show (fines aside)
        bars = [int(a) for a in re.findall(r'class="coins-source" data-amount="(-?\d+)"', card)]
        key = f"user:{seat.user_id}"
        lines = Entry.objects.filter(game=game).exclude(reason="fine")
        net = sum(e.amount for e in lines.filter(credit__key=key)) - sum(e.amount for e in lines.filter(debit__key=key))
        assert sum(bars) == net == results["net"][seat.dealt_name]


def test_the_results_page_is_the_gms_while_the_show_runs_and_everyones_after(tmp_path):
    """Spoilers: the ratings, roles and pictures are published at the end (games.permissions.can_see_ratings)."""
    game, users, seats = _kept(tmp_path, "coins-talent-raise-masons-win.yaml", 4)
    url = reverse("games:show_results", args=[game.pk])
    readers = {"anonymous": None, "spectator": make_user("Зритель"), **users}
    for name, reader in readers.items():
        assert client_for(reader).get(url).status_code == 404, name
    assert client_for(game.gm).get(url).status_code == 200
    finished, _users, _seats = _kept(tmp_path, "coins-talent-raise-masons-win.yaml")
    url = reverse("games:show_results", args=[finished.pk])
    for reader in (None, make_user("Зритель-2"), *_users.values(), finished.gm):
        page = client_for(reader).get(url).content.decode()
        assert 'class="show-chart rating-chart"' in page and 'class="show-chart coins-chart"' in page
