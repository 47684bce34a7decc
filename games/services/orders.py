"""Night orders (special actions): from a form or as text to the GM, checked by the rule set,
written to the order ledger, confirmed back to the player."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import wording
from games.caching import pagecache
from games.communication.letters import order_confirmation_post
from games.engine.orders import Order as EngineOrder
from games.engine.rulesets import get_ruleset
from games.engine.state import GameState
from games.models import Game, Order, Post, Seat, Thread
from games.selectors.orders import action_label, order_reason_text
from games.selectors.state import game_state
from games.selectors.votes import seats_matcher
from games.services import ActionRefused
from games.permissions import is_game_master
from games.services.journal import gm_log
from games.text.orders import FORUM_VOCABULARY, letter_order_text, parse_order
from games.wording import name_case, suggestion_text


@dataclass
class OrderConfirmation:
    accepted: bool
    action: str = ""
    target: str = ""
    source: str = ""
    reason: str = ""
    # The players a refused name comes closest to (a typo) or fits (an ambiguous name), offered in
    # the refusal («Может быть, Кикимора?»), never taken for them.
    suggestions: tuple[str, ...] = ()

    @property
    def refusal_text(self) -> str:
        """The refusal's reason in words, with the closest names when a name fitted nobody."""
        text = order_reason_text(self.reason)
        if self.suggestions and self.reason in ("name_unknown", "name_ambiguous"):
            text = f"{text}. {suggestion_text(self.suggestions)}"
        return text

    @property
    def message(self) -> str:
        if self.accepted:
            what = action_label(self.action)
            if self.source:
                return str(_("Order accepted: %(action)s — from %(source)s to %(target)s")) % {
                    "action": what, "source": self.source, "target": self.target}
            return str(_("Order accepted: %(action)s — %(target)s")) % {"action": what, "target": self.target}
        return str(_("Order not accepted: %(reason)s")) % {"reason": self.refusal_text}


# What a refusal may say about a target-only probe that is not about the target (a stolen
# action's source is chosen on its own select).
_NOT_ABOUT_THE_TARGET = frozenset({"missing_source", "bad_source", "source_not_active"})


def order_targets(*, game: Game, state: GameState, actor: Seat, actions, seats: list[Seat]) -> list[Seat]:
    """The seats the order form offers: only those the rule set would accept as the target of
    at least one of the player's actions, by the same check_order that judges the order when it
    is sent (no dead player, no oneself where the rules forbid it, the club doctor's self-heal
    kept). The order is still judged in full on submit."""
    ruleset = get_ruleset(game.ruleset)
    offered = []
    for seat in seats:
        for action in actions:
            reason = ruleset.check_order(state, EngineOrder(actor=actor.pk, action=action, target=seat.pk))
            if reason is None or reason in _NOT_ABOUT_THE_TARGET:
                offered.append(seat)
                break
    return offered

def _seat_of(game: Game, user) -> Seat | None:
    return game.seats.select_related("user").filter(user=user).first() if user.is_authenticated else None


@pagecache.game_scoped(lambda kwargs: kwargs.get("game"))  # its writes are the game's (games/caching/pagecache.py)
def order_submit(*, game: Game, user, action: str | None = None, target: Seat | None = None,
                 source: Seat | None = None, text: str | None = None, now: datetime | None = None,
                 as_gm=None, detail: dict | None = None, confirm: bool = True) -> tuple[Order | None, OrderConfirmation]:
    """Record an order from `user`'s seat (or, with `as_gm`, an override by the GM for that seat).
    Every attempt in a phase is kept; the last accepted one stands at the close. The confirmation
    of a player's own order is also written in his letters to the GM
    (games.communication.letters.order_confirmation_post); not for a GM's override, nor with
    `confirm=False` (scenario files)."""
    now = now or timezone.now()
    seat = _seat_of(game, user)
    if seat is None:
        raise ActionRefused(_("You are not a player of this game."), code="not_a_player")
    if text is not None and not takes_text_orders(game):  # a forged field: the page offers no text order
        raise ActionRefused(_("This game takes its orders from the order form only."), code="no_text_orders")
    phase = game.current_phase
    if game.status != Game.Status.RUNNING or not game.state:
        return None, OrderConfirmation(False, reason="game_over" if game.status == Game.Status.FINISHED else "no_phase")
    if phase is None:
        return None, OrderConfirmation(False, reason="no_phase")
    action, target, source, reason, suggestions = _judge(game=game, seat=seat, phase=phase, action=action,
                                                         target=target,
                                            source=source, text=text, detail=detail, now=now)
    order = Order.objects.create(
        phase=phase, actor=seat, action=action, target=target, source_seat=source, text=(text or "")[:2000],
        detail=detail or None,
        source=Order.Source.GM if as_gm is not None else (Order.Source.TEXT if text is not None else Order.Source.FORM),
        valid=not reason, reason=reason, recorded_at=now, recorded_by=as_gm or user,
    )
    confirmation = OrderConfirmation(
        accepted=not reason, action=action, target=target.user.display_name if target else "",
        source=source.user.display_name if source else "", reason=reason, suggestions=suggestions)
    if confirm and as_gm is None:
        order_confirmation_post(game=game, seat=seat, phase=phase, confirmation=confirmation, now=now)
    return order, confirmation


def _standing_for_text(phase, seat: Seat, seats: dict[int, Seat]) -> tuple[str, str] | None:
    """The seat's standing order of this phase as (action, target name), for a text order that
    follows it with no name of its own (club: «Оставляю записку.» right after «Проверяю X.»)."""
    standing = (Order.objects.filter(phase=phase, actor=seat, valid=True).order_by("-recorded_at", "-pk")
                .values_list("action", "target_id").first())
    if standing is None or standing[1] not in seats:
        return None
    return standing[0], seats[standing[1]].user.display_name


def _judge(*, game: Game, seat: Seat, phase, action: str | None, target: Seat | None, source: Seat | None,
           text: str | None, detail: dict | None, now: datetime
           ) -> tuple[str, Seat | None, Seat | None, str, tuple[str, ...]]:
    """An order as the ledger will hold it: (action, target, source, refusal code or "", the names
    a refused name comes closest to). A text
    is read with the rule set's order words (games.text.orders.parse_order); then the deadline,
    then the rule set's check_order. Writes nothing (order_submit and order_preview share it)."""
    state = game_state(game)
    reason = ""
    suggestions: tuple[str, ...] = ()
    if text is not None:
        seats = {s.pk: s for s in game.seats.select_related("user")}
        parsed = parse_order(text, seats_matcher(seats.values()), actor_name=seat.user.display_name,
                             vocabulary=_vocabulary(game), after=_standing_for_text(phase, seat, seats))
        by_name = {s.user.display_name: s for s in seats.values()}
        action = parsed.action or ""
        target = by_name.get(parsed.target) if parsed.target else None
        source = by_name.get(parsed.source) if parsed.source else None
        if not parsed.valid:
            reason = parsed.reason or "no_action_word"
            suggestions = tuple(parsed.candidates or ())
    if not reason and (phase.closed_at is not None or (phase.deadline_at is not None and now >= phase.deadline_at)):
        reason = "after_deadline"
    if not reason:
        reason = get_ruleset(game.ruleset).check_order(
            state, EngineOrder(actor=seat.pk, action=action or "", target=target.pk if target else None,
                               source=source.pk if source else None, detail=detail or None)) or ""
    return action or "", target, source, reason, suggestions


def order_override(*, game: Game, gm, seat: Seat, action: str, target: Seat | None, source: Seat | None = None,
                   now: datetime | None = None) -> tuple[Order | None, OrderConfirmation]:
    """The GM replaces a player's order (logged)."""
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


def takes_text_orders(game: Game) -> bool:
    """Whether the game's rule set reads orders written in words (its `text_orders` flag): the
    role page's text order and the letters to the GM. Cards inputs have forms only."""
    try:
        return bool(getattr(get_ruleset(game.ruleset), "text_orders", False))
    except KeyError:
        return False


def _vocabulary(game: Game):
    try:
        return wording.order_vocabulary(game.ruleset)
    except KeyError:  # a rule set without order words of its own reads the forum's
        return FORUM_VOCABULARY


def order_from_letter(*, post: Post) -> OrderConfirmation | None:
    """Read an order out of a player's post in his letters to the GM (his seat's GM chat): the
    forum rules send orders there («Этот заказ делается в личку ведущему»). A letter is an order
    when a line of the player's own words begins with an order verb of the rule set
    (games.text.orders.letter_order_text); those lines go through order_submit exactly like the
    role page's text order: the same parser, the same ledger where the last accepted order
    counts, and the same confirmation or refusal with its reason posted back into the thread.
    Anything else is an ordinary letter: None, nothing recorded, nothing answered. Only while the
    game runs, only for a rule set with text orders, only the seat's own player (not the GM)."""
    found = _letter_order(thread=post.thread, author=post.author, body=post.body)
    if found is None or not found[1]:
        return None
    game, text = found
    _order, confirmation = order_submit(game=game, user=post.author, text=text, now=post.created_at)
    return confirmation


def _letter_order(*, thread, author, body: str) -> tuple[Game, str] | None:
    """(the game, the order lines of `body`) when `author` writes `body` in his own letters to
    the GM of a running game whose rule set takes text orders; the lines are "" for an ordinary
    letter. None when letters there are never read as orders."""
    if thread.kind != Thread.Kind.GM_CHAT or thread.seat_id is None or thread.game_id is None:
        return None
    if not getattr(author, "is_authenticated", False):
        return None
    game = Game.objects.select_related("current_phase").filter(pk=thread.game_id).first()
    if game is None or game.status != Game.Status.RUNNING or not takes_text_orders(game):
        return None
    if not Seat.objects.filter(pk=thread.seat_id, user_id=author.pk).exists():
        return None  # the GM writing to the player
    return game, letter_order_text(body, _vocabulary(game))


@dataclass
class OrderPreview:
    """What the preview of a letter to the GM says of its order: `confirmation` is what sending
    it now would answer, or None for an ordinary letter."""

    confirmation: OrderConfirmation | None

    @property
    def accepted(self) -> bool:
        return self.confirmation is not None and self.confirmation.accepted

    @property
    def message(self) -> str:
        c = self.confirmation
        if c is None:
            return str(_("Not an order: no line starts with an order word, so this is an ordinary letter."))
        if not c.accepted:
            return str(_("Read as an order, which would not be accepted: %(reason)s")) % {
                "reason": c.refusal_text}
        if c.source:
            return str(_("Read as an order → %(action)s — from %(source)s to %(target)s")) % {  # «у Эсмеральды для Фроло»
                "action": action_label(c.action), "source": name_case(c.source, "gent"),
                "target": name_case(c.target, "gent")}
        return str(_("Read as an order → %(action)s — %(target)s")) % {"action": action_label(c.action),
                                                                       "target": c.target}


def order_preview(*, thread, author, body: str, now: datetime | None = None) -> OrderPreview | None:
    """How a letter to the GM would be read if sent now (the preview): order_from_letter's
    reading and order_submit's judgement, nothing written. None where letters are not read."""
    found = _letter_order(thread=thread, author=author, body=body)
    if found is None:
        return None
    game, text = found
    if not text:
        return OrderPreview(None)
    phase = game.current_phase
    if phase is None or not game.state:
        return OrderPreview(OrderConfirmation(False, reason="no_phase"))
    seat = _seat_of(game, author)
    action, target, source, reason, suggestions = _judge(game=game, seat=seat, phase=phase, action=None,
                                                         target=None, source=None, text=text, detail=None,
                                                         now=now or timezone.now())
    return OrderPreview(OrderConfirmation(
        accepted=not reason, action=action, target=target.user.display_name if target else "",
        source=source.user.display_name if source else "", reason=reason, suggestions=suggestions))
