"""How well the vote reader reads a corpus of real posts (issue 29): the share of posts and of votes
read as the players meant them, the misreads, and the names read by a short form or a typo.

A corpus is the format of the specs' votes/samples.yaml — a mapping with `cases`, each case
`{players: [...], text: "...", final: F}` where F is what the post casts as its player meant it:
`{vote: NAME}`, `unvote`, `peace` or null — or JSON lines, one such case per line. A case may say
how its game was set (CASE_SETTINGS: `profile`, `peace`, `syntaxes`, `spoilers`, as a game's vote
options), and a YAML corpus may say it once for every case under `settings`; `id` and `note` label a
case. Any other key is an error naming the key and the case, and nothing is scored.

The figures (docs/votes.md, "Measuring a corpus"):

- **posts**: every case; a post is read as meant when the reader's final equals the case's `final`
  (a post of talk is read as meant when nothing counts);
- **votes**: the cases whose `final` is not null (each post casts at most one ballot, its last
  valid vote, unvote or peace call); a vote is read as meant when the reader's final equals it;
- **guesses**: the posts whose final the reader took for a vote for a name written neither exactly
  nor as an alias (a unique word of a longer name, a nickname's part, initials, a prefix, a typo:
  `VoteFound.method` other than "exact"), counted apart, right or wrong: the reader never guesses
  between players, but a short form it resolves is still an inference the poster was not asked to
  confirm.

Pure Python, like the reader (no Django): the parse_vote command reads the file and prints.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from games.text.names import RosterMatcher
from games.text.votes import (
    CASE_SETTINGS,
    DEFAULT_PROFILE,
    VoteProfile,
    roster_key,
    parse_votes,
    profile_with_settings,
    reading_to_json,
)

__all__ = ["CASE_KEYS", "TOP_KEYS", "Case", "CorpusError", "Score", "load_corpus", "score_corpus"]

CASE_KEYS = ("players", "text", "final", "id", "note", *CASE_SETTINGS)
TOP_KEYS = ("cases", "settings", "roster")  # `roster`: the samples' YAML anchor, read by no one
_REQUIRED = ("players", "text", "final")
# The goals, printed beside the figures.
GOAL_POSTS = 98.5
GOAL_VOTES = 96.0
_MATCHED_EXACTLY = frozenset({"exact", "symbol"})


class CorpusError(ValueError):
    """A corpus that cannot be scored as written: the message names the case and the key."""


@dataclass(frozen=True)
class Case:
    number: int  # 1-based, in the file's order
    label: str  # "case 3" or "case 3 (id)"
    players: tuple[Any, ...]
    text: str
    final: Any  # {"vote": NAME} | "unvote" | "peace" | None
    profile: VoteProfile


@dataclass
class Score:
    posts: int = 0
    posts_right: int = 0
    votes: int = 0
    votes_right: int = 0
    misreads: list[dict[str, Any]] = field(default_factory=list)
    guesses: list[dict[str, Any]] = field(default_factory=list)

    @staticmethod
    def _percent(right: int, total: int) -> float | None:
        return round(100.0 * right / total, 1) if total else None

    def summary(self) -> dict[str, Any]:
        by_method = Counter(g["method"] for g in self.guesses)
        return {
            "posts": self.posts, "posts_right": self.posts_right,
            "posts_percent": self._percent(self.posts_right, self.posts),
            "votes": self.votes, "votes_right": self.votes_right,
            "votes_percent": self._percent(self.votes_right, self.votes),
            "misreads": len(self.misreads),
            "guesses": len(self.guesses), "guesses_wrong": sum(1 for g in self.guesses if not g["right"]),
            "guesses_by_method": dict(sorted(by_method.items())),
        }

    def report(self) -> str:
        """The figures, then every misread and every guess, for a person to read."""
        s = self.summary()

        def figure(label: str, right: int, total: int, percent: float | None, goal: float) -> str:
            shown = "—" if percent is None else f"{percent:.1f} %"
            return f"{label}: {right}/{total} = {shown} (goal ≥ {goal} %)"

        lines = [
            figure("Posts read as meant", s["posts_right"], s["posts"], s["posts_percent"], GOAL_POSTS),
            figure("Votes read as meant", s["votes_right"], s["votes"], s["votes_percent"], GOAL_VOTES)
            + "  [votes: the posts whose expected final is a vote, an unvote or a peace call]",
            f"Names read by a short form or a typo (not exact, not an alias): {s['guesses']}, "
            f"of them wrong: {s['guesses_wrong']}"
            + (f"  [{', '.join(f'{m} {n}' for m, n in s['guesses_by_method'].items())}]" if s["guesses"] else ""),
            "",
            f"Misreads ({len(self.misreads)}):",
        ]
        for m in self.misreads:
            lines.append(f"  {m['case']}: expected {_shown(m['expected'])}, read {_shown(m['read'])}"
                         + (f" — {m['why']}" if m["why"] else ""))
            lines.append(f"      {m['text']}")
        lines.append(f"Guesses ({len(self.guesses)}):")
        for g in self.guesses:
            lines.append(f"  {g['case']}: read {_shown(g['read'])} from «{g['fragment']}» by {g['method']}"
                         f" — {'right' if g['right'] else 'WRONG, expected ' + _shown(g['expected'])}")
        return "\n".join(lines)


def _shown(final: Any) -> str:
    return json.dumps(final, ensure_ascii=False)


def _excerpt(text: str, limit: int = 160) -> str:
    flat = " ⏎ ".join(line.strip() for line in text.splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _check_final(final: Any, players: tuple[Any, ...], label: str) -> Any:
    if final is None or final in ("unvote", "peace"):
        return final
    if isinstance(final, dict) and set(final) == {"vote"} and isinstance(final["vote"], str):
        names = {p if isinstance(p, str) else p[0] for p in players}
        if final["vote"] not in names:
            raise CorpusError(f"{label}: 'final' votes for {final['vote']!r}, who is not among its players")
        return {"vote": final["vote"]}
    raise CorpusError(f"{label}: 'final' must be {{vote: NAME}}, unvote, peace or null, not {final!r}")


def _case(raw: Any, number: int, base: VoteProfile) -> Case:
    label = f"case {number}"
    if not isinstance(raw, dict):
        raise CorpusError(f"{label}: a case is a mapping of {', '.join(CASE_KEYS)}, not {type(raw).__name__}")
    if raw.get("id") is not None:
        label = f"case {number} ({raw['id']})"
    for key in raw:
        if key not in CASE_KEYS:
            raise CorpusError(f"{label}: unknown key {key!r} (known: {', '.join(CASE_KEYS)})")
    for key in _REQUIRED:
        if key not in raw:
            raise CorpusError(f"{label}: missing key {key!r}")
    if not isinstance(raw["text"], str):
        raise CorpusError(f"{label}: 'text' must be a string")
    if not isinstance(raw["players"], list) or not raw["players"]:
        raise CorpusError(f"{label}: 'players' must be a list of the players' names")
    try:
        players = roster_key(raw["players"])
    except ValueError as exc:
        raise CorpusError(f"{label}: 'players': {exc}") from None
    try:
        profile = profile_with_settings(base, raw)
    except ValueError as exc:
        raise CorpusError(f"{label}: {exc}") from None
    return Case(number, label, players, raw["text"], _check_final(raw["final"], players, label), profile)


def load_corpus(text: str, *, jsonl: bool = False, profile: VoteProfile = DEFAULT_PROFILE) -> list[Case]:
    """The cases of a corpus (YAML, or JSON lines with `jsonl`), each with the profile it is read
    with: `profile` (the command's options), then the corpus's `settings`, then the case's own.
    Raises CorpusError naming the case and the key of the first thing wrong."""
    if jsonl:
        raws = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                raws.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise CorpusError(f"line {n}: not JSON ({exc.msg})") from None
        return [_case(raw, n, profile) for n, raw in enumerate(raws, 1)]
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CorpusError(f"not YAML: {exc}") from None
    if not isinstance(data, dict) or "cases" not in data:
        raise CorpusError("a corpus is a mapping with 'cases' (a list of cases), as votes/samples.yaml")
    for key in data:
        if key not in TOP_KEYS:
            raise CorpusError(f"unknown key {key!r} at the top of the corpus (known: {', '.join(TOP_KEYS)})")
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise CorpusError("'settings' must be a mapping")
    for key in settings:
        if key not in CASE_SETTINGS:
            raise CorpusError(f"settings: unknown key {key!r} (known: {', '.join(CASE_SETTINGS)})")
    try:
        profile = profile_with_settings(profile, settings)
    except ValueError as exc:
        raise CorpusError(f"settings: {exc}") from None
    if not isinstance(data["cases"], list):
        raise CorpusError("'cases' must be a list")
    return [_case(raw, n, profile) for n, raw in enumerate(data["cases"], 1)]


def score_corpus(cases: Iterable[Case]) -> Score:
    """Reads every case as the site would and compares its final with the one expected."""
    score = Score()
    matchers: dict[tuple[Any, ...], RosterMatcher] = {}
    for case in cases:
        matcher = matchers.get(case.players)
        if matcher is None:
            matcher = matchers[case.players] = RosterMatcher(case.players)
        reading = parse_votes(case.text, matcher, profile=case.profile)
        read = reading_to_json(reading)["final"]
        right = read == case.final
        score.posts += 1
        score.posts_right += right
        if case.final is not None:
            score.votes += 1
            score.votes_right += right
        if not right:
            refused = [v for v in reading.votes if not v.valid]
            why = "; ".join(
                f"refused {v.reason}" + (f" ({v.target})" if v.target else "")
                + (f", candidates {', '.join(v.candidates)}" if v.candidates else "")
                for v in refused[-2:]
            )
            score.misreads.append({"case": case.label, "expected": case.final, "read": read, "why": why,
                                   "text": _excerpt(case.text)})
        final = reading.final
        if final is not None and final.kind == "vote" and final.method not in _MATCHED_EXACTLY:
            score.guesses.append({"case": case.label, "read": read, "expected": case.final, "right": right,
                                  "method": final.method or "?", "fragment": final.fragment})
    return score
