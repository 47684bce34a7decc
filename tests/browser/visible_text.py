"""What a reader sees on a page, and the code-shaped words in it (issue 28, item 13, in the browser):
identifiers, English stage codes, lowercase ASCII words in brackets, raw floats — anything that
says the page printed the program's name for a thing instead of the site's word for it."""

from __future__ import annotations

import re

# The visible text of the body with every <details> opened (a reader opens them) and without the
# parts that are code by their nature: the commitment's payload and hashes (<pre>, <code>), scripts.
VISIBLE_TEXT_JS = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const body = document.body.cloneNode(true);
  body.querySelectorAll('pre, code, script, style, template, noscript').forEach(n => n.remove());
  document.documentElement.appendChild(body);
  body.style.position = 'absolute'; body.style.left = '-100000px'; body.style.width = '390px';
  const text = body.innerText;
  body.remove();
  return text;
}"""

# The engine's and the ledger's words, which the site must always turn into its own.
ENGINE_WORDS = frozenset("""
    mason masons saviour reptiloid reptiloids demon public enslave enslaved spare suspect save relieve
    greeting greetings defence revote judge night day allies ally bet bets raise sympathy sympathies trial
    grant grants pass burden burdens fee fees coma asleep active free slave slaves owner owners escrow pot
    bank entry stake knowledge opinion request lull wake done order vote ballot none null true false nobody
    draw winner winners rating ratings referral registration settlement split share refund mint
""".split())

# (not inside an address: an e-mail's or a link's underscores are not code)
SNAKE = re.compile(r"(?<![\w./@:-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w@/])")
STAGE_CODE = re.compile(r"\b(?:greetings|day|defence|revote|judge|night|allies)(?:\s*\d+)?\b", re.IGNORECASE)
IN_BRACKETS = re.compile(r"\(\s*[a-z][a-z_ ]*[a-z]\s*\)")
RAW_FLOAT = re.compile(r"\d+[.,]\d{5,}")
PY_REPR = re.compile(r"\b(?:None|True|False)\b|\{'|\['|\[\"|\{\"|<[a-z]+ object at")
# (nor after «#»: «##vote X», «##unvote» are how players write a vote in the thread, a forum's
# words, not the program's)
ASCII_WORD = re.compile(r"(?<![/\w.@:#-])[a-z]{3,}(?![\w@/-])(?!\.\w)")
# Patterns in the order they are looked for; what one found is taken out of the text before the next.
PATTERNS = (SNAKE, IN_BRACKETS, STAGE_CODE, RAW_FLOAT, PY_REPR)


def code_shaped(text: str) -> list[str]:
    """The code-shaped tokens of a visible text: snake_case identifiers, lowercase ASCII words in
    brackets («(reptiloids)»), the engine's stage codes («night 2», «greetings»), raw floats
    («0,010000000000000002»), Python reprs, and lowercase ASCII words of the engine's vocabulary
    standing alone in the (Russian) text."""
    found: list[str] = []
    for pattern in PATTERNS:
        found += pattern.findall(text)
        text = pattern.sub(" ", text)
    found += [w for w in ASCII_WORD.findall(text) if w in ENGINE_WORDS]
    return sorted(set(found))


def visible_text(page) -> str:
    return page.evaluate(VISIBLE_TEXT_JS)


def page_codes(page) -> list[tuple[str, str]]:
    """Each code-shaped token of the page with the line it stands in (for a readable failure)."""
    text = visible_text(page)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    out = []
    for token in code_shaped(text):
        line = next((line for line in lines if token in line), "")
        out.append((token, line[:160]))
    return out
