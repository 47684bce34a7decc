"""What the show's pages read of part 2 (issue 19): the coins part of the hero's panel (every fee
shown before it is paid, the bet, the raise, sympathies, the ally's choice, the trial and its
grants), the reply form's message fee, «Обо мне», and the results page of a finished show. Every
secret goes through games.permissions first (can_see_about_me, can_see_ratings)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, Sum
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from coins.models import Account, Entry, Fine, user_key
from coins.services import FINE
from coins.wording import reason_label
from games import permissions
from games.models import Game, GameEvent, Order, Phase, Seat
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.bets import about_me
from games.rulesets.show.engine.facts import in_coma
from games.rulesets.show.engine.menu import may_raise
from games.rulesets.show.engine.stages import ALLIES, DAY, DEFENCE, REVOTE
from games.rulesets.show.services import BET, GRANT, GRANT_PASS, PICK_ALLY, RAISE, SYMPATHY, phase_stage_name
from games.rulesets.show.coins.books import game_books
from games.rulesets.show.coins.services import (
    SYMPATHY_MESSAGE_MAX,
    acting_fee,
    is_allies_stage,
    next_message_fee,
    open_answers,
    trial_of,
)
from games.rulesets.show.charts import CoinsTexts, RatingTexts, coins_chart_svg, rating_chart_svg
from games.rulesets.show.wording import (
    LEDGER_SOURCES,
    RATING_REASONS,
    SOURCE_NAMES,
    SOURCE_OF,
    ledger_stage_text,
    ledger_text,
    percent_text,
    role_name,
    signed_coins,
    stage_label,
)
from games.selectors.state import game_state
from games.text import bbcode


def _standing(rows: list[Order], action: str) -> Order | None:
    return next((r for r in rows if r.valid and r.action == action), None)  # rows are newest first


def coins_panel(*, game: Game, state, seat: Seat, phase, names: dict[int, str], now: datetime | None = None,
                offers: dict[str, tuple] | None = None, standing: dict[str, Any] | None = None) -> dict[str, Any]:
    """The hero's coins on his panel: his balance, what acting now costs, and the part 2 forms the
    stage offers him (the engine's menu, `offers`: engine/menu.py), with his own standing inputs
    (never anyone else's)."""
    offers = offers or {}
    standing = standing or {}

    def named(action: str) -> list[tuple[int, str]]:
        return [(h, names.get(h, "?")) for h in offers.get(action, ()) if isinstance(h, int)]

    now = now or timezone.now()
    me = state.seat(seat.pk)
    options = state.options
    out: dict[str, Any] = {"balance": _balance(seat.user_id)}
    if phase is None or phase.closed_at is not None:
        return out
    rows = list(Order.objects.filter(phase=phase, actor_id=me.id).order_by("-recorded_at", "-pk"))
    # «Максимальный взнос платят те, кто тянет со своим действием до конца этапа»
    if me.is_active:
        if in_coma(state, me.id):
            out["fee_now"], out["fee_kind"] = int(options["coma_fee"]), "coma"
        elif me.id in SHOW.owing(state):
            out["fee_now"], out["fee_kind"] = acting_fee(state, phase, now), "act"
        else:
            out["fee_now"], out["fee_kind"] = int(options["stage_fee_min"]), "idle"
        out["fee_min"], out["fee_max"] = int(options["stage_fee_min"]), int(options["stage_fee_max"])
    bets = state.memory.get("bets") or {}
    if BET in offers:
        row = _standing(rows, BET)
        pick = row.target_id if row is not None else int(bets[str(me.id)]["pick"])
        out["bet"] = {"pick": pick, "pick_name": names.get(pick, "?"), "default": row is None,
                      "targets": named(BET), "stake": int(options["base_stake"])}
    if may_raise(state, me.id):
        raised = _standing(rows, RAISE)
        slaves = [s for s in state.seats if not s.is_active]
        out["raise"] = {"done": raised is not None or RAISE not in offers, "targets": named(RAISE),
                        "stake": int(options["base_stake"]),
                        "cost": int(options["base_stake"]), "slaves": len(slaves)}
    if SYMPATHY in offers:
        row = _standing(rows, SYMPATHY)
        out["sympathy"] = {"targets": named(SYMPATHY), "chosen": standing.get(SYMPATHY),
                           "mine": names.get(row.target_id, "") if row is not None else "",
                           # his own words (his row): the message he sent with it
                           "message": _message_html(row) if row is not None else "",
                           "second": phase.kind == "revote", "limit": SYMPATHY_MESSAGE_MAX}
    if is_allies_stage(state):
        # «все получают отправленные им ранее сообщения-Симпатии»: read as the hero reads them
        out["letters"] = sympathy_letters(game=game, seat=seat, user=seat.user)["received"]
    if PICK_ALLY in offers:
        row = _standing(rows, PICK_ALLY)
        out["ally"] = {"targets": named(PICK_ALLY), "chosen": standing.get(PICK_ALLY),
                       "mine": names.get(row.target_id, "") if row is not None else ""}
    trial = trial_of(state)
    answers = open_answers(game, state) if trial else []
    slave_of_trial = bool(trial) and me.id in {int(s) for s in trial.get("slaves") or ()}
    # issue 28, item 6: a free hero sees the trial only with answers to grant (no empty heading); its
    # slaves see it, with the task, from the morning that gives it
    if trial and (slave_of_trial or answers):
        numbered = [(n, post) for n, (post, _author) in enumerate(answers, start=1)]
        mine_answered = any(author == me.id for _post, author in answers)
        grants: dict[int, int] = {}
        passed = False
        # The rows of the whole trial (it runs from its morning to the next): the last of each stands.
        trial_rows = Order.objects.filter(phase__game=game, actor_id=me.id, valid=True, action__in=(GRANT, GRANT_PASS),
                                          phase__number__gte=int(trial.get("day") or 0)).order_by("recorded_at", "pk")
        for row in trial_rows:
            if row.action == GRANT_PASS:
                grants, passed = {}, True
            else:
                grants[int((row.detail or {}).get("post") or 0)] = int((row.detail or {}).get("amount") or 0)
                passed = False
        own_posts = {post for post, author in answers if author == me.id}
        out["trial"] = {
            "day": trial.get("day"),
            "task": trial.get("task") or "",
            "slave": slave_of_trial,
            "answered": mine_answered,
            "answers": [{"number": n, "post": post, "mine": post in own_posts, "granted": grants.get(post),
                         "media_url": reverse("games:post_media", args=[post])} for n, post in numbered],
            "amounts": [int(g) for g in options["grants"]],
            "pass_fee": int(options["pass_fee"]),
            "passed": passed,
        }
    return out


def _message_html(row: Order) -> str:
    """A sympathy row's deferred message, rendered and sanitised as a post's body is."""
    text = str((row.detail or {}).get("message") or "")
    return mark_safe(bbcode.render(text)) if text else ""  # noqa: S308 - nh3-sanitised by bbcode.render


def sympathies_delivered(game: Game) -> bool:
    """«В конце первого дня наступает этап "Выбор Союзника", все получают отправленные им ранее
    сообщения-Симпатии»: delivered once that stage has opened."""
    return Phase.objects.filter(game=game, kind=ALLIES, voided_at__isnull=True).exists()


def sympathy_letters(*, game: Game, seat: Seat, user) -> dict[str, list[dict[str, Any]]]:
    """The sympathies `seat` sent and received with their deferred messages, as `user` may read
    them (games.permissions.filter_visible_deferred_messages: the sender, the GMs, the receiver once
    delivered, everybody after the end). Only each sender's standing sympathy of each window counts
    (the last of day 1 and defence 1, the last of revote 1: what the engine recorded)."""
    delivered = sympathies_delivered(game)
    rows = (Order.objects.filter(phase__game=game, action=SYMPATHY, valid=True, target__isnull=False)
            .select_related("phase", "actor__user", "target__user").order_by("recorded_at", "pk"))
    standing: dict[tuple[int, bool], Order] = {}
    for row in rows:
        if row.phase.number == 1 and row.phase.kind in (DAY, DEFENCE, REVOTE):
            standing[(row.actor_id, row.phase.kind == REVOTE)] = row
    visible = set(permissions.filter_visible_deferred_messages(
        user, game, Order.objects.filter(pk__in=[r.pk for r in standing.values()]), delivered=delivered)
        .values_list("pk", flat=True))
    out: dict[str, list[dict[str, Any]]] = {"sent": [], "received": []}
    for (_sender, second), row in sorted(standing.items(), key=lambda item: (item[1].recorded_at, item[1].pk)):
        if row.pk not in visible:
            continue
        letter = {"second": second, "html": _message_html(row), "delivered": delivered}
        if row.actor_id == seat.pk:
            out["sent"].append({**letter, "name": row.target.user.display_name})
        if row.target_id == seat.pk:
            out["received"].append({**letter, "name": row.actor.user.display_name})
    return out


def _line_reason(entry: Entry, *, incoming: bool) -> str:
    """A ledger line naming this show in words: the show's own (wording.ledger_text), or the
    coins app's for a fine (the GMs', not the show's)."""
    if entry.reason == FINE:
        return str(reason_label(entry.reason, incoming=incoming))
    return ledger_text(entry.reason, entry.detail, incoming=incoming)


def _balance(user_id: int) -> int:
    # Read here (not by the coins app's balance_of, which takes a user) to spare a query for the user.
    account = Account.objects.filter(key=user_key(user_id)).only("balance").first()
    return account.balance if account is not None else 0


def reply_fee(*, game: Game | None, thread, user) -> int | None:
    """The reply form: what the user's next post in the show's game thread costs (shown before)."""
    if game is None or thread is None or thread.pk != game.game_thread_id:
        return None
    return next_message_fee(game=game, user=user)


# --- «Обо мне» ------------------------------------------------------------------------------------
def about_me_rows(*, game: Game, seat: Seat, user) -> dict[str, Any]:
    """«По кнопке "Обо мне" можно всегда посмотреть свою Ставку и имена тех, кто сделал свою Ставку
    на вас»: his bet, who bet on him, and his coins in this show (every ledger line of his account
    that names this game). 404 unless games.permissions.can_see_about_me."""
    if not permissions.can_see_about_me(user, game, seat):
        raise Http404
    state = game_state(game)
    if state is None:
        raise Http404
    bets = about_me(state, seat.pk) if state.has_seat(seat.pk) else {"bet": None, "backers": []}
    key = user_key(seat.user_id)
    lines = (Entry.objects.filter(game=game).filter(Q(debit__key=key) | Q(credit__key=key))
             .select_related("debit", "credit").order_by("created_at", "pk"))
    received = lines.filter(credit__key=key).aggregate(total=Sum("amount"))["total"] or 0
    paid = lines.filter(debit__key=key).aggregate(total=Sum("amount"))["total"] or 0
    return {
        "name": seat.dealt_name, "bet": bets["bet"], "backers": bets["backers"], "net": received - paid,
        # each line in the show's words (wording.ledger_text, as on the «Баланс» page): no code
        "lines": [{"at": e.created_at, "stage": ledger_stage_text(e.stage),
                   "amount": e.amount if e.credit.key == key else -e.amount,
                   "reason": _line_reason(e, incoming=e.credit.key == key)} for e in lines],
        "balance": _balance(seat.user_id),
        "letters": sympathy_letters(game=game, seat=seat, user=user),
    }


# --- The results page (issue 28, item 23) -----------------------------------------------------------
def results_rows(*, game: Game, user) -> dict[str, Any]:
    """The results page of a finished show: every role, the ratings in %, each hero's rating over
    the stages and his coins by source (server-drawn pictures, charts.py), «История Шоу» grouped by
    stage in the show's words, the bank's, the pot's and the alliances' splits, every fine (its
    offender and amount; the reporter stays anonymous). 404 unless games.permissions.can_see_ratings."""
    if not permissions.can_see_ratings(user, game):
        raise Http404
    event = GameEvent.objects.filter(game=game, kind="show_results").order_by("-pk").first()
    data = dict(event.data) if event is not None else {}
    seats = list(game.seats.select_related("user").order_by("number"))
    percents = data.get("percents") or {}
    ratings = data.get("ratings") or {}
    net = data.get("net") or {}
    raw_history = [h for h in data.get("history") or () if isinstance(h, dict)]
    stages = _stages(game, raw_history)
    sources = _coins_by_source(game, seats)
    limit = max((abs(v) for rows in sources.values() for v in rows.values()), default=0)
    heroes = []
    for index, s in enumerate(seats):
        name = s.dealt_name
        rating = _rating_path(name, raw_history, stages)
        rows = [(str(SOURCE_NAMES[k]), sources.get(s.pk, {}).get(k, 0)) for k in LEDGER_SOURCES]
        heroes.append({
            "name": name, "role": role_name(s.role), "status": s.status,
            "rating": ratings.get(name), "percent": percent_text(percents.get(name)) if name in percents else "—",
            "net": net.get(name),
            "rating_chart": mark_safe(rating_chart_svg(  # noqa: S308 (escaped by charts)
                rating, days=_day_ticks(stages), chart_id=f"rating-{s.pk}", colour_index=index,
                texts=RatingTexts(title=_("%(name)s: the rating over the stages") % {"name": name},
                                  desc=_("From 0 to %(final)s over %(n)s stages.") % {"final": rating[-1],
                                                                                      "n": len(stages)},
                                  day=_("day %(n)s")))) if event is not None else "",
            "coins_chart": mark_safe(coins_chart_svg(  # noqa: S308 (escaped by charts)
                rows, limit=limit, chart_id=f"coins-{s.pk}",
                texts=CoinsTexts(title=_("%(name)s: the coins by source") % {"name": name},
                                 desc="; ".join(f"{label}: {signed_coins(amount)}" for label, amount in rows if amount)
                                 or _("no coins moved"),
                                 empty=_("no coins moved")))),
            "sources": [(label, amount) for label, amount in rows if amount],
        })
    history = []
    for stage in stages:
        lines = [{"name": h.get("name"), "delta": int(h.get("delta") or 0),
                  "reason": str(RATING_REASONS.get(h.get("reason"), _("another rating change"))),
                  "detail": h.get("detail") or ""}
                 for h in raw_history if h.get("stage") == stage]
        if lines:
            history.append({"stage": stage_label(stage), "lines": lines})
    fines = [{"offender": (Seat.objects.filter(game=game, user=f.offender).values_list("dealt_name", flat=True).first()
                           or f.offender.display_name), "amount": f.amount, "decision": f.decision}
             for f in Fine.objects.filter(game=game).select_related("offender").order_by("created_at")]
    return {
        "over": game.status == Game.Status.FINISHED, "heroes": heroes, "history": history,
        "bank": sorted((data.get("bank_shares") or {}).items()), "pot": sorted((data.get("pot_shares") or {}).items()),
        "alliances": data.get("alliances") or [], "fines": fines, "has_results": event is not None,
    }


def _stages(game: Game, history: list[dict]) -> list[str]:
    """The show's stages in the order they ran («greetings», «day 1», ...; the engine's names, as
    the rating history and the ledger carry them), then any the history names that no phase does."""
    names: list[str] = []
    for phase in Phase.objects.filter(game=game, voided_at__isnull=True).order_by("opened_at", "pk"):
        name = phase_stage_name(phase)
        if name not in names:
            names.append(name)
    for item in history:
        if item.get("stage") and item["stage"] not in names:
            names.append(item["stage"])
    return names


def _rating_path(name: str, history: list[dict], stages: list[str]) -> list[int]:
    """The hero's rating at the start (0) and after each stage."""
    by_stage: dict[str, int] = {}
    for item in history:
        if item.get("name") == name:
            by_stage[item.get("stage")] = by_stage.get(item.get("stage"), 0) + int(item.get("delta") or 0)
    path, total = [0], 0
    for stage in stages:
        total += by_stage.get(stage, 0)
        path.append(total)
    return path


def _day_ticks(stages: list[str]) -> list[tuple[int, int]]:
    """(the point after which the day's first stage is drawn, the day) for each day vote."""
    ticks = []
    for index, stage in enumerate(stages):
        kind, _sep, number = stage.partition(" ")
        if kind == DAY and number.isdigit():
            ticks.append((index, int(number)))
    return ticks


def _coins_by_source(game: Game, seats: list[Seat]) -> dict[int, dict[str, int]]:
    """Seat -> source -> the coins the hero won (+) or lost (-) by it in this show: every ledger
    line of his account naming the game, fines aside (the GMs', not the show's, as in the nets)."""
    keys = {user_key(s.user_id): s.pk for s in seats}
    out: dict[int, dict[str, int]] = {s.pk: {} for s in seats}
    lines = (Entry.objects.filter(game=game).exclude(reason=FINE)
             .values_list("debit__key", "credit__key", "amount", "reason"))
    for debit, credit, amount, reason in lines:
        source = SOURCE_OF.get(reason, "fees")
        for key, sign in ((debit, -1), (credit, 1)):
            if key in keys:
                mine = out[keys[key]]
                mine[source] = mine.get(source, 0) + sign * amount
    return out


# --- The GM's dashboard ---------------------------------------------------------------------------
def gm_books(*, game: Game, user) -> dict[str, Any] | None:
    """The GM's card of the show's coins (the «gm.decisions» place): the bank, the winners' pot and
    each escrow (the burdens held for the Demon until the end, named by his seat) as the ledger has
    them now, and each hero's net in this show so far (every line of his account naming the game;
    fines are the GMs', not the show's, as in the results). None for anyone
    games.permissions.can_see_show_books refuses."""
    if user is None or not permissions.can_see_show_books(user, game):
        return None
    kept = permissions.remembered_seats(game)
    seats = [(s.pk, s.user_id, s.dealt_name) for s in kept] if kept is not None else \
        list(game.seats.order_by("number").values_list("pk", "user_id", "dealt_name"))
    names = {pk: name for pk, _user, name in seats}
    prefix = f"game:{game.pk}:"
    books = game_books(game)  # the accounts and the lines in one round trip, shared with the preview
    own = {key: balance for key, balance in books.balances.items() if key.startswith(prefix)}
    escrows = []
    for key, balance in sorted(own.items()):
        name = key[len(prefix):]
        if name.startswith("escrow:") and name[len("escrow:"):].isdigit():
            escrows.append({"name": names.get(int(name[len("escrow:"):]), "?"), "balance": balance})
    by_user = {user_id: name for _pk, user_id, name in seats}
    nets = dict.fromkeys(by_user.values(), 0)
    keys = {user_key(user_id): name for user_id, name in by_user.items()}
    for debit, credit, amount, reason, _stage in books.lines:
        if reason == "fine":
            continue
        if debit in keys:
            nets[keys[debit]] -= amount
        if credit in keys:
            nets[keys[credit]] += amount
    return {
        "bank": own.get(f"{prefix}bank", 0),
        "pot": own.get(f"{prefix}pot", 0),
        "escrows": escrows,
        "nets": [{"name": name, "net": nets[name]} for _pk, _user, name in seats],
    }
