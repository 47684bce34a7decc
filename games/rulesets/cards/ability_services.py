"""A player's abilities on the site (issue 17; the engine's registry is games.rulesets.cards.engine.abilities).

`card_ability_submit` records every attempt as an Order row (action "ability", detail {"ability",
its inputs, "at_once"}), valid or refused with its reason, like the card inputs:

- an at-once ability («в любой момент», «мгновенно») is applied there and then: the game row is
  locked, the engine's act_now runs on the current state, the new state and its events are stored
  (the GM's log line says it acted at once; the player's event says what happened), the seats'
  statuses follow, and a game the ability ended is finished;
- a phase-end ability stands like a play: the close reads the valid rows of the phase as
  `PhaseInputs.extra["abilities"]` (`abilities_standing`), in the order they were made.

The player's confirmation (what happened, in words) is also written in his letters to the GM.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.communication.letters import order_confirmation_post
from games.models import Game, Order, Phase, Seat
from games.rulesets.cards.engine.abilities import NOW, owns
from games.rulesets.cards.engine.roles import overt_role
from games.rulesets.cards.engine.ruleset import CARDS
from games.rulesets.cards.wording import ability_label, ability_option_label, ability_result_text, card_reason_text
from games.selectors.orders import phase_ledger
from games.selectors.state import game_state
from games.services import ActionRefused
from games.services.resolution import phase_seed, state_apply_now

ABILITY = "ability"  # the Order rows' action
SEAT_FIELDS = ("target", "target2")  # inputs that name a seat (by pk)


@dataclass
class AbilityConfirmation:
    accepted: bool
    ability: str
    reason: str = ""
    result: dict = field(default_factory=dict)
    at_once: bool = False

    @property
    def action(self) -> str:
        return ABILITY

    @property
    def message(self) -> str:
        label = ability_label(self.ability)
        if not self.accepted:
            return _("%(action)s not accepted: %(reason)s") % {"action": label, "reason": card_reason_text(self.reason)}
        if self.at_once:
            return _("%(action)s: done at once. %(what)s") % {
                "action": label, "what": ability_result_text(self.ability, self.result)}
        return _("%(action)s accepted: it acts at the end of the phase.") % {"action": label}


def _seat_pk(value) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _clean(game: Game, data: dict) -> tuple[dict, str]:
    """The inputs with their seats as this game's seat pks; a reason code when one is not."""
    clean = {k: v for k, v in data.items() if v not in (None, "", [])}
    pks = set(game.seats.values_list("pk", flat=True))
    for key in SEAT_FIELDS:
        if key in clean:
            pk = _seat_pk(clean[key])
            if pk is None or pk not in pks:
                return clean, "bad_target"
            clean[key] = pk
    if isinstance(clean.get("roles"), dict):
        roles = {}
        for key, role in clean["roles"].items():
            pk = _seat_pk(key)
            if pk is None or pk not in pks:
                return clean, "bad_guess"
            roles[str(pk)] = str(role)
        clean["roles"] = roles
    return clean, ""


def card_ability_submit(*, game: Game, user, ability: str, data: dict | None = None, now: datetime | None = None,
                        source: str | None = None, confirm: bool = True) -> tuple[Order | None, AbilityConfirmation]:
    """Use `ability` for `user`'s seat now (docs/rulesets/cards.md, "Part 2 (a)"). ActionRefused if
    the user is not a player of this cards game; a refusal changes nothing but the ledger's row."""
    now = now or timezone.now()
    if game.ruleset != CARDS.key:
        raise ActionRefused(_("This game is not played with cards."), code="not_cards")
    seat = game.seats.select_related("user").filter(user=user).first() if user.is_authenticated else None
    if seat is None:
        raise ActionRefused(_("You are not a player of this game."), code="not_a_player")
    key = str(ability or "")
    spec = CARDS.abilities.get(key)
    if game.status == Game.Status.FINISHED:
        return None, AbilityConfirmation(False, key, reason="game_over")
    if game.status != Game.Status.RUNNING or not game.state or game.current_phase is None:
        return None, AbilityConfirmation(False, key, reason="no_phase")
    source = source or Order.Source.FORM
    clean, reason = _clean(game, dict(data or {}))
    at_once = spec is not None and spec.when == NOW
    with transaction.atomic():
        locked = Game.objects.select_for_update(of=("self",)).select_related("current_phase").get(pk=game.pk)
        phase = locked.current_phase
        if locked.status != Game.Status.RUNNING or phase is None:
            return None, AbilityConfirmation(False, key, reason="game_over" if locked.status == Game.Status.FINISHED
                                             else "no_phase")
        if not reason and (phase.closed_at is not None or (phase.deadline_at is not None and now >= phase.deadline_at)):
            reason = "after_deadline"
        state = game_state(locked)
        if not reason:
            reason = CARDS.check_ability(state, seat.pk, key, clean) or ""
        result: dict[str, Any] = {}
        if not reason and at_once:
            done = phase.orders.filter(action=ABILITY, valid=True, detail__at_once=True).count()
            acted = CARDS.act_now(state, seat.pk, key, clean, seed=phase_seed(locked, phase) + done)
            reason = acted.reason or ""
            if not reason:
                result = dict(acted.result)
                _store(locked, phase, acted, now)
        order = Order.objects.create(
            phase=phase, actor=seat, action=ABILITY, target_id=clean.get("target") if not reason else None,
            text="", detail={"ability": key, **clean, "at_once": at_once}, source=source, valid=not reason,
            reason=reason[:32], recorded_at=now, recorded_by=user)
    game.refresh_from_db()
    confirmation = AbilityConfirmation(accepted=not reason, ability=key, reason=reason, result=result,
                                       at_once=at_once)
    if confirm and source == Order.Source.FORM:
        order_confirmation_post(game=game, seat=seat, phase=phase, confirmation=confirmation, now=now)
    return order, confirmation


def _store(game: Game, phase: Phase, acted, now: datetime) -> None:
    """The state an at-once ability left (the seats, the events, the public ones posted in the game
    thread under «At once:», the game's end when it ended it): games.services.resolution.state_apply_now."""
    with translation.override(settings.LANGUAGE_CODE):  # posts are written in the site's language
        heading = str(_("[b]At once:[/b]"))
    state_apply_now(game=game, phase=phase, state=acted.state, events=acted.events, now=now, heading=heading)


def abilities_standing(phase: Phase) -> list[dict]:
    """The phase-end abilities of a phase for the close (`extra["abilities"]`): every valid row
    that did not act at once, in the order they were made (the engine keeps the last of the same
    ability by the same player)."""
    kept = phase_ledger(phase)  # the page's read of the phase's ledger (the GM dashboard's), if any
    rows = phase.orders.filter(action=ABILITY, valid=True).order_by("recorded_at", "pk") if kept is None else \
        [row for row in kept if row.action == ABILITY and row.valid]
    out = []
    for row in rows:
        detail = dict(row.detail or {})
        if detail.pop("at_once", False):
            continue
        out.append({"by": row.actor_id, **detail})
    return out


def abilities_offered(*, game: Game, seat: Seat) -> list[dict]:
    """The abilities this seat may use now, each with the choices of its inputs, for his cards page."""
    state = game_state(game)
    if state is None or state.ruleset != CARDS.key or not state.has_seat(seat.pk):
        return []
    phase = game.current_phase
    if game.status != Game.Status.RUNNING or phase is None or not phase.is_open:
        return []
    names = {s.pk: s.user.display_name for s in game.seats.select_related("user")}
    offered = []
    for key in CARDS.abilities_available(state, seat.pk):
        spec = CARDS.abilities[key]
        choices = CARDS.ability_choices(state, seat.pk, key)
        fields = []
        for name in spec.fields:
            options = choices.get(name, [])
            if name in SEAT_FIELDS:
                options = [(pk, names.get(pk, "?")) for pk in options]
            else:
                options = [(o, ability_option_label(name, o)) if not isinstance(o, (list, tuple)) else tuple(o)
                           for o in options]
            fields.append({"name": name, "options": options})
        offered.append({"key": key, "label": ability_label(key), "at_once": spec.when == NOW, "fields": fields,
                        "seed": spec.seed})
    return offered


def ability_needs_confirmation(key: str) -> bool:
    """Whether the page asks the player to confirm first (a wrong joker's list takes him out)."""
    spec = CARDS.abilities.get(key)
    return bool(spec is not None and spec.confirm)


def role_abilities(*, game: Game, seat: Seat) -> dict:
    """For the role page: the seed's line of his overt role (none for a class of his own) and every
    ability his roles give him, whether or not usable now (callers check games.permissions)."""
    state = game_state(game)
    overt = overt_role(seat.overt_role)
    lines = []
    if state is not None and state.ruleset == CARDS.key and state.has_seat(seat.pk):
        lines = [{"label": ability_label(key), "seed": spec.seed, "at_once": spec.when == NOW}
                 for key, spec in CARDS.abilities.items() if owns(state, seat.pk, spec)]
    return {"overt_line": overt.seed if overt is not None else "", "overt_name": seat.overt_role,
            "ability_lines": lines}
