"""Opening and closing days and nights; a phase closes at its deadline exactly once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.caching import pagecache
from games.models import Game, GameEvent, Phase
from games.permissions import is_game_master
from games.rulesets import registry
from games.selectors.state import game_rules, table_style
from games.selectors.votes import vote_target_ids
from games.services import ActionRefused, notifications, send_task_on_commit
from games.services.journal import event_store_written, gm_log


def phase_current(*, game: Game) -> Phase | None:
    """The game's latest phase (open or closed), or None before the first."""
    return game.current_phase


@pagecache.game_scoped(lambda kwargs: kwargs.get("game"))  # its writes are the game's (games/caching/pagecache.py)
def phase_open(*, game: Game, kind: str, by, deadline_at: datetime | None, now: datetime | None = None) -> Phase:
    now = now or timezone.now()
    if by is not None and not is_game_master(by, game):
        raise ActionRefused(_("Only the GM opens phases."), code="not_allowed")
    if game.status != Game.Status.RUNNING:
        raise ActionRefused(_("The game is not running."), code="not_running")
    if not _plays_kind(game, kind):
        raise ActionRefused(_("Unknown phase kind."), code="bad_kind")
    if deadline_at is not None and deadline_at <= now:
        raise ActionRefused(_("The deadline must be in the future."), code="in_past")
    with transaction.atomic():
        Game.objects.select_for_update(no_key=True).filter(pk=game.pk).first()  # as phase_close locks it
        if game.phases.filter(closed_at__isnull=True).exists():
            raise ActionRefused(_("Close the current phase first."), code="phase_open")
        number = (game.phases.filter(kind=kind).aggregate(m=Max("number"))["m"] or 0) + 1
        return _opened(game=game, kind=kind, number=number, now=now, deadline_at=deadline_at)


def _opened(*, game: Game, kind: str, number: int, now: datetime, deadline_at: datetime | None) -> Phase:
    """The new phase, made the game's current one, its close queued for its deadline, the players told."""
    phase = Phase.objects.create(game=game, kind=kind, number=number, opened_at=now, deadline_at=deadline_at)
    Game.objects.filter(pk=game.pk).update(current_phase=phase)
    game.current_phase = phase
    _queue_close(phase)
    notifications.notify_phase_opened(phase=phase, now=now)
    return phase


def _plays_kind(game: Game | None, kind: str) -> bool:
    """Whether the game's rule set declares the phase kind (SiteRuleset.phase_kinds); for a game
    whose rule set is not registered, whether any registered rule set does."""
    adapter = registry.find(game.ruleset) if game is not None else None
    if adapter is not None:
        return adapter.is_valid_phase_kind(kind)
    return registry.adapter_of_phase_kind(kind) is not None


def parse_phase_name(name: str, game: Game | None = None) -> tuple[str, int]:
    """The engine names phases "day 2", "night 0", "revote 1", "deckbuilding"; the kind must be
    one the game's rule set declares."""
    kind, _sep, number = name.partition(" ")
    if not _plays_kind(game, kind):
        raise ValueError(f"unknown phase {name!r}")
    return kind, int(number or 0)


def phase_open_named(*, game: Game, name: str, now: datetime, deadline_at: datetime | None = None) -> Phase:
    """Open the phase the engine says comes next, with the game's phase length as deadline."""
    kind, number = parse_phase_name(name, game)
    adapter = registry.find(game.ruleset)
    deadline_at = deadline_at or (adapter.phase_deadline(game=game, now=now) if adapter is not None else None) \
        or deadline_after(game, now)
    return _opened(game=game, kind=kind, number=number, now=now, deadline_at=deadline_at)


def deadline_after(game: Game, now: datetime) -> datetime:
    """The deadline of a phase opened now: the game's phase length from now."""
    return now + timedelta(hours=game.phase_hours)


def _queue_close(phase: Phase) -> None:
    if phase.deadline_at is None:
        return
    send_task_on_commit("games.tasks.close_phase_when_due", kwargs={"phase_id": phase.pk}, eta=phase.deadline_at)


def phase_set_deadline(*, phase: Phase, by, deadline_at: datetime, now: datetime | None = None) -> Phase:
    """Extend or shorten a deadline. The ETA task queued for the old deadline becomes a no-op:
    the close re-reads the deadline from the database."""
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


def phase_set_tie_break(*, phase: Phase, by, seat, now: datetime | None = None) -> Phase:
    """The GM names who goes on a tie at the close (a Seat), or withdraws his choice (None). Only
    a rule set whose tie goes to the GM takes one (SiteStyle.tie; a re-vote table refuses it)."""
    now = now or timezone.now()
    game = phase.game
    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM may do that."), code="not_allowed")
    tie = table_style(game).tie
    if tie == "revote":
        raise ActionRefused(_("In this game a tie goes to a re-vote: the GM does not break it."), code="no_tie_break")
    if tie != "gm":
        raise ActionRefused(_("In this game the rules settle a tie: the GM does not break it."), code="no_tie_break")
    if seat is not None and seat.pk not in vote_target_ids(phase):
        # The dashboard offers only those (games.selectors.votes.vote_target_ids): a dead or jailed one is refused.
        raise ActionRefused(_("A tie can only send a player the vote may name: not a dead or jailed one."),
                            code="bad_target")
    decisions = dict(phase.gm_decisions or {})
    if seat is None:
        decisions.pop("tie_break", None)
    else:
        decisions["tie_break"] = seat.pk
    phase.gm_decisions = decisions
    phase.save(update_fields=["gm_decisions"])
    gm_log(game=game, user=by, action="tie_break", data={"seat": seat.pk if seat else None}, now=now)
    return phase


def phase_event_add(*, phase: Phase, by, text: str, audience: str, now: datetime | None = None) -> GameEvent:
    """A manual event the GM writes into the game's record (the dashboard's «event» form), seen by
    `audience`: everyone ("public"), the GMs ("gm"), one seat ("seat:<id>") or a faction of the
    rule set ("faction:<key>"). The text is kept to 2000 characters."""
    now = now or timezone.now()
    game = phase.game
    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM may do that."), code="not_allowed")
    text = (text or "").strip()
    valid = {"public", "gm"} | {f"seat:{pk}" for pk in game.seats.values_list("pk", flat=True)} | {
        f"faction:{f}" for f in game_rules(game).factions}
    if not text or audience not in valid:
        raise ActionRefused(_("Write the event and choose who sees it."), code="bad_event")
    event = event_store_written(game=game, phase=phase, audience=audience, text=text, now=now)
    gm_log(game=game, user=by, action="manual_event", data={"audience": audience, "text": text[:2000]}, now=now)
    return event
