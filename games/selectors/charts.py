"""Server-side SVG charts: the wagons of a day over its posts (the replay page).

Pure Python, no Django: the caller passes every text already translated, and every text put in
the SVG is escaped here. The wagon history is computed in one pass over the day's ballots with
the same rules as games.engine.votecount.tally (tests check it agrees with the count as of every
post), so the chart and the count page never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from games.engine.votecount import PEACE, UNVOTE, VOTE

# The key of the peace wagon (the count groups peace ballots, and votes without a target, as None).
PEACE_KEY = None
OTHERS_KEY = "others"
_MISSING = object()


# --- The history -------------------------------------------------------------------------------
@dataclass
class WagonHistory:
    """How every wagon's weight moved through a day.

    `changes` lists (order, key, weight) in the order the ballots changed them (key: the target
    seat id, or None for peace); `final` is the count at the end (non-empty wagons only);
    `peak` each wagon's highest weight; `first` the order at which it first had a vote."""

    changes: list[tuple[int, object, int]] = field(default_factory=list)
    final: dict = field(default_factory=dict)
    peak: dict = field(default_factory=dict)
    first: dict = field(default_factory=dict)

    def at(self, order: int) -> dict:
        """The weights of the non-empty wagons after every ballot with order <= `order`."""
        weights: dict = {}
        for when, key, weight in self.changes:
            if when > order:
                break
            weights[key] = weight
        return {key: weight for key, weight in weights.items() if weight}


def wagon_history(ballots: Iterable, *, voters: Sequence[int], targets: Iterable[int] | None = None,
                  weights: Mapping[int, int] | None = None) -> WagonHistory:
    """Replay a day's ballots (objects with voter, kind, target, order; the count's Ballot) and
    record each wagon's weight after every change. The rules are tally's: ballots in `order`;
    only `voters` count; an unvote clears the voter's ballot, and so does a vote for a seat outside
    `targets` (when given: a player who left the game after the vote); the last ballot stands."""
    weights = weights or {}
    eligible = set(voters)
    allowed = set(targets) if targets is not None else None
    history = WagonHistory()
    current: dict[int, object] = {}  # voter -> the key of the wagon he is on
    totals: dict = {}

    def move(order: int, key, delta: int) -> None:
        totals[key] = totals.get(key, 0) + delta
        history.changes.append((order, key, totals[key]))
        history.first.setdefault(key, order)
        history.peak[key] = max(history.peak.get(key, 0), totals[key])

    for ballot in sorted(ballots, key=lambda b: b.order):
        if ballot.voter not in eligible:
            continue
        if ballot.kind == UNVOTE:
            new = _MISSING
        elif ballot.kind == PEACE:
            new = PEACE_KEY
        elif ballot.kind == VOTE:
            # a vote for a seat outside `targets` (who left the game since) stands for nobody
            new = ballot.target if allowed is None or ballot.target in allowed else _MISSING
        else:
            continue
        old = current.get(ballot.voter, _MISSING)
        if old is new or (old is not _MISSING and new is not _MISSING and old == new):
            continue  # a repeated vote for the same wagon changes no weight
        weight = weights.get(ballot.voter, 1)
        if old is not _MISSING:
            move(ballot.order, old, -weight)
            del current[ballot.voter]
        if new is not _MISSING:
            move(ballot.order, new, weight)
            current[ballot.voter] = new
    history.final = {key: weight for key, weight in totals.items() if weight}
    return history


# --- Series to draw ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Series:
    """One line of the chart: (x, weight) points, each weight holding from its x onward."""

    key: str  # "seat-<id>", "peace" or "others", safe for attributes
    label: str
    points: tuple[tuple[int, int], ...]
    final: int
    peak: int


def _key_text(key) -> str:
    if key is PEACE_KEY:
        return "peace"
    if key == OTHERS_KEY:
        return OTHERS_KEY
    return f"seat-{key}"


def _collapse(points: list[tuple[int, int]], x: int, y: int) -> None:
    """Append (x, y), replacing a point at the same x (several changes within one post)."""
    if points and points[-1][0] == x:
        points[-1] = (x, y)
    else:
        points.append((x, y))


# A line keeps at most about four points per this many slices of its x range: a day of 100,000
# votes drew 200,000 corners, a 5 MB page, for a chart a few hundred pixels wide (issue 30).
CHART_SLICES = 400


def thin(points: list[tuple[int, int]], slices: int = CHART_SLICES) -> list[tuple[int, int]]:
    """The points of a step line as the chart can show them: per slice of the x range its first,
    lowest, highest and last point, in order (the line's envelope, its peak and its final value
    kept); a line short enough is returned as it is."""
    if len(points) <= 4 * slices:
        return points
    x0, x1 = points[0][0], points[-1][0]
    width = (x1 - x0) / slices or 1
    out: list[tuple[int, int]] = []
    bucket: list[tuple[int, int]] = []
    index = 0
    for point in points:
        at = min(int((point[0] - x0) / width), slices - 1)
        if at != index and bucket:
            out.extend(_slice_points(bucket))
            bucket = []
        index = at
        bucket.append(point)
    out.extend(_slice_points(bucket))
    return out


def _slice_points(bucket: list[tuple[int, int]]) -> list[tuple[int, int]]:
    chosen = {0, len(bucket) - 1,
              min(range(len(bucket)), key=lambda i: bucket[i][1]), max(range(len(bucket)), key=lambda i: bucket[i][1])}
    return [bucket[i] for i in sorted(chosen)]


def chart_series(history: WagonHistory, labels: Mapping, *, top: int = 6, others_label: str = "others") -> list[Series]:
    """The lines to draw: every wagon that ever had a vote, the `top` biggest (by their peak,
    then their final weight, then who got votes first) by name, the rest summed into one
    "others" line. `labels` maps a wagon key (seat id or None for peace) to its name."""
    keys = sorted(history.peak, key=lambda k: (-history.peak[k], -history.final.get(k, 0), history.first[k]))
    named, grouped = keys[:top], set(keys[top:])
    points: dict = {key: [] for key in named}
    others: list[tuple[int, int]] = []
    current: dict = {}
    for order, key, weight in history.changes:
        if key in grouped:
            current[key] = weight
            _collapse(others, order, sum(current.values()))
        else:
            _collapse(points[key], order, weight)
    series = [
        Series(key=_key_text(key), label=str(labels.get(key, "?")), points=tuple(thin(points[key])),
               final=history.final.get(key, 0), peak=history.peak[key])
        for key in named
    ]
    if grouped:
        series.append(Series(key=OTHERS_KEY, label=others_label, points=tuple(thin(others)),
                             final=sum(history.final.get(k, 0) for k in grouped),
                             peak=max((y for _x, y in others), default=0)))
    return series


# --- Geometry ----------------------------------------------------------------------------------
def scale(value: float, domain: tuple[float, float], out: tuple[float, float]) -> float:
    """Map `value` linearly from `domain` onto `out`; a zero-width domain maps to out's start."""
    d0, d1 = domain
    r0, r1 = out
    if d1 == d0:
        return float(r0)
    return r0 + (value - d0) * (r1 - r0) / (d1 - d0)


def step_points(points: Sequence[tuple[int, int]], start: float, end: float) -> list[tuple[float, int]]:
    """The corners of a step line in data coordinates: from (start, 0), each weight holds until
    the next change, the last one until `end`."""
    out = [(start, 0)]
    y = 0
    for x, new in points:
        x = max(x, start)
        if new == y:
            continue
        if out[-1] != (x, y):
            out.append((x, y))
        out.append((x, new))
        y = new
    last = max(end, out[-1][0])
    if out[-1] != (last, y):
        out.append((last, y))
    return out


def nice_ticks(low: int, high: int, *, most: int = 6) -> list[int]:
    """At most `most` (+1) round integer ticks covering [low, high]."""
    if high <= low:
        return [low]
    span = high - low
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        step = candidate
        if span / candidate <= most:
            break
    else:
        while span / step > most:
            step *= 2
    first = -(-low // step) * step
    ticks = list(range(first, high + 1, step))
    if not ticks or ticks[0] != low:
        ticks.insert(0, low)
        if len(ticks) > 2 and ticks[1] - low < step / 2:
            del ticks[1]
    if ticks[-1] != high:
        if high - ticks[-1] < step / 2 and len(ticks) > 1:
            ticks[-1] = high
        else:
            ticks.append(high)
    return ticks


# Okabe-Ito colours (readable by the colour-blind), each with its own dash as a second cue.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 2", "1 2", "10 4")
OTHERS_STYLE = ("#8a8a8a", "3 3")


@dataclass(frozen=True)
class ChartTexts:
    """Every word the chart shows, already translated by the caller."""

    title: str
    desc: str
    x_label: str = "post"
    y_label: str = "votes"
    majority: str = "majority"  # drawn as "majority: N"
    empty: str = "no votes"


def _safe_id(raw: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", raw) or "chart"


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _short(text: str, limit: int = 22) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def vote_chart_svg(series: Sequence[Series], *, start: int, end: int, texts: ChartTexts, chart_id: str,
                   majority: int | None = None, width: int = 640, plot_height: int = 220) -> str:
    """An inline SVG of step lines, one per series, x = post number from `start` to `end`, y =
    votes; a dashed majority line; a legend with each name and its final weight. Accessible
    (role="img", <title> and <desc>), readable without JavaScript; every text is escaped."""
    cid = _safe_id(chart_id)
    left, right, top_pad, bottom_pad = 44, 16, 16, 40
    columns = 3
    legend_rows = -(-len(series) // columns) if series else 0
    legend_height = legend_rows * 20 + (8 if legend_rows else 0)
    height = top_pad + plot_height + bottom_pad + legend_height
    x0, x1 = left, width - right
    y0, y1 = top_pad + plot_height, top_pad  # y grows upwards on the chart
    end = max(end, start + 1)  # a day of one post still gets a width
    y_max = max([s.peak for s in series] + [majority or 0, 1])
    # Half a post of air at each end, so that a vote on the first or last post shows its step.
    sx = lambda x: scale(x, (start - 0.5, end + 0.5), (x0, x1))  # noqa: E731
    sy = lambda y: scale(y, (0, y_max), (y0, y1))  # noqa: E731

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="vote-chart" id="{cid}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-labelledby="{cid}-title {cid}-desc" '
        f'data-start="{start}" data-end="{end}" data-majority="{majority if majority is not None else ""}">',
        f'<title id="{cid}-title">{escape(texts.title)}</title>',
        f'<desc id="{cid}-desc">{escape(texts.desc)}</desc>',
        '<g class="axes" fill="none" stroke="#9a968c" stroke-width="1">',
        f'<line x1="{x0}" y1="{_fmt(y0)}" x2="{x1}" y2="{_fmt(y0)}"/>',
        f'<line x1="{x0}" y1="{_fmt(y0)}" x2="{x0}" y2="{_fmt(y1)}"/>',
        "</g>",
        '<g class="ticks" font-size="11" fill="#5c5a55" font-family="sans-serif">',
    ]
    for tick in nice_ticks(0, y_max):
        y = _fmt(sy(tick))
        parts.append(f'<line x1="{x0 - 4}" y1="{y}" x2="{x1}" y2="{y}" stroke="#e6e3da" stroke-width="1"/>')
        parts.append(f'<text x="{x0 - 7}" y="{y}" text-anchor="end" dominant-baseline="middle">{tick}</text>')
    for tick in nice_ticks(start, end):
        x = _fmt(sx(tick))
        parts.append(f'<line x1="{x}" y1="{_fmt(y0)}" x2="{x}" y2="{_fmt(y0 + 4)}" stroke="#9a968c"/>')
        parts.append(f'<text x="{x}" y="{_fmt(y0 + 16)}" text-anchor="middle">#{tick}</text>')
    parts.append(f'<text x="{_fmt((x0 + x1) / 2)}" y="{_fmt(y0 + 32)}" text-anchor="middle">{escape(texts.x_label)}</text>')
    parts.append(f'<text x="12" y="{_fmt((y0 + y1) / 2)}" text-anchor="middle" '
                 f'transform="rotate(-90 12 {_fmt((y0 + y1) / 2)})">{escape(texts.y_label)}</text>')
    parts.append("</g>")
    if majority:
        y = _fmt(sy(majority))
        parts.append(f'<g class="majority"><line x1="{x0}" y1="{y}" x2="{x1}" y2="{y}" stroke="#b3261e" '
                     f'stroke-width="1" stroke-dasharray="5 4"/>'
                     f'<text x="{x1}" y="{_fmt(sy(majority) - 4)}" text-anchor="end" font-size="11" fill="#b3261e" '
                     f'font-family="sans-serif">{escape(texts.majority)}: {majority}</text></g>')
    if not series:
        parts.append(f'<text class="empty" x="{_fmt((x0 + x1) / 2)}" y="{_fmt((y0 + y1) / 2)}" text-anchor="middle" '
                     f'font-size="14" fill="#5c5a55" font-family="sans-serif">{escape(texts.empty)}</text>')
    legend_top = y0 + bottom_pad + 4
    column_width = (x1 - x0) / columns
    for index, line in enumerate(series):
        colour, dash = OTHERS_STYLE if line.key == OTHERS_KEY else (COLOURS[index % len(COLOURS)], DASHES[index % len(DASHES)])
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        corners = step_points(line.points, start, end + 0.5)
        path = "M" + " L".join(f"{_fmt(sx(x))} {_fmt(sy(y))}" for x, y in corners)
        name = escape(line.label)
        parts.append(f'<g class="wagon-series" data-key="{line.key}" data-final="{line.final}" data-peak="{line.peak}">'
                     f'<title>{name}: {line.final}</title>'
                     f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2.5"{dash_attr} '
                     f'stroke-linejoin="round"/></g>')
        lx = x0 + (index % columns) * column_width
        ly = legend_top + (index // columns) * 20
        parts.append(f'<g class="legend-item" data-key="{line.key}" font-size="12" font-family="sans-serif">'
                     f'<title>{name}: {line.final}</title>'
                     f'<line x1="{_fmt(lx)}" y1="{ly}" x2="{_fmt(lx + 22)}" y2="{ly}" stroke="{colour}" stroke-width="2.5"'
                     f'{dash_attr}/><text x="{_fmt(lx + 28)}" y="{ly}" dominant-baseline="middle" fill="#1f1e1c">'
                     f'{escape(_short(line.label))} — {line.final}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
