"""The game's journal: the GM's log (GMAction: who did what, shown in the archive) and the stored
events of the game (GameEvent: what the engine, a GM or a rule set reported, with its text).

Every service and rule set writes here, so this module imports no other service: only the
models, one selector (the seats' genders, for agreement), the wording (an event's text) and the engine, so that writing to the journal never
pulls a service's dependencies into its caller's (issue 15, "services in layers").
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.utils import timezone

from games.models import Game, GameEvent, GMAction
from games.selectors.genders import roster_genders
from games.wording import event_text, speaking_of


def gm_log(*, game: Game, user, action: str, data: dict | None = None, now: datetime | None = None) -> GMAction:
    """One line of the GM's log; an anonymous or missing user (the site itself) is stored as none."""
    return GMAction.objects.create(game=game, user=user if user is not None and user.is_authenticated else None,
                                   action=action, data=data or {}, created_at=now or timezone.now())


def store_events(*, game: Game, phase, events: Iterable, now: datetime) -> list[GameEvent]:
    """Store engine events (kind, audience, data) with their text in the site's wording of the
    game's rule set, written once now so that the pages never word them again; a sentence about a
    player agrees with the gender of the seat's user (games.wording.agreed)."""
    events = list(events)
    if not events:
        return []
    with speaking_of(roster_genders(game)):
        rows = [
            GameEvent(game=game, phase=phase, kind=e.kind, audience=e.audience, data=dict(e.data),
                      text=event_text(game.ruleset, e.kind, dict(e.data)), created_at=now)
            for e in events
        ]
    return GameEvent.objects.bulk_create(rows)


def event_store_written(*, game: Game, phase, audience: str, text: str, now: datetime,
                        kind: str = "manual") -> GameEvent:
    """An event whose text a person wrote (the GM's manual event): stored as written, cut to the
    column's 2000 characters, with no data to word it from."""
    return GameEvent.objects.create(game=game, phase=phase, kind=kind, audience=audience, data={}, text=text[:2000],
                                    created_at=now)
