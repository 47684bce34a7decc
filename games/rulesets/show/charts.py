"""The results page's pictures (issue 28, item 23): each hero's rating over the stages as a step
line, and his coins by source as a bar per source, drawn on the server as inline SVG (no script),
as the replay's vote charts are (games.selectors.charts, whose ticks and colours they share).

Pure Python: the caller passes every text already translated; every text put in the SVG is
escaped here. Each picture is small and drawn for a phone: its viewBox is about as wide as a
390 px screen, so its letters stay readable when it is scaled to the column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from games.selectors.charts import COLOURS, nice_ticks, scale

_FONT = 'font-family="sans-serif" font-size="11"'
GAIN, LOSS, AXIS, GRID, INK, MUTED = "#009E73", "#D55E00", "#9a968c", "#e6e3da", "#1f1e1c", "#5c5a55"


def _safe_id(raw: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", raw) or "chart"


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _signed(value: int) -> str:
    return f"{value:+d}".replace("-", "\u2212")


@dataclass(frozen=True)
class RatingTexts:
    """The rating chart's words, translated by the caller."""

    title: str  # «Рейтинг Ани по этапам»
    desc: str  # «От 0 до +4 за 12 этапов»
    day: str = "day %(n)s"  # a tick under a day's first stage


def rating_chart_svg(values: Sequence[int], *, days: Sequence[tuple[int, int]], texts: RatingTexts,
                     chart_id: str, colour_index: int = 0, width: int = 320, height: int = 112) -> str:
    """A step line of a hero's rating after each stage: `values[i]` is his rating once stage i
    closed (values[0] the start, 0); `days` are (stage index, day number) ticks. A zero line, the
    rating's ticks, the final value at the line's end; role="img" with a title and a description."""
    cid = _safe_id(chart_id)
    left, right, top, bottom = 30, 30, 10, 22
    x0, x1, y0, y1 = left, width - right, height - bottom, top
    points = list(values) or [0]
    low, high = min(0, *points), max(0, *points)
    if low == high:
        high = low + 1
    end = max(len(points) - 1, 1)
    sx = lambda i: scale(i, (0, end), (x0, x1))  # noqa: E731
    sy = lambda v: scale(v, (low, high), (y0, y1))  # noqa: E731
    colour = COLOURS[colour_index % len(COLOURS)]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="show-chart rating-chart" id="{cid}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="{cid}-title {cid}-desc" '
        f'data-final="{points[-1]}">',
        f'<title id="{cid}-title">{escape(texts.title)}</title><desc id="{cid}-desc">{escape(texts.desc)}</desc>',
        f'<g class="ticks" fill="{MUTED}" {_FONT}>',
    ]
    for tick in nice_ticks(low, high, most=3):
        y = _fmt(sy(tick))
        stroke = AXIS if tick == 0 else GRID
        parts.append(f'<line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="{stroke}" stroke-width="1"/>')
        parts.append(f'<text x="{x0 - 5}" y="{y}" text-anchor="end" dominant-baseline="middle">{tick}</text>')
    shown_days = list(days)
    # at most five day ticks, so that their words never overlap on a phone
    step = max(1, -(-len(shown_days) // 5))
    for index, (stage, day) in enumerate(shown_days):
        x = _fmt(sx(stage))
        parts.append(f'<line x1="{x}" y1="{_fmt(y1)}" x2="{x}" y2="{_fmt(y0 + 3)}" stroke="{GRID}" stroke-width="1"/>')
        if index % step == 0:
            parts.append(f'<text x="{x}" y="{_fmt(y0 + 15)}" text-anchor="start">'
                         f'{escape(texts.day % {"n": day})}</text>')
    parts.append("</g>")
    corners = [(0, points[0])]
    for i, value in enumerate(points[1:], start=1):
        if value != corners[-1][1]:
            corners.append((i, corners[-1][1]))
            corners.append((i, value))
    corners.append((end, points[-1]))
    path = "M" + " L".join(f"{_fmt(sx(x))} {_fmt(sy(y))}" for x, y in corners)
    parts.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"/>')
    parts.append(f'<text x="{x1 + 4}" y="{_fmt(sy(points[-1]))}" dominant-baseline="middle" fill="{INK}" '
                 f'{_FONT} font-weight="bold">{escape(_signed(points[-1]) if points[-1] else "0")}</text>')
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class CoinsTexts:
    title: str  # «Монеты Ани по источникам»
    desc: str  # «Итог: −42 ㉿»
    empty: str  # «монеты не двигались»
    unit: str = "㉿"


def coins_chart_svg(rows: Sequence[tuple[str, int]], *, limit: int, texts: CoinsTexts, chart_id: str,
                    width: int = 320) -> str:
    """One bar per source of a hero's coins, from a zero line: a gain to the right (green), a loss
    to the left (orange); the source's name on the left, its amount in the right column. `rows`
    are (the source's name, signed coins); `limit` the largest amount on the page, so that every
    hero's bars share one scale."""
    cid = _safe_id(chart_id)
    label_width, amount_width, row_height, pad = 100, 56, 22, 6
    lines = [(name, amount) for name, amount in rows if amount]
    height = pad * 2 + max(len(lines), 1) * row_height
    x0, x1 = label_width + 6, width - amount_width - 4
    zero = (x0 + x1) / 2
    limit = max(limit, 1)
    sx = lambda v: scale(v, (-limit, limit), (x0, x1))  # noqa: E731
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="show-chart coins-chart" id="{cid}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="{cid}-title {cid}-desc">',
        f'<title id="{cid}-title">{escape(texts.title)}</title><desc id="{cid}-desc">{escape(texts.desc)}</desc>',
        f'<line x1="{_fmt(zero)}" y1="{pad}" x2="{_fmt(zero)}" y2="{height - pad}" stroke="{AXIS}" stroke-width="1"/>',
    ]
    if not lines:
        parts.append(f'<text x="{_fmt(zero)}" y="{height / 2}" text-anchor="middle" dominant-baseline="middle" '
                     f'fill="{MUTED}" {_FONT}>{escape(texts.empty)}</text>')
    for index, (name, amount) in enumerate(lines):
        top = pad + index * row_height
        middle = _fmt(top + row_height / 2)
        end = sx(amount)
        x, w = (zero, end - zero) if amount > 0 else (end, zero - end)
        colour = GAIN if amount > 0 else LOSS
        value = f"{_signed(amount)} {texts.unit}"
        parts.append(f'<g class="coins-source" data-amount="{amount}"><title>{escape(name)}: {escape(value)}</title>'
                     f'<text x="0" y="{middle}" dominant-baseline="middle" fill="{INK}" {_FONT}>{escape(name)}</text>'
                     f'<rect x="{_fmt(x)}" y="{_fmt(top + 4)}" width="{_fmt(max(w, 1))}" height="{row_height - 8}" '
                     f'fill="{colour}"/>'
                     f'<text x="{width - 2}" y="{middle}" text-anchor="end" dominant-baseline="middle" '
                     f'fill="{INK}" {_FONT}>{escape(value)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
