"""Night orders (special actions): from a form or as text to the GM, checked by the rule set,
written to the order ledger, confirmed back to the player."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import pagecache
from games.engine.orders import Order as EngineOrder
from games.engine.rulesets import get_ruleset
from games.engine.state import GameState
from games.models import Game, Order, Seat
from games.services import ActionRefused

ACTION_LABELS = {
    "check": _("check"),
    "protect": _("protection"),
    "shoot": _("shot"),
    "steal": _("theft"),
    "kill": _("kill"),
    "freeze": _("freeze"),
    "heal": _("heal"),
    "note": _("check with a note"),
    "take": _("take along"),
}

ORDER_REASONS = {
    "not_your_action": _("you do not have that action"),
    "not_active": _("you are out of play"),
    "target_not_active": _("that player is out of play"),
    "self_forbidden": _("you may not choose yourself"),
    "bad_target": _("that target is not allowed"),
    "missing_source": _("say whose action you steal"),
    "missing_target": _("say whom the action is for"),
    "after_deadline": _("the phase is over"),
    "no_phase": _("no phase is going on"),
    "not_a_player": _("you are not a player of this game"),
    "no_action_word": _("no action word found (e.g. «Проверяю Кикимору»)"),
    "name_unknown": _("no player has that name"),
    "name_ambiguous": _("the name fits several players"),
    "name_missing": _("no name after the action word"),
    "game_over": _("the game is over"),
    "bad_source": _("the player you steal from is not in this game"),
    "source_not_active": _("the player you steal from is out of play"),
    "unexpected_source": _("only a theft names whose action is taken"),
    "negated": _("the order is negated"),
    "actor_mismatch": _("the order is not this player's"),
    "not_night": _("night actions are ordered at night (from night 1)"),
    "not_day": _("this is ordered by day"),
    "unexpected_detail": _("this order takes one target"),
    "healed_twice": _("the doctor may not heal the same player two nights running"),
    "frozen_thrice": _("the same player may not be frozen more than two nights running"),
    "note_used": _("the note has already been left"),
    "no_take_right": _("a don with three fouls takes nobody"),
    "target_immune": _("a newcomer is immune on the first day and night"),
    "frozen": _("the actor was frozen"),
    "last_mafia_frozen": _("the last mafioso was frozen"),
    "overruled": _("the don decided otherwise"),
    "not_executed": _("the don was not voted out"),
    "actor_removed": _("the actor was removed"),
    "target_removed": _("the target was removed"),
    "forfeit": _("the game ended by forfeit"),
    "carried": _("carried into the re-vote"),
    "actor_jailed": _("the actor was jailed"),
    "target_jailed": _("the target was jailed"),
    "source_jailed": _("the robbed player was jailed"),
    "stolen": _("the thief stole it"),
    "mafia_disagree": _("the mafiosi named different targets"),
}


def order_reason_text(code: str) -> str:
    return str(ORDER_REASONS.get(code, code))


def action_label(action: str) -> str:
    from games.services.cards import ACTION_LABELS as CARD_ACTION_LABELS  # the cards ledger's inputs

    return str(ACTION_LABELS.get(action) or CARD_ACTION_LABELS.get(action, action))


@dataclass
class OrderConfirmation:
    accepted: bool
    action: str = ""
    target: str = ""
    source: str = ""
    reason: str = ""

    @property
    def message(self) -> str:
        if self.accepted:
            what = action_label(self.action)
            if self.source:
                return str(_("Order accepted: %(action)s — from %(source)s to %(target)s")) % {
                    "action": what, "source": self.source, "target": self.target}
            return str(_("Order accepted: %(action)s — %(target)s")) % {"action": what, "target": self.target}
        return str(_("Order not accepted: %(reason)s")) % {"reason": order_reason_text(self.reason)}


def _seat_of(game: Game, user) -> Seat | None:
    return game.seats.select_related("user").filter(user=user).first() if user.is_authenticated else None


@pagecache.game_scoped(lambda kwargs: kwargs.get("game"))  # its writes are the game's (games/pagecache.py)
def order_submit(*, game: Game, user, action: str | None = None, target: Seat | None = None,
                 source: Seat | None = None, text: str | None = None, now: datetime | None = None,
                 as_gm=None, detail: dict | None = None, confirm: bool = True) -> tuple[Order | None, OrderConfirmation]:
    """Record an order from `user`'s seat (or, with `as_gm`, an override by the GM for that seat).
    Every attempt in a phase is kept; the last accepted one stands at the close. The confirmation
    of a player's own order is also written in his letters to the GM
    (games.services.private.order_confirmation_post); not for a GM's override, nor with
    `confirm=False` (scenario files)."""
    from games.text.orders import parse_order

    now = now or timezone.now()
    seat = _seat_of(game, user)
    if seat is None:
        raise ActionRefused(_("You are not a player of this game."), code="not_a_player")
    phase = game.current_phase
    if game.status != Game.Status.RUNNING or not game.state:
        return None, OrderConfirmation(False, reason="game_over" if game.status == Game.Status.FINISHED else "no_phase")
    if phase is None:
        return None, OrderConfirmation(False, reason="no_phase")
    state = GameState.from_json(game.state)
    seats = {s.pk: s for s in game.seats.select_related("user")}
    reason = ""
    if text is not None:
        from games.services.votes import roster_matcher

        roster = tuple((s.user.display_name, tuple(s.aliases or ())) for s in seats.values())
        parsed = parse_order(text, roster_matcher(roster), actor_name=seat.user.display_name,
                             vocabulary=_vocabulary(game))
        by_name = {s.user.display_name: s for s in seats.values()}
        action = parsed.action or ""
        target = by_name.get(parsed.target) if parsed.target else None
        source = by_name.get(parsed.source) if parsed.source else None
        if not parsed.valid:
            reason = parsed.reason or "no_action_word"
    if not reason and (phase.closed_at is not None or (phase.deadline_at is not None and now >= phase.deadline_at)):
        reason = "after_deadline"
    if not reason:
        reason = get_ruleset(game.ruleset).check_order(
            state, EngineOrder(actor=seat.pk, action=action or "", target=target.pk if target else None,
                               source=source.pk if source else None, detail=detail or None)) or ""
    order = Order.objects.create(
        phase=phase, actor=seat, action=action or "", target=target, source_seat=source, text=(text or "")[:2000],
        detail=detail or None,
        source=Order.Source.GM if as_gm is not None else (Order.Source.TEXT if text is not None else Order.Source.FORM),
        valid=not reason, reason=reason, recorded_at=now, recorded_by=as_gm or user,
    )
    confirmation = OrderConfirmation(
        accepted=not reason, action=action or "", target=target.user.display_name if target else "",
        source=source.user.display_name if source else "", reason=reason)
    if confirm and as_gm is None:
        from games.services.private import order_confirmation_post

        order_confirmation_post(game=game, seat=seat, phase=phase, confirmation=confirmation, now=now)
    return order, confirmation


def order_override(*, game: Game, gm, seat: Seat, action: str, target: Seat | None, source: Seat | None = None,
                   now: datetime | None = None) -> tuple[Order | None, OrderConfirmation]:
    """The GM replaces a player's order (logged)."""
    from games.services.lifecycle import gm_log, is_game_master

    if not is_game_master(gm, game):
        raise ActionRefused(_("Only the GM overrides orders."), code="not_allowed")
    if seat.game_id != game.pk or any(s is not None and s.game_id != game.pk for s in (target, source)):
        raise ActionRefused(_("That player is not in this game."), code="foreign_seat")
    order, confirmation = order_submit(game=game, user=seat.user, action=action, target=target, source=source,
                                       now=now, as_gm=gm)
    gm_log(game=game, user=gm, action="order_override",
           data={"seat": seat.pk, "action": action, "target": target.pk if target else None,
                 "accepted": confirmation.accepted, "reason": confirmation.reason}, now=now)
    return order, confirmation


def _vocabulary(game: Game):
    from games.text import orders as text_orders

    return getattr(text_orders, f"{game.ruleset.upper()}_VOCABULARY", text_orders.FORUM_VOCABULARY)
