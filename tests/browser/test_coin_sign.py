"""The coin sign ㉿ is drawn in Debian's Chromium (issue 28, item 22): no font of this machine has
U+327F, so it came out as an empty box; the site ships it (static/fonts/coin-sign.woff2, one glyph of
NanumGothic under the SIL OFL, @font-face with unicode-range in static/css/site.css). The test
draws the sign on a canvas with the page's own font stack and compares it with an unassigned code
point's rendering (the box every missing glyph gets): they must differ, and the page's web font
must be the one that drew it."""

import os

import pytest
from django.urls import reverse

from coins import services as coins
from tests.browser.conftest import phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

DRAW = """([text, font]) => {
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 64;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, 64, 64);
  ctx.fillStyle = "#000"; ctx.font = "40px " + font; ctx.textBaseline = "top";
  ctx.fillText(text, 8, 8);
  return {pixels: Array.from(ctx.getImageData(0, 0, 64, 64).data).join(","), width: ctx.measureText(text).width};
}"""


def test_the_coin_sign_is_drawn_by_the_sites_font_not_as_an_empty_box(live_server, browser, transactional_db):
    coins.ensure_indicode(make_user("Герой"))  # the sign-up then asks for the bonus: «… 1000 ㉿ …»
    page = phone_page(browser, live_server.url)
    page.goto(live_server.url + reverse("account_signup"))
    assert "㉿" in page.inner_text("main")
    page.evaluate("document.fonts.ready")
    page.wait_for_function("""() => [...document.fonts].some(f => f.family.replace(/"/g, "") === "Mafia Coin Sign"
                                                             && f.status === "loaded")""")
    stack = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "Mafia Coin Sign" in stack
    assert page.evaluate("""(stack) => document.fonts.check("40px " + stack, "㉿")""", stack)
    sign = page.evaluate(DRAW, ["㉿", stack])
    box = page.evaluate(DRAW, ["\u0378", stack])  # unassigned: the box a missing glyph is drawn as
    assert sign["pixels"] != box["pixels"], "㉿ is drawn as the empty box"
    assert len(set(sign["pixels"].split(","))) > 2  # something is drawn, not a blank
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots = os.environ.get("PHONE_SHOTS_DIR", "/tmp/phone-shots")
    os.makedirs(shots, exist_ok=True)
    page.screenshot(path=os.path.join(shots, "signup-coin-sign.png"), full_page=True)
    page.context.close()
