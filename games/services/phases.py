"""Opening and closing days and nights; a phase closes at its deadline exactly once."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.caching import pagecache
from games.models import Game, Phase
from games.rulesets import registry
from games.services import ActionRefused, notifications, queue_on_commit


def phase_current(*, game: Game) -> Phase | None:
    """The game's latest phase (open or closed), or None before the first."""
    return game.current_phase


@pagecache.game_scoped(lambda kwargs: kwargs.get("game"))  # its writes are the game's (games/caching/pagecache.py)
def phase_open(*, game: Game, kind: str, by, deadline_at: datetime | None, now: datetime | None = None) -> Phase:
    now = now or timezone.now()
    from games.permissions import is_game_master

    if by is not None and not is_game_master(by, game):
        raise ActionRefused(_("Only the GM opens phases."), code="not_allowed")
    if game.status != Game.Status.RUNNING:
        raise ActionRefused(_("The game is not running."), code="not_running")
    if registry.adapter_of_phase_kind(kind) is None:  # a kind no registered rule set plays
        raise ActionRefused(_("Unknown phase kind."), code="bad_kind")
    if deadline_at is not None and deadline_at <= now:
        raise ActionRefused(_("The deadline must be in the future."), code="in_past")
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game.pk).first()
        if game.phases.filter(closed_at__isnull=True).exists():
            raise ActionRefused(_("Close the current phase first."), code="phase_open")
        number = (game.phases.filter(kind=kind).aggregate(m=Max("number"))["m"] or 0) + 1
        phase = Phase.objects.create(game=game, kind=kind, number=number, opened_at=now, deadline_at=deadline_at)
        Game.objects.filter(pk=game.pk).update(current_phase=phase)
        game.current_phase = phase
        _queue_close(phase)
        notifications.notify_phase_opened(phase=phase, now=now)
    return phase


def parse_phase_name(name: str) -> tuple[str, int]:
    """The engine names phases "day 2", "night 0", "revote 1", "deckbuilding"."""
    kind, _sep, number = name.partition(" ")
    if registry.adapter_of_phase_kind(kind) is None:  # a kind no registered rule set plays
        raise ValueError(f"unknown phase {name!r}")
    return kind, int(number or 0)


def phase_open_named(*, game: Game, name: str, now: datetime, deadline_at: datetime | None = None) -> Phase:
    """Open the phase the engine says comes next, with the game's phase length as deadline."""
    from games.services.lifecycle import deadline_after

    kind, number = parse_phase_name(name)
    deadline_at = deadline_at or deadline_after(game, now)
    phase = Phase.objects.create(game=game, kind=kind, number=number, opened_at=now, deadline_at=deadline_at)
    Game.objects.filter(pk=game.pk).update(current_phase=phase)
    game.current_phase = phase
    _queue_close(phase)
    notifications.notify_phase_opened(phase=phase, now=now)
    return phase


def _queue_close(phase: Phase) -> None:
    if phase.deadline_at is None:
        return
    from games.tasks import close_phase_when_due

    queue_on_commit(close_phase_when_due, kwargs={"phase_id": phase.pk}, eta=phase.deadline_at)


def phase_set_deadline(*, phase: Phase, by, deadline_at: datetime, now: datetime | None = None) -> Phase:
    """Extend or shorten a deadline. The ETA task queued for the old deadline becomes a no-op:
    the close re-reads the deadline from the database."""
    from games.services.lifecycle import gm_log, is_game_master

    now = now or timezone.now()
    if not is_game_master(by, phase.game):
        raise ActionRefused(_("Only the GM changes deadlines."), code="not_allowed")
    if not phase.is_open:
        raise ActionRefused(_("The phase is already closed."), code="closed")
    if deadline_at <= now:
        raise ActionRefused(_("The deadline must be in the future."), code="in_past")
    old = phase.deadline_at
    Phase.objects.filter(pk=phase.pk, closed_at__isnull=True).update(deadline_at=deadline_at)
    phase.deadline_at = deadline_at
    gm_log(game=phase.game, user=by, action="deadline",
           data={"phase": phase.pk, "from": old.isoformat() if old else None, "to": deadline_at.isoformat()}, now=now)
    _queue_close(phase)
    return phase


def phase_close_if_due(*, phase_id: int, now: datetime | None = None) -> bool:
    """The deadline task and the sweep: close (and resolve) the phase if its time has come."""
    from games.services.resolution import phase_close

    return phase_close(phase_id=phase_id, now=now or timezone.now(), only_if_due=True)


def phases_close_due(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    due = list(Phase.objects.filter(closed_at__isnull=True, deadline_at__lte=now).values_list("pk", flat=True))
    return sum(phase_close_if_due(phase_id=pk, now=now) for pk in due)
