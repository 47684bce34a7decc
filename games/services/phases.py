"""Opening and closing days and nights; a phase closes at its deadline exactly once."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Phase
from games.services import ActionRefused


def phase_current(*, game: Game) -> Phase | None:
    """The game's latest phase (open or closed), or None before the first."""
    return game.current_phase


def phase_open(*, game: Game, kind: str, by, deadline_at: datetime | None, now: datetime | None = None) -> Phase:
    now = now or timezone.now()
    if by is not None and by.pk != game.gm_id and not by.is_staff:
        raise ActionRefused(_("Only the GM opens phases."), code="not_allowed")
    if game.status != Game.Status.RUNNING:
        raise ActionRefused(_("The game is not running."), code="not_running")
    if kind not in Phase.Kind.values:
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
    if deadline_at is not None:
        from games.tasks import close_phase_when_due

        transaction.on_commit(lambda: close_phase_when_due.apply_async(kwargs={"phase_id": phase.pk}, eta=deadline_at))
    return phase


def phase_close(*, phase_id: int, now: datetime | None = None) -> bool:
    """Close the phase now. Idempotent: only the call that closes it returns True."""
    now = now or timezone.now()
    return bool(Phase.objects.filter(pk=phase_id, closed_at__isnull=True).update(closed_at=now))


def phase_close_if_due(*, phase_id: int, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return bool(
        Phase.objects.filter(pk=phase_id, closed_at__isnull=True, deadline_at__isnull=False, deadline_at__lte=now).update(
            closed_at=now
        )
    )


def phases_close_due(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    due = list(Phase.objects.filter(closed_at__isnull=True, deadline_at__lte=now).values_list("pk", flat=True))
    return sum(phase_close_if_due(phase_id=pk, now=now) for pk in due)
