"""Owns forum BBCode: parsing posts to a tree, rendering it as safe HTML, and reading text out of it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import nh3

__all__ = [
    "MAX_DEPTH",
    "RENDERER_VERSION",
    "Element",
    "Text",
    "iter_elements",
    "parse",
    "plain_text",
    "quote_source",
    "render",
    "render_tree",
]

# Stored posts cache their HTML together with this number; any change to the
# produced markup must bump it so old posts get re-rendered.
RENDERER_VERSION = 1

# Deeper tags stay literal text. This keeps the tree (and every recursive
# consumer of the HTML further down, such as the browser) shallow no matter
# what users paste.
MAX_DEPTH = 20


@dataclass(eq=False)
class Text:
    text: str


@dataclass(eq=False)
class Element:
    tag: str
    option: str | None
    children: list[Text | Element]
    raw_open: str = ""
    raw_close: str = ""


KNOWN_TAGS = frozenset(
    {"b", "i", "u", "s", "quote", "spoiler", "url", "img", "color", "size", "list", "*", "code", "private"}
)
# Tags that take no option at all; "[b=1]" is not what the user meant by bold.
_NO_OPTION_TAGS = frozenset({"b", "i", "u", "s", "img", "*", "code"})
# Rendered as block elements, so a newline right around them would only add a
# blank line that the block's own margin already provides.
_BLOCK_TAGS = frozenset({"quote", "spoiler", "list", "code", "private"})

SIZE_MIN = 1
SIZE_MAX = 7

NAMED_COLOURS = frozenset(
    {
        "black", "white", "gray", "grey", "silver", "red", "darkred", "maroon", "crimson",
        "orange", "darkorange", "gold", "yellow", "olive", "green", "darkgreen", "lime",
        "teal", "cyan", "aqua", "blue", "darkblue", "navy", "royalblue", "skyblue",
        "purple", "indigo", "violet", "magenta", "fuchsia", "pink", "brown", "chocolate",
    }
)
_HEX_COLOUR_RE = re.compile(r"#(?:[0-9a-f]{3}|[0-9a-f]{6})")

# Each failed match attempt must stop early, or a run of unterminated
# "[url=" would make every attempt scan to the end of the line (quadratic
# time): bare options stop at the next "[", quoted ones at the next quote
# mark (which the next quoted opener itself contains), and every repetition
# is bounded. Quoted options may hold brackets, as in "Вася [мафия]".
_TAG_RE = re.compile(
    r"""\[(/?)([A-Za-z]{1,16}|\*)"""
    r"""(?:=(?:"([^"\n]{0,256})"|'([^'\n]{0,256})'|([^\[\]\n]{0,2048})))?\]"""
)
_CODE_CLOSE_RE = re.compile(r"\[/code\]", re.IGNORECASE)

_URL_MAX = 2048
_URL_RE = re.compile(r"https?://[^/?#]+(?:[/?#].*)?", re.IGNORECASE | re.DOTALL)
# Anything a browser might strip or reinterpret inside an attribute, plus the
# characters that only appear in attribute break-out attempts.
_URL_FORBIDDEN_RE = re.compile(r"[\x00-\x20\x7f-\x9f\"'<>\\`\s]")

PRIVATE_PLACEHOLDER = "Private message to {name}"
PRIVATE_PLACEHOLDER_ANONYMOUS = "Private message"
SPOILER_DEFAULT_TITLE = "Spoiler"


# --- validation shared by the parser and the renderer ----------------------


def _safe_url(value: str) -> str | None:
    """The URL to emit, or None when it is not a plain absolute http(s) URL."""
    url = value.strip(" \t\n")
    if not url or len(url) > _URL_MAX or _URL_FORBIDDEN_RE.search(url):
        return None
    if not _URL_RE.fullmatch(url):
        return None
    return url


def _css_colour(value: str) -> str | None:
    colour = value.strip().lower()
    if colour in NAMED_COLOURS or _HEX_COLOUR_RE.fullmatch(colour):
        return colour
    return None


def _size_level(value: str) -> int | None:
    size = value.strip()
    # isdigit() accepts non-ASCII digits such as "²" that int() rejects.
    if not (size.isascii() and size.isdigit()) or len(size) > 3:
        return None
    level = int(size)
    return level if SIZE_MIN <= level <= SIZE_MAX else None


def _option_ok(tag: str, option: str | None) -> bool:
    if tag in _NO_OPTION_TAGS:
        return option is None
    if tag in ("quote", "spoiler"):
        return True
    if tag == "url":
        return option is None or _safe_url(option) is not None
    if tag == "color":
        return option is not None and _css_colour(option) is not None
    if tag == "size":
        return option is not None and _size_level(option) is not None
    if tag == "list":
        return option is None or option.strip() == "1"
    if tag == "private":
        return True  # without a recipient it is still not for public eyes
    return False


def _single_text(el: Element) -> str | None:
    if len(el.children) == 1 and isinstance(el.children[0], Text):
        return el.children[0].text
    return None


def _content_ok(el: Element) -> bool:
    if el.tag == "img" or (el.tag == "url" and el.option is None):
        text = _single_text(el)
        return text is not None and _safe_url(text) is not None
    if el.tag == "code":
        return all(isinstance(child, Text) for child in el.children)
    return True


def _display_name(name: str, limit: int = 100) -> str:
    """A name or title fit for one line of HTML: printable, whitespace collapsed."""
    name = "".join(ch for ch in name if ch.isprintable())
    return " ".join(name.split())[:limit]


def _clean_name(name: str) -> str:
    """A user name that cannot break out of a quoted BBCode option."""
    return _display_name(name.translate({ord('"'): "'", ord("["): "(", ord("]"): ")"}))


# --- parser -----------------------------------------------------------------


class _Frame:
    __slots__ = ("element", "children", "pending", "overflow")

    def __init__(self, element: Element) -> None:
        self.element = element
        self.children: list[Text | Element] = []
        # Adjacent text is collected here and joined once, so literal tags
        # merge into a single Text without quadratic string concatenation.
        self.pending: list[str] = []
        # Openers that were kept literal because of MAX_DEPTH, per tag, so
        # that their closers are kept literal too instead of closing an
        # outer tag of the same name.
        self.overflow: dict[str, int] | None = None

    def add_text(self, text: str) -> None:
        if text:
            self.pending.append(text)

    def flush(self) -> None:
        if self.pending:
            self.children.append(Text("".join(self.pending)))
            self.pending = []

    def add_element(self, element: Element) -> None:
        self.flush()
        self.children.append(element)

    def finish(self) -> list[Text | Element]:
        self.flush()
        return self.children


def _normalise(source: str) -> str:
    source = source.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    # Lone surrogates cannot be encoded for the sanitiser or the database.
    return source.encode("utf-8", "replace").decode("utf-8")


def _option_value(match: re.Match[str]) -> str | None:
    quoted = match.group(3) if match.group(3) is not None else match.group(4)
    if quoted is not None:
        return quoted
    bare = match.group(5)
    if bare is None:
        return None
    bare = bare.strip()
    if len(bare) >= 2 and bare[0] == bare[-1] and bare[0] in "\"'":
        bare = bare[1:-1]
    return bare


def parse(source: str) -> Element:
    """Parse BBCode into a tree rooted at Element("root").

    Anything that is not a well-formed, valid tag stays in the tree as Text
    holding the original characters, so nothing the user typed is lost.
    """
    source = _normalise(source)
    root = Element("root", None, [])
    stack = [_Frame(root)]
    # Links cannot nest in HTML, and a private message inside a private
    # message means nothing, so both are refused while one is open.
    open_urls = 0
    open_privates = 0
    code_close: re.Match[str] | None = None
    code_close_exhausted = False
    pos = 0
    length = len(source)

    def demote(frame: _Frame, parent: _Frame, raw_close: str = "") -> None:
        # An element that turned out not to be one: its tags become text and
        # its content stays where it was.
        parent.add_text(frame.element.raw_open)
        frame.flush()
        for child in frame.children:
            if isinstance(child, Text):
                parent.add_text(child.text)
            else:
                parent.add_element(child)
        parent.add_text(raw_close)

    def close(frame: _Frame, parent: _Frame, raw_close: str) -> None:
        element = frame.element
        element.children = frame.finish()
        element.raw_close = raw_close
        if _content_ok(element):
            parent.add_element(element)
        else:
            demote(frame, parent, raw_close)

    while pos < length:
        match = _TAG_RE.search(source, pos)
        if match is None:
            stack[-1].add_text(source[pos:])
            break
        top = stack[-1]
        top.add_text(source[pos : match.start()])
        pos = match.end()
        raw = match.group(0)
        name = match.group(2).lower()
        option = _option_value(match)

        if name not in KNOWN_TAGS:
            top.add_text(raw)
            continue

        if match.group(1):  # closing tag
            if option is not None:
                top.add_text(raw)
                continue
            if top.overflow and top.overflow.get(name):
                top.overflow[name] -= 1
                top.add_text(raw)
                continue
            target = len(stack) - 1
            while target > 0 and stack[target].element.tag != name:
                # Closing an outer tag from inside a private message would
                # turn the message into literal, public text.
                if stack[target].element.tag == "private":
                    target = 0
                    break
                target -= 1
            if target == 0:
                top.add_text(raw)  # stray closer
                continue
            # Openers between the closer and its match were never closed.
            while len(stack) - 1 > target:
                frame = stack.pop()
                open_urls -= frame.element.tag == "url"
                if frame.element.tag == "*" and name == "list" and len(stack) - 1 == target:
                    close(frame, stack[-1], "")
                else:
                    demote(frame, stack[-1])
            frame = stack.pop()
            open_urls -= name == "url"
            open_privates -= name == "private"
            close(frame, stack[-1], raw)
            continue

        # opening tag
        if name == "code":
            if option is not None:
                top.add_text(raw)
                continue
            if not code_close_exhausted and (code_close is None or code_close.start() < pos):
                code_close = _CODE_CLOSE_RE.search(source, pos)
                code_close_exhausted = code_close is None
            if code_close is None:
                top.add_text(raw)
                continue
            content = source[pos : code_close.start()]
            raw_close = code_close.group(0)
            pos = code_close.end()
            if len(stack) > MAX_DEPTH:
                top.add_text(raw + content + raw_close)
            else:
                children: list[Text | Element] = [Text(content)] if content else []
                top.add_element(Element("code", None, children, raw, raw_close))
            continue

        if name == "*":
            if option is None and top.element.tag == "*":
                stack.pop()
                close(top, stack[-1], "")
                top = stack[-1]
            if option is not None or top.element.tag != "list" or len(stack) > MAX_DEPTH:
                top.add_text(raw)
                continue
            stack.append(_Frame(Element("*", None, [], raw)))
            continue

        nested = (name == "url" and open_urls) or (name == "private" and open_privates)
        if nested or not _option_ok(name, option):
            top.add_text(raw)
            continue
        # A private message is exempt from the depth limit: as literal text
        # its secret would become public. Its content is never rendered as
        # markup, so it adds no depth to the HTML.
        if len(stack) > MAX_DEPTH and name != "private":
            if top.overflow is None:
                top.overflow = {}
            top.overflow[name] = top.overflow.get(name, 0) + 1
            top.add_text(raw)
            continue
        open_urls += name == "url"
        open_privates += name == "private"
        stack.append(_Frame(Element(name, option, [], raw)))

    while len(stack) > 1:
        frame = stack.pop()
        if frame.element.tag == "private":
            # Unclosed: the rest of the post stays private rather than public.
            close(frame, stack[-1], "")
        else:
            demote(frame, stack[-1])
    root.children = stack[0].finish()
    return root


# --- reading text -----------------------------------------------------------


def plain_text(node: Text | Element, *, skip: frozenset[str] = frozenset()) -> str:
    """Concatenated text of `node`, leaving out descendants whose tag is in `skip`.

    `skip` applies to descendants only, so plain_text(quote, skip={"quote"})
    reads a quote without its nested quotes. Literal tags are ordinary text.
    """
    if isinstance(node, Text):
        return node.text
    parts: list[str] = []
    stack: list[Text | Element] = list(reversed(node.children))
    while stack:
        current = stack.pop()
        if isinstance(current, Text):
            parts.append(current.text)
        elif current.tag not in skip:
            stack.extend(reversed(current.children))
    return "".join(parts)


def searchable_text(source: str) -> str:
    """The public words of a post for full-text search: tags dropped, [private] texts left out
    (only their recipients may read them), whitespace collapsed."""
    return " ".join(plain_text(parse(source), skip=frozenset({"private"})).split())


def iter_elements(node: Element, tag: str, *, skip: frozenset[str] = frozenset()) -> Iterator[Element]:
    """Descendants of `node` with the given tag, depth-first in document order.

    Elements whose tag is in `skip` are not descended into (they are still
    yielded when they are themselves `tag`). `node` itself is never yielded
    and is always searched.
    """
    stack: list[Text | Element] = list(reversed(node.children))
    while stack:
        current = stack.pop()
        if isinstance(current, Text):
            continue
        if current.tag == tag:
            yield current
        if current.tag not in skip:
            stack.extend(reversed(current.children))


# --- quoting ----------------------------------------------------------------


def _neutralise_tags(text: str) -> str:
    # A zero-width space after "[" keeps literal tag text from turning into a
    # real tag (e.g. a stray "[/quote]" closing the new quote early) while
    # looking the same on screen.
    def repl(match: re.Match[str]) -> str:
        if match.group(2).lower() in KNOWN_TAGS:
            return "[\u200b" + match.group(0)[1:]
        return match.group(0)

    return _TAG_RE.sub(repl, text)


def _to_source(root: Element) -> str:
    parts: list[str] = []
    stack: list[Text | Element | str] = list(reversed(root.children))
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            parts.append(current)
        elif isinstance(current, Text):
            parts.append(_neutralise_tags(current.text))
        elif current.tag == "private":
            continue  # a private message must never leak through a quote
        elif current.tag == "code":
            parts.append(current.raw_open + plain_text(current) + current.raw_close)
        else:
            parts.append(current.raw_open)
            stack.append(current.raw_close)
            stack.extend(reversed(current.children))
    return "".join(parts)


def quote_source(author: str, source: str) -> str:
    """BBCode that quotes `source` as written by `author`.

    [private] blocks are dropped from the quoted text, and literal tag text is
    neutralised so the quote re-parses to the same content.
    """
    body = _to_source(parse(source))
    name = _clean_name(author)
    opener = f'[quote="{name}"]' if name else "[quote]"
    return f"{opener}{body}[/quote]"


# --- rendering --------------------------------------------------------------

# Mirrors the sanitiser's serialiser, so legitimate output passes through it
# byte for byte and tests can prove nothing of ours is stripped.
def _esc_text(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("\xa0", "&nbsp;").replace("<", "&lt;").replace(">", "&gt;")
    )


def _esc_attr(text: str) -> str:
    return text.replace("&", "&amp;").replace("\xa0", "&nbsp;").replace('"', "&quot;")


def _text_html(text: str) -> str:
    return _esc_text(text).replace("\n", "<br>")


_LINK_ATTRS = 'target="_blank" rel="nofollow ugc noopener"'


def _renders(el: Element, depth: int, in_link: bool, in_list: bool) -> bool:
    """Whether `el` becomes markup (True) or is shown as its literal tags."""
    if el.tag == "private":
        return True  # the placeholder never shows the content, wherever it is
    if depth > MAX_DEPTH or el.tag not in KNOWN_TAGS:
        return False
    if el.tag == "*":
        return in_list and el.option is None
    if el.tag == "url" and in_link:
        return False
    return _option_ok(el.tag, el.option) and _content_ok(el)


def _atomic_html(el: Element) -> str | None:
    """Complete HTML for elements whose children are not rendered as markup."""
    if el.tag == "img":
        src = _safe_url(_single_text(el) or "")
        return f'<img src="{_esc_attr(src or "")}" alt="" loading="lazy">'
    if el.tag == "url" and el.option is None:
        href = _safe_url(_single_text(el) or "") or ""
        return f'<a href="{_esc_attr(href)}" {_LINK_ATTRS}>{_esc_text(href)}</a>'
    if el.tag == "code":
        # "[code]" and "[/code]" on lines of their own are the usual layout.
        content = plain_text(el).removeprefix("\n").removesuffix("\n")
        return f'<pre class="bb-code"><code>{_esc_text(content)}</code></pre>'
    if el.tag == "private":
        name = _display_name(el.option or "")
        if not name:
            return f'<div class="bb-private">{_esc_text(PRIVATE_PLACEHOLDER_ANONYMOUS)}</div>'
        label = PRIVATE_PLACEHOLDER.format(name=name)
        return f'<div class="bb-private" data-recipient="{_esc_attr(name)}">{_esc_text(label)}</div>'
    return None


def _wrap_html(el: Element) -> tuple[str, str]:
    tag = el.tag
    if tag == "b":
        return "<strong>", "</strong>"
    if tag == "i":
        return "<em>", "</em>"
    if tag == "u":
        return "<u>", "</u>"
    if tag == "s":
        return "<s>", "</s>"
    if tag == "quote":
        author = _display_name(el.option or "")
        cite = f"<cite>{_esc_text(author)}</cite>" if author else ""
        return f'<blockquote class="bb-quote">{cite}', "</blockquote>"
    if tag == "spoiler":
        title = _display_name(el.option or "", limit=256) or SPOILER_DEFAULT_TITLE
        return f'<details class="bb-spoiler"><summary>{_esc_text(title)}</summary>', "</details>"
    if tag == "url":
        href = _safe_url(el.option or "") or ""
        return f'<a href="{_esc_attr(href)}" {_LINK_ATTRS}>', "</a>"
    if tag == "color":
        return f'<span style="color:{_css_colour(el.option or "")}">', "</span>"
    if tag == "size":
        return f'<span class="bb-size-{_size_level(el.option or "")}">', "</span>"
    if tag == "list":
        return ("<ol>", "</ol>") if el.option is not None else ("<ul>", "</ul>")
    if tag == "*":
        return "<li>", "</li>"
    return "", ""  # root


def _render_unsanitised(root: Element) -> str:
    """HTML for the tree before the sanitiser; safe on its own by construction."""
    out: list[str] = []
    # Work items: a string to emit, or (element, depth, in_link, in_list, as_markup).
    if root.tag == "root":
        start = (root, 0, False, False, True)
    else:
        start = (root, 1, False, False, _renders(root, 1, False, False))
    work: list[str | tuple[Element, int, bool, bool, bool]] = [start]
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        el, depth, in_link, in_list, as_markup = item

        if not as_markup:
            # Literal element: its tags as text, its children rendered in the
            # surrounding context.
            out.append(_text_html(el.raw_open))
            work.append(_text_html(el.raw_close))
            work.extend(reversed(_child_items(el, depth, in_link, in_list, trim_edges=False)))
            continue

        atomic = _atomic_html(el)
        if atomic is not None:
            out.append(atomic)
            continue
        opening, closing = _wrap_html(el)
        out.append(opening)
        work.append(closing)
        child_in_link = in_link or el.tag == "url"
        child_in_list = el.tag == "list"
        trim = el.tag in _BLOCK_TAGS or el.tag == "*"
        work.extend(reversed(_child_items(el, depth + 1, child_in_link, child_in_list, trim_edges=trim)))
    return "".join(out)


def _child_items(
    el: Element, depth: int, in_link: bool, in_list: bool, *, trim_edges: bool
) -> list[str | tuple[Element, int, bool, bool, bool]]:
    """Work items for the children of `el`, which sit at `depth`."""
    items: list[str | tuple[Element, int, bool, bool, bool]] = []
    last = len(el.children) - 1
    previous_is_block = False
    for index, child in enumerate(el.children):
        if isinstance(child, Text):
            text = child.text
            if previous_is_block or (trim_edges and index == 0):
                text = text.removeprefix("\n")
            if trim_edges and index == last:
                text = text.removesuffix("\n")
            if in_list:
                # Between list items only real text survives, without breaks.
                text = " ".join(text.split())
                items.append(_esc_text(text))
            else:
                items.append(_text_html(text))
            previous_is_block = False
        else:
            as_markup = _renders(child, depth, in_link, in_list)
            items.append((child, depth, in_link, in_list, as_markup))
            previous_is_block = as_markup and child.tag in _BLOCK_TAGS
    return items


_ALLOWED_TAGS = {
    "a", "blockquote", "br", "cite", "code", "details", "div", "em", "img", "li",
    "ol", "pre", "s", "span", "strong", "summary", "u", "ul",
}
_ALLOWED_ATTRIBUTES = {
    "a": {"href"},
    "img": {"src", "alt"},
    "span": {"style"},
    "div": {"data-recipient"},
}
_ALLOWED_ATTRIBUTE_VALUES = {
    "a": {"target": {"_blank"}},
    "img": {"loading": {"lazy"}},
}
_ALLOWED_CLASSES = {
    "blockquote": {"bb-quote"},
    "details": {"bb-spoiler"},
    "pre": {"bb-code"},
    "div": {"bb-private"},
    "span": {f"bb-size-{level}" for level in range(SIZE_MIN, SIZE_MAX + 1)},
}


_STYLE_RE = re.compile(r"color:(?:[a-z]+|#[0-9a-f]{3}|#[0-9a-f]{6})")


def _style_filter(tag: str, attribute: str, value: str) -> str | None:
    if attribute == "style":
        return value if _STYLE_RE.fullmatch(value) else None
    return value


# nh3 gained filter_style_properties in a later release than attribute_filter;
# where it is missing, an exact match on our own "color:..." output stands in.
try:
    nh3.clean("", attributes={"span": {"style"}}, filter_style_properties={"color"})
except TypeError:
    _STYLE_OPTIONS: dict[str, object] = {"attribute_filter": _style_filter}
else:
    _STYLE_OPTIONS = {"filter_style_properties": {"color"}}


_SANITISER_OPTIONS = dict(
    tags=_ALLOWED_TAGS,
    clean_content_tags={"script", "style"},
    attributes=_ALLOWED_ATTRIBUTES,
    tag_attribute_values=_ALLOWED_ATTRIBUTE_VALUES,
    allowed_classes=_ALLOWED_CLASSES,
    link_rel="nofollow ugc noopener",
    url_schemes={"http", "https"},
    url_relative="deny",
    strip_comments=True,
    **_STYLE_OPTIONS,
)
# One sanitiser made once where nh3 has them (0.3: its options are converted once, not on every
# call, five times faster for a post), else nh3.clean with the same options.
_SANITISER = nh3.Cleaner(**_SANITISER_OPTIONS).clean if hasattr(nh3, "Cleaner") else None


def _sanitise(html: str) -> str:
    # Defence in depth: the renderer already escapes everything, this catches
    # whatever a future change to it gets wrong.
    if _SANITISER is not None:
        return _SANITISER(html)
    return nh3.clean(html, **_SANITISER_OPTIONS)


def render_tree(root: Element) -> str:
    """Sanitised HTML of an already parsed tree."""
    return _sanitise(_render_unsanitised(root))


def render(source: str) -> str:
    """BBCode source to sanitised HTML."""
    return render_tree(parse(source))
