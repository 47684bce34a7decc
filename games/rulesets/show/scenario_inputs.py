"""A show scenario phase's own keys (docs/rulesets/show.md, "Scenario keys"), played through the
services the hero's panel calls (ShowSite.scenario_play_inputs). The runner closes each stage at
its timer, so nothing here ends a stage early. `greetings`, `defences`, `opinions` and `posted`
are media posts made (the service an upload calls); `ratings` (part 2) are kept on the phase."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from games.models import Phase
from games.rulesets.show.services import (
    show_lull,
    show_media_post,
    show_order,
    show_request,
    show_use_knowledge,
    show_vote,
    show_wake,
)

LISTS = ("greetings", "defences", "opinions", "active")
MAPS = ("posted", "votes", "requests", "knowledge", "lull", "ratings")
POST_OF = {"greetings": "greeting", "defences": "defence", "opinions": "opinion"}


def check(key: str, value) -> str | None:
    if key in LISTS and not isinstance(value, list):
        return "a list of names is required"
    if key in MAPS and not isinstance(value, dict):
        return "a mapping {name: value} is required"
    return None


def play_inputs(*, game, phase_spec: dict, user_of: Callable[[str], Any],
                seat_of: Callable[[str | None], int | None], now: datetime) -> None:
    """In this order, a second apart: /lull ballots (applied before the close, as the engine's
    files say), activity, media posts, opinion requests, ballots, night choices and decisions,
    Secret Knowledge used."""
    game.refresh_from_db()
    tick = iter(range(10_000))

    def at() -> datetime:
        return now + timedelta(seconds=next(tick))

    ratings = phase_spec.get("ratings")
    if ratings:
        phase = game.current_phase
        Phase.objects.filter(pk=phase.pk).update(gm_decisions={
            **(phase.gm_decisions or {}), "ratings": {str(seat_of(n)): v for n, v in ratings.items()}})
    for voter, target in (phase_spec.get("lull") or {}).items():
        show_lull(game=game, user=user_of(voter), target=seat_of(target), now=at(), early_close=False)
    for name in phase_spec.get("active") or []:
        show_wake(game=game, user=user_of(name), now=at())
    posted: dict[str, list[str]] = {n: list(k) for n, k in (phase_spec.get("posted") or {}).items()}
    for key, kind in POST_OF.items():
        for name in phase_spec.get(key) or []:
            posted.setdefault(name, []).append(kind)
    for name, kinds in posted.items():
        for kind in kinds:
            show_media_post(game=game, user=user_of(name), kind=kind, now=at(), early_close=False)
    for requester, target in (phase_spec.get("requests") or {}).items():
        show_request(game=game, user=user_of(requester), target=seat_of(target), now=at(), early_close=False)
    for voter, target in (phase_spec.get("votes") or {}).items():
        if target in ("enslave", "spare"):
            show_vote(game=game, user=user_of(voter), ballot=target, now=at(), early_close=False)
        else:
            show_vote(game=game, user=user_of(voter), target=seat_of(target), now=at(), early_close=False)
    for item in phase_spec.get("orders") or []:
        detail = {k: seat_of(item[k]) for k in ("question", "public_key", "extra_knowledge") if item.get(k)}
        show_order(game=game, user=user_of(item["by"]), action=str(item["action"]), target=seat_of(item.get("target")),
                   detail=detail, now=at(), early_close=False)
    for holder, about in (phase_spec.get("knowledge") or {}).items():
        show_use_knowledge(game=game, user=user_of(holder), target=seat_of(about), now=at(), at_once=False)
