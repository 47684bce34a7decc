"""XSS in a real browser (issue 8): a list of payloads goes through the real post form, and every
page that shows posts is loaded in Chromium with a tripwire. Each payload, if it ever ran, would
set `window.__xss` or open a dialog; the test also audits the DOM of the user content for what
must never be there (event-handler attributes, javascript:/data: URLs, scripts, foreign tags).

One page load per surface, all payloads in one thread: the thread page (as its reader and after
the game), the htmx reply and preview, the refusal of a [private] tag naming an HTML "player",
the search results, the archive of the finished game (its private messages), the post's history,
the moderators' report queue, the game page (a player whose display name is HTML) and profiles.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Post, Thread
from games.services.games import game_create
from games.services.lifecycle import game_finish, game_signup, game_start
from games.services.moderation import report_create
from games.services.posts import post_edit
from games.services.threads import thread_create
from tests.browser.conftest import logged_in_page
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.browser

MARK = "сойка"  # written before each payload: the search finds them all by it
TRIP = "window.__xss=1"
PAYLOADS = [
    # Raw HTML and scripts (BBCode is not HTML: all of this must come out as text).
    f"<script>{TRIP}</script>",
    f"<img src=x onerror={TRIP}>",
    f"<svg onload={TRIP}>",
    f"<svg><script>{TRIP}</script></svg>",
    f"<iframe src=\"javascript:{TRIP}\"></iframe>",
    f"<a href=\"javascript:{TRIP}\">ссылка</a>",
    f"<style>body{{background:url(\"javascript:{TRIP}\")}}</style>",
    f"<div hx-get=\"/\" hx-trigger=\"load\" hx-on::after-request=\"{TRIP}\">htmx</div>",
    f"<math><mtext><table><mglyph><style><img src=x onerror={TRIP}>",
    f"<noscript><p title=\"</noscript><img src=x onerror={TRIP}>\">",
    # Entities that decode to markup.
    f"&lt;script&gt;{TRIP}&lt;/script&gt;",
    f"&#60;img src=x onerror={TRIP}&#62;",
    "{{ 7|add:7 }} {% csrf_token %}",
    # [url]: schemes, quotes and nesting.
    f"[url=javascript:{TRIP}]ссылка[/url]",
    "[url]javascript:alert(1)[/url]",
    f"[url=JaVaScRiPt:{TRIP}]ссылка[/url]",
    f"[url=java\tscript:{TRIP}]ссылка[/url]",
    f"[url=data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==]данные[/url]",
    f"[url=http://example.com\" onmouseover=\"{TRIP}]кавычка[/url]",
    f"[url=\"http://example.com/\" onclick=\"{TRIP}\"]кавычки[/url]",
    f"[url='http://example.com/' onclick='{TRIP}']апострофы[/url]",
    f"[url=http://example.com/?a=&quot;onmouseover=&quot;{TRIP}]сущности[/url]",
    f"[url=https://example.com/#\"><script>{TRIP}</script>]решётка[/url]",
    f"[url=http://example.com][url=javascript:{TRIP}]вложенная[/url][/url]",
    # [img]: schemes and attribute breaks.
    f"[img]javascript:{TRIP}[/img]",
    f"[img]x\" onerror=\"{TRIP}[/img]",
    f"[img]http://127.0.0.1:9/x.png\" onerror=\"{TRIP}[/img]",
    "[img]data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+[/img]",
    f"[img]http://127.0.0.1:9/a.png?x=</script><script>{TRIP}</script>[/img]",
    # [color] and [size]: style injection.
    f"[color=red;background:url(javascript:{TRIP})]цвет[/color]",
    f"[color=expression({TRIP})]цвет[/color]",
    f"[color=\"red\" onmouseover=\"{TRIP}\"]цвет[/color]",
    f"[color=red\"><script>{TRIP}</script>]цвет[/color]",
    f"[size=7 onmouseover={TRIP}]размер[/size]",
    f"[size=\"3\"><script>{TRIP}</script>]размер[/size]",
    # [quote] authors, [spoiler] titles, lists, code, nesting and unclosed tags.
    f"[quote=\"<script>{TRIP}</script>\"]цитата[/quote]",
    f"[quote=\"Вася\\\" onmouseover=\\\"{TRIP}\"]цитата[/quote]",
    f"[quote='x\" onload=\"{TRIP}']цитата[/quote]",
    f"[quote=\"</cite><img src=x onerror={TRIP}>\"]цитата[/quote]",
    f"[spoiler=\"<svg onload={TRIP}>\"]спойлер[/spoiler]",
    f"[list][*]<img src=x onerror={TRIP}>[*][url=javascript:{TRIP}]x[/url][/list]",
    f"[code]<script>{TRIP}</script>[/code]",
    f"[b][i][url=http://a.example][img]http://127.0.0.1:9/b.png[/url][/img]<b onclick={TRIP}>",
    f"[quote][quote][quote][spoiler][code]<script>{TRIP}</script>",
    "[b]" * 40 + f"<img src=x onerror={TRIP}>" + "[/b]" * 10,
]
PRIVATE_PAYLOADS = [
    f"[private=\"Петя\"]<script>{TRIP}</script>[img]javascript:{TRIP}[/img][url=javascript:{TRIP}]x[/url][/private]",
    f"[private=\"Петя\"][quote=\"<img src=x onerror={TRIP}>\"]в привате[/quote][/private]",
]
HTML_NAME = f"\"><img src=x onerror={TRIP}>"  # a player whose display name is HTML

# Run in the page before anything else: the tripwire, and a record of what dialogs opened.
TRIPWIRE = "window.__xss = 0;"
AUDIT = r"""() => {
  const bad = [];
  const scheme = /^(javascript|vbscript|data):/;
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      const value = attr.value.replace(/[\s\x00-\x1f]/g, '').toLowerCase();
      if (name.startsWith('on')) bad.push(`${el.tagName} ${name}`);
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc'].includes(name) && scheme.test(value))
        bad.push(`${el.tagName} ${name}=${attr.value}`);
    }
  }
  const allowed = new Set(['A', 'BLOCKQUOTE', 'BR', 'CITE', 'CODE', 'DETAILS', 'DIV', 'EM', 'IMG', 'LI', 'OL', 'PRE',
                           'S', 'SPAN', 'STRONG', 'SUMMARY', 'U', 'UL', 'MARK', 'P']);
  for (const el of document.querySelectorAll('.post-body *, .private-text *, .snippet *, .preview-body *')) {
    if (!allowed.has(el.tagName)) bad.push(`user content holds <${el.tagName.toLowerCase()}>`);
    for (const attr of el.attributes) if (attr.name.startsWith('hx-')) bad.push(`user content holds ${attr.name}`);
    const style = el.getAttribute('style');
    if (style !== null && !/^color:[#a-z0-9]+$/.test(style)) bad.push(`style="${style}"`);
  }
  return bad;
}"""


def _watch(page, dialogs: list):
    page.add_init_script(TRIPWIRE)
    page.on("dialog", lambda dialog: (dialogs.append(f"{page.url}: {dialog.message}"), dialog.dismiss()))
    return page


def _check(page, surface: str, problems: list, dialogs: list) -> None:
    page.wait_for_load_state("load")
    page.wait_for_timeout(150)  # let onload/onerror handlers of broken images fire
    if page.evaluate("window.__xss") != 0:
        problems.append(f"{surface}: a payload ran (window.__xss = {page.evaluate('window.__xss')})")
    problems += [f"{surface}: {item}" for item in page.evaluate(AUDIT)]
    problems += [f"{surface}: dialog {d}" for d in dialogs]
    dialogs.clear()


@pytest.fixture
def setting_the_scene(transactional_db, settings):
    settings.MAFIA_POST_RATE = 0  # dozens of posts from one author in a second
    gm, staff = make_user("Ведущий"), make_user("Модератор", staff=True)
    names = ["Вася", "Петя", "Маша", "Даша", "Глаша", "Паша", HTML_NAME]
    users = {name: make_user(name) for name in names}
    game = game_create(title="Игра <script>window.__xss=1</script>", gm=gm, size=7)
    for user in users.values():
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=1)
    lobby, _post = thread_create(kind=Thread.Kind.LOBBY, title=f"Тема <img src=x onerror={TRIP}>",
                                 author=users["Вася"], body="Начало")
    # Through the real form handler (the view), as a user would post them.
    author = client_for(users[HTML_NAME])
    for payload in PAYLOADS:
        response = author.post(reverse("games:thread_reply", args=[lobby.pk]), {"body": f"{MARK} {payload}"})
        assert response.status_code == 302, payload
    vasya = client_for(users["Вася"])
    for payload in PRIVATE_PAYLOADS:
        response = vasya.post(reverse("games:thread_reply", args=[game.game_thread_id]), {"body": f"{MARK} {payload}"})
        assert response.status_code == 302, payload
    assert Post.objects.filter(thread=lobby).count() == len(PAYLOADS) + 1
    edited = Post.objects.filter(thread=lobby, author=users[HTML_NAME]).order_by("number").first()
    post_edit(post=edited, editor=users[HTML_NAME], body=f"{MARK} исправлено <script>{TRIP}</script>")
    report_create(post=edited, reporter=users["Маша"], reason=f"<img src=x onerror={TRIP}>")
    return {"game": game, "lobby": lobby, "users": users, "gm": gm, "staff": staff, "edited": edited}


def test_no_payload_runs_anywhere(live_server, browser, setting_the_scene):
    scene = setting_the_scene
    game, lobby, users = scene["game"], scene["lobby"], scene["users"]
    problems, dialogs = [], []
    base = live_server.url

    # A player of the running game: his thread (with his private texts), a reply and a preview
    # through htmx, and the refusal that quotes a private tag's HTML name back to him.
    page = _watch(logged_in_page(browser, base, users["Вася"]), dialogs)
    page.goto(f"{base}{lobby.get_absolute_url()}?page=last")
    _check(page, "lobby thread", problems, dialogs)
    page.goto(f"{base}{game.game_thread.get_absolute_url()}")
    _check(page, "game thread, running", problems, dialogs)
    page.fill("#reply-body", "\n".join(PAYLOADS))
    page.click("button[name=preview]")
    page.wait_for_selector("#preview .preview-body")
    _check(page, "preview", problems, dialogs)
    page.fill("#reply-body", f"[private=\"<svg onload={TRIP}>\"]тайна[/private]")
    page.click("button[name=post]")
    page.wait_for_selector("#thread-region .error")
    assert f"<svg onload={TRIP}>" in page.inner_text("#thread-region .error")  # quoted back as text
    _check(page, "refused private tag", problems, dialogs)
    page.fill("#reply-body", f"{MARK} " + PAYLOADS[1] + PAYLOADS[25])
    page.click("button[name=post]")
    page.wait_for_function("() => document.getElementById('reply-body').value === ''")
    _check(page, "htmx reply", problems, dialogs)
    page.context.close()

    # After the game every text is unsealed: the moderator reads it all.
    game_finish(game=game, winner="town", now=timezone.now())
    page = _watch(logged_in_page(browser, base, scene["staff"]), dialogs)
    surfaces = {
        "game thread, finished": game.game_thread.get_absolute_url(),
        "lobby thread, moderator": f"{lobby.get_absolute_url()}?page=last",
        "search": f"{reverse('games:search')}?q={MARK}",
        "archive": reverse("games:archive", args=[game.pk]),
        "replay": reverse("games:replay", args=[game.pk]),
        "post history": reverse("games:post_history", args=[scene["edited"].pk]),
        "report queue": reverse("games:reports"),
        "game page": game.get_absolute_url(),
        "profile": reverse("accounts:profile", args=[users[HTML_NAME].pk]),
        "desk": reverse("games:dashboard"),
        "game list": reverse("games:games"),
    }
    for surface, path in surfaces.items():
        page.goto(f"{base}{path}")
        _check(page, surface, problems, dialogs)
    page.goto(f"{base}{reverse('games:search')}?q={MARK}")
    assert page.locator(".search-hit").count() >= 10, "the search found the payload posts"
    page.context.close()
    assert problems == [], "\n".join(problems)
