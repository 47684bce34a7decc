"""The `cards` rule set's inputs (001): the card-play ledger on games.models.Order, checked as each
input comes in with the engine's check_* against the current state, the standing inputs at the
close (PhaseInputs.extra), a player's own view of his cards, the public Hand sizes and the GM's
effects applied by hand. docs/rulesets/cards.md ("The site") explains the ledger.

Every attempt is kept (valid=False with the reason when refused: the GM log and the archive show
them); the standing input at the close is the last valid row per (actor, action) — for `play` per
(actor, detail["from"]) — unless a later `withdraw` row took it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import yaml
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.orders import Order as EngineOrder
from games.engine.orders import PhaseInputs
from games.rulesets.cards.engine.collection import (
    COLOURS,
    DEFAULT_COLLECTION_PATH,
    NEUTRAL,
    Card,
    CollectionError,
    parse_collection,
)
from games.rulesets.cards.engine.roles import SECRET_ROLES, colours_of, overt_key
from games.rulesets.cards.engine.dead import AVENGER
from games.rulesets.cards.engine.ruleset import CARDS, DECKBUILDING, GM_OPS, collection_of, has_link
from games.engine.state import GameState
from games.models import Game, Order, Phase, Seat
from games.permissions import is_game_master
from games.services import ActionRefused
from games.communication.letters import order_confirmation_post
from games.services.journal import gm_log
from games.services.votes import count_version_bump
from games.selectors.orders import phase_ledger
from games.selectors.state import game_state
from games.selectors.votes import standing_votes
from games.rulesets.cards.wording import (
    ACTION_LABELS,
    WITHDRAWN,
    ability_label,
    ZONE_LABELS,
    card_reason_text,
    colour_label,
    deck_refusal_texts,
    measure_label,
)

# The inputs of the ledger (docs/rulesets/cards.md, "Playing").
CARD_ACTIONS = ("deck", "rebuild", "play", "withdraw", "discard", "reorder", "mafia_message", "joker_guess",
                "prison_keep", "measure", "ability")
ZONES = ("hand", "sleeve")
MEASURES = ("execution", "prison")
# The GM's primitives (GM_OPS) are the engine's, imported above: one definition.
REVEAL_WHAT = ("role", "colours", "hand", "sleeve", "deck_top")

# The texts of the ledger's codes (reasons, actions, zones) are the rule set's wording
# (games.rulesets.cards.wording).


def card_order_text(order: Order, names: dict[int, str] | None = None, *, with_target: bool = False) -> str:
    """One row of the card ledger in words, after its action's label: the card and its zone, the
    second target, the cards discarded, the Hand order, the message, the Price paid, the measure
    («Пистолет (Рука), платит: Пустышка»). The first target is the row's `target`, which the pages
    print themselves unless `with_target`."""
    detail = order.detail or {}

    def name(value) -> str:
        pk = _seat_pk(value)
        if pk is None:
            return "?"
        if names is not None and pk in names:
            return names[pk]
        seat = Seat.objects.select_related("user").filter(pk=pk, game_id=order.phase.game_id).first()
        return seat.user.display_name if seat is not None else "?"

    parts = []
    if order.action == "ability" and detail.get("ability"):
        parts.append(ability_label(str(detail["ability"])))
    if detail.get("card"):
        parts.append(str(detail["card"]))
    if detail.get("from") in ZONE_LABELS and order.action != "withdraw":
        parts.append(f"({ZONE_LABELS[detail['from']]})")
    if order.action == "withdraw":
        parts.append(str(WITHDRAWN.get(detail.get("what"), "")))
        if detail.get("from") in ZONE_LABELS:
            parts.append(f"({ZONE_LABELS[detail['from']]})")
    if with_target and order.target_id is not None:
        parts.append("→ " + name(order.target_id))
    if detail.get("target2") is not None:
        parts.append(("→ " if not with_target and order.target_id is None else ", ") + name(detail["target2"]))
    if order.action in ("deck", "rebuild") and isinstance(detail.get("cards"), list):
        parts.append(_("%(n)s cards") % {"n": len(detail["cards"])})
    elif detail.get("cards"):
        parts.append(", ".join(map(str, detail["cards"])))
    if detail.get("hand"):
        parts.append(" › ".join(map(str, detail["hand"])))
    if with_target and (detail.get("message") or detail.get("text")):  # else the page prints the row's text
        parts.append(f"«{detail.get('message') or detail.get('text')}»")
    if detail.get("pay"):
        parts.append(str(_("pays with %(cards)s")) % {"cards": ", ".join(map(str, detail["pay"]))})
    if detail.get("pay_hand"):
        parts.append(str(_("pays from the Hand with %(cards)s")) % {"cards": ", ".join(map(str, detail["pay_hand"]))})
    if detail.get("picks"):
        parts.append(str(_("dealt among the first six: %(cards)s")) % {"cards": ", ".join(map(str, detail["picks"]))})
    if detail.get("measure"):
        parts.append(measure_label(detail["measure"]))
    if detail.get("colours"):
        parts.append(", ".join(colour_label(c) for c in detail["colours"]))
    if isinstance(detail.get("roles"), dict):
        parts.append(_("roles of %(n)s players") % {"n": len(detail["roles"])})
    return " ".join(str(p) for p in parts if p).strip()


@dataclass
class CardConfirmation:
    accepted: bool
    action: str
    reason: str = ""
    refusals: list = field(default_factory=list)
    detail: dict = field(default_factory=dict)
    target: str = ""

    @property
    def message(self) -> str:
        label = str(ACTION_LABELS.get(self.action, self.action))
        if not self.accepted:
            if self.refusals:
                return str(_("%(action)s not accepted: %(reason)s")) % {
                    "action": label, "reason": "; ".join(deck_refusal_texts(self.refusals))}
            return str(_("%(action)s not accepted: %(reason)s")) % {
                "action": label, "reason": card_reason_text(self.reason)}
        what = _describe(self.action, self.detail, self.target)
        if what:
            return str(_("%(action)s accepted: %(what)s")) % {"action": label, "what": what}
        return str(_("%(action)s accepted.")) % {"action": label}


def _describe(action: str, detail: dict, target: str) -> str:
    if action == "play":
        text = str(detail.get("card", ""))
        return f"{text} → {target}" if target else text
    if action == "discard":
        return ", ".join(map(str, detail.get("cards") or ()))
    if action == "reorder":
        return " › ".join(map(str, detail.get("hand") or ()))
    if action == "measure":
        return measure_label(detail.get("measure"))
    if action == "mafia_message":
        return target
    if action == "prison_keep":
        return str(detail.get("card", ""))
    return ""


def _is_cards(game: Game) -> bool:
    return game.ruleset == CARDS.key


def _state(game: Game) -> GameState | None:
    return game_state(game)


def _seat_pk(value) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, Seat):
        return value.pk
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _check(state: GameState, phase: Phase, seat: Seat, action: str, detail: dict,
           target: Seat | None) -> tuple[str, list]:
    """(reason code or "", deck refusals) of one input against the current state."""
    if action not in CARD_ACTIONS:
        return "bad_action", []
    if state.over:
        return "game_over", []
    if not state.has_seat(seat.pk):
        return "not_a_player", []
    if not state.seat(seat.pk).is_active:
        return "not_alive", []
    if action == "measure":
        measure = detail.get("measure")
        if measure is not None and measure not in MEASURES:
            return "bad_measure", []
        return CARDS.check_measure(state, seat.pk, measure) or "", []
    if action == "withdraw":
        standing = _standing_rows(phase, seat_pk=seat.pk)
        what = detail.get("what")
        if what == "play" and detail.get("from") in ZONES:
            return ("" if standing["plays"].get((seat.pk, detail["from"])) else "nothing_standing"), []
        if what in ("discard", "measure", "reorder"):
            key = {"discard": "discards", "measure": "measures", "reorder": "reorders"}[what]
            return ("" if seat.pk in standing[key] else "nothing_standing"), []
        return "bad_input", []
    if action == "prison_keep":
        if state.seat(seat.pk).role != "maniac":
            return "not_maniac", []
        player = state.memory.get("players", {}).get(str(seat.pk), {})
        names = [item.get("card") for item in player.get("sleeve", [])]
        return ("" if detail.get("card") in names else "not_in_sleeve"), []
    if action in ("deck", "rebuild"):
        if action not in CARDS.allowed_actions(state, seat.pk):
            if action == "deck" and state.memory.get("players", {}).get(str(seat.pk), {}).get("built"):
                return "already_built", []
            if action == "rebuild" and state.phase == "deckbuilding":
                return "wrong_phase", []
            return ("deck_not_empty" if action == "rebuild" else "not_your_action"), []
        refusals = CARDS.check_deck(state, seat.pk, detail.get("cards"), detail.get("colours"))
        if not refusals and action == "deck" and detail.get("picks"):
            return CARDS.check_picks(state, seat.pk, detail.get("cards"), detail.get("picks")) or "", []
        return ("bad_deck" if refusals else ""), list(refusals)
    if action == "mafia_message":
        if not str(detail.get("text") or "").strip():
            return "empty_message", []
    if action == "play" and state.phase == "deckbuilding":
        return "wrong_phase", []
    engine_detail = {k: v for k, v in detail.items() if k not in ("target", "to")}
    reason = CARDS.check_order(state, EngineOrder(actor=seat.pk, action=action,
                                                  target=target.pk if target else None,
                                                  detail=engine_detail or None)) or ""
    if not reason and action in ("discard", "play"):
        # «Ночью, вместо того, чтобы играть карты, можно сбросить две карты из Руки»: refused when
        # sent, by the engine's own rule for the close, naming the input that stands.
        standing = _standing_rows(phase, seat_pk=seat.pk)
        actions = {"play"} if any(by == seat.pk for by, _zone in standing["plays"]) else set()
        if seat.pk in standing["discards"]:
            actions.add("discard")
        reason = CARDS.check_together(actions, action) or ""
        other = standing["plays"].get((seat.pk, "sleeve" if detail.get("from") == "hand" else "hand"))
        if not reason and action == "play" and other and CARDS.hand_pay_left(state, seat.pk):
            # Культист: «до двух карт в фазу» over both his plays, and never the cards his other play
            # plays or pays with (the close checks it again).
            held = ([other["card"]] if other.get("from") == "hand" else []) + list(other.get("pay_hand") or [])
            payment = CARDS.payment_for(state, seat.pk, detail, reserved=held,
                                        used=len(other.get("pay_hand") or []))
            reason = payment if isinstance(payment, str) else ""
    return reason, []


def card_input_submit(*, game: Game, user, action: str, detail: dict | None = None, now: datetime | None = None,
                      as_gm=None, source: str | None = None, confirm: bool = True) -> tuple[Order | None, CardConfirmation]:
    """Record one card input of `user`'s seat in the current phase (with `as_gm`, the GM enters it
    for that seat). Checked with the engine against the current state; a refused input is kept with
    its reason (valid=False). ActionRefused if the user is not a player of this cards game. The
    confirmation of an input the player sent from his own forms is also written in his letters to
    the GM (games.communication.letters.order_confirmation_post); not for the GM's, not for the measure
    read from a game-thread post (source TEXT: the post shows its own confirmation), nor with
    `confirm=False` (scenario files)."""
    now = now or timezone.now()
    detail = dict(detail or {})
    if action == "joker_guess":
        # «Если все роли угаданы верно, побеждает моментально»: the joker's list is judged at once,
        # as the ability `joker_list` (docs/rulesets/cards.md, "Part 2 (a)").
        from games.rulesets.cards.ability_services import card_ability_submit

        return card_ability_submit(game=game, user=user, ability="joker_list", data={"roles": detail.get("roles")},
                                   now=now, source=source, confirm=confirm and as_gm is None)
    if not _is_cards(game):
        raise ActionRefused(_("This game is not played with cards."), code="not_cards")
    seat = game.seats.select_related("user").filter(user=user).first() if user.is_authenticated else None
    if seat is None:
        raise ActionRefused(_("You are not a player of this game."), code="not_a_player")
    if game.status == Game.Status.FINISHED:
        return None, CardConfirmation(False, action, reason="game_over")
    phase = game.current_phase
    if game.status != Game.Status.RUNNING or not game.state or phase is None:
        return None, CardConfirmation(False, action, reason="no_phase")
    state = game_state(game)
    # The target: detail["target"] (a play), detail["to"] (the mafia message), a seat of this game.
    target_value = detail.get("target") if action != "mafia_message" else detail.get("to", detail.get("target"))
    target = None
    reason = ""
    if target_value is not None:
        target = game.seats.select_related("user").filter(pk=_seat_pk(target_value)).first() \
            if _seat_pk(target_value) is not None else None
        if target is None:
            reason = "bad_target"
    if detail.get("target2") is not None:
        second = _seat_pk(detail.get("target2"))
        if second is None or not game.seats.filter(pk=second).exists():
            reason = reason or "bad_target"
        else:
            detail["target2"] = second
    if target is not None:
        detail["target"] = target.pk
        if action == "mafia_message":
            detail["to"] = target.pk
    if not reason and (phase.closed_at is not None or (phase.deadline_at is not None and now >= phase.deadline_at)):
        reason = "after_deadline"
    refusals: list = []
    if not reason:
        reason, refusals = _check(state, phase, seat, action, detail, target)
    if action == "play" and not reason and detail.get("message") and has_link(str(detail["message"])):
        reason = "message_link"
    if source is None:
        source = Order.Source.GM if as_gm is not None else Order.Source.FORM
    text = str(detail.get("message") or detail.get("text") or "")[:2000]
    with transaction.atomic():
        order = Order.objects.create(
            phase=phase, actor=seat, action=action[:32], target=target, text=text, detail=_jsonable(detail) or None,
            source=source, valid=not reason, reason=reason[:32], recorded_at=now, recorded_by=as_gm or user)
    confirmation = CardConfirmation(
        accepted=not reason, action=action, reason=reason, refusals=refusals, detail=detail,
        target=target.user.display_name if target is not None else "")
    if confirm and as_gm is None and source == Order.Source.FORM:
        order_confirmation_post(game=game, seat=seat, phase=phase, confirmation=confirmation, now=now)
    return order, confirmation


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _standing_rows(phase: Phase, *, seat_pk: int | None = None) -> dict:
    """The standing inputs of a phase, by kind, from the ledger (the last valid row per actor and
    action, a play per actor and zone; a withdraw takes one back)."""
    kept = phase_ledger(phase)  # the page's read of the phase's ledger (the GM dashboard's, the archive's), if any
    if kept is not None:
        rows = [row for row in kept if row.valid and row.action in CARD_ACTIONS
                and (seat_pk is None or row.actor_id == seat_pk)]
    else:
        rows = phase.orders.filter(valid=True, action__in=CARD_ACTIONS).order_by("recorded_at", "pk")
        if seat_pk is not None:
            rows = rows.filter(actor_id=seat_pk)
    standing: dict[str, dict] = {"decks": {}, "rebuilds": {}, "plays": {}, "discards": {}, "reorders": {},
                                 "measures": {}, "mafia_messages": {}, "joker_guess": {}, "prison_keep": {}}
    for row in rows:
        detail = dict(row.detail or {})
        actor = row.actor_id
        if row.action in ("deck", "rebuild"):
            cards = list(detail.get("cards") or [])
            value = {"cards": cards, "colours": list(detail["colours"])} if detail.get("colours") else cards
            if detail.get("picks"):  # Инженер: the two cards dealt among the opening six
                value = {**(value if isinstance(value, dict) else {"cards": cards}), "picks": list(detail["picks"])}
            standing["decks" if row.action == "deck" else "rebuilds"][actor] = value
        elif row.action == "play":
            zone = detail.get("from")
            standing["plays"][(actor, zone)] = {
                "by": actor, "card": detail.get("card"), "from": zone, "target": row.target_id,
                "target2": detail.get("target2"), "message": detail.get("message") or None,
                "pay": list(detail["pay"]) if isinstance(detail.get("pay"), list) else None,
                **({"pay_hand": list(detail["pay_hand"])} if isinstance(detail.get("pay_hand"), list) else {})}
        elif row.action == "withdraw":
            what = detail.get("what")
            if what == "play":
                standing["plays"].pop((actor, detail.get("from")), None)
            elif what in ("discard", "measure", "reorder"):
                standing[{"discard": "discards", "measure": "measures", "reorder": "reorders"}[what]].pop(actor, None)
        elif row.action == "discard":
            standing["discards"][actor] = list(detail.get("cards") or [])
        elif row.action == "reorder":
            standing["reorders"][actor] = list(detail.get("hand") or [])
        elif row.action == "measure":
            standing["measures"][actor] = detail.get("measure")
        elif row.action == "mafia_message":
            standing["mafia_messages"][actor] = {"to": row.target_id, "text": str(detail.get("text") or "")}
        elif row.action == "joker_guess":
            standing["joker_guess"][actor] = dict(detail.get("roles") or {})
        elif row.action == "prison_keep":
            standing["prison_keep"][actor] = detail.get("card")
    return standing


def card_inputs_standing(*, phase: Phase) -> dict:
    """The PhaseInputs.extra of a cards phase: the standing inputs at this moment."""
    standing = _standing_rows(phase)
    if phase.kind == DECKBUILDING:
        # A player whose last deck was refused has no deck standing: his refused deck goes to the
        # close all the same, so that its refusals are reported to him (`deck_refused`, each in
        # words) beside the random legal deck he is dealt (`deck_auto`).
        refused: dict[int, Any] = {}
        kept = phase_ledger(phase)
        for row in phase.orders.filter(action="deck", valid=False, reason="bad_deck").order_by("recorded_at", "pk") \
                if kept is None else [r for r in kept if r.action == "deck" and not r.valid and r.reason == "bad_deck"]:
            detail = dict(row.detail or {})
            cards = detail.get("cards")
            refused[row.actor_id] = {"cards": cards, "colours": detail.get("colours")} if detail.get("colours") \
                else cards
        for actor, deck in refused.items():
            standing["decks"].setdefault(actor, deck)
    extra: dict[str, Any] = {"plays": list(standing.pop("plays").values())}
    for key, value in standing.items():
        if value:
            extra[key] = value
    return extra


@dataclass
class CardView:
    """What the seat's owner sees of his own cards (and the GMs of any seat)."""

    hand: list = field(default_factory=list)
    sleeve: list = field(default_factory=list)
    deck_size: int = 0
    can_rebuild: bool = False
    restricted: int = 0
    built: bool = False
    colours: list = field(default_factory=list)
    secret_role: str = ""
    overt_role: str = ""
    standing: dict = field(default_factory=dict)
    allowed: tuple = ()
    # Part 2 (b): the Price each card costs this player now (Мот, Фокусник: Free cards cost none), the
    # cards marked Free (Фокусник), and how many Hand cards he may still pay a Price with (Культист).
    hand_prices: list = field(default_factory=list)
    sleeve_prices: list = field(default_factory=list)
    free_hand: list = field(default_factory=list)
    free_sleeve: list = field(default_factory=list)
    free_deck_bottom: int = 0
    hand_pay: int = 0
    deck_top: list = field(default_factory=list)  # Экстрасенс: «Всегда видит верхние 3 карты в своей Колоде»


def card_view(*, game: Game, seat: Seat) -> CardView:
    """The seat's own containers and standing inputs (callers check games.permissions first)."""
    state = _state(game)
    if state is None or state.ruleset != "cards" or not state.has_seat(seat.pk):
        return CardView(overt_role=seat.overt_role, secret_role=seat.role)
    collection = collection_of(state)
    player = state.memory.get("players", {}).get(str(seat.pk), {})

    def card(name: str) -> Card:
        return collection[name] if name in collection else Card(
            name=name, colour=NEUTRAL, price=0, free=True, when="any", target="self", effect=(), text="", origin="")

    hand = [card(n) for n in player.get("hand", [])]
    sleeve = [(card(item.get("card")), bool(item.get("overt"))) for item in player.get("sleeve", [])]
    role = state.seat(seat.pk).role
    own = CARDS.player_view(state, seat.pk)
    standing_rows = _standing_rows(game.current_phase, seat_pk=seat.pk) if game.current_phase else None
    standing: dict[str, Any] = {"hand": None, "sleeve": None, "discard": None, "reorder": None, "measure": None,
                                "deck": None}
    if standing_rows is not None:
        standing["hand"] = standing_rows["plays"].get((seat.pk, "hand"))
        standing["sleeve"] = standing_rows["plays"].get((seat.pk, "sleeve"))
        standing["discard"] = standing_rows["discards"].get(seat.pk)
        standing["reorder"] = standing_rows["reorders"].get(seat.pk)
        standing["measure"] = standing_rows["measures"].get(seat.pk)
        deck = standing_rows["decks"].get(seat.pk) or standing_rows["rebuilds"].get(seat.pk)
        standing["deck"] = deck.get("cards") if isinstance(deck, dict) else deck
        standing["colours"] = deck.get("colours") if isinstance(deck, dict) else None
        standing["picks"] = deck.get("picks") if isinstance(deck, dict) else None
        standing["mafia_message"] = standing_rows["mafia_messages"].get(seat.pk)
        standing["prison_keep"] = standing_rows["prison_keep"].get(seat.pk)
        standing["joker_guess"] = standing_rows["joker_guess"].get(seat.pk)
    return CardView(
        hand=hand, sleeve=sleeve, deck_size=len(player.get("deck", [])),
        can_rebuild=bool(player.get("built")) and not player.get("deck"),
        restricted=int(player.get("restricted", 0)), built=bool(player.get("built")),
        colours=list(colours_of(role, player.get("colours") or [])) if role in SECRET_ROLES else [],
        secret_role=role, overt_role=CARDS.overt_of(state, seat.pk), standing=standing,
        allowed=tuple(CARDS.allowed_actions(state, seat.pk)), deck_top=CARDS.deck_top_seen(state, seat.pk),
        hand_prices=[CARDS.price_for(state, seat.pk, c.name, "hand") or 0 for c in hand],
        sleeve_prices=[CARDS.price_for(state, seat.pk, c.name, "sleeve") or 0 for c, _overt in sleeve],
        free_hand=list(own.get("free_hand") or []), free_sleeve=list(own.get("free_sleeve") or []),
        free_deck_bottom=int(own.get("free_deck_bottom") or 0), hand_pay=CARDS.hand_pay_left(state, seat.pk),
    )


def card_hand_sizes(*, game: Game) -> dict[int, int]:
    """Public: every living player's Hand size now (seat pk -> size)."""
    state = _state(game)
    if state is None or state.ruleset != "cards":
        return {}
    return dict(CARDS.hand_sizes(state))


# --- The GM's effects ----------------------------------------------------------------------------
def _gm_phase_check(phase: Phase, gm) -> Game:
    game = phase.game
    if not is_game_master(gm, game):
        raise ActionRefused(_("Only the GM applies card effects."), code="not_allowed")
    if not _is_cards(game):
        raise ActionRefused(_("This game is not played with cards."), code="not_cards")
    if phase.closed_at is not None or phase.voided_at is not None or game.status != Game.Status.RUNNING:
        raise ActionRefused(_("The phase is closed."), code="closed")
    return game


def _bad_effect(why) -> ActionRefused:
    return ActionRefused(_("The effect cannot be applied: %(why)s") % {"why": why}, code="bad_effect")


def _clean_effect(game: Game, effect: dict) -> dict:
    """The effect checked against docs "GM decisions": a known op, a living target of this game,
    its parameters in their lists. Raises a translated ActionRefused."""
    if not isinstance(effect, dict):
        raise _bad_effect(_("not an effect"))
    op = effect.get("op")
    if op not in GM_OPS:
        raise _bad_effect(_("unknown operation"))
    state = _state(game)
    target = _seat_pk(effect.get("target"))
    if target is None or state is None or not state.has_seat(target) or not game.seats.filter(pk=target).exists():
        raise _bad_effect(_("choose a player of this game"))
    if not state.seat(target).is_active:
        raise _bad_effect(_("the target must be a living character"))
    clean: dict[str, Any] = {"op": op, "target": target}
    if op in ("damage", "armour", "draw", "discard", "restrict") or (op == "reveal" and effect.get("what") == "deck_top"):
        n = effect.get("n", 1)
        if isinstance(n, str) and n.strip().isdigit():
            n = int(n.strip())
        if not isinstance(n, int) or isinstance(n, bool) or n < 0 or n > 50:
            raise _bad_effect(_("the number must be between 0 and 50"))
        clean["n"] = n
    if op in ("draw", "give"):
        to = effect.get("to") or ("hand" if op == "draw" else "sleeve")
        if to not in ZONES:
            raise _bad_effect(_("a card goes to the Hand or to the Sleeve"))
        clean["to"] = to
    if op == "discard":
        zone = effect.get("zone") or "hand"
        if zone not in ("hand", "sleeve", "deck"):
            raise _bad_effect(_("cards are discarded from the Hand, the Sleeve or the deck"))
        clean["zone"] = zone
    if op == "reveal":
        what = effect.get("what")
        viewer = _seat_pk(effect.get("viewer"))
        if what not in REVEAL_WHAT:
            raise _bad_effect(_("choose what is revealed"))
        if viewer is None or not state.has_seat(viewer):
            raise _bad_effect(_("choose the player who learns it"))
        clean.update(what=what, viewer=viewer)
    if op == "message":
        text = str(effect.get("text") or "").strip()
        if not text:
            raise _bad_effect(_("the message is empty"))
        clean["text"] = text[:2000]
    if op == "give":
        card = str(effect.get("card") or "")
        if card not in collection_of(state):
            raise _bad_effect(_("no such card in this game's collection"))
        clean["card"] = card
    return clean


def card_gm_effect_add(*, phase: Phase, gm, effect: dict, now: datetime | None = None) -> None:
    """The GM resolves by hand: damage/armour set gm_decisions["damage"/"armour"][seat] (0 removes
    it); every other primitive is appended to gm_decisions["effects"]. Logged."""
    game = _gm_phase_check(phase, gm)
    clean = _clean_effect(game, effect)
    with transaction.atomic():
        locked = Phase.objects.select_for_update().get(pk=phase.pk)
        if locked.closed_at is not None:
            raise ActionRefused(_("The phase is closed."), code="closed")
        decisions = dict(locked.gm_decisions or {})
        if clean["op"] in ("damage", "armour"):
            table = {str(k): v for k, v in dict(decisions.get(clean["op"]) or {}).items()}
            if clean["n"]:
                table[str(clean["target"])] = clean["n"]
            else:
                table.pop(str(clean["target"]), None)
            decisions[clean["op"]] = table
        else:
            decisions["effects"] = list(decisions.get("effects") or []) + [clean]
        locked.gm_decisions = decisions
        locked.save(update_fields=["gm_decisions"])
        phase.gm_decisions = decisions
        gm_log(game=game, user=gm, action="card_effect_add", data={"phase": phase.pk, "effect": clean}, now=now)


def card_gm_effect_remove(*, phase: Phase, gm, index: int, now: datetime | None = None) -> None:
    """Remove gm_decisions["effects"][index]. Logged."""
    game = _gm_phase_check(phase, gm)
    with transaction.atomic():
        locked = Phase.objects.select_for_update().get(pk=phase.pk)
        decisions = dict(locked.gm_decisions or {})
        effects = list(decisions.get("effects") or [])
        if not isinstance(index, int) or not 0 <= index < len(effects):
            raise ActionRefused(_("There is no such effect."), code="bad_index")
        removed = effects.pop(index)
        decisions["effects"] = effects
        locked.gm_decisions = decisions
        locked.save(update_fields=["gm_decisions"])
        phase.gm_decisions = decisions
        gm_log(game=game, user=gm, action="card_effect_remove", data={"phase": phase.pk, "effect": removed},
               now=now)


def _gm_decision_set(phase: Phase, gm, key: str, value: Any, *, now: datetime | None, log: str) -> None:
    game = phase.game
    with transaction.atomic():
        locked = Phase.objects.select_for_update().get(pk=phase.pk)
        if locked.closed_at is not None:
            raise ActionRefused(_("The phase is closed."), code="closed")
        decisions = dict(locked.gm_decisions or {})
        if value is None:
            decisions.pop(key, None)
        else:
            decisions[key] = value
        locked.gm_decisions = decisions
        locked.save(update_fields=["gm_decisions"])
        phase.gm_decisions = decisions
        gm_log(game=game, user=gm, action=log, data={"phase": phase.pk, key: value}, now=now)


def card_gm_tie_break_set(*, phase: Phase, gm, seat_pk: int | None, now: datetime | None = None) -> None:
    """The GM's option `tie_break` = `gm` («Приоритет повешения - по алфавиту», the GM picks): the
    character the GM punishes if the day's lead is tied (gm_decisions["tie_break"]); None takes it
    back. A pick outside the tied leaders is told to the GM at the close and the classes decide."""
    game = _gm_phase_check(phase, gm)
    state = _state(game)
    if state is None or CARDS.option(state, "tie_break") != "gm":
        raise ActionRefused(_("In this game the alphabet breaks a tied vote, not the GM."), code="no_gm_tie_break")
    if phase.kind != "day":
        raise ActionRefused(_("A tied vote is broken by day."), code="wrong_phase")
    if seat_pk is not None and (not state.has_seat(seat_pk) or not state.seat(seat_pk).is_active):
        raise ActionRefused(_("Pick a living character."), code="bad_target")
    _gm_decision_set(phase, gm, "tie_break", seat_pk, now=now, log="card_tie_break")
    # The count's «if the day ended now» names the pick (CardsSite.count_words): its cached pages go.
    transaction.on_commit(lambda: count_version_bump(phase_id=phase.pk))


def card_gm_deck_set(*, phase: Phase, gm, seat: Seat, cards: list[str] | None,
                     now: datetime | None = None) -> list[str]:
    """The GM's option `illegal_deck` = `gm`: the deck the GM builds for a player, dealt to him at the
    close of deck building if he has no legal deck of his own then (gm_decisions["decks"][seat]).
    Checked with the deck rules of the player's roles; the refusals in words (nothing stored) or []."""
    game = _gm_phase_check(phase, gm)
    state = _state(game)
    if state is None or CARDS.option(state, "illegal_deck") != "gm":
        raise ActionRefused(_("In this game a player with no legal deck is dealt a random one."), code="no_gm_deck")
    if phase.kind != DECKBUILDING or not state.has_seat(seat.pk):
        raise ActionRefused(_("The GM builds a player's deck during deck building."), code="wrong_phase")
    if SECRET_ROLES[state.seat(seat.pk).role].chooses_colours:
        raise ActionRefused(_("The joker chooses his own colours: without a legal deck he is dealt a random one."),
                            code="joker_colours")
    decks = {str(k): v for k, v in dict((phase.gm_decisions or {}).get("decks") or {}).items()}
    if cards is None:
        decks.pop(str(seat.pk), None)
    else:
        player = state.memory.get("players", {}).get(str(seat.pk), {})
        refusals = CARDS.check_deck(state, seat.pk, cards, player.get("colours") or None)
        if refusals:
            return deck_refusal_texts(refusals)
        decks[str(seat.pk)] = list(cards)
    _gm_decision_set(phase, gm, "decks", decks or None, now=now, log="card_gm_deck")
    return []


def colour_choices() -> list[str]:
    return [c for c in COLOURS if c != NEUTRAL]


# --- The phase's inputs at the close (SiteRuleset.phase_inputs) -----------------------------------
def card_phase_inputs(phase: Phase) -> PhaseInputs:
    """The cards rule set reads its ledger as PhaseInputs.extra; its Order rows are card inputs,
    not one order per actor. The votes stand as in every rule set."""
    # The abilities' services import the phase services: imported when a phase closes.
    from games.rulesets.cards.ability_services import abilities_standing

    extra = card_inputs_standing(phase=phase)
    abilities = abilities_standing(phase)
    if abilities:
        extra["abilities"] = abilities
    return PhaseInputs(votes=standing_votes(phase), orders={}, extra=extra, gm=dict(phase.gm_decisions or {}))


# --- The application's «Класс» (SiteRuleset.signup_extras) ---------------------------------------
OVERT_ROLE_MAX = 40


def overt_role_clean(*, game: Game, overt_role: str, exclude_seat: Seat | None = None) -> str:
    """The «Класс» of a cards application, checked: «Каждой явной роли может быть только один
    представитель» (names compared with the engine's overt_key: case and «ё» do not matter). A name
    outside the seed's list is allowed (it has no ability). Empty is allowed."""
    name = " ".join(str(overt_role or "").split())
    if not name:
        return ""
    if len(name) > OVERT_ROLE_MAX:
        raise ActionRefused(_("The class is at most %(n)d characters long.") % {"n": OVERT_ROLE_MAX},
                            code="overt_too_long")
    key = overt_key(name)
    if key == overt_key(AVENGER) and (game.options or {}).get("several_avengers"):
        return name  # «если до игры допущено несколько мстителей»: the GM admits several
    others = Seat.objects.filter(game=game).exclude(overt_role="")
    if exclude_seat is not None:
        others = others.exclude(pk=exclude_seat.pk)
    for taken in others.values_list("overt_role", flat=True):
        if overt_key(taken) == key:
            raise ActionRefused(
                _("The class «%(name)s» is taken: each overt role may have only one holder. Choose another one "
                  "(you may also write a name of your own).") % {"name": taken}, code="overt_taken")
    return name


def signup_extras(*, game: Game, overt_role: str = "", contacts: str = "") -> dict:
    """A cards application also takes the «Класс» (overt role, unique in the game) and the
    «Внешность» (contacts, for the GMs only)."""
    return {"overt_role": overt_role_clean(game=game, overt_role=overt_role),
            "contacts": (contacts or "").strip()[:2000]}


# --- The cards collection of one game (issue 9: «the GM may edit it ... before that») ----------
def collection_text(game: Game) -> str:
    """The game's collection as YAML for the GM's editor: his copy, or the shipped file."""
    raw = (game.options or {}).get("collection")
    if raw is None:
        return DEFAULT_COLLECTION_PATH.read_text(encoding="utf-8")
    return yaml.safe_dump(raw, allow_unicode=True, sort_keys=False, width=100)


class CollectionRefused(ActionRefused):
    """A collection the engine's loader refused: `problems` names each card and field (the
    loader's own words, technical English like the YAML they describe)."""

    def __init__(self, problems: list[str]):
        super().__init__(_("The collection is not valid; nothing was changed."), code="bad_collection")
        self.problems = problems


def game_set_collection(*, game: Game, by, text: str | None) -> Game:
    """The GM replaces the game's card collection before the start (None or blank: back to the
    shipped one). The text is YAML (or JSON) in the shape of games/rulesets/cards/data/cards_collection.yaml
    and is validated by the engine's own loader; a refusal lists every problem and changes
    nothing. At the start the collection is frozen into the game's state."""
    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM changes the game's options."), code="not_allowed")
    if not _is_cards(game):
        raise ActionRefused(_("Only card mafia has a card collection."), code="not_cards")
    if game.status != Game.Status.SIGNUPS:
        raise ActionRefused(_("The collection is frozen at the start of the game."), code="started")
    data = None
    if text is not None and text.strip():
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise CollectionRefused([str(error)]) from None
        try:
            collection = parse_collection(data, source="collection")
        except CollectionError as error:
            raise CollectionRefused(list(error.errors)) from None
        data = collection.to_json()
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status != Game.Status.SIGNUPS:
            raise ActionRefused(_("The collection is frozen at the start of the game."), code="started")
        options = dict(locked.options or {})
        if data is None:
            options.pop("collection", None)
        else:
            options["collection"] = data
        locked.options = options
        locked.save(update_fields=["options"])
        gm_log(game=locked, user=by, action="collection",
               data={"cards": len(data["cards"]) if data else None, "default": data is None})
    game.options = options
    return game


# --- The Veche's measure read from game-thread posts (SiteRuleset.measure_*) ---------------------
def measure_submit(*, game: Game, user, measure: str, post_number: int, now: datetime) -> tuple[bool, str]:
    """A measure read from a post's bold text (docs/rulesets/cards.md, "The measure's syntax"),
    written to the card ledger as a `measure` Order (source TEXT): (accepted, refusal code)."""
    _order, confirmation = card_input_submit(game=game, user=user, action="measure",
                                             detail={"measure": measure, "post": post_number}, now=now,
                                             source=Order.Source.TEXT)
    return confirmation.accepted, confirmation.reason


def measures_standing(phase: Phase) -> dict[int, str]:
    """Each voter's standing measure now (the card ledger's `measure` rows)."""
    return card_inputs_standing(phase=phase).get("measures") or {}


def measure_refusal(*, game: Game, phase: Phase, seat: Seat | None, measure: str) -> str:
    """The check card_input_submit runs on a measure, without its write: a refusal code or ""."""
    reason, _refusals = _check(game_state(game), phase, seat, "measure", {"measure": measure}, None)
    return reason or ""
