"""The benchmark's figures: ratios to the baseline, the goals, the table and the JSON line.
Pure functions (tests/test_bench.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bench.wrk import WrkResult

# name, path label, as printed
ENDPOINTS = [
    ("baseline", "empty Django view /healthz/"),
    ("thread_page", "game thread, last page (player)"),
    ("thread_page_cold", "the same, rendered afresh (written meanwhile)"),
    ("poll", "live-update poll (nothing new)"),
    ("fragment", "vote-count fragment, body sent (no If-None-Match)"),
    ("fragment_304", "the same, revalidated, nothing changed (304)"),
    ("plain_post", "posting a plain post (htmx reply)"),
    ("vote_post", "posting a vote (htmx reply)"),
]


@dataclass(frozen=True)
class Goal:
    text: str
    min_ratio: float | None = None
    max_queries: int | None = None
    # For a post: its time per request (1 / req/s) at most this many times a plain post's.
    max_time_vs_plain: float | None = None


GOALS = {
    "thread_page": Goal(">= 0.40 x baseline, <= 12 queries", min_ratio=0.40, max_queries=12),
    "thread_page_cold": Goal(">= 0.10 x baseline", min_ratio=0.10),
    "poll": Goal(">= 0.80 x baseline, 0 queries", min_ratio=0.80, max_queries=0),
    "fragment_304": Goal(">= 0.50 x baseline", min_ratio=0.50),
    "plain_post": Goal(">= 0.06 x baseline", min_ratio=0.06),
    "vote_post": Goal("<= 1.5 x a plain post's time, <= 15 queries", max_queries=15, max_time_vs_plain=1.5),
}
RECOUNT_GOAL_MS = 100.0


def time_vs(result_rps: float | None, other_rps: float | None) -> float | None:
    """How many times longer a request takes than another's, from their throughputs under the
    same load (time per request = 1 / req/s): `other_rps / result_rps`, rounded to 3 places."""
    if not result_rps or not other_rps:
        return None
    return round(other_rps / result_rps, 3)


def ratio(value: float | None, baseline: float | None) -> float | None:
    """`value / baseline`, rounded to 3 places; None when either is missing or the baseline is 0."""
    if value is None or not baseline:
        return None
    return round(value / baseline, 3)


def goal_met(name: str, ratio_to_baseline: float | None, queries: int | None, *, extra_queries: list[int] | None = None,
             time_vs_plain: float | None = None) -> bool | None:
    """Whether an endpoint meets its goal; None when it has none. `extra_queries`: other query
    counts that must also stay within the limit (the thread page at another page size);
    `time_vs_plain`: a post's time per request over a plain post's."""
    goal = GOALS.get(name)
    if goal is None:
        return None
    ok = True
    if goal.min_ratio is not None:
        ok = ok and ratio_to_baseline is not None and ratio_to_baseline >= goal.min_ratio
    if goal.max_time_vs_plain is not None:
        ok = ok and time_vs_plain is not None and time_vs_plain <= goal.max_time_vs_plain
    if goal.max_queries is not None:
        counts = [queries, *(extra_queries or [])]
        ok = ok and all(q is not None and q <= goal.max_queries for q in counts)
    return ok


def summarize(results: dict[str, WrkResult], queries: dict[str, int], *, recount_ms: float | None,
              date: str, baselines: dict[str, WrkResult] | None = None, extra: dict | None = None) -> dict:
    """The JSON object: per endpoint rps/p50/p99, ratios to the baseline, queries per request,
    the recount, whether each goal holds, and the date. `baselines` holds, per endpoint, the
    baseline measured in turns with it; its ratio is to that one (else to results["baseline"])."""
    baselines = baselines or {}
    baseline = results.get("baseline")
    out: dict = {"date": date}
    for name, _label in ENDPOINTS:
        result = results.get(name)
        out[f"{name}_rps"] = round(result.rps, 1) if result else None
        out[f"{name}_p50_ms"] = round(result.p50_ms, 2) if result else None
        out[f"{name}_p99_ms"] = round(result.p99_ms, 2) if result else None
        if name != "baseline":
            own = baselines.get(name) or baseline
            out[f"{name}_vs_baseline"] = ratio(result.rps if result else None, own.rps if own else None)
            out[f"{name}_queries"] = queries.get(name)
            if name in baselines:
                out[f"{name}_baseline_rps"] = round(baselines[name].rps, 1)
    spread = [b.rps for b in baselines.values()] or ([baseline.rps] if baseline else [])
    out["baseline_min_rps"] = round(min(spread), 1) if spread else None
    out["baseline_max_rps"] = round(max(spread), 1) if spread else None
    out["thread_page_queries_100"] = queries.get("thread_page_100")
    # The page as rendered afresh (nothing in the page cache, games/caching/pagecache.py): wrk measures
    # repeats, which the page cache serves; the query goal holds for both.
    out["thread_page_queries_rendered"] = queries.get("thread_page_rendered")
    out["thread_page_queries_100_rendered"] = queries.get("thread_page_100_rendered")
    # The cold page after a write to a post already there (an edit, a hidden post), not a new one.
    out["thread_page_cold_queries_after_edit"] = queries.get("thread_page_cold_after_edit")
    out["recount_10k_ms"] = recount_ms
    # What a vote costs over a plain post: time per request (from req/s) and p50, same load.
    out["vote_post_time_vs_plain"] = time_vs(out.get("vote_post_rps"), out.get("plain_post_rps"))
    vote_p50, plain_p50 = out.get("vote_post_p50_ms"), out.get("plain_post_p50_ms")
    out["vote_post_p50_vs_plain"] = round(vote_p50 / plain_p50, 3) if vote_p50 and plain_p50 else None
    out["goals"] = {
        "thread_page": goal_met("thread_page", out["thread_page_vs_baseline"], out["thread_page_queries"],
                                extra_queries=[out["thread_page_queries_100"],
                                               *[q for q in (out["thread_page_queries_rendered"],
                                                             out["thread_page_queries_100_rendered"]) if q is not None]]),
        "thread_page_cold": goal_met("thread_page_cold", out["thread_page_cold_vs_baseline"], None),
        "poll": goal_met("poll", out["poll_vs_baseline"], out["poll_queries"]),
        "fragment_304": goal_met("fragment_304", out["fragment_304_vs_baseline"], None),
        "plain_post": goal_met("plain_post", out["plain_post_vs_baseline"], None),
        "vote_post": goal_met("vote_post", None, out["vote_post_queries"], time_vs_plain=out["vote_post_time_vs_plain"]),
        "recount": recount_ms is not None and recount_ms <= RECOUNT_GOAL_MS,
    }
    out.update(extra or {})
    return out


def _cell(value, fmt: str = "{}") -> str:
    return "—" if value is None else fmt.format(value)


def table(summary: dict) -> str:
    """The readable table: endpoint, req/s, p50, p99, queries/request, ratio, goal, met?"""
    rows = [("endpoint", "req/s", "p50 ms", "p99 ms", "queries", "x baseline", "goal", "met?")]
    for name, label in ENDPOINTS:
        goal = GOALS.get(name)
        met = summary["goals"].get(name)
        queries = summary.get(f"{name}_queries")
        if name == "thread_page" and summary.get("thread_page_queries_100") is not None:
            queries = f"{queries} ({summary['thread_page_queries_100']} at 100/page)"
            if summary.get("thread_page_queries_rendered") is not None:
                queries += (f"; rendered {summary['thread_page_queries_rendered']}"
                            f" ({summary.get('thread_page_queries_100_rendered')})")
        if name == "thread_page_cold" and summary.get("thread_page_cold_queries_after_edit") is not None:
            queries = f"{queries}; after an edit {summary['thread_page_cold_queries_after_edit']}"
        if name == "vote_post" and summary.get("vote_post_time_vs_plain") is not None:
            queries = f"{queries} ({summary['vote_post_time_vs_plain']:.2f} x plain)"
        rows.append((
            label,
            _cell(summary.get(f"{name}_rps"), "{:.0f}"),
            _cell(summary.get(f"{name}_p50_ms"), "{:.1f}"),
            _cell(summary.get(f"{name}_p99_ms"), "{:.1f}"),
            _cell(queries) if name != "baseline" else "0",
            "1.000" if name == "baseline" else _cell(summary.get(f"{name}_vs_baseline"), "{:.3f}"),
            goal.text if goal else "",
            "" if met is None else ("yes" if met else "NO"),
        ))
    rows.append(("recount of a 10,000-post day", "", _cell(summary.get("recount_10k_ms"), "{:.1f}"), "", "", "",
                 f"<= {RECOUNT_GOAL_MS:.0f} ms", "yes" if summary["goals"]["recount"] else "NO"))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for index, row in enumerate(rows):
        lines.append("  ".join(str(cell).ljust(width) if i == 0 else str(cell).rjust(width) if i < 6 else str(cell).ljust(width)
                               for i, (cell, width) in enumerate(zip(row, widths))).rstrip())
        if index == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def json_line(summary: dict) -> str:
    """One line, the last the benchmark prints."""
    return json.dumps(summary, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))
