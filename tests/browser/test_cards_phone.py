"""The cards pages' own content on a phone (issue 14, item 15), in a real Chromium 390 px wide: the
play forms with their target lists, the refusals in words, the standing plays, the deck's refusals,
the GM's inputs table, effects and preview. Each block is screenshot on its own and must fit the
screen (or sit in a box that scrolls sideways, as the GM's wide table does). The page-wide checks
(header, menu, tap targets) are tests/browser/test_phone_layout.py's."""

from __future__ import annotations

import os
import struct

import pytest

from games.rulesets.cards.engine import CARDS
from games.engine.state import GameState
from games.models import Game
from games.rulesets.cards.services import card_gm_effect_add, card_input_submit
from games.services.resolution import phase_close
from tests.browser.conftest import PHONE, phone_page, small_cards_game

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")

# Each element matched, unless it sits in a sideways scroller: its box within the viewport.
OUTSIDE = """(selector) => {
  const vw = document.documentElement.clientWidth;
  const scrolls = (el) => { const o = getComputedStyle(el).overflowX; return o === "auto" || o === "scroll"; };
  const inScroller = (el) => { for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
    if (scrolls(p)) return true; return false; };
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (!r.width || inScroller(el)) continue;
    if (r.left < -0.5 || r.right > vw + 0.5)
      out.push(el.tagName + "." + el.className + " «" + el.textContent.trim().slice(0, 40) + "» " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  return out;
}"""


def _png_width(data: bytes) -> int:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", data[16:20])[0]


def assert_content_fits(page, selector: str, name: str) -> None:
    """Every element of `selector` fits the 390 px screen, and its screenshot is no wider."""
    page.wait_for_load_state("load")
    assert page.locator(selector).count() > 0, f"{name}: nothing matches {selector}"
    outside = page.evaluate(OUTSIDE, selector)
    assert outside == [], f"{name}: {outside[:6]}"
    os.makedirs(SHOTS, exist_ok=True)
    first = page.locator(selector).first
    shot = first.screenshot(path=os.path.join(SHOTS, f"{name}.png"))
    assert _png_width(shot) <= PHONE["width"] * 2, f"{name}: the screenshot is {_png_width(shot)} px wide"


def test_cards_content_fits_a_phone_when_390px_wide(live_server, browser, transactional_db):
    game, gm, vasya, villain, hood = small_cards_game("Карты на ладони")
    base = live_server.url

    # Deck building: a refused deck shows every refusal in words.
    player = phone_page(browser, base, vasya)
    player.goto(f"{base}/games/{game.pk}/cards/deck/")
    player.fill("tr[data-card='Пистолет'] input[type=number]", "3")
    player.click("button[name=submit]")
    player.wait_for_selector(".cards-refusals li")
    assert_content_fits(player, ".cards-refusals", "cards-deck-refusals")
    assert_content_fits(player, "#deck-status", "cards-deck-status")
    assert phase_close(phase_id=game.current_phase_id, by=gm)  # night 1: every deck dealt
    game = Game.objects.get(pk=game.pk)

    # Night 1: a play at the long-named player, then a refused discard with its long sentence.
    seat = game.seats.get(user=vasya)
    state = GameState.from_json(game.state)
    hand = CARDS.player_view(state, seat.pk)["hand"]
    hood_seat = game.seats.get(user=hood)
    played = next((c for c in hand if CARDS.valid_targets(state, seat.pk, c)[0]), hand[0])
    detail = {"card": played, "from": "hand"}
    if CARDS.valid_targets(state, seat.pk, played)[0]:
        detail["target"] = hood_seat.pk
    card_input_submit(game=game, user=vasya, action="play", detail=detail)
    for effect in ({"op": "give", "target": hood_seat.pk, "card": "Бункер", "to": "sleeve"},
                   {"op": "reveal", "target": hood_seat.pk, "what": "hand", "viewer": seat.pk},
                   {"op": "message", "target": hood_seat.pk, "text": "Очень длинное сообщение " * 6}):
        card_gm_effect_add(phase=game.current_phase, gm=gm, effect=effect)

    player.goto(f"{base}/games/{game.pk}/cards/")
    player.check("#discard input[name=cards] >> nth=0")
    player.check("#discard input[name=cards] >> nth=1")
    player.click("#discard button[type=submit]")
    player.wait_for_selector(".message.error")
    assert "бросить" in player.inner_text(".message.error") or "discard" in player.inner_text(".message.error")
    assert_content_fits(player, ".message.error", "cards-mine-refusal")
    assert_content_fits(player, "#standing", "cards-mine-standing")
    assert_content_fits(player, "#hand li", "cards-mine-hand")
    assert_content_fits(player, "#hand select, #sleeve select", "cards-mine-targets")
    assert_content_fits(player, "#results li", "cards-mine-results")
    player.goto(f"{base}/games/{game.pk}/role/")
    assert_content_fits(player, "ul.orders li", "cards-role-orders")
    player.context.close()

    master = phone_page(browser, base, gm)
    master.goto(f"{base}/games/{game.pk}/gm/cards/")
    assert_content_fits(master, ".cards-gm-table", "cards-gm-table")  # in its sideways scroller
    assert_content_fits(master, "#effects li", "cards-gm-effects")
    assert_content_fits(master, "#preview li", "cards-gm-preview")
    assert_content_fits(master, "#summary dd", "cards-gm-summary")
    master.context.close()
