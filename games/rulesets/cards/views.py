"""The pages of the `cards` rule set: the collection's rules, deck building, a player's own cards
(Hand, Sleeve, plays), the public Hand sizes, and the GM's card dashboard.

Views parse and check; every write goes through games.rulesets.cards.services (card_input_submit,
card_gm_effect_add / _remove) or the phase services; every secret is read after a check of
games.permissions (check_see_cards, check_gm_cards, filter_visible_card_events).
"""

from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import confirm, permissions
from games.selectors.archive import audience_label
from games.selectors.genders import seat_genders
from games.rulesets.cards.selectors import (
    card_info,
    card_row,
    card_targets,
    chooses_colours,
    colour_groups,
    colour_labels,
    deck_figures,
    deck_list,
    game_collection,
    hero_no_damage_cards,
    game_deckable_names,
    gm_op_choices,
    hand_size_events,
    is_cards_game,
    overt_summary,
    prison_keep_cards,
    result_events,
    rules_collection,
    secret_role_keys,
    secret_role_rows,
)
from games.selectors.state import game_state
from games.wording import event_text, role_label, speaking_of, vote_weight_text
from games.models import Game, Order, Seat
from games.services import ActionRefused, gm_writes
from games.services.gm_writes import COUNT, THREADS
from games.services.orders import action_label
from games.services.resolution import phase_close, phase_preview
from games.rulesets.cards.ability_services import (
    abilities_offered,
    abilities_standing,
    ability_needs_confirmation,
    card_ability_submit,
    role_abilities,
)
from games.views.access import login_first, login_when_hidden
from games.rulesets.cards.forms import CollectionForm
from games.rulesets.cards.services import (
    CollectionRefused,
    card_gm_deck_set,
    card_gm_effect_add,
    card_gm_effect_remove,
    card_gm_tie_break_set,
    card_hand_sizes,
    card_input_submit,
    card_order_text,
    card_reason_text,
    card_view,
    collection_text,
    deck_refusal_texts,
    game_set_collection,
)
from games.rulesets.cards.wording import (
    REVEAL_LABELS,
    ability_field_label,
    ability_label,
    ability_mode_label,
    ZONE_LABELS,
    effect_text,
    measure_label,
    play_result_label,
    veche_reason_label,
)

# The primitives the GM applies by hand (docs/rulesets/cards.md, "GM decisions") are the engine's
# GM_OPS; the dashboard's form offers them through games.rulesets.cards.selectors.gm_op_choices.
# Every label of these pages is the rule set's wording (games.rulesets.cards.wording).
MAX_COPIES_INPUT = 9  # a count field holds 0..9; the engine explains anything above 2


# --- Reading -----------------------------------------------------------------------------------
def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("gm", "game_thread", "current_phase"), pk=pk)


def _my_seat(request: HttpRequest, game: Game) -> tuple[Seat, Seat | None]:
    """The seat whose cards the page shows: the requester's own, or for the game's GMs asking
    ?pov=<seat>, that player's (read-only). 404 for anyone else."""
    permissions.check_cards_game(game)
    viewer, pov_seat = permissions.viewer_for(request, game)
    seat = permissions.seat_of(viewer, game)
    if seat is None:
        raise Http404
    permissions.check_see_cards(request.user, game, seat)
    return seat, pov_seat


def _own_seat(request: HttpRequest, pk: int) -> tuple[Game, Seat]:
    """The cards game and the requester's own seat in it; 404 for anyone without one."""
    game = _game(pk)
    permissions.check_cards_game(game)
    seat = permissions.seat_of(request.user, game)
    if seat is None:
        raise Http404
    permissions.check_see_cards(request.user, game, seat)
    return game, seat


def _names(game: Game) -> dict[int, str]:
    return {pk: name for pk, _user, _alive, name, _aliases in permissions.roster_rows(game)}


def _results(user, game: Game, seat: Seat) -> list[dict]:
    rows = [{"event": e, "text": e.text or event_text(game.ruleset, e.kind, e.data)}
            for e in result_events(user, game, seat)]
    return [row for row in rows if row["text"]]


# --- The rules page ------------------------------------------------------------------------------
@require_GET
def cards_rules(request: HttpRequest, pk: int | None = None) -> HttpResponse:
    """A collection, every card by colour, and the deck rules (public): the shipped one, or with
    a game's id the one that game is played with."""
    game = None
    if pk is not None:
        game = _game(pk)
        if not is_cards_game(game):  # the collection is public from the sign-ups on
            raise Http404
    collection = rules_collection(game)
    roles = secret_role_rows("cards")
    return render(request, "games/cards_rules.html", {"groups": colour_groups(collection), "roles": roles,
                                                      "count": len(collection.names), "game": game,
                                                      "is_gm": game is not None and permissions.is_game_master(
                                                          request.user, game)})


# --- Deck building -----------------------------------------------------------------------------
def _deck_action(view) -> str | None:
    if "deck" in view.allowed:
        return "deck"
    if "rebuild" in view.allowed:
        return "rebuild"
    return None


def _int(raw, default: int = 0) -> int:
    try:
        return int(str(raw).strip())
    except (TypeError, ValueError):
        return default


def _counts_from_post(post, names: list[str]) -> Counter:
    counts: Counter = Counter()
    for index, name in enumerate(names):
        counts[name] = max(0, min(MAX_COPIES_INPUT, _int(post.get(f"count-{index}"))))
    adjust = str(post.get("adjust", ""))
    index, _sep, step = adjust.partition(":")
    if index.isdecimal() and int(index) < len(names) and step in ("1", "+1", "-1"):
        name = names[int(index)]
        counts[name] = max(0, min(MAX_COPIES_INPUT, counts[name] + int(step)))
    return counts


def _deck_context(game: Game, seat: Seat, view, counts: Counter, colours: list[str], *, refusal_texts=None,
                  confirmation=None) -> dict:
    figures = deck_figures(game, seat, view, counts, colours, check=refusal_texts is None)
    refusals = figures.pop("refusals")
    if refusal_texts is None:
        refusal_texts = deck_refusal_texts(refusals)
    action = _deck_action(view)
    return {
        "game": game, "seat": seat, "view": view, **figures, "refusals": refusal_texts,
        "valid": not refusal_texts, "action": action, "can_edit": action is not None and seat.status == "active",
        "chosen": colours + [""] * (2 - len(colours)),
        "role_name": role_label(game.ruleset, seat.role), "confirmation": confirmation,
        "phase": game.current_phase, "hero_no_damage": hero_no_damage_cards(game, seat),
    }


def deck_from_text(text: str) -> list[str]:
    """A deck the GM writes: one card a line, «Пистолет x2» (or ×2, х2) for copies."""
    import re

    cards: list[str] = []
    for line in text.splitlines():
        line = line.strip().strip("-•* ").strip()
        if not line:
            continue
        match = re.match(r"^(.*?)\s*[xх×]\s*(\d+)$", line)
        name, n = (match.group(1).strip(), min(int(match.group(2)), 9)) if match else (line, 1)
        cards += [name] * n
    return cards


def _picks(post) -> list[str]:
    """Инженер's chosen cards («может выбрать из нее две карты»), from the deck page's two choices."""
    return [str(c) for c in (post.get("pick1", ""), post.get("pick2", "")) if c]


def _chosen_colours(post) -> list[str]:
    return [c for c in (post.get("colour1", ""), post.get("colour2", "")) if c]


@login_required
@require_http_methods(["GET", "POST"])
def deck_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Build (or rebuild) the deck: the game's collection by colour, copies added and removed,
    the running counts and every refusal explained; without JavaScript the +/− buttons and the
    check button re-render this page, with htmx only the form's region is swapped."""
    game, seat = _own_seat(request, pk)
    view = card_view(game=game, seat=seat)
    names = game_deckable_names(game)
    status = 200
    confirmation = None
    refusal_texts = None
    if request.method == "POST":
        counts = _counts_from_post(request.POST, names)
        colours = _chosen_colours(request.POST)
        if request.POST.get("submit"):
            action = _deck_action(view)
            try:
                if action is None:
                    raise ActionRefused(_("You cannot build a deck now."), code="no_deck")
                detail = {"cards": deck_list(counts, names), "colours": colours or None}
                picks = _picks(request.POST)
                if picks and action == "deck":
                    detail["picks"] = picks  # Инженер: dealt among the opening six
                _order, confirmation = card_input_submit(
                    game=game, user=request.user, action=action, detail=detail)
            except ActionRefused as refused:
                messages.error(request, refused.message)
            else:
                if confirmation.accepted:
                    messages.success(request, confirmation.message)
                    return redirect("games:deck", pk=game.pk)
                refusal_texts = deck_refusal_texts(confirmation.refusals) or [confirmation.message]
                status = 400
    else:
        standing = view.standing or {}
        cards, colours = _standing_deck(standing.get("deck"))
        colours = colours or list(standing.get("colours") or [])
        counts = Counter(c for c in cards if c in names)
        colours = colours or (list(view.colours) if chooses_colours(seat) else [])
    picks = _picks(request.POST) if request.method == "POST" else list((view.standing or {}).get("picks") or [])
    context = _deck_context(game, seat, view, counts, colours, refusal_texts=refusal_texts, confirmation=confirmation)
    context["picks"] = picks + [""] * (2 - len(picks))
    return render(request, "games/cards_deck.html", context, status=status)


def _standing_deck(standing) -> tuple[list[str], list[str]]:
    if isinstance(standing, dict):
        return list(standing.get("cards") or []), list(standing.get("colours") or [])
    if isinstance(standing, (list, tuple)):
        return [str(c) for c in standing], []
    return [], []


@login_required
@require_POST
def deck_check(request: HttpRequest, pk: int) -> HttpResponse:
    """Live validation (htmx): the running counts and the refusals of the deck as the form holds
    it; after a +/− button, the whole form region with the new counts. Writes nothing."""
    game, seat = _own_seat(request, pk)
    view = card_view(game=game, seat=seat)
    names = game_deckable_names(game)
    counts = _counts_from_post(request.POST, names)
    context = _deck_context(game, seat, view, counts, _chosen_colours(request.POST))
    picks = _picks(request.POST)
    context["picks"] = picks + [""] * (2 - len(picks))
    region = "deck-region" if request.POST.get("adjust") or (request.htmx and request.htmx.target == "deck-region") \
        else "deck-status"
    return render(request, f"games/cards_deck.html#{region}", context)


# --- My cards ----------------------------------------------------------------------------------
def _seat_option(seat: Seat) -> dict:
    return {"pk": seat.pk, "name": seat.user.display_name}


def _cards_context(request: HttpRequest, game: Game, seat: Seat, pov_seat) -> dict:
    state = game_state(game)
    collection = game_collection(game)
    view = card_view(game=game, seat=seat)
    seats = list(game.seats.select_related("user").order_by("number"))
    alive = {s.id for s in state.active()}
    others = [_seat_option(s) for s in seats if s.pk in alive and s.pk != seat.pk]
    dead = [_seat_option(s) for s in seats if state.has_seat(s.pk) and state.seat(s.pk).status == "dead"]
    mafia_mates = [_seat_option(s) for s in seats if s.pk != seat.pk and s.pk in alive
                   and permissions.can_see_role_of(request.user, game, s) and s.faction == "mafia"]
    standing = dict(view.standing or {})
    names = _names(game)
    order = list(standing.get("reorder") or [card.name for card in view.hand])
    payable = [card for card, overt in view.sleeve if not overt or (collection.get(card.name) and collection[card.name].payable)]
    allowed = set(view.allowed) if not pov_seat else set()
    phase = game.current_phase
    plays = []
    for zone in ("hand", "sleeve"):
        detail = standing.get(zone)
        if detail:
            plays.append({"zone": zone, "zone_label": ZONE_LABELS[zone], "card": detail.get("card"),
                          "target": names.get(_int(detail.get("target"), -1), ""),
                          "target2": names.get(_int(detail.get("target2"), -1), ""),
                          "message": detail.get("message") or "", "pay": detail.get("pay") or []})
    kind = phase.kind if phase is not None and phase.is_open else None
    by_pk = {s.pk: s for s in seats}
    offered = abilities_offered(game=game, seat=seat) if not pov_seat else []

    def targets(card) -> tuple[list[dict], list[dict]]:
        """The targets the engine would accept now, by its own check (never a dead player for a
        living target, never oneself)."""
        if card.target == "self" or not state.has_seat(seat.pk):
            return [], []
        first, second = card_targets(state, seat.pk, card.name)
        return ([_seat_option(by_pk[i]) for i in first if i in by_pk],
                [_seat_option(by_pk[i]) for i in second if i in by_pk])

    def why_not(card, zone: str, price: int) -> str:
        """Why this card cannot be played now, said before the player tries (the service checks
        it all again); empty when it may be."""
        if kind not in ("night", "day"):
            return _("Cards are played at night and by day.")
        if card.when == "night" and kind == "day":
            return _("Played only at night.")
        if card.when == "day" and kind == "night":
            return _("Played only by day.")
        if card.target != "self" and view.restricted:
            return _("No targeted cards while the prison lasts.")
        if card.target == "dead" and not targets(card)[0]:
            return _("Nobody is dead yet.")
        if card.target in ("other", "two") and not targets(card)[0]:
            return _("Nobody to target.")
        means = len(payable) - (1 if zone == "sleeve" and card in payable else 0)
        # Культист: up to two Hand cards a phase pay too (the played one excepted).
        means += min(view.hand_pay, len(view.hand) - (1 if zone == "hand" else 0))
        if price > means:
            return _("Not enough cards in the Sleeve to pay the Price.")
        return ""

    def priced(card, zone: str, position: int) -> dict:
        """card_info with the Price this player pays (Мот, Фокусник: none for a Free card) and the
        Free mark on the card («На карте видно, является ли она Свободной»)."""
        prices = view.hand_prices if zone == "hand" else view.sleeve_prices
        price = prices[position] if position < len(prices) else card.price
        info = {**card_info(card), "price": price}
        marks = list(view.free_hand if zone == "hand" else view.free_sleeve)
        earlier = [c.name for c in (view.hand if zone == "hand" else [c for c, _o in view.sleeve])][:position]
        for name in earlier:  # the marks go to the first copies of a card
            if name in marks:
                marks.remove(name)
        if card.name in marks or (card.price and not price):
            info.update(free=True, free_play=True)
        return info

    return {
        "game": game, "seat": seat, "pov_seat": pov_seat, "view": view, "phase": phase,
        "hand": [{**priced(c, "hand", i), "position": i, "targets": targets(c)[0], "targets2": targets(c)[1],
                  "why_not": why_not(c, "hand", priced(c, "hand", i)["price"])} for i, c in enumerate(view.hand)],
        "order": [card_row(collection, name) for name in order],
        "sleeve": [{**priced(c, "sleeve", i), "overt": overt, "position": i, "targets": targets(c)[0],
                    "targets2": targets(c)[1], "why_not": why_not(c, "sleeve", priced(c, "sleeve", i)["price"])}
                   for i, (c, overt) in enumerate(view.sleeve)],
        "payable": [c.name for c in payable],
        "hand_pay": view.hand_pay, "hand_names": [c.name for c in view.hand],
        "free_deck_bottom": view.free_deck_bottom, "overt_summary": overt_summary(view.overt_role),
        "others": others, "dead": dead, "mafia_mates": mafia_mates, "plays": plays,
        "discard": standing.get("discard"), "reordered": bool(standing.get("reorder")),
        "can_play": "play" in allowed, "can_discard": "discard" in allowed, "can_reorder": "reorder" in allowed,
        "can_rebuild": "rebuild" in allowed, "can_build": "deck" in allowed,
        "can_mafia_message": "mafia_message" in allowed and bool(mafia_mates),
        "joker_guess": _joker_guess_rows(seats, seat, standing) if any(a["key"] == "joker_list" for a in offered)
        else None,
        "secret_roles": [(key, role_label(game.ruleset, key)) for key in secret_role_keys()],
        "prison_keep": _prison_keep_choices(view, standing)
        if not pov_seat and seat.role == "maniac" and seat.status == "active" and phase is not None
        and phase.kind == "day" and phase.is_open else None,
        "alive": seat.status == "active",
        "hero_no_damage": hero_no_damage_cards(game, seat, [c.name for c in view.hand] + [c.name for c, _o in view.sleeve]),
        "abilities": _ability_forms(offered),
        "standing_abilities": _standing_abilities(phase, seat, names) if phase is not None and phase.is_open else [],
        "results": _results(request.user, game, seat),
        "secret_role": role_label(game.ruleset, seat.role), "overt_role": view.overt_role,
        "colours": colour_labels(view.colours),
    }


def _ability_forms(offered: list[dict]) -> list[dict]:
    """The abilities the player may use now, each with its inputs' labels and choices (only valid
    ones: the engine's own choices). The joker's list has its own form (a role for every player)."""
    forms = [f for f in offered if all(x["name"] != "roles" for x in f["fields"])]
    for form in forms:
        for field in form["fields"]:
            field["label"] = ability_field_label(field["name"])
            if field["name"] == "mode":
                field["options"] = [(value, ability_mode_label(value)) for value, _label in field["options"]]
    return forms


def _standing_abilities(phase, seat: Seat, names: dict[int, str]) -> list[str]:
    """The phase-end abilities of this seat that stand now (the last of each counts), in words."""
    last: dict[str, dict] = {}
    for item in abilities_standing(phase):
        if item.get("by") == seat.pk:
            last[str(item.get("ability"))] = item
    lines = []
    for key, item in last.items():
        parts = [str(item[k]) for k in ("card", "sleeve_card") if item.get(k)]
        if item.get("mode"):
            parts.append(ability_mode_label(str(item["mode"])))
        if item.get("target") is not None and item.get("mode") != "armour":
            parts.append("→ " + names.get(_int(item["target"], -1), "?"))
        lines.append(f"{ability_label(key)}: {' '.join(parts)}".strip())
    return lines


def _joker_guess_rows(seats: list[Seat], seat: Seat, standing: dict) -> list[dict]:
    """The joker's list form: every other player (the dead too: «всех игроков») with his overt
    role and the secret role the joker names for him (his standing list, if any)."""
    guessed = {str(k): v for k, v in ((standing.get("joker_guess") or {}).items())}
    return [{"pk": s.pk, "name": s.user.display_name, "overt": s.overt_role, "role": guessed.get(str(s.pk), "")}
            for s in seats if s.pk != seat.pk]


def _prison_keep_choices(view, standing: dict) -> dict:
    """The maniac's Sleeve cards that prison would take (not Aces, not his overt role's), and the
    one he keeps if the Veche imprisons him («Маньяк сохраняет ещё одну карту на выбор»)."""
    return {"cards": prison_keep_cards(view), "chosen": standing.get("prison_keep") or ""}


@require_GET
@login_when_hidden
def cards_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's own cards: Hand in order, Sleeve, deck size, restriction, the standing plays of
    the phase with their forms, and the results of past phases."""
    game = _game(pk)
    permissions.check_cards_game(game)
    viewer, pov_seat = permissions.viewer_for(request, game)
    if permissions.seat_of(viewer, game) is None and permissions.is_game_master(request.user, game):
        return redirect("games:gm_cards", pk=game.pk)
    seat, pov_seat = _my_seat(request, game)
    return render(request, "games/cards_mine.html", _cards_context(request, game, seat, pov_seat))


def _target(raw):
    """A target as the form sends it: a seat id (checked by the engine against this game's
    seats: a seat of another game is refused as `bad_target`), or None."""
    raw = (raw or "").strip()
    if not raw:
        return None
    return int(raw) if raw.isdecimal() else raw


def _reorder(post, view) -> list[str]:
    current = list((view.standing or {}).get("reorder") or [c.name for c in view.hand])
    raw = str(post.get("move", ""))
    index, _sep, direction = raw.partition(":")
    if not index.isdecimal() or int(index) >= len(current) or direction not in ("up", "down"):
        raise ActionRefused(_("Choose a card to move."), code="bad_move")
    i = int(index)
    j = i - 1 if direction == "up" else i + 1
    if 0 <= j < len(current):
        current[i], current[j] = current[j], current[i]
    return current


def card_detail_from_post(post, view) -> tuple[str, dict]:
    """(action, detail) of a card form, in the shape card_input_submit expects."""
    action = str(post.get("action", ""))
    if action == "play":
        pay = [str(c) for c in post.getlist("pay") if c]
        pay_hand = [str(c) for c in post.getlist("pay_hand") if c]  # Культист
        detail = {"card": str(post.get("card", "")), "from": str(post.get("from", "")),
                  "target": _target(post.get("target")), "target2": _target(post.get("target2")),
                  "message": str(post.get("message", "")).strip() or None, "pay": pay or None}
        if pay_hand:
            detail["pay_hand"] = pay_hand  # the Sleeve pays the rest (the first payable cards) unless named
    elif action == "withdraw":
        what = str(post.get("what", "play"))
        detail = {"what": what} if what == "discard" else {"what": "play", "from": str(post.get("from", ""))}
    elif action == "discard":
        detail = {"cards": [str(c) for c in post.getlist("cards")]}
    elif action == "reorder":
        detail = {"hand": _reorder(post, view)}
    elif action == "joker_guess":
        if post.get("confirm") != "on":
            raise ActionRefused(_("Confirm that a wrong list takes you out of the game."), code="not_confirmed")
        roles = {}
        for key, value in post.items():
            if key.startswith("role_") and value:
                roles[key.removeprefix("role_")] = str(value)
        detail = {"roles": roles}
    elif action == "prison_keep":
        detail = {"card": str(post.get("card", ""))}
    elif action == "mafia_message":
        detail = {"target": _target(post.get("target")), "to": _target(post.get("target")),
                  "text": str(post.get("text", "")).strip()}
    else:
        raise ActionRefused(_("Unknown action."), code="bad_action")
    return action, detail


@login_required
@require_POST
def card_input(request: HttpRequest, pk: int) -> HttpResponse:
    """Every form of the cards page: play, withdraw, discard, reorder, the mafia message. The
    acting seat is always the requester's own; a form naming another seat is refused."""
    game, seat = _own_seat(request, pk)
    try:
        claimed = request.POST.get("seat")
        if claimed is not None and str(claimed) != str(seat.pk):
            raise ActionRefused(_("You play only your own cards."), code="not_your_seat")
        action, detail = card_detail_from_post(request.POST, card_view(game=game, seat=seat))
        _order, confirmation = card_input_submit(game=game, user=request.user, action=action, detail=detail)
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        (messages.success if confirmation.accepted else messages.error)(request, confirmation.message)
    return redirect("games:cards", pk=game.pk)


def ability_data_from_post(post) -> tuple[str, dict]:
    """(ability key, its inputs) of an ability form, in the shape card_ability_submit expects:
    `f_<field>` for each input (`f_cards` may repeat; `role_<seat>` for a list of roles)."""
    key = str(post.get("ability", ""))
    data: dict = {}
    for name in post:
        if name.startswith("f_"):
            field = name.removeprefix("f_")
            values = [str(v) for v in post.getlist(name) if str(v).strip()]
            if field == "cards":
                data[field] = values
            elif values:
                data[field] = _target(values[-1]) if field in ("target", "target2") else values[-1]
        elif name.startswith("role_") and post.get(name):
            data.setdefault("roles", {})[name.removeprefix("role_")] = str(post.get(name))
    return key, data


@login_required
@require_POST
def card_ability(request: HttpRequest, pk: int) -> HttpResponse:
    """Every ability form of the cards page: the acting seat is always the requester's own. An
    at-once ability acts now; a phase-end one stands until the close."""
    game, seat = _own_seat(request, pk)
    try:
        claimed = request.POST.get("seat")
        if claimed is not None and str(claimed) != str(seat.pk):
            raise ActionRefused(_("You play only your own cards."), code="not_your_seat")
        key, data = ability_data_from_post(request.POST)
        if ability_needs_confirmation(key) and request.POST.get("confirm") != "on":
            raise ActionRefused(_("Confirm that a wrong list takes you out of the game."), code="not_confirmed")
        _order, confirmation = card_ability_submit(game=game, user=request.user, ability=key, data=data)
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        (messages.success if confirmation.accepted else messages.error)(request, confirmation.message)
    return redirect("games:cards", pk=game.pk)


def role_abilities_context(game: Game | None, seat: Seat | None) -> dict:
    """For the role page (whose seat the page's own checks chose): what his overt role does, and
    every ability his roles give him."""
    if game is None or seat is None:
        return {}
    return role_abilities(game=game, seat=seat)


# --- Public Hand sizes ---------------------------------------------------------------------------
def hand_sizes_context(user, game: Game) -> dict | None:
    """The game page's public table: every player's Hand size now and after each past phase.
    Read from the public `hand_sizes` events through the visibility filter."""
    if not is_cards_game(game) or not game.state:
        return None
    names = _names(game)
    current = card_hand_sizes(game=game)
    history = []
    for event in hand_size_events(user, game):
        sizes = {row.get("seat"): row.get("size") for row in event.data.get("sizes", []) if isinstance(row, dict)}
        history.append({"phase": event.phase, "sizes": sizes})
    rows = []
    for pk, name in names.items():
        rows.append({"name": name, "now": current.get(pk), "history": [h["sizes"].get(pk) for h in history]})
    return {"rows": rows, "phases": [h["phase"] for h in history]}


# --- The GM card dashboard -----------------------------------------------------------------------
def _order_text(order: Order, names: dict[int, str]) -> str:
    return card_order_text(order, names, with_target=True)


@require_GET
@login_first
def gm_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM's card dashboard for the current phase."""
    game = _game(pk)
    permissions.check_gm_cards(request.user, game)
    phase = game.current_phase
    state = game_state(game)
    collection = game_collection(game)
    seats = list(game.seats.select_related("user").order_by("number"))
    names = {s.pk: s.user.display_name for s in seats}
    seats_by_id = {s.pk: s for s in seats}
    orders = list(phase.orders.select_related("actor").order_by("recorded_at", "pk")) if phase else []
    preview_events = []
    plays_by_seat: dict[int, list] = {}
    veche = summary = None
    gm_resolve = []
    if phase is not None and phase.is_open and game.status == Game.Status.RUNNING:
        preview = phase_preview(phase=phase)
        if preview is not None:
            genders = seat_genders(seats_by_id.values())
            for e in preview.resolution.events:
                data = dict(e.data)
                with speaking_of(genders):  # agreeing as the stored events will
                    text = event_text(game.ruleset, e.kind, data)
                preview_events.append({"kind": e.kind, "audience": e.audience, "audience_label": audience_label(e.audience, seats_by_id),
                                       "text": text})
                if e.kind == "play":
                    data["reason_text"] = card_reason_text(data["reason"]) if data.get("reason") else ""
                    data["result_label"] = play_result_label(data.get("result"))
                    data["effect_texts"] = [effect_text(x) for x in data.get("effects") or () if isinstance(x, dict)]
                    plays_by_seat.setdefault(data.get("by"), []).append(data)
                elif e.kind == "gm_resolve":
                    gm_resolve.append(data)
                elif e.kind == "veche_result":
                    veche = data
                    veche["measure_label"] = measure_label(data.get("measure")) if data.get("measure") else ""
                    veche["reason_label"] = veche_reason_label(data["reason"]) if data.get("reason") else ""
                    veche["measure_rows"] = [(measure_label(m), vote_weight_text(n))
                                             for m, n in (data.get("measure_tally") or {}).items()]
                    for row in veche.get("tally") or []:
                        row["votes_text"] = vote_weight_text(row.get("votes"))
                    for vote in veche.get("votes") or []:
                        vote["weight_text"] = vote_weight_text(vote.get("weight"))
                        vote["measure_label"] = measure_label(vote.get("measure")) if vote.get("measure") else ""
                elif e.kind == "phase_summary":
                    summary = data
    rows = []
    for seat in seats:
        view = card_view(game=game, seat=seat) if state.has_seat(seat.pk) else None
        mine = [o for o in orders if o.actor_id == seat.pk]
        for o in mine:
            o.summary = _order_text(o, names)
            o.reason_text = card_reason_text(o.reason) if o.reason else ""
            o.action_text = action_label(o.action)
        rows.append({
            "seat": seat, "role": role_label(game.ruleset, seat.role), "view": view,
            "sleeve": [(c.name, overt) for c, overt in view.sleeve] if view else [],
            "orders": mine, "plays": plays_by_seat.get(seat.pk, []),
            "standing": _standing_lines(view, names) if view else [],
        })
    decisions = dict(phase.gm_decisions or {}) if phase else {}
    effects = [{"index": i, "effect": e, "text": _effect_text(e, names)} for i, e in enumerate(decisions.get("effects") or [])]
    if summary:
        summary = {key: {names.get(_int(k, -1), k): v for k, v in (summary.get(key) or {}).items()}
                   for key in ("damage", "armour", "discarded", "lost", "drawn")} | {"dead": summary.get("dead") or []}
    return render(request, "games/cards_gm.html", {
        "game": game, "phase": phase, "rows": rows, "preview_events": preview_events, "veche": veche,
        "summary": summary, "gm_resolve": gm_resolve, "effects": effects,
        "damage": {names.get(_int(k, -1), k): v for k, v in (decisions.get("damage") or {}).items()},
        "armour": {names.get(_int(k, -1), k): v for k, v in (decisions.get("armour") or {}).items()},
        "seats": seats, "gm_ops": gm_op_choices(),
        "reveal_choices": list(REVEAL_LABELS.items()),
        "cards": list(collection.names),
        "open": phase is not None and phase.is_open and game.status == Game.Status.RUNNING,
        "close_question": confirm.close_question(phase, _public_outcome(preview_events)),
        # The GM's options (docs/rulesets/cards.md, "Part 2 (b)"): his pick for a tied vote, his decks.
        "gm_tie_break": state.options.get("tie_break") == "gm" and phase is not None and phase.kind == "day",
        "tie_pick": names.get(_int(decisions.get("tie_break"), -1), ""),
        "gm_decks": state.options.get("illegal_deck") == "gm" and phase is not None and phase.kind == "deckbuilding",
        "gm_deck_rows": [{"seat": s, "cards": (decisions.get("decks") or {}).get(str(s.pk))} for s in seats],
    })


def _public_outcome(preview_events: list[dict]) -> str:
    """What closing now would publish (the public preview events), for the close question."""
    return " ".join(e["text"] for e in preview_events if e["audience"] == "public" and e["text"])


def _standing_lines(view, names: dict[int, str]) -> list[str]:
    """The inputs that stand now for one seat, as the close will take them."""
    standing = dict(view.standing or {})
    lines = []
    for zone in ("hand", "sleeve"):
        play = standing.get(zone)
        if play:
            target = names.get(_int(play.get("target"), -1), "")
            target2 = names.get(_int(play.get("target2"), -1), "")
            lines.append(f"{ZONE_LABELS[zone]}: {play.get('card')}" + (f" → {target}" if target else "")
                         + (f", {target2}" if target2 else ""))
    if standing.get("discard"):
        lines.append(_("discard: %(cards)s") % {"cards": ", ".join(map(str, standing["discard"]))})
    if standing.get("reorder"):
        lines.append(_("Hand order: %(cards)s") % {"cards": " › ".join(map(str, standing["reorder"]))})
    if standing.get("measure"):
        lines.append(_("measure: %(measure)s") % {"measure": measure_label(standing["measure"])})
    return lines


def _effect_text(effect: dict, names: dict[int, str]) -> str:
    """An effect the GM applies by hand, in words («Петя получает Бункер в Рукав»)."""
    if not isinstance(effect, dict):
        return "—"
    return effect_text(effect, names)


def gm_effect_from_post(post) -> dict:
    """A GM effect as card_gm_effect_add takes it; only the fields its op uses."""
    op = str(post.get("op", ""))
    effect: dict = {"op": op, "target": _target(post.get("target"))}
    if op in ("damage", "armour", "draw", "discard", "restrict") or (op == "reveal" and post.get("what") == "deck_top"):
        effect["n"] = _int(post.get("n"), 0)
    if op == "draw":
        effect["to"] = str(post.get("to") or "hand")
    if op == "discard":
        effect["zone"] = str(post.get("zone") or "hand")
    if op == "reveal":
        effect["what"] = str(post.get("what", ""))
        effect["viewer"] = _target(post.get("viewer"))
    if op == "message":
        effect["text"] = str(post.get("text", "")).strip()
    if op == "give":
        effect["card"] = str(post.get("card", ""))
        effect["to"] = str(post.get("to") or "sleeve")
    return effect


def _gm_card_question(game: Game, phase, action: str, post) -> str:
    """The card dashboard's question before closing the phase or removing an effect."""
    if action == "close":
        return confirm.close_question(phase)  # the page's question names the outcome; this is the no-JS path
    effects = list((phase.gm_decisions or {}).get("effects", [])) if phase is not None else []
    index = _int(post.get("index"), -1)
    text = _effect_text(effects[index], _names(game)) if 0 <= index < len(effects) else "—"
    return confirm.question("card_effect_remove", effect=text)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(COUNT, THREADS), game=gm_writes.game_of_url)  # a close among its forms
def gm_card_effect(request: HttpRequest, pk: int) -> HttpResponse:
    """The dashboard's forms: apply a primitive by hand, remove one, close the phase now."""
    game = _game(pk)
    permissions.check_gm_cards(request.user, game)
    phase = game.current_phase
    action = request.POST.get("action", "add")
    if action in ("close", "remove") and not confirm.is_confirmed(request):
        return confirm.confirmation_page(request, question=_gm_card_question(game, phase, action, request.POST),
                                         cancel_url=reverse("games:gm_cards", args=[game.pk]))
    try:
        if phase is None:
            raise ActionRefused(_("No phase is going on."), code="no_phase")
        if action == "add":
            card_gm_effect_add(phase=phase, gm=request.user, effect=gm_effect_from_post(request.POST))
            messages.success(request, _("The effect is added; it applies at the close of the phase."))
        elif action == "remove":
            card_gm_effect_remove(phase=phase, gm=request.user, index=_int(request.POST.get("index"), -1))
            messages.success(request, _("The effect is removed."))
        elif action == "tie_break":
            pick = _int(request.POST.get("seat"), -1)
            card_gm_tie_break_set(phase=phase, gm=request.user, seat_pk=pick if pick >= 0 else None)
            messages.success(request, _("Your pick for a tied vote is kept; it applies at the close of the day."))
        elif action == "gm_deck":
            seat = game.seats.filter(pk=_int(request.POST.get("seat"), -1)).first()
            if seat is None:
                raise ActionRefused(_("Pick a player."), code="bad_target")
            cards = deck_from_text(str(request.POST.get("cards", ""))) if request.POST.get("cards", "").strip() else None
            problems = card_gm_deck_set(phase=phase, gm=request.user, seat=seat, cards=cards)
            if problems:
                raise ActionRefused(_("The deck breaks the deck rules: %(why)s") % {"why": "; ".join(problems)},
                                    code="bad_deck")
            messages.success(request, _("The deck is kept: the player gets it if he has no legal deck at the deadline.")
                             if cards else _("The deck you built for the player is removed."))
        elif action == "close":
            if not phase_close(phase_id=phase.pk, now=timezone.now(), by=request.user):
                raise ActionRefused(_("The phase is already closed."), code="closed")
            messages.success(request, _("The phase is closed and the results are published."))
        else:
            raise ActionRefused(_("Unknown action."), code="bad_action")
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect("games:gm_cards", pk=game.pk)


# --- The GM's collection editor (before the start) ----------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def cards_collection(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM edits his game's card collection before the start (YAML, validated by the engine's
    loader; every problem listed, nothing changed on a refusal); «reset» goes back to the shipped
    collection."""
    game = get_object_or_404(Game, pk=pk)
    if not permissions.is_game_master(request.user, game) or not permissions.has_cards_pages(game):
        raise Http404
    editable = game.status == Game.Status.SIGNUPS
    problems: list[str] = []
    status = 200
    if request.method == "POST":
        form = CollectionForm(request.POST)
        reset = request.POST.get("action") == "reset"
        if reset and not confirm.is_confirmed(request):
            return confirm.confirmation_page(request, question=confirm.question("collection_reset"),
                                             cancel_url=reverse("games:cards_collection", args=[game.pk]))
        try:
            if not form.is_valid():
                raise ActionRefused(" ".join(str(e) for errors in form.errors.values() for e in errors), code="bad_form")
            game_set_collection(game=game, by=request.user, text=None if reset else form.cleaned_data["text"])
        except CollectionRefused as refused:
            messages.error(request, refused.message)
            problems, status = refused.problems, 400
        except ActionRefused as refused:
            messages.error(request, refused.message)
            status = 400
        else:
            messages.success(request, _("The collection is back to the shipped one.") if reset
                             else _("The collection is saved; it is frozen when the game starts."))
            return redirect("games:cards_collection", pk=game.pk)
    else:
        form = CollectionForm(initial={"text": collection_text(game)})
    return render(request, "games/cards_collection.html", {
        "game": game, "form": form, "problems": problems, "editable": editable,
        "custom": "collection" in (game.options or {}),
    }, status=status)
