"""Tests for games.text.bbcode: tree shape, rendering, recovery, safety, bounded work."""

import random
import re

import nh3
import pytest

from games.text import bbcode
from games.text.bbcode import (
    MAX_DEPTH,
    RENDERER_VERSION,
    Element,
    Text,
    iter_elements,
    parse,
    plain_text,
    quote_source,
    render,
    render_tree,
)

LINK = 'target="_blank" rel="nofollow ugc noopener"'


def unsanitised(source: str) -> str:
    return bbcode._render_unsanitised(parse(source))


def to_source(node: Text | Element) -> str:
    if isinstance(node, Text):
        return node.text
    return node.raw_open + "".join(to_source(child) for child in node.children) + node.raw_close


def shape(node: Text | Element):
    """A comparable view of a tree: strings for Text, tuples for elements."""
    if isinstance(node, Text):
        return node.text
    return (node.tag, node.option, [shape(child) for child in node.children])


def assert_safe(html: str) -> None:
    lowered = html.lower()
    assert "<script" not in lowered
    assert not re.search(r"<[a-z][^>]*\son[a-z]+\s*=", lowered), html
    # Every link and image points at an absolute http(s) URL, nothing else.
    assert not re.search(r'(href|src)="(?!https?://)', lowered), html


# --- module contract ---------------------------------------------------------


def test_module_constants_are_sane_when_imported():
    assert isinstance(RENDERER_VERSION, int) and RENDERER_VERSION >= 1
    assert isinstance(MAX_DEPTH, int) and 10 <= MAX_DEPTH <= 50


def test_module_does_not_import_django_when_loaded():
    with open(bbcode.__file__, encoding="utf-8") as handle:
        assert "django" not in handle.read().lower()


# --- tree shape --------------------------------------------------------------


def test_parse_returns_root_element_when_given_plain_text():
    root = parse("Привет, мир")
    assert root.tag == "root"
    assert root.option is None
    assert shape(root) == ("root", None, ["Привет, мир"])
    assert root.raw_open == "" and root.raw_close == ""


def test_parse_returns_empty_root_when_given_empty_string():
    assert shape(parse("")) == ("root", None, [])


def test_parse_builds_elements_with_raw_tags_when_tags_are_balanced():
    root = parse("a [B]bold[/b] z")
    assert shape(root) == ("root", None, ["a ", ("b", None, ["bold"]), " z"])
    bold = root.children[1]
    assert bold.raw_open == "[B]" and bold.raw_close == "[/b]"


def test_parse_strips_quotes_from_option_when_option_is_quoted():
    root = parse('[quote="Вася"]x[/quote][quote=Петя]y[/quote][quote=\'Коля\']z[/quote]')
    assert [el.option for el in root.children] == ["Вася", "Петя", "Коля"]
    assert root.children[0].raw_open == '[quote="Вася"]'


def test_parse_keeps_url_option_when_url_has_equals_option():
    root = parse("[url=http://x.ru/a?b=1]text[/url]")
    assert shape(root) == ("root", None, [("url", "http://x.ru/a?b=1", ["text"])])


def test_parse_keeps_bracket_in_name_when_option_is_quoted():
    root = parse('[quote="Вася [мафия]"]x[/quote]')
    assert root.children[0].option == "Вася [мафия]"


def test_parse_gives_none_option_when_tag_has_no_option():
    root = parse("[quote]x[/quote]")
    assert root.children[0].option is None


def test_parse_nests_quotes_with_authors_when_quote_in_quote_in_quote():
    root = parse('[quote="A"]1[quote="Б"]2[quote="В"]3[/quote][/quote][/quote]')
    assert shape(root) == (
        "root",
        None,
        [("quote", "A", ["1", ("quote", "Б", ["2", ("quote", "В", ["3"])])])],
    )


def test_parse_keeps_private_recipient_and_content_when_private_tag():
    root = parse('[private="Вася"]тайна [b]жирная[/b][/private]')
    assert shape(root) == ("root", None, [("private", "Вася", ["тайна ", ("b", None, ["жирная"])])])


def test_parse_keeps_code_contents_literal_when_they_contain_tags():
    root = parse("[code][b]x[/b] [quote]y [url=javascript:z]w[/code]")
    code = root.children[0]
    assert shape(root) == ("root", None, [("code", None, ["[b]x[/b] [quote]y [url=javascript:z]w"])])
    assert code.raw_open == "[code]" and code.raw_close == "[/code]"


def test_parse_closes_code_at_first_closer_when_code_contains_code_closer():
    root = parse("[code]a[/code]b[/code]")
    assert shape(root) == ("root", None, [("code", None, ["a"]), "b[/code]"])


def test_parse_builds_items_when_list_has_star_items():
    root = parse("[list][*]один[*]два[/list]")
    assert shape(root) == ("root", None, [("list", None, [("*", None, ["один"]), ("*", None, ["два"])])])
    assert [item.raw_close for item in root.children[0].children] == ["", ""]


def test_parse_keeps_list_option_when_list_is_ordered():
    root = parse("[list=1][*]a[/list]")
    assert root.children[0].option == "1"


def test_parse_closes_item_when_explicit_star_closer():
    root = parse("[list][*]a[/*][*]b[/list]")
    assert shape(root) == ("root", None, [("list", None, [("*", None, ["a"]), ("*", None, ["b"])])])


def test_parse_is_lossless_when_input_is_random_tag_soup():
    pieces = [
        "[b]", "[/b]", "[i]", "[/I]", "[quote]", '[quote="Вася"]', "[/quote]", "[list]", "[list=1]",
        "[/list]", "[*]", "[/*]", "[code]", "[/code]", "[url]", "[url=http://a.b/?x=1&y=2]", "[/url]",
        "http://x.y/z", "javascript:alert(1)", "[img]", "[/img]", "[color=red]", "[color=#zzz]",
        "[/color]", "[size=3]", "[/size]", '[spoiler="<b>"]', "[/spoiler]", '[private="П"]',
        "[/private]", "\n", "текст", "<script>", "\"'&", "\xa0", "[foo]", "[", "]", "=", '"',
    ]
    rng = random.Random(20240501)
    for _ in range(3000):
        source = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert to_source(parse(source)) == source


def test_parse_merges_adjacent_text_when_tags_are_literal():
    root = parse("a [foo] b [/b] c")
    assert shape(root) == ("root", None, ["a [foo] b [/b] c"])


def test_parse_normalises_line_endings_when_source_has_crlf():
    assert shape(parse("a\r\nb\rc")) == ("root", None, ["a\nb\nc"])


# --- rendering of every tag ------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("[b]x[/b]", "<strong>x</strong>"),
        ("[i]x[/i]", "<em>x</em>"),
        ("[u]x[/u]", "<u>x</u>"),
        ("[s]x[/s]", "<s>x</s>"),
        ("[B]x[/B][I]y[/i]", "<strong>x</strong><em>y</em>"),
    ],
)
def test_render_emits_inline_markup_when_simple_formatting_tag(source, expected):
    assert render(source) == expected


def test_render_emits_blockquote_with_cite_when_quote_has_author():
    assert render('[quote="Вася"]привет[/quote]') == (
        '<blockquote class="bb-quote"><cite>Вася</cite>привет</blockquote>'
    )


def test_render_emits_blockquote_without_cite_when_quote_has_no_author():
    assert render("[quote]x[/quote]") == '<blockquote class="bb-quote">x</blockquote>'
    assert render('[quote=""]x[/quote]') == '<blockquote class="bb-quote">x</blockquote>'


def test_render_nests_blockquotes_when_quotes_are_nested():
    html = render('[quote="A"][quote="Б"][quote="В"]x[/quote][/quote][/quote]')
    assert html == (
        '<blockquote class="bb-quote"><cite>A</cite>'
        '<blockquote class="bb-quote"><cite>Б</cite>'
        '<blockquote class="bb-quote"><cite>В</cite>x'
        "</blockquote></blockquote></blockquote>"
    )


def test_render_emits_details_with_default_summary_when_spoiler_has_no_title():
    assert render("[spoiler]x[/spoiler]") == (
        '<details class="bb-spoiler"><summary>Spoiler</summary>x</details>'
    )


def test_render_emits_details_with_title_when_spoiler_has_title():
    assert render('[spoiler="Роли"]x[/spoiler]') == (
        '<details class="bb-spoiler"><summary>Роли</summary>x</details>'
    )


def test_render_emits_link_when_url_tag_wraps_address():
    assert render("[url]https://example.com/a?b=1&c=2[/url]") == (
        f'<a href="https://example.com/a?b=1&amp;c=2" {LINK}>https://example.com/a?b=1&amp;c=2</a>'
    )


def test_render_emits_link_with_formatted_text_when_url_has_option():
    assert render("[url=http://example.com]сайт [b]тут[/b][/url]") == (
        f'<a href="http://example.com" {LINK}>сайт <strong>тут</strong></a>'
    )


def test_render_emits_link_when_url_host_is_cyrillic():
    assert render("[url]http://пример.рф/путь[/url]") == (
        f'<a href="http://пример.рф/путь" {LINK}>http://пример.рф/путь</a>'
    )


def test_render_emits_img_when_img_has_https_url():
    assert render("[img]https://i.example.com/a.png[/img]") == (
        '<img src="https://i.example.com/a.png" alt="" loading="lazy">'
    )


def test_render_emits_linked_image_when_img_inside_url():
    assert render("[url=https://x.org][img]https://x.org/a.png[/img][/url]") == (
        f'<a href="https://x.org" {LINK}><img src="https://x.org/a.png" alt="" loading="lazy"></a>'
    )


@pytest.mark.parametrize(
    ("option", "css"),
    [("red", "red"), ("RED", "red"), ("#abc", "#abc"), ("#AABBCC", "#aabbcc"), ('"blue"', "blue")],
)
def test_render_emits_colour_span_when_colour_is_allowed(option, css):
    assert render(f"[color={option}]x[/color]") == f'<span style="color:{css}">x</span>'


@pytest.mark.parametrize("level", range(1, 8))
def test_render_emits_size_class_when_size_in_range(level):
    assert render(f"[size={level}]x[/size]") == f'<span class="bb-size-{level}">x</span>'


def test_render_emits_unordered_list_when_list_without_option():
    assert render("[list]\n[*]один\n[*]два\n[/list]") == "<ul><li>один</li><li>два</li></ul>"


def test_render_emits_ordered_list_when_list_option_is_one():
    assert render("[list=1][*]a[*]b[/list]") == "<ol><li>a</li><li>b</li></ol>"


def test_render_keeps_breaks_inside_item_when_item_has_inner_newline():
    assert render("[list][*]a\nb\n[/list]") == "<ul><li>a<br>b</li></ul>"


def test_render_keeps_text_without_breaks_when_text_sits_between_list_items():
    assert render("[list]intro\n[*]a[/list]") == "<ul>intro<li>a</li></ul>"


def test_render_nests_lists_when_list_inside_item():
    assert render("[list][*]a[list][*]b[/list][*]c[/list]") == (
        "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"
    )


def test_render_emits_pre_with_literal_content_when_code_tag():
    assert render("[code]\n[b]x[/b] <i>\n  y\n[/code]") == (
        '<pre class="bb-code"><code>[b]x[/b] &lt;i&gt;\n  y</code></pre>'
    )


def test_render_emits_placeholder_when_private_tag():
    assert render('[private="Вася"]ты шериф[/private]') == (
        '<div class="bb-private" data-recipient="Вася">Private message to Вася</div>'
    )


def test_render_emits_anonymous_placeholder_when_private_has_no_recipient():
    html = render("[private]секрет[/private]")
    assert html == '<div class="bb-private">Private message</div>'


def test_render_converts_newlines_to_breaks_when_plain_text():
    assert render("a\nb\n\nc") == "a<br>b<br><br>c"


def test_render_swallows_one_newline_when_newline_follows_block_tag():
    assert render('[quote="A"]\nx\n[/quote]\nответ') == (
        '<blockquote class="bb-quote"><cite>A</cite>x</blockquote>ответ'
    )
    assert render("[quote]x[/quote]\n\nответ") == '<blockquote class="bb-quote">x</blockquote><br>ответ'


def test_render_escapes_text_when_text_has_html_characters():
    assert render("a < b & c > d \"e\" 'f'") == "a &lt; b &amp; c &gt; d \"e\" 'f'"


def test_render_handles_cyrillic_when_text_and_names_are_russian():
    html = render('[quote="Иван Петрович"]Голосую против [b]Маши[/b][/quote]')
    assert html == (
        '<blockquote class="bb-quote"><cite>Иван Петрович</cite>'
        "Голосую против <strong>Маши</strong></blockquote>"
    )


def test_render_tree_matches_render_when_given_parsed_tree():
    source = '[quote="A"][b]x[/b][/quote][list][*]y[/list]'
    assert render_tree(parse(source)) == render(source)


def test_render_tree_renders_literally_when_hand_built_element_is_invalid():
    bad = Element("color", "expression(alert(1))", [Text("x")], "[color=expression(alert(1))]", "[/color]")
    root = Element("root", None, [bad, Element("blink", None, [Text("y")])])
    assert render_tree(root) == "[color=expression(alert(1))]x[/color]y"


def test_render_tree_renders_subtree_when_given_non_root_element():
    quote = parse('[quote="A"]x[/quote]').children[0]
    assert render_tree(quote) == '<blockquote class="bb-quote"><cite>A</cite>x</blockquote>'


def test_render_tree_limits_depth_when_hand_built_tree_is_too_deep():
    node = Element("root", None, [])
    current = node
    for _ in range(MAX_DEPTH + 30):
        child = Element("b", None, [], "[b]", "[/b]")
        current.children.append(child)
        current = child
    current.children.append(Text("x"))
    html = render_tree(node)
    assert html.count("<strong>") == MAX_DEPTH
    assert html.count("[b]") == 30


# --- unknown and unbalanced tags ---------------------------------------------


def test_render_shows_unknown_tag_literally_when_tag_is_not_supported():
    assert render("[foo]x[/foo] [h1]y[/h1] [b=1]z[/b]") == "[foo]x[/foo] [h1]y[/h1] [b=1]z[/b]"


def test_parse_keeps_unknown_tag_as_text_when_tag_is_not_supported():
    assert shape(parse("[table]x[/table]")) == ("root", None, ["[table]x[/table]"])


def test_render_shows_opener_literally_when_tag_is_never_closed():
    assert render("[b]жирный") == "[b]жирный"


def test_parse_reattaches_children_to_parent_when_opener_is_never_closed():
    root = parse("[quote]a [i]b[/i] c")
    assert shape(root) == ("root", None, ["[quote]a ", ("i", None, ["b"]), " c"])


def test_render_shows_closer_literally_when_closer_is_stray():
    assert render("текст[/b] и [/quote]") == "текст[/b] и [/quote]"


def test_render_closes_outer_and_shows_inner_literally_when_outer_closer_comes_first():
    assert render("[quote][b]текст[/quote]") == '<blockquote class="bb-quote">[b]текст</blockquote>'


def test_render_shows_inner_tags_literally_when_tags_are_interleaved():
    assert render("[b][i]x[/b][/i]") == "<strong>[i]x</strong>[/i]"


def test_parse_keeps_interleaved_inner_tags_as_text_when_tags_are_interleaved():
    root = parse("[b][i]x[/b][/i]")
    assert shape(root) == ("root", None, [("b", None, ["[i]x"]), "[/i]"])


def test_render_pairs_same_tags_when_same_tag_is_nested():
    assert render("[b]a[b]b[/b]c[/b]") == "<strong>a<strong>b</strong>c</strong>"


def test_render_shows_star_literally_when_star_is_outside_list():
    assert render("[*]пункт") == "[*]пункт"


def test_render_shows_star_literally_when_star_is_inside_formatting_inside_item():
    assert render("[list][*]a[b]x[*]y[/b][/list]") == "<ul><li>a<strong>x[*]y</strong></li></ul>"


def test_render_closes_items_when_list_closer_arrives():
    assert render("[list][*]a[*]b[i]c[/list]") == "<ul><li>a</li><li>b[i]c</li></ul>"


def test_render_shows_list_literally_when_list_is_never_closed():
    assert render("[list][*]a[*]b") == "[list][*]a[*]b"


def test_render_shows_code_literally_when_code_is_never_closed():
    assert render("[code][b]x[/b]") == "[code]<strong>x</strong>"


def test_render_shows_code_literally_when_code_has_option():
    assert render("[code=python]x[/code]") == "[code=python]x[/code]"


def test_render_shows_closer_with_option_literally_when_closer_has_option():
    assert render("[b]x[/b=1]") == "[b]x[/b=1]"


def test_render_shows_nested_url_literally_when_url_inside_url():
    html = render("[url=http://a.ru]x [url=http://b.ru]y[/url] z[/url]")
    assert html == f'<a href="http://a.ru" {LINK}>x [url=http://b.ru]y</a> z[/url]'


def test_render_shows_url_literally_when_bare_url_contains_markup():
    assert render("[url]http://a.ru[b]x[/b][/url]") == "[url]http://a.ru<strong>x</strong>[/url]"


def test_render_shows_list_literally_when_list_option_is_not_one():
    assert render("[list=x][*]a[/list]") == "[list=x][*]a[/list]"


# --- plain text and element iteration ----------------------------------------


def test_plain_text_skips_quotes_and_strikes_when_skip_given():
    root = parse('Голосую [b]Вася[/b] [s]Петя[/s][quote="Маша"]Коля[/quote]!')
    assert plain_text(root, skip=frozenset({"quote", "s"})) == "Голосую Вася !"


def test_plain_text_returns_all_text_when_skip_is_empty():
    root = parse('a [s]b[/s] [quote="X"]c[/quote]')
    assert plain_text(root) == "a b c"


def test_plain_text_keeps_literal_tags_when_tags_are_unparsed():
    root = parse("[b]x [foo]y[/foo] [/i]")
    assert plain_text(root) == "[b]x [foo]y[/foo] [/i]"


def test_plain_text_returns_text_when_node_is_text():
    assert plain_text(Text("привет")) == "привет"


def test_plain_text_reads_given_quote_without_nested_quotes_when_quote_in_skip():
    root = parse('[quote="A"]внешний [quote="B"]внутренний[/quote][/quote]')
    assert plain_text(root.children[0], skip=frozenset({"quote"})) == "внешний "


def test_plain_text_returns_code_content_when_code_tag():
    assert plain_text(parse("[code][b]x[/b][/code]")) == "[b]x[/b]"


def test_iter_elements_finds_private_tags_in_document_order_when_nested():
    root = parse(
        '[private="A"]1[/private][b][private="B"]2[/private][/b][quote][private="C"]3[/private][/quote]'
    )
    assert [el.option for el in iter_elements(root, "private")] == ["A", "B", "C"]


def test_iter_elements_does_not_descend_into_quotes_when_quote_skipped():
    root = parse('[b]x[/b][quote][b]y[/b][/quote][i][b]z[/b][/i]')
    found = list(iter_elements(root, "b", skip=frozenset({"quote"})))
    assert [plain_text(el) for el in found] == ["x", "z"]


def test_iter_elements_yields_outer_quotes_only_when_quote_is_both_tag_and_skipped():
    root = parse('[quote="A"][quote="B"]x[/quote][/quote][quote="C"]y[/quote]')
    found = list(iter_elements(root, "quote", skip=frozenset({"quote"})))
    assert [el.option for el in found] == ["A", "C"]


def test_iter_elements_yields_nothing_when_tag_absent():
    assert list(iter_elements(parse("просто текст"), "url")) == []


# --- XSS and injection -------------------------------------------------------


def test_render_escapes_script_when_text_contains_html():
    html = render("<script>alert(1)</script><img src=x onerror=alert(1)>")
    assert html == "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
    assert_safe(html)


BAD_URLS = [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\x00script:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "javascript&colon;alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "DATA:image/svg+xml,<svg onload=alert(1)>",
    "vbscript:msgbox(1)",
    "//evil.example/x",
    "/relative/path",
    "evil.example",
    "http:/evil.example",
    "http://",
    "ftp://example.com/file",
    'http://x.ru" onmouseover="alert(1)',
    "http://x.ru'onmouseover='alert(1)",
    "http://x.ru/<script>",
    "http://x.ru/\u2028a",
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_render_shows_url_tag_literally_when_bare_url_is_unsafe(url):
    html = render(f"[url]{url}[/url]")
    assert "<a" not in html
    assert html.startswith("[url]")
    assert_safe(html)


@pytest.mark.parametrize("url", BAD_URLS)
def test_render_shows_url_tag_literally_when_url_option_is_unsafe(url):
    html = render(f"[url={url}]нажми[/url]")
    assert "<a" not in html
    assert_safe(html)


@pytest.mark.parametrize("url", BAD_URLS)
def test_render_shows_img_tag_literally_when_image_url_is_unsafe(url):
    html = render(f"[img]{url}[/img]")
    assert "<img" not in html
    assert_safe(html)


@pytest.mark.parametrize("url", BAD_URLS)
def test_renderer_is_safe_without_sanitiser_when_url_is_unsafe(url):
    for source in (f"[url]{url}[/url]", f"[url={url}]x[/url]", f"[img]{url}[/img]"):
        html = unsanitised(source)
        assert "<a" not in html and "<img" not in html
        assert_safe(html)


def test_render_keeps_quote_escaped_when_url_option_tries_attribute_breakout():
    html = render('[url=http://x" onmouseover="alert(1)]x[/url]')
    assert html == '[url=http://x" onmouseover="alert(1)]x[/url]'
    assert_safe(html)


def test_render_escapes_ampersand_and_quote_when_attribute_values_contain_them():
    html = unsanitised("[url=http://x.ru/?a=1&b=2]x[/url]")
    assert 'href="http://x.ru/?a=1&amp;b=2"' in html
    hand_built = Element("root", None, [Element("private", 'a" onclick="x', [Text("s")])])
    assert 'data-recipient="a&quot; onclick=&quot;x"' in bbcode._render_unsanitised(hand_built)


def test_render_leaves_event_handler_text_inert_when_tag_attributes_are_attempted():
    for source in (
        "[b onclick=alert(1)]x[/b]",
        "[img onerror=alert(1)]http://x.ru/a.png[/img]",
        '[quote="x" onmouseover="alert(1)"]y[/quote]',
        "[url=http://x.ru onclick=alert(1)]y[/url]",
    ):
        html = render(source)
        assert_safe(html)
        assert_safe(unsanitised(source))


@pytest.mark.parametrize(
    "option",
    [
        "red;background:url(javascript:alert(1))",
        "red; position: fixed",
        "expression(alert(1))",
        "url(http://evil/x.png)",
        "#12345",
        "#ggg",
        "rgb(1,2,3)",
        'red" onmouseover="alert(1)',
        "",
    ],
)
def test_render_shows_color_tag_literally_when_colour_is_not_allowed(option):
    html = render(f"[color={option}]x[/color]")
    assert "<span" not in html
    assert "style" not in html
    assert_safe(html)


@pytest.mark.parametrize("option", ["0", "8", "99999999999999999999", "abc", "-1", "3px", "²", "1;x", ""])
def test_render_shows_size_tag_literally_when_size_is_invalid(option):
    html = render(f"[size={option}]x[/size]")
    assert "<span" not in html


def test_render_shows_tag_literally_when_color_or_size_has_no_option():
    assert render("[color]x[/color][size]y[/size]") == "[color]x[/color][size]y[/size]"


def test_render_escapes_author_when_quote_author_contains_script():
    html = render('[quote="<script>alert(1)</script>"]x[/quote]')
    assert html == (
        '<blockquote class="bb-quote"><cite>&lt;script&gt;alert(1)&lt;/script&gt;</cite>x</blockquote>'
    )
    assert_safe(html)


def test_render_escapes_title_when_spoiler_title_contains_image_markup():
    html = render('[spoiler="<img src=x onerror=alert(1)>"]x[/spoiler]')
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert_safe(html)


def test_render_escapes_recipient_when_private_name_contains_markup():
    html = render('[private="<b onclick=x>"]s[/private]')
    assert "<b " not in html
    assert 'data-recipient="&lt;b onclick=x&gt;"' in html


def test_render_escapes_code_when_code_contains_html():
    assert render("[code]</code></pre><script>x</script>[/code]") == (
        '<pre class="bb-code"><code>&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;</code></pre>'
    )


def test_sanitiser_strips_disallowed_markup_when_given_hostile_html():
    hostile = (
        '<script>alert(1)</script><a href="javascript:x" onclick="y">a</a>'
        '<span style="color:red;background:url(x)" class="evil">b</span><iframe src="http://x"></iframe>'
    )
    cleaned = bbcode._sanitise(hostile)
    assert "<script" not in cleaned and "alert" not in cleaned
    assert "javascript" not in cleaned and "onclick" not in cleaned
    assert "background" not in cleaned and "evil" not in cleaned
    assert "<iframe" not in cleaned
    assert re.search(r'<span style="color:red"[^>]*>b</span>', cleaned)


def test_sanitiser_filters_style_to_colour_when_nh3_supports_it():
    assert bbcode._STYLE_OPTIONS == {"filter_style_properties": {"color"}}


def test_style_fallback_keeps_only_colour_when_style_is_checked():
    assert bbcode._style_filter("span", "style", "color:red") == "color:red"
    assert bbcode._style_filter("span", "style", "color:#a1b2c3") == "color:#a1b2c3"
    assert bbcode._style_filter("span", "style", "color:red;background:url(x)") is None
    assert bbcode._style_filter("span", "style", "position:fixed") is None
    assert bbcode._style_filter("a", "href", "http://x.ru") == "http://x.ru"


# --- nh3 keeps legitimate output ---------------------------------------------

LEGITIMATE = (
    '[quote="Вася"]Цитата [b]жирно[/b] [i]курсив[/i] [u]подч[/u] [s]зачёркнуто[/s]\n'
    "[quote=Петя]вложенная[/quote][/quote]\n"
    '[spoiler="Роли"][list=1][*]Мафия[*]Шериф[/list][/spoiler]\n'
    "[url]https://example.com/a?b=1&c=2[/url] [url=http://example.com]ссылка[/url]\n"
    "[img]https://example.com/a.png[/img]\n"
    "[color=red]красный[/color] [color=#a1B2c3]hex[/color] [size=5]крупно[/size]\n"
    "[list][*]a[*]b[/list]\n"
    "[code]if a < b && c:\n    print('x')[/code]\n"
    '[private="Маша"]ты доктор[/private]\n'
    "неразрывный\xa0пробел & \"кавычки\" 'апострофы' < >"
)


def test_sanitiser_leaves_output_unchanged_when_output_is_legitimate():
    raw = unsanitised(LEGITIMATE)
    assert nh3.clean("x") == "x"  # the sanitiser is actually running
    assert render(LEGITIMATE) == raw
    for fragment in (
        'rel="nofollow ugc noopener"',
        'target="_blank"',
        'style="color:red"',
        'style="color:#a1b2c3"',
        'class="bb-size-5"',
        'class="bb-quote"',
        "<cite>Вася</cite>",
        '<details class="bb-spoiler"><summary>Роли</summary>',
        'loading="lazy"',
        'data-recipient="Маша"',
        '<pre class="bb-code"><code>',
        "<ol><li>",
    ):
        assert fragment in raw


def test_sanitiser_leaves_output_unchanged_when_input_is_random_tag_soup():
    pieces = [
        "[b]", "[/b]", "[quote]", '[quote="Вася"]', "[/quote]", "[list]", "[list=1]", "[/list]",
        "[*]", "[code]", "[/code]", "[url]", "[url=http://a.b/?x=1&y=2]", "[/url]", "http://x.y/z",
        "[img]", "[/img]", "[color=red]", "[/color]", "[size=3]", "[/size]", '[spoiler="<b>"]',
        "[/spoiler]", '[private="П"]', "[/private]", "\n", "текст", "<script>", "\"'&", "\xa0",
    ]
    rng = random.Random(7)
    for _ in range(1500):
        source = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        raw = unsanitised(source)
        assert render(source) == raw, source
        assert "<script" not in raw


# --- private messages stay private -------------------------------------------


def test_render_omits_private_text_when_private_tag_is_closed():
    html = render('До [private="Вася"]СЕКРЕТ-123[/private] после')
    assert "СЕКРЕТ-123" not in html
    assert "Private message to Вася" in html


@pytest.mark.parametrize(
    "source",
    [
        '[private="Вася"]СЕКРЕТ-123',
        '[quote][private="Вася"]СЕКРЕТ-123[/quote] дальше',
        '[b][private="Вася"]СЕКРЕТ-123[/private]',
        "[b]" * (MAX_DEPTH + 5) + '[private="Вася"]СЕКРЕТ-123[/private]',
        "[private]СЕКРЕТ-123[/private]",
        '[private=""]СЕКРЕТ-123[/private]',
        '[private="A"][private="B"]СЕКРЕТ-123[/private][/private]',
        '[list][*][private="A"]СЕКРЕТ-123[/list]',
    ],
)
def test_render_omits_private_text_when_private_tag_is_malformed_or_deep(source):
    html = render(source)
    assert "СЕКРЕТ-123" not in html
    assert "СЕКРЕТ-123" not in unsanitised(source)
    assert "bb-private" in html


def test_parse_runs_private_to_end_when_private_is_never_closed():
    root = parse('a [private="X"]b [b]c[/b]')
    assert shape(root) == ("root", None, ["a ", ("private", "X", ["b ", ("b", None, ["c"])])])


# --- quote_source ------------------------------------------------------------


def test_quote_source_wraps_post_when_author_is_plain():
    assert quote_source("Вася", "Голосую за [b]Петю[/b]") == '[quote="Вася"]Голосую за [b]Петю[/b][/quote]'


def test_quote_source_round_trips_author_when_parsed_back():
    root = parse(quote_source("Иван Петрович", "текст"))
    assert shape(root) == ("root", None, [("quote", "Иван Петрович", ["текст"])])


def test_quote_source_neutralises_name_when_author_contains_quotes_and_brackets():
    author = 'Вася"] [url=javascript:x]"[/quote]'
    source = quote_source(author, "текст")
    root = parse(source)
    assert len(root.children) == 1
    quote = root.children[0]
    assert quote.tag == "quote"
    assert '"' not in quote.option and "[" not in quote.option and "]" not in quote.option
    assert quote.option.startswith("Вася")
    assert plain_text(quote) == "текст"


def test_quote_source_omits_author_when_author_is_blank():
    assert quote_source("  \n ", "x") == "[quote]x[/quote]"


def test_quote_source_keeps_nested_quote_when_post_quotes_someone():
    root = parse(quote_source("Б", '[quote="А"]старое[/quote]новое'))
    assert shape(root) == ("root", None, [("quote", "Б", [("quote", "А", ["старое"]), "новое"])])


def test_quote_source_drops_private_blocks_when_post_has_private_message():
    source = quote_source("Вася", 'публично [private="Маша"]СЕКРЕТ[/private] ещё')
    assert "СЕКРЕТ" not in source
    assert "публично" in source and "ещё" in source


def test_quote_source_keeps_quote_intact_when_post_has_stray_quote_tags():
    for body in ("текст [/quote] хвост", "[quote]незакрытая", "[/quote][/quote]", "[code]x"):
        root = parse(quote_source("Вася", body))
        assert len(root.children) == 1, body
        assert root.children[0].tag == "quote"
        assert root.children[0].option == "Вася"
        assert plain_text(root.children[0]).replace("\u200b", "") == body


def test_quote_source_keeps_code_content_when_post_has_code():
    root = parse(quote_source("Вася", "[code][/quote][b][/code]"))
    quote = root.children[0]
    assert shape(quote) == ("quote", "Вася", [("code", None, ["[/quote][b]"])])


# --- bounded work --------------------------------------------------------------


def test_render_completes_when_input_is_200k_characters():
    source = ("Привет [b]мир[/b] & <x>\n" * 10000)[:200_000]
    html = render(source)
    assert html.count("<strong>") >= 8000
    assert "<x>" not in html


def test_render_completes_when_10000_nested_quotes():
    source = "[quote]" * 10_000 + "x" + "[/quote]" * 10_000
    root = parse(source)
    html = render_tree(root)
    assert html.count("<blockquote") == MAX_DEPTH
    assert html.count("[quote]") == 10_000 - MAX_DEPTH
    assert to_source(root) == source


def test_render_completes_when_10000_unclosed_quotes():
    html = render("[quote]" * 10_000 + "x")
    assert html == "[quote]" * 10_000 + "x"


def test_render_completes_when_10000_bold_spans():
    html = render("[b]x[/b]" * 10_000)
    assert html == "<strong>x</strong>" * 10_000


@pytest.mark.parametrize(
    "source",
    [
        "[url=" * 40_000,
        '[quote="' * 25_000,
        "[code]" * 33_000,
        "[" * 200_000,
        "[/b]" * 50_000,
        "[b][i]" * 10_000 + "[/b]" * 10_000,
        "[list][*]" * 20_000,
        "[list]" + "[*]a" * 50_000 + "[/list]",
        "[private=a]" * 20_000,
    ],
)
def test_render_completes_when_input_is_pathological(source):
    html = render(source)
    assert isinstance(html, str)
    assert_safe(html)


def test_parse_bounds_tree_depth_when_tags_nest_deeply():
    root = parse("[b]" * 500 + "x" + "[/b]" * 500)
    depth = 0
    node = root
    while node.children and isinstance(node.children[0], Element):
        node = node.children[0]
        depth += 1
    assert depth == MAX_DEPTH
    assert plain_text(root) == "[b]" * (500 - MAX_DEPTH) + "x" + "[/b]" * (500 - MAX_DEPTH)
