"""No code-shaped word on any page of a finished show, for anyone who reads it (issue 28, item 13;
docs/rulesets/show.md, "Every code in words").

A finished show is played through the site from a scenario file, then every page of the show and
of its coins is read as the anonymous visitor, a spectator, a hero of each team, a slave and the GM
(the status, each hero's full status and «Обо мне», the results, the commitment, the game page, the
role page, the archive and the replay, the votes, the threads, the GM's pages, the notifications
and each reader's own «Баланс»; and every hero's «Баланс» as its owner reads it). The visible text
of each page — its text nodes and the attributes a reader sees (title, alt, placeholder,
aria-label, a button's value), without scripts, styles and literal code (`<code>`, `<kbd>`,
`<pre>`, `<samp>`: what a reader is told to type) — must hold no identifier: a snake_case word
(`ally_split`), an English stage code (`judge 4`, `day 1:`), a code in parentheses
(`(reptiloids)`), or any other word in Latin lower-case letters on a Russian page (`enslaved`).
URLs, e-mail addresses, hexadecimal hashes and BBCode tags (`[b]`) are set aside first: they are
what they are in any language. A page a perspective may not open (404, a redirect) is not read.
The same show stopped in the middle of its stages is read too: the heroes' panels of a re-vote, a
night, the judge's day and a defence.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import Game, Notification, Thread
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "show"
# Finished shows read by every perspective on every page: coma, the judge's lot and questioning and
# ten heroes (the big show), the Talent's raise and the trial's grants, alliances and their split.
FILES = ("big-show-masons-win.yaml", "coins-talent-raise-masons-win.yaml", "coins-alliances-share-and-split.yaml")
# More finished shows, each with lines and events of its own (the Demon's win and his burdens, the
# Бинго, a judge who missed his decision, the Змеёныш, a draw's returned stakes): their pages of
# words that vary — the results, «Обо мне», the threads, the archive, each «Баланс» — read by the GM
# and each hero (the full sweep above shows that the other perspectives read the same words).
MORE_FILES = (
    "coins-demon-wins-takes-the-bank.yaml",
    "privilege-bingo-winner-share-doubles.yaml",
    "judge-several-defendants-and-missed.yaml",
    "privilege-snakelet-burdens-and-bank.yaml",
    "coins-draw-stakes-returned.yaml",
)
VARYING_PAGES = ("results", "about", "thread", "archive", "replay", "game")

# --- What a reader sees --------------------------------------------------------------------------
SKIPPED = {"script", "style", "template", "noscript", "code", "kbd", "pre", "samp"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SEEN_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label")


class VisibleText(HTMLParser):
    """The text a reader sees, one piece a line: text nodes outside SKIPPED, and SEEN_ATTRIBUTES."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if not self.skipping:
            self.pieces += [attributes[a] for a in SEEN_ATTRIBUTES if attributes.get(a)]
            if tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
                self.pieces.append(attributes["value"])
        if tag in SKIPPED:
            self.skipping.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in SKIPPED and self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.pieces.append(" ".join(data.split()))


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    parser.close()
    return "\n".join(parser.pieces)


# --- What counts as a code ---------------------------------------------------------------------------
# Set aside first: what is the same in every language.
NOT_WORDS = re.compile(r"""
    https?://\S+                          # a URL
  | \b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b      # an e-mail address
  | \b[0-9a-f]{16,}\b                     # a hash (the roles' commitment)
  | \[/?[a-z*]+(?:=[^\]]*)?\]             # a BBCode tag, as the reply form's help shows them
""", re.X)
IDENTIFIER = re.compile(r"""
    (?P<snake>\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b)     # ally_split, coma_fee
  | (?P<stage>\b[a-z]{3,}\ \d+\b)                    # an English stage code: night 2, judge 4
  | (?P<parens>\(\s*[a-z][a-z _]*\))                 # (reptiloids), (public)
  | (?P<latin>\b[a-z]{2,}\b)                         # any Latin lower-case word: enslaved, mason
""", re.X)


def identifiers(text: str) -> list[str]:
    """Each identifier-shaped token of a Russian page's visible text, with a little of its line."""
    found = []
    for line in text.splitlines():
        clean = NOT_WORDS.sub(" ", line)
        for match in IDENTIFIER.finditer(clean):
            found.append(f"{match.group(0)!r} in {line[:120]!r}")
    return found


def test_the_token_rule_flags_codes_and_passes_words():
    """The rule itself: the issue's examples are caught; Russian text, names, numbers, URLs,
    hashes and BBCode tags pass."""
    for code in ("ally_split", "trial_pass", "bet_raise (Вася)", "coma_fee (day 1)", "Бремя уплачено (reptiloids)",
                 "(public)", "judge 4", "day 1: Вася +1", "revote 1: Петя", "enslaved", "Аня: mason"):
        assert identifiers(code), code
    for text in ("Бремя уплачено Рептилоидам", "Ночной выбор 2", "Аня +1 — голос днём против Демона: Кира",
                 "18,05 %", "https://example.com/games/1/", "[b]жирный[/b] [url=https://…]…[/url]",
                 "d12853dac714897e286e640ead051e7e48b7c8ce", "V/LA · EN · English · ISO", "a@example.com"):
        assert identifiers(text) == [], text


def test_the_visible_text_is_what_a_reader_sees():
    html = ('<p title="подсказка">Видно <code>ally_split</code><script>var a_b = 1;</script>'
            '<input type="hidden" name="act" value="grant_pass"><button>Кнопка</button>'
            '<svg><title>Рейтинг</title><text>+2</text></svg><br><img alt="картинка"></p>')
    assert visible_text(html).splitlines() == ["подсказка", "Видно", "Кнопка", "Рейтинг", "+2", "картинка"]


# --- The pages of a finished show ----------------------------------------------------------------------
def _finished_show(file: str, *, stages: int | None = None, tmp_path: Path | None = None) -> Game:
    """The file played through the site and kept (its first `stages` stages only: a running show)."""
    import yaml

    from games import scenarios

    path = SCENARIOS / file
    if stages is not None:
        data = yaml.safe_load(path.read_text("utf-8"))
        data["phases"] = data["phases"][:stages]
        data.pop("expect", None)
        path = tmp_path / "show.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = scenarios.play(str(path), keep=True)
    assert all(not p.diffs for p in report.phases), [p.diffs for p in report.phases]
    game = Game.objects.filter(ruleset="show").latest("pk")
    assert stages is not None or game.status == Game.Status.FINISHED, file
    # The scenario player names its game and GM in Latin letters («Scenario: …», «gm»): a real show
    # is named by its GM in his words.
    old, new = game.title, "Шоу для проверки слов"
    game.title = new
    game.save(update_fields=["title"])
    for model, field in ((Thread, "title"), (Notification, "text")):
        for row in model.objects.filter(**{f"{field}__contains": old}):
            setattr(row, field, getattr(row, field).replace(old, new))
            row.save(update_fields=[field])
    game.gm.display_name = "Ведущий проверки"
    game.gm.save(update_fields=["display_name"])
    return game


def _urls(game: Game) -> dict[str, str]:
    urls = {
        "game": game.get_absolute_url(),
        "role": reverse("games:role", args=[game.pk]),
        "status": reverse("games:show_status", args=[game.pk]),
        "results": reverse("games:show_results", args=[game.pk]),
        "commitment": reverse("games:commitment", args=[game.pk]),
        "archive": reverse("games:archive", args=[game.pk]),
        "replay": reverse("games:replay", args=[game.pk]),
        "votes": reverse("games:votes", args=[game.pk]),
        "gm": reverse("games:gm_dashboard", args=[game.pk]),
        "fines": reverse("games:show_fines", args=[game.pk]),
        "secretary": reverse("games:show_secretary", args=[game.pk]),
        "anonymous": reverse("games:anonymous", args=[game.pk]),
        "notifications": reverse("games:notifications"),
        "dashboard": reverse("games:dashboard"),
        "balance": reverse("coins:balance_mine"),
    }
    for seat in game.seats.order_by("number"):
        urls[f"fullstatus {seat.dealt_name}"] = reverse("games:show_fullstatus", args=[game.pk, seat.pk])
        urls[f"about {seat.dealt_name}"] = reverse("games:show_about", args=[game.pk, seat.pk])
    for thread in [game.game_thread, game.discussion_thread, *Thread.objects.filter(game=game)]:
        urls[f"thread {thread.kind} {thread.pk}"] = thread.get_absolute_url()
    return urls


def _perspectives(game: Game) -> dict[str, object]:
    """The anonymous, a spectator, a hero of each role (free or not), a slave, the GM."""
    seats = list(game.seats.select_related("user").order_by("number"))
    readers: dict[str, object] = {"anonymous": None, "spectator": make_user("Зритель Шоу"), "gm": game.gm}
    for seat in seats:
        readers.setdefault(f"hero {seat.role}", seat.user)
    slave = next((s for s in seats if s.status == "enslaved"), None)
    if slave is not None:
        readers.setdefault("slave", slave.user)
    return readers


def _read(client, url: str) -> str | None:
    response = client.get(url, follow=True)
    if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
        return None
    return visible_text(response.content.decode())


def _sweep(game: Game, readers: dict[str, object], pages=None) -> tuple[list[str], int]:
    urls = {page: url for page, url in _urls(game).items() if pages is None or page.split()[0] in pages}
    found: list[str] = []
    read = 0
    for who, user in readers.items():
        client = client_for(user)
        for page, url in urls.items():
            text = _read(client, url)
            if text is None:
                continue
            read += 1
            found += [f"{who} · {page}: {token}" for token in identifiers(text)]
    # every hero's «Баланс» as he reads it: every line of the show's ledger
    for seat in game.seats.select_related("user"):
        text = _read(client_for(seat.user), reverse("coins:balance", args=[seat.user.pk]))
        assert text is not None
        found += [f"{seat.dealt_name} · balance: {token}" for token in identifiers(text)]
    return found, read


@pytest.mark.parametrize("file", FILES)
def test_no_page_of_a_finished_show_shows_a_code_to_anyone(file):
    game = _finished_show(file)
    found, read = _sweep(game, _perspectives(game))
    assert read > 100, read
    assert found == [], "\n".join(found[:40]) + f"\n… {len(found)} in all"


@pytest.mark.parametrize("file", MORE_FILES)
def test_no_money_or_history_page_of_more_finished_shows_shows_a_code(file):
    game = _finished_show(file)
    found, read = _sweep(game, {"gm": game.gm}, VARYING_PAGES)
    assert read > 10, read
    assert found == [], "\n".join(found[:40]) + f"\n… {len(found)} in all"



# --- A running show: the panels of its stages ------------------------------------------------------------------
@pytest.mark.parametrize("stages", (3, 5, 8, 10))  # a re-vote, the night's bet, the judge's day, the defence's raise
def test_no_panel_of_a_running_show_shows_a_code_to_anyone(tmp_path, stages):
    """The game page with the hero's panels, the role page, the status and the threads of the Talent's
    show in the middle of its stages, read by every perspective."""
    game = _finished_show("coins-talent-raise-masons-win.yaml", stages=stages, tmp_path=tmp_path)
    assert game.status == Game.Status.RUNNING
    found, read = _sweep(game, _perspectives(game), ("game", "role", "status", "thread", "votes", "about", "gm",
                                                           "dashboard", "notifications", "fullstatus"))
    assert read > 20, read
    assert found == [], "\n".join(found[:40]) + f"\n… {len(found)} in all"
