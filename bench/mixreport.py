"""The pure parts of the whole-site load test (`python -m bench.mix`, bench/mix.py): percentiles
from Locust's response-time histograms, one step of the step load read from two snapshots, the
rule that stops raising the load, the deadlines' lateness, the side-by-side table and the JSON
line. No Django and no Locust here: tests/test_bench.py imports it in the tests' environment,
which has neither gevent nor Locust (they live in .venv-load).

A histogram is Locust's `StatsEntry.response_times`: {response time in ms, rounded as Locust
rounds it: the count of requests}. A snapshot is {request name: {"n": requests, "fail":
failures, "hist": histogram}}, cumulative since the start; a step is the difference of the
snapshots at its measured window's two ends.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field

# The stop rule: raise the users until p99 passes 500 ms or errors appear.
P99_LIMIT_MS = 500.0
# How late a deadline may close while under load (issue 30: goal <= 5 s).
LATENESS_GOAL_S = 5.0

# The kinds of request, in the table's order (Locust's request names, bench/locustfile.py).
KINDS = (
    "thread page", "poll", "vote count", "bell", "game page", "post", "vote", "post refused",
    "role page", "order", "GM dashboard",
)


def hist_diff(after: dict, before: dict) -> dict[int, int]:
    """The requests between two cumulative histograms (keys may arrive as strings from JSON)."""
    base = {int(k): int(v) for k, v in (before or {}).items()}
    out = {}
    for key, count in (after or {}).items():
        left = int(count) - base.get(int(key), 0)
        if left > 0:
            out[int(key)] = left
    return out


def percentile(hist: dict[int, int], q: float) -> float | None:
    """The response time that a share `q` (0 to 1) of the requests finished within, the way
    Locust computes it (stats.calculate_response_time_percentile), or None with no request."""
    total = sum(hist.values())
    if total == 0:
        return None
    within = int(total * q)
    seen = 0
    for key in sorted(hist, reverse=True):
        seen += hist[key]
        if total - seen <= within:
            return float(key)
    return float(min(hist))


@dataclass
class Kind:
    requests: int
    failures: int
    rps: float
    p50_ms: float | None
    p99_ms: float | None


@dataclass
class Step:
    index: int
    users: int
    seconds: float  # the measured window (the step less its settling time)
    requests: int
    failures: int
    rps: float
    p50_ms: float | None
    p99_ms: float | None
    kinds: dict[str, Kind] = field(default_factory=dict)
    cpu_percent: float | None = None  # Locust's own CPU use (the load generator shares the machine)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Step:
        kinds = {name: Kind(**kind) for name, kind in (data.get("kinds") or {}).items()}
        return cls(**{**data, "kinds": kinds})


def step_from_snapshots(index: int, users: int, seconds: float, before: dict, after: dict,
                        cpu_percent: float | None = None) -> Step:
    """One step from the cumulative snapshots at the ends of its measured window."""
    kinds: dict[str, Kind] = {}
    total: dict[int, int] = {}
    requests = failures = 0
    for name, entry in sorted(after.items()):
        old = before.get(name) or {}
        n = int(entry.get("n", 0)) - int(old.get("n", 0))
        fail = int(entry.get("fail", 0)) - int(old.get("fail", 0))
        hist = hist_diff(entry.get("hist") or {}, old.get("hist") or {})
        if n <= 0 and fail <= 0:
            continue
        kinds[name] = Kind(requests=n, failures=fail, rps=round(n / seconds, 2) if seconds > 0 else 0.0,
                           p50_ms=percentile(hist, 0.50), p99_ms=percentile(hist, 0.99))
        requests += n
        failures += fail
        for key, count in hist.items():
            total[key] = total.get(key, 0) + count
    return Step(index=index, users=users, seconds=round(seconds, 2), requests=requests, failures=failures,
                rps=round(requests / seconds, 2) if seconds > 0 else 0.0, p50_ms=percentile(total, 0.50),
                p99_ms=percentile(total, 0.99), kinds=kinds, cpu_percent=cpu_percent)


def stop_reason(step: Step, *, p99_limit_ms: float = P99_LIMIT_MS) -> str | None:
    """Why the load is not raised past this step, or None to go on: errors appeared, or the p99
    of all its requests passed the limit. A step with no request at all stops too (the site or
    the load generator is stuck)."""
    if step.failures > 0:
        return f"{step.failures} errors"
    if step.requests == 0:
        return "no request answered"
    if step.p99_ms is not None and step.p99_ms > p99_limit_ms:
        return f"p99 {step.p99_ms:.0f} ms > {p99_limit_ms:.0f} ms"
    return None


def next_users(step_index: int, *, start: int, add: int) -> int:
    """The users of step `step_index` (0-based): `start`, then `add` more each step."""
    return start + add * step_index


def sustained(steps: list[Step], *, p99_limit_ms: float = P99_LIMIT_MS) -> Step | None:
    """The highest load sustained: the last step before the first that stopped the run (None when
    even the first did)."""
    best = None
    for step in steps:
        if stop_reason(step, p99_limit_ms=p99_limit_ms) is not None:
            break
        best = step
    return best


# --- Deadlines -------------------------------------------------------------------------------

@dataclass
class Deadline:
    """One phase whose deadline was set to fall during the run. Times are seconds since the epoch;
    `closed_at` is the phase's stamp (the close's `now`, when the worker took it up), `seen_at` when
    the bench first read it closed (the close's transaction committed: results posted, next phase
    open), None when it never closed."""
    game: int
    ruleset: str
    phase: str
    deadline: float
    users: int
    closed_at: float | None = None
    seen_at: float | None = None

    @property
    def early(self) -> bool:
        """Closed before its deadline (the show: every awaited hero acted), not by the deadline."""
        return self.closed_at is not None and self.closed_at < self.deadline

    @property
    def late_s(self) -> float | None:
        """How late the results came: seen closed minus the deadline."""
        if self.seen_at is None or self.early:
            return None
        return round(self.seen_at - self.deadline, 2)

    @property
    def claim_late_s(self) -> float | None:
        if self.closed_at is None or self.early:
            return None
        return round(self.closed_at - self.deadline, 2)


def lateness(deadlines: list[Deadline], *, goal_s: float = LATENESS_GOAL_S) -> dict:
    """The deadlines' summary: how many, closed by their deadline, closed early, never closed; the
    median and largest lateness (seen closed) and of the claim (closed_at), and how many passed the goal."""
    late = [d.late_s for d in deadlines if d.late_s is not None]
    claims = [d.claim_late_s for d in deadlines if d.claim_late_s is not None]
    return {
        "deadlines": len(deadlines),
        "closed": len(late),
        "early": sum(1 for d in deadlines if d.early),
        "never_closed": sum(1 for d in deadlines if d.closed_at is None),
        "late_median_s": round(statistics.median(late), 2) if late else None,
        "late_max_s": max(late) if late else None,
        "claim_median_s": round(statistics.median(claims), 2) if claims else None,
        "claim_max_s": max(claims) if claims else None,
        "over_goal": sum(1 for value in late if value > goal_s) + sum(1 for d in deadlines if d.closed_at is None),
        "goal_s": goal_s,
    }


def same_minute_groups(deadlines: list[Deadline]) -> list[int]:
    """How many deadlines fell in each minute that held more than one (the clusters)."""
    minutes: dict[int, int] = {}
    for d in deadlines:
        minutes[int(d.deadline // 60)] = minutes.get(int(d.deadline // 60), 0) + 1
    return [count for _minute, count in sorted(minutes.items()) if count > 1]


def deadline_times(step_start: float, step_seconds: float, count: int) -> list[float]:
    """`count` deadlines inside one minute in the middle of a step: from 40% of the step on, spread
    over at most 30 s (a third of a short step), so that they close while the step's load runs."""
    first = step_start + 0.4 * step_seconds
    spread = min(30.0, step_seconds / 3)
    if count <= 1:
        return [first]
    return [first + spread * i / (count - 1) for i in range(count)]


def pick_games(game_ids: list[int], step: int, count: int) -> list[int]:
    """The games whose deadlines fall in step `step`: `count` of them, taken in turn through the
    list (its order mixes the rule sets), so each step has several rule sets and every game comes back."""
    if not game_ids:
        return []
    start = (step * count) % len(game_ids)
    return [game_ids[(start + i) % len(game_ids)] for i in range(min(count, len(game_ids)))]


# --- The report -------------------------------------------------------------------------------

def summarize(setup: str, steps: list[Step], deadlines: list[Deadline], *, extra: dict | None = None,
              p99_limit_ms: float = P99_LIMIT_MS) -> dict:
    """One set-up's result: the step sustained (its users, req/s, p50/p99 per kind), why the run
    stopped, every step's figures, and the deadlines."""
    best = sustained(steps, p99_limit_ms=p99_limit_ms)
    stopped = next((stop_reason(s, p99_limit_ms=p99_limit_ms) for s in steps
                    if stop_reason(s, p99_limit_ms=p99_limit_ms)), None)
    return {
        "setup": setup,
        "sustained": best.to_json() if best else None,
        "stopped_by": stopped or "the last step (the load was not raised further)",
        "steps": [s.to_json() for s in steps],
        "errors": sum(s.failures for s in steps),
        "deadline_summary": lateness(deadlines),
        "deadline_clusters": same_minute_groups(deadlines),
        "deadlines": [{**asdict(d), "late_s": d.late_s, "claim_late_s": d.claim_late_s, "early": d.early}
                      for d in deadlines],
        **(extra or {}),
    }


def _ms(value) -> str:
    return "-" if value is None else f"{value:.0f}"


def _s(value) -> str:
    return "-" if value is None else f"{value:.1f}"


def table(summaries: list[dict]) -> str:
    """The set-ups side by side: for each, the highest sustained step's users and req/s, then
    p50/p99 (ms) and req/s per kind of request, the errors, the deadlines' lateness."""
    names = [s["setup"] for s in summaries]
    width = 24
    head = f"{'':22}" + "".join(f"{name:>{width}}" for name in names)
    lines = [head, f"{'':22}" + "".join(f"{'p50 / p99 ms  (req/s)':>{width}}" for _ in names)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"{label:22}" + "".join(f"{cell:>{width}}" for cell in cells))

    best = [s.get("sustained") for s in summaries]
    row("users sustained", [str(b["users"]) if b else "none" for b in best])
    row("req/s sustained", [f"{b['rps']:.1f}" if b else "-" for b in best])
    row("all requests", [f"{_ms(b['p50_ms'])} / {_ms(b['p99_ms'])}" if b else "-" for b in best])
    kinds = [k for k in KINDS if any(b and k in b["kinds"] for b in best)]
    kinds += sorted({k for b in best if b for k in b["kinds"]} - set(kinds))
    for kind in kinds:
        cells = []
        for b in best:
            entry = (b or {}).get("kinds", {}).get(kind)
            cells.append(f"{_ms(entry['p50_ms'])} / {_ms(entry['p99_ms'])}  ({entry['rps']:.1f})" if entry else "-")
        row(f"  {kind}", cells)
    row("stopped by", [str(s.get("stopped_by", "-"))[:width - 1] for s in summaries])
    row("errors (whole run)", [str(s.get("errors", 0)) for s in summaries])
    dl = [s.get("deadline_summary") or {} for s in summaries]
    row("deadlines closed", [f"{d.get('closed', 0)}/{d.get('deadlines', 0)}"
                             + (f" +{d['early']} early" if d.get("early") else "") for d in dl])
    row("  late median / max s", [f"{_s(d.get('late_median_s'))} / {_s(d.get('late_max_s'))}" for d in dl])
    row("  over 5 s or never", [str(d.get("over_goal", 0)) for d in dl])
    row("  same-minute groups", [",".join(map(str, s.get("deadline_clusters") or [])) or "-" for s in summaries])
    return "\n".join(lines)


def steps_table(summary: dict) -> str:
    """Every step of one set-up: users, req/s, p50/p99, errors, Locust's CPU."""
    lines = [f"{summary['setup']}: step  users   req/s   p50 ms   p99 ms  errors  locust cpu"]
    for s in summary["steps"]:
        lines.append(f"{'':{len(summary['setup']) + 1}} {s['index']:5} {s['users']:6} {s['rps']:7.1f} {_ms(s['p50_ms']):>8} "
                     f"{_ms(s['p99_ms']):>8} {s['failures']:7}  {_ms(s.get('cpu_percent')):>6} %")
    return "\n".join(lines)


def deadline_row(d: dict) -> str:
    """One deadline in words: rule set, phase, users of its step, how late it was seen closed (and
    when the worker took it up), or that it closed early or never."""
    where = f"{d['ruleset']} {d['phase']} @{d['users']}u"
    if d.get("early"):
        return f"{where} early"
    if d.get("late_s") is None:
        return f"{where} NEVER CLOSED"
    return f"{where} +{d['late_s']:.1f} s (claim +{d['claim_late_s']:.1f})"


def json_line(summaries: list[dict], **extra) -> str:
    """The run's last line: every set-up's summary, each deadline as [rule set, phase, users,
    late_s, claim_late_s, early], and `extra`."""
    slim = []
    for s in summaries:
        rows = [[d["ruleset"], d["phase"], d["users"], d.get("late_s"), d.get("claim_late_s"), d.get("early", False)]
                for d in s.get("deadlines") or []]
        slim.append({**{k: v for k, v in s.items() if k != "deadlines"}, "deadlines": rows})
    return json.dumps({"benchmark": "mix", **extra, "setups": slim}, ensure_ascii=False, separators=(",", ":"))
