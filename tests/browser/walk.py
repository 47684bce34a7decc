"""A game walked in a real browser by several people, each in a browser context of his own (issue
29): every page read is checked for code-shaped words (visible_text.py) and for a rule set's role
codes, and at both widths a reader uses: as he sees it (1280 px, or 390 px on a phone) and, for a
desktop reader, again at 390 px with the same page (no sideways scroll, no button cut off).

WALK_DUMP=<file> writes the visible text of every page read, by whom."""

from __future__ import annotations

import os
import re

from games.models import Game
from tests.browser.conftest import PHONE, desktop_page, phone_page
from tests.browser.visible_text import code_shaped, visible_text

DESKTOP = {"width": 1280, "height": 900}

# What sticks out at a phone's width: the page's own width, and each visible button (or submit)
# that reaches past the viewport or past the box of a sideways scroller around it (a cut-off button
# a reader has to find by scrolling a form).
CUT_OFF = """() => {
  const vw = document.documentElement.clientWidth;
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
  const clips = (el) => { const o = getComputedStyle(el).overflowX; return o !== "visible"; };
  const out = [];
  for (const b of document.querySelectorAll("main button, main input[type=submit], main .button")) {
    if (!shown(b)) continue;
    const r = b.getBoundingClientRect();
    let right = vw, left = 0;
    for (let p = b.parentElement; p && p !== document.body; p = p.parentElement) {
      if (clips(p)) { const q = p.getBoundingClientRect(); right = Math.min(right, q.right); left = Math.max(left, q.left); }
    }
    if (r.right > right + 0.5 || r.left < left - 0.5)
      out.push("«" + (b.textContent || b.value || "").trim().slice(0, 40) + "» " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  return {width: document.documentElement.scrollWidth, cut: out};
}"""


class Walk:
    """A browser context per person. `open` reads a page as that person; the findings pile up in
    `codes` (code-shaped words), `wide` (pages wider than a phone, buttons cut off) for one
    assertion at the end, so one walk reports everything it saw."""

    def __init__(self, browser, base: str, *, role_codes=()):
        self.browser, self.base = browser, base
        self.pages: dict[str, object] = {}
        self.codes: list[str] = []
        self.wide: list[str] = []
        self.role_code = re.compile(r"(?<![\w/.@#=-])(?:%s)(?![\w/-])" % "|".join(map(re.escape, role_codes))) if role_codes else None

    def person(self, who: str, user=None, *, phone: bool = False):
        if phone:
            page = phone_page(self.browser, self.base, user)
        else:
            page = desktop_page(self.browser, self.base, user, **DESKTOP)
        self.pages[who] = page
        return page

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()

    def open(self, who: str, path: str, *, status: int = 200):
        page = self.pages[who]
        response = page.goto(f"{self.base}{path}")
        assert response is not None and response.status == status, f"{who}: {path} answered {response and response.status}"
        self.read(who, path)
        return page

    def read(self, who: str, label: str) -> str:
        page = self.pages[who]
        text = visible_text(page)
        if os.environ.get("WALK_DUMP"):
            with open(os.environ["WALK_DUMP"], "a", encoding="utf-8") as out:
                out.write(f"\n===== {who} | {label} | {page.url}\n{text}\n")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        for token in code_shaped(text):
            line = next((line for line in lines if token in line), "")
            self.codes.append(f"{who} on {label}: {token!r} in «{line[:160]}»")
        if self.role_code is not None:
            self.codes += [f"{who} on {label}: role code {m.group(0)!r}" for m in self.role_code.finditer(text)]
        size = page.viewport_size
        if size["width"] > PHONE["width"]:
            page.set_viewport_size(PHONE)
        try:
            measured = page.evaluate(CUT_OFF)
        finally:
            if size["width"] > PHONE["width"]:
                page.set_viewport_size(size)
        if measured["width"] > PHONE["width"]:
            self.wide.append(f"{who}: {label} is {measured['width']} px wide at {PHONE['width']} px")
        self.wide += [f"{who}: {label}: button cut off at {PHONE['width']} px: {cut}" for cut in measured["cut"]]
        return text


def confirmed(page, asked: list[str]):
    """The next confirmation dialog (games/confirm.py) is read and accepted."""
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))


def squeezed(text: str) -> str:
    return " ".join(text.split())


def cast(walk: Walk, *, gm, players: dict, spectator, phone_player: str) -> None:
    """The people of a walk, each in his own context: the GM, each player (one on a phone), a
    spectator and a reader nobody logged in as."""
    walk.person("GM", gm)
    for name, user in players.items():
        walk.person(name, user, phone=name == phone_player)
    walk.person("spectator", spectator)
    walk.person("anonymous")


def new_game(walk: Walk, *, title: str, ruleset: str, size: int):
    """The GM makes a game on the new-game form, having checked that picking `ruleset` shows its
    own fields and no other rule set's (issue 29, item 5). The game, once made."""
    page = walk.open("GM", "/games/new/")
    page.fill("input[name=title]", title)
    page.select_option("select[name=ruleset]", ruleset)
    shown = page.locator("[data-ruleset-field]:visible").evaluate_all("els => els.map(e => e.dataset.rulesetField)")
    assert set(shown) <= {ruleset}, shown
    walk.read("GM", f"new game, {ruleset} picked")
    page.fill("input[name=size]", str(size))
    page.click("main form button[type=submit]")
    page.wait_for_selector("text=Идёт набор")
    return Game.objects.get(title=title)


def signup_form(walk: Walk, who: str, home: str, *, fields: set[str]):
    """`who` opens the game page: its sign-up form shows only `fields` (no other rule set's)."""
    page = walk.open(who, home)
    form = page.locator("form:has(button[value=join])")
    shown = form.locator("input:visible, select:visible, textarea:visible").evaluate_all("els => els.map(e => e.name)")
    assert set(shown) <= fields, shown
    return form


def not_voting(page, selector: str) -> list[str]:
    """The names under «Не голосовали» of the count at `selector`, without the rules' note on them."""
    line = page.locator(f"{selector} .not-voting")
    if not line.count():
        return []
    text = line.first.inner_text()
    for note in line.first.locator(".not-voting-note").all_inner_texts():
        text = text.replace(note, "")
    return [name.strip() for name in text.split(":", 1)[-1].split(",") if name.strip()]
