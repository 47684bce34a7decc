"""Closing a phase: the one service that claims the phase, resolves it with the engine, stores
the events, publishes the results and opens the next phase. Exactly once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils import timezone
from django.utils.translation import gettext as _

from games.caching import pagecache
from games.communication.letters import private_results_post
from games.communication.rooms import rooms_close, rooms_open
from games.engine.orders import Order as EngineOrder
from games.engine.orders import PhaseInputs
from games.engine.rulesets import get_ruleset
from games.models import Game, Phase, Seat, Thread
from games.permissions import in_play
from games.rulesets import registry
from games.selectors.genders import roster_genders
from games.selectors.orders import standing_orders
from games.selectors.state import game_state
from games.selectors.votes import standing_votes
from games.services import notifications
from games.services.journal import gm_log, store_events
from games.services.lifecycle import game_finish
from games.services.phases import phase_open_named
from games.services.posts import post_create
from games.wording import event_text, results_bbcode, speaking_of


def phase_seed(game: Game, phase: Phase) -> int:
    """Each phase's random choices come from the game's secret seed and the phase, so a preview
    and the real close draw the same lots (a rule set whose engine mixes in the phase's name itself
    gets the game's seed: SiteRuleset.seeds_by_phase_name)."""
    adapter = registry.find(game.ruleset)
    if adapter is not None and adapter.seeds_by_phase_name:
        return game.rng_seed or 0
    return ((game.rng_seed or 0) * 1_000_003 + phase.number * 101 + sum(map(ord, phase.kind))) % (2**62)


def phase_inputs(phase: Phase, *, ballots: list | None = None, orders: dict | None = None) -> PhaseInputs:
    """What the engine resolves: the standing votes, each actor's standing order and the GM's
    decisions — or what the rule set reads from its own ledger (SiteRuleset.phase_inputs; cards:
    its Order rows are card inputs, read as PhaseInputs.extra). `ballots` and `orders`: the day's
    effective ballots and standing orders when the caller has read them (the GM's dashboard)."""
    own = registry.site(phase.game.ruleset).phase_inputs(phase)
    if own is not None:
        return own
    orders = {
        actor: EngineOrder(actor=actor, action=o.action, target=o.target_id, source=o.source_seat_id, detail=o.detail)
        for actor, o in (standing_orders(phase) if orders is None else orders).items()
        if o.action
    }
    return PhaseInputs(votes=standing_votes(phase, ballots=ballots), orders=orders, gm=dict(phase.gm_decisions or {}))


@dataclass
class Preview:
    resolution: object  # games.engine.Resolution
    inputs: PhaseInputs


def phase_preview(*, phase: Phase, now: datetime | None = None, ballots: list | None = None,
                  orders: dict | None = None) -> Preview | None:
    """What closing the phase now would produce, without writing anything (the GM's dry run).
    Uses the very function the close uses, with the same seed."""
    game = phase.game
    if not game.state or game.status != Game.Status.RUNNING:
        return None  # an epilogue's phase (after the end) resolves nothing
    ruleset = get_ruleset(game.ruleset)
    state = game_state(game)
    inputs = phase_inputs(phase, ballots=ballots, orders=orders)
    return Preview(resolution=ruleset.resolve(state, inputs, seed=phase_seed(game, phase), now=now or timezone.now()),
                   inputs=inputs)


def phase_close_if_due(*, phase_id: int, now: datetime | None = None) -> bool:
    """The deadline task and the sweep: close (and resolve) the phase if its time has come.
    (Here, beside the close, not with the opening in phases.py: the close opens the next phase.)"""
    return phase_close(phase_id=phase_id, now=now or timezone.now(), only_if_due=True)


def phases_close_due(*, now: datetime | None = None) -> int:
    """The sweep: close every phase whose deadline has passed; returns how many this call closed."""
    now = now or timezone.now()
    due = list(Phase.objects.filter(closed_at__isnull=True, deadline_at__lte=now).values_list("pk", flat=True))
    return sum(phase_close_if_due(phase_id=pk, now=now) for pk in due)


@pagecache.game_scoped(lambda kwargs: pagecache.game_of_phase(kwargs.get("phase_id")))  # games/caching/pagecache.py
def phase_close(*, phase_id: int, now: datetime | None = None, only_if_due: bool = False, by=None) -> bool:
    """Close the phase. True only for the one call that closed it: a duplicate task, the sweep,
    a late ETA task and the GM's button may all call this at once."""
    now = now or timezone.now()
    with transaction.atomic():
        # The claim: row locks on PostgreSQL; the IMMEDIATE transaction serialises on SQLite. The
        # game's row first, then the phase's, then (the results) its thread's: the order every
        # writer of a game takes them in (a hero's input that ends the stage early holds the game
        # when it closes the phase; a post in the game thread locks the game before the thread).
        # NO KEY UPDATE: rows that only reference the game or the phase (an order, a ledger line,
        # an anonymous message) are written meanwhile, and a writer that inserted one may still
        # lock the game after it without a lock upgrade's deadlock.
        game_id = Phase.objects.filter(pk=phase_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return False
        Game.objects.select_for_update(no_key=True).filter(pk=game_id).values_list("pk").first()
        phase = (Phase.objects.select_for_update(no_key=True, of=("self",)).select_related("game")
                 .filter(pk=phase_id).first())
        if phase is None or phase.closed_at is not None:
            return False
        if only_if_due and (phase.deadline_at is None or phase.deadline_at > now):
            return False  # a stale ETA task after the GM moved the deadline
        claimed = Phase.objects.filter(pk=phase.pk, closed_at__isnull=True).update(closed_at=now)
        if not claimed:
            return False
        phase.closed_at = now
        notifications.notify_phase_closed(phase=phase, now=now)
        rooms_close(phase=phase)
        for adapter in registry.adapters():  # what each rule set queued for the phase (cards: card messages)
            adapter.deliver_queued(phase=phase, now=now)
        game = Game.objects.select_for_update(no_key=True).get(pk=phase.game_id)  # held already: a fresh read
        if by is not None:
            gm_log(game=game, user=by, action="close_now", data={"phase": phase.pk}, now=now)
        if game.state and game.status == Game.Status.RUNNING:
            _resolve(game=game, phase=phase, now=now)
        elif game.status == Game.Status.FINISHED and phase.kind == getattr(
                registry.find(game.ruleset), "epilogue_kind", None):
            _epilogue_close(game=game, phase=phase, now=now)
    return True


def _game_end(*, game: Game, state, now: datetime) -> None:
    """The engine's state says the game is over: finish it (the commitment revealed), then open the
    rule set's epilogue if it has one (SiteRuleset.epilogue_kind: the Show's «Судный День»)."""
    game_finish(game=game, winner=state.winner or "none", now=now)
    adapter = registry.find(game.ruleset)
    length = adapter.epilogue_length(game=game, state=state) if adapter is not None and adapter.epilogue_kind else None
    if length:
        phase_open_named(game=game, name=adapter.epilogue_kind, now=now, deadline_at=now + length)


def _epilogue_close(*, game: Game, phase: Phase, now: datetime) -> None:
    """The epilogue's end (its deadline or the GM's «close now»): the game thread locks, said in it;
    the game is in the archive (its discussion stays open, as an automatic game's does)."""
    with translation.override(settings.LANGUAGE_CODE):  # posts are written in the site's language
        body = str(_("[b]%(phase)s is over.[/b] The game thread is closed: the game is in the archive.")) % {
            "phase": phase.label}
    post_create(thread=game.game_thread, author=game.gm, now=now, body=body)
    Thread.objects.filter(pk=game.game_thread_id).update(is_locked=True, lock_at=None)


def _seats_follow(game: Game, new_state, seats: dict[int, Seat]) -> None:
    """The seats' rows brought in line with the engine's state (status, role, team, in play)."""
    changed = []
    for seat_state in new_state.seats:
        seat = seats.get(seat_state.id)
        if seat is not None and (seat.status != seat_state.status or seat.role != seat_state.role):
            seat.status, seat.role, seat.faction = seat_state.status, seat_state.role, seat_state.faction
            seat.is_alive = in_play(game, seat_state)  # the rule set says who still plays
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, ["status", "role", "faction", "is_alive"])


def state_apply_now(*, game: Game, phase: Phase, state, events, now: datetime, heading: str = "") -> None:
    """A change of the engine's state made within a phase, not by its close (a card ability acting
    at once, a hero of the show woken or lulled): the state kept, the seats following it, the
    events stored, the public ones told in the game thread in the site's language (under
    `heading`), and the game finished when the change ended it. Inside the caller's transaction,
    with the game's row locked by it."""
    game.state = state.to_json()
    game.save(update_fields=["state"])
    _seats_follow(game, state, {s.pk: s for s in game.seats.all()})
    store_events(game=game, phase=phase, events=events, now=now)
    public = [e for e in events if e.audience == "public"]
    if public:
        # posts are written in the site's language, agreeing with the players' genders
        with translation.override(settings.LANGUAGE_CODE), speaking_of(roster_genders(game)):
            lines = [event_text(game.ruleset, e.kind, dict(e.data)) for e in public]
            body = "\n".join(([str(heading)] if heading else []) + [line for line in lines if line])
        post_create(thread=game.game_thread, author=game.gm, now=now, body=body)
    if state.over:
        Phase.objects.filter(pk=phase.pk, closed_at__isnull=True).update(closed_at=now)
        _game_end(game=game, state=state, now=now)


def _resolve(*, game: Game, phase: Phase, now: datetime) -> None:
    ruleset = get_ruleset(game.ruleset)
    state = game_state(game)
    resolution = ruleset.resolve(state, phase_inputs(phase), seed=phase_seed(game, phase), now=now)
    new_state = resolution.state
    seats = {s.pk: s for s in game.seats.all()}
    phase.state_before = {
        "state": game.state,
        "seats": {str(s.pk): [s.status, s.role, s.faction, s.is_alive] for s in seats.values()},
    }
    _seats_follow(game, new_state, seats)
    adapter = registry.site(game.ruleset)
    phase.outcome = _jsonable(adapter.close_outcome(phase=phase, outcome=dict(resolution.outcome)))
    phase.save(update_fields=["outcome", "state_before"])
    game.state = new_state.to_json()
    game.save(update_fields=["state"])
    # What the site refuses is dropped before anything is stored (cards: a card's message with a
    # link, docs/rulesets/cards.md).
    events = adapter.close_events_screen(game=game, phase=phase, events=resolution.events, now=now)
    store_events(game=game, phase=phase, events=events, now=now)
    # posts are written in the site's language; a sentence about a player agrees with the gender of
    # the seat's user, as the stored events do (journal.store_events)
    with translation.override(settings.LANGUAGE_CODE), speaking_of(roster_genders(game)):
        body = results_bbcode(game, phase, events)
    post_create(thread=game.game_thread, author=game.gm, now=now, body=body)
    # Then each player's private results, and the messages, as letters from the GM in his thread.
    private_results_post(game=game, phase=phase, events=events, now=now)
    adapter.close_letters(game=game, phase=phase, events=events, now=now)
    if new_state.over:
        _game_end(game=game, state=new_state, now=now)
    else:
        next_phase = phase_open_named(game=game, name=new_state.phase, now=now)
        if phase.kind == "day":
            rooms_open(game=game, day=phase, next_phase=next_phase)


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    return value
