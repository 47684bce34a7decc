"""The show's services: every hero's input of a stage, checked with the engine and written to the
order ledger (games.models.Order: accepted rows and refused ones with their reason, the ledger
the GM reads), what the site applies at once (waking, /lull, a Secret Knowledge used), the text
stand-in for a media post, and the stage's early end (docs/rulesets/show.md, "The site").

The ledger's rows (action, target, detail):
- "vote": a hero's ballot (target), or {"ballot": "enslave" | "spare"} with one defendant;
- "suspect", "save", "relieve", "enslave" at night; "enslave" / "spare" as the judge's decision;
  a night row's detail may carry "question", "public_key", "extra_knowledge" (seat ids);
- "request_opinion" (target); "post" ({"kind": "greeting" | "defence" | "opinion", "post": id});
- "use_knowledge" (target), "lull" (target), "wake": applied at once.
The last accepted row of a kind per hero stands; ledger_inputs reads them as the engine's PhaseInputs.
Orders are seen by their author and the GMs only (games.permissions.filter_visible_orders), so a
ballot stays hidden until the stage's close publishes them all.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from coins import services as coins
from coins.models import Account, Entry
from games.engine.orders import Order as EngineOrder
from games.engine.orders import PhaseInputs
from games.models import Game, Order, Phase, Post, Seat
from games import permissions
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.coins import BANK, Transfer, hero
from games.rulesets.show.engine.economy import message_fee
from games.rulesets.show.engine.privileges import adjust_transfers
from games.rulesets.show.engine.facts import in_coma
from games.rulesets.show.engine.privilege_keys import EXCLUDE, EXTRA_VOTE, STEAL
from games.rulesets.show.engine.roles import ENSLAVE, RELIEVE, SAVE, SUSPECT
from games.rulesets.show.coins.books import game_books
from games.rulesets.show.coins.ledger import post_transfers
from games.rulesets.show.engine.stages import (
    DAY,
    DEFENCE,
    DEFENCE_SPEECH,
    GREETING,
    GREETINGS,
    JUDGE,
    NIGHT,
    OPINION,
    REVOTE,
    SPARE,
    TO_SLAVERY,
    parse_phase,
)
from games.rulesets.show.privileges.ledger import PRIVILEGE_ROWS, privilege_inputs, privilege_row_text
from games.rulesets.show.wording import ACTION_LABELS, DETAIL_LABELS, WORDING
from games.selectors.orders import phase_ledger
from games.selectors.state import game_state, stored_state
from games.text import bbcode
from games.services import ActionRefused
from games.services.journal import gm_log
from games.services.resolution import phase_close, state_apply_now

VOTE, REQUEST, POST, KNOWLEDGE, LULL, WAKE = "vote", "request_opinion", "post", "use_knowledge", "lull", "wake"
DONE = "done"  # «Я всё»: the hero gives none of his optional inputs of the stage (issue 28, item 4)
NIGHT_ACTIONS = frozenset({SUSPECT, SAVE, RELIEVE, ENSLAVE})
JUDGE_ACTIONS = frozenset({ENSLAVE, SPARE})
DETAIL_KEYS = ("question", "public_key", "extra_knowledge")
POST_KINDS = (GREETING, DEFENCE_SPEECH, OPINION)


@dataclass
class ShowResult:
    """What a hero's input came to: accepted, or refused with a reason code (worded by reason_text)."""

    accepted: bool
    code: str = ""
    closed: bool = False  # the input ended the stage early

    @property
    def message(self) -> str:
        return WORDING.reason_text(self.code) if self.code else ""


# --- Reading the ledger ---------------------------------------------------------------------------
def _rows(phase: Phase):
    kept = phase_ledger(phase)  # the page's read of the stage's ledger (the GM dashboard's), if any
    if kept is not None:
        return [row for row in kept if row.valid]
    return list(phase.orders.filter(valid=True).order_by("recorded_at", "pk"))


def ledger_inputs(phase: Phase, *, fees: bool = True) -> PhaseInputs:
    """The stage's PhaseInputs: the standing ballot, choice and request of each hero, the media posts
    made, and everyone who did anything (the close wakes them). On a page that keeps the stage's
    ledger (games.selectors.orders.phase_ledger: the GM dashboard's preview and panels read it
    three times), read once and a copy handed to each reader. Without `fees`, the observers' fees
    (read from the coins ledger, what only the close charges) are left out: who the stage awaits
    is the heroes' own rows (stage_awaited, for a desk of many shows, one query for all)."""
    if phase_ledger(phase) is not None and fees:
        kept = phase.__dict__.get("_show_ledger_inputs")
        if kept is None:
            kept = phase.__dict__["_show_ledger_inputs"] = _ledger_inputs(phase)
        return copy.deepcopy(kept)
    return _ledger_inputs(phase, fees=fees)


def _ledger_inputs(phase: Phase, *, fees: bool = True) -> PhaseInputs:
    votes: dict[int, Any] = {}
    orders: dict[int, EngineOrder] = {}
    requests: dict[int, int] = {}
    posted: dict[int, list[str]] = {}
    active: list[int] = []
    knowledge: dict[int, int] = {}
    done: list[int] = []
    rows = _rows(phase)
    for row in rows:
        actor, detail = row.actor_id, dict(row.detail or {})
        if actor not in active:
            active.append(actor)
        if row.action == VOTE:
            votes[actor] = detail.get("ballot") or row.target_id
        elif row.action == REQUEST:
            requests[actor] = row.target_id
        elif row.action == POST:
            kinds = posted.setdefault(actor, [])
            if detail.get("kind") in POST_KINDS and detail["kind"] not in kinds:
                kinds.append(detail["kind"])
        elif row.action == KNOWLEDGE and detail.get("at_close"):
            knowledge[actor] = row.target_id
        elif row.action == DONE and actor not in done:
            done.append(actor)
        elif row.action in NIGHT_ACTIONS | JUDGE_ACTIONS:
            orders[actor] = EngineOrder(actor=actor, action=row.action, target=row.target_id,
                                        detail={k: detail[k] for k in DETAIL_KEYS if detail.get(k) is not None})
    extra: dict[str, Any] = {"posted": posted, "opinion_requests": requests, "active": active}
    if knowledge:
        extra["knowledge"] = knowledge
    if done:
        extra["done"] = done
    extra.update(_coins_inputs(phase, rows, observers=fees))
    extra.update(privilege_inputs(rows))  # part 3, the privileges' rows
    ratings = (phase.gm_decisions or {}).get("ratings")
    if ratings:
        extra["ratings"] = {int(k): v for k, v in ratings.items()}
    return PhaseInputs(votes=votes, orders=orders, extra=extra)


# Part 2's rows (coins/services.py): the names are repeated here, the reader's side of the ledger.
BET, RAISE, SYMPATHY, PICK_ALLY = "bet", "raise", "sympathy", "pick_ally"
TRIAL_ANSWER, GRANT, GRANT_PASS, MESSAGE_FEE = "trial_answer", "grant", "grant_pass", "message_fee"
OBSERVER_FEE = "observer_fee"  # a ledger reason only: an observer has no seat for an order row
# The rows that are a stage's own action: the time of a hero's last one is when he acted (the stage fee).
ACTION_ROWS = frozenset({VOTE, POST, PICK_ALLY}) | NIGHT_ACTIONS | JUDGE_ACTIONS


def _coins_inputs(phase: Phase, rows: list[Order], *, observers: bool = True) -> dict[str, Any]:
    """Part 2's `extra` keys from the stage's rows: bets, raises, sympathies, ally picks, trial
    answers, grants (an answer's post mapped to its author here, never on the granter's row), the
    message fees already charged, and `acted_at` (seconds from the stage's open to the hero's
    standing action row)."""
    extra: dict[str, Any] = {}
    bets: dict[int, int] = {}
    raises: list[int] = []
    sympathies: dict[int, int] = {}
    ally_picks: dict[int, int] = {}
    answers: list[int] = []
    grants: dict[int, Any] = {}
    fees: dict[int, int] = {}
    acted_at: dict[int, float] = {}
    authors: dict[int, int] | None = None
    for row in rows:
        actor, detail = row.actor_id, dict(row.detail or {})
        # When he acted (the stage fee): a GM's replacement of a choice he made keeps his own time
        if row.action in ACTION_ROWS and not (row.source == Order.Source.GM and actor in acted_at):
            acted_at[actor] = max(0.0, (row.recorded_at - phase.opened_at).total_seconds())
        if row.action == BET and row.target_id is not None:
            bets[actor] = row.target_id
        elif row.action == RAISE:
            if actor not in raises:
                raises.append(actor)
            if row.target_id is not None:
                bets[actor] = row.target_id
        elif row.action == SYMPATHY and row.target_id is not None:
            sympathies[actor] = row.target_id
        elif row.action == PICK_ALLY and row.target_id is not None:
            ally_picks[actor] = row.target_id
        elif row.action == TRIAL_ANSWER and actor not in answers:
            answers.append(actor)
        elif row.action == GRANT_PASS:
            grants[actor] = "pass"
        elif row.action == GRANT and detail.get("post") is not None:
            if authors is None:
                authors = {int((r.detail or {}).get("post") or 0): r.actor_id for r in
                           Order.objects.filter(phase__game_id=phase.game_id, action=TRIAL_ANSWER, valid=True)}
            author = authors.get(int(detail["post"]))
            if author is not None:
                given = grants.get(actor)
                grants[actor] = {**(given if isinstance(given, dict) else {}), author: int(detail.get("amount") or 0)}
        elif row.action == MESSAGE_FEE:
            fees[actor] = fees.get(actor, 0) + int(detail.get("amount") or 0)
    for key, value in (("bets", bets), ("raise", raises), ("sympathies", sympathies), ("ally_picks", ally_picks),
                       ("trial_answers", answers), ("grants", grants), ("message_fees", fees), ("acted_at", acted_at)):
        if value:
            extra[key] = value
    if not observers:
        return extra
    stage = phase_stage_name(phase)
    if phase_ledger(phase) is not None:  # a page's read: the game's books, shared with the GM's card of the coins
        paid = sum(amount for _debit, _credit, amount, reason, at in game_books(phase.game).lines
                   if at == stage and reason == OBSERVER_FEE)
    else:
        paid = sum(Entry.objects.filter(game_id=phase.game_id, stage=stage, reason=OBSERVER_FEE)
                   .values_list("amount", flat=True))
    if paid:
        extra["observer_fees"] = paid
    return extra


def ledger_row_text(order: Order) -> str | None:
    """The words after a ledger row's action label: a ballot's word, a post's kind, a night extra."""
    detail = dict(order.detail or {})
    if order.action == VOTE and detail.get("ballot"):
        return str(ACTION_LABELS.get(detail["ballot"], detail["ballot"]))
    if order.action == POST:
        return str(ACTION_LABELS.get(detail.get("kind", ""), ""))
    if order.action in NIGHT_ACTIONS and any(detail.get(k) for k in DETAIL_KEYS):
        names = _dealt_names(order, [detail[k] for k in DETAIL_KEYS if detail.get(k)])
        return ", ".join(f"{DETAIL_LABELS[k]}: {names.get(detail[k], '?')}" for k in DETAIL_KEYS if detail.get(k))
    if order.action in (GRANT, MESSAGE_FEE):
        # A grant's row names the answer's number, never its (anonymous) author.
        return f"{int(detail.get('amount') or 0)} ㉿"
    if order.action in {VOTE, REQUEST, KNOWLEDGE, LULL, WAKE, DONE, BET, RAISE, SYMPATHY, PICK_ALLY, TRIAL_ANSWER,
                        GRANT_PASS} | NIGHT_ACTIONS | JUDGE_ACTIONS:
        return ""
    if order.action in PRIVILEGE_ROWS:
        return privilege_row_text(order)
    return None


def _dealt_names(order: Order, seat_ids: list[int]) -> dict[int, str]:
    """Seat id -> the hero's name for the seats a ledger row names: from the page's roster when the
    row's actor came from it (its game's seats, games.permissions.remembered_seats: the archive
    names every row's seats without a query each), else read."""
    actor = Order._meta.get_field("actor").get_cached_value(order, default=None)
    game = Seat._meta.get_field("game").get_cached_value(actor, default=None) if actor is not None else None
    seats = permissions.remembered_seats(game) if game is not None else None
    if seats is not None:
        return {s.pk: s.dealt_name for s in seats if s.pk in seat_ids}
    return dict(Seat.objects.filter(pk__in=seat_ids).values_list("pk", "dealt_name"))


def phase_stage_name(phase: Phase) -> str:
    """The engine's name of the stage a phase is («greetings», «night 1»), as ledger lines carry it."""
    return f"{phase.kind} {phase.number}" if phase.number else phase.kind


def _ledger_outcome(game: Game, outcome: dict) -> None:
    """The outcome's money keys read back from the ledger (so play_scenario's `bank`, `pot` and
    `balances` check what the site really posted): the show's bank and pot accounts, and each hero's
    net in this show (every line of his account naming the game; fines are the GM's, not the show's)."""
    if "bank" in outcome or "pot" in outcome:
        keys = {name: f"game:{game.pk}:{name}" for name in ("bank", "pot")}
        found = dict(Account.objects.filter(key__in=keys.values()).values_list("key", "balance"))
        for name, key in keys.items():
            if name in outcome:
                outcome[name] = int(found.get(key, 0))
    if "balances" in outcome:
        names = dict(Seat.objects.filter(game=game).values_list("user_id", "dealt_name"))
        nets = dict.fromkeys(names.values(), 0)
        lines = Entry.objects.filter(game=game).exclude(reason="fine").values_list(
            "debit__user_id", "credit__user_id", "amount")
        for debit, credit, amount in lines:
            if debit in names:
                nets[names[debit]] -= amount
            if credit in names:
                nets[names[credit]] += amount
        outcome["balances"] = nets


def close_outcome(*, phase: Phase, outcome: dict) -> dict:
    """Inside the close's transaction (games.services.resolution.phase_close): the stage's money
    posted to the coins ledger (`outcome["transfers"]`, the engine's references mapped to the
    ledger's accounts), so the stage and its coins commit together or not at all; then the heroes
    woken at once during the stage (by a post or a button) join the close's `woke`."""
    post_transfers(game=phase.game, transfers=list(outcome.get("transfers") or ()), stage=phase_stage_name(phase),
                   action="close")
    _ledger_outcome(phase.game, outcome)
    woken = list(phase.orders.filter(valid=True, action=WAKE).order_by("pk")
                 .values_list("actor__dealt_name", flat=True))
    if woken:
        outcome["woke"] = list(dict.fromkeys([*woken, *(outcome.get("woke") or [])]))
    return outcome


def stage_awaited(*, game: Game, phase: Phase) -> frozenset[int]:
    """The heroes the open stage still waits for, by the engine's own count (SiteRuleset.awaited):
    what the stage owes, not any input (an opinion requested is not the day's vote)."""
    if phase.closed_at is not None or not game.state:
        return frozenset()
    return frozenset(SHOW.waiting_for(game_state(game), ledger_inputs(phase, fees=False)))


def stage_deadline(*, game: Game, now: datetime) -> datetime | None:
    """The timer of the stage opening now: the engine's; none at all (due at once, so the deadline
    task closes it as soon as it runs) for a stage that waits for nothing, neither a required nor an
    optional input (issue 28, item 15: «Выбор Союзника» with no sympathy sent; a defence whose
    defendants all spoke before: «все не будут ждать по Таймеру его новой Речи»). A stage of a
    sleeping table (every free hero in coma, SHOW.sleeping_table) keeps its timer: issue 30."""
    state = stored_state(game.state)
    if state is None or state.over:
        return None
    if SHOW.ends_early(state, PhaseInputs()):
        return now
    return SHOW.deadline(state, now)


# --- Writing -------------------------------------------------------------------------------------
@dataclass
class _Stage:
    game: Game
    phase: Phase
    seat: Seat
    state: Any


def _open(*, game: Game, user) -> tuple[_Stage | None, str]:
    """The game locked, its open stage and the hero: (stage, "") or (None, reason)."""
    # NO KEY UPDATE, as games.services.resolution.phase_close takes it: rows that only reference the
    # game (a ledger line, an anonymous message) do not wait, nor make a lock upgrade deadlock.
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if game.status != Game.Status.RUNNING or not game.state:
        return None, "not_running"
    phase = game.current_phase
    if phase is None or phase.closed_at is not None:
        return None, "no_stage"
    seat = Seat.objects.filter(game=game, user=user).first() if getattr(user, "is_authenticated", False) else None
    if seat is None:
        return None, "not_a_player"
    return _Stage(game=game, phase=phase, seat=seat, state=game_state(game)), ""


def _write(stage: _Stage, *, action: str, now: datetime, target: int | None = None, detail: dict | None = None,
           code: str = "", user=None) -> Order:
    return Order.objects.create(phase=stage.phase, actor=stage.seat, action=action, target_id=target,
                                detail=detail or None, valid=not code, reason=code, recorded_at=now,
                                recorded_by=user or stage.seat.user)


def _save_state(stage: _Stage, state, events, now: datetime) -> None:
    """A change applied at once: the new state kept, its events stored and the public ones told in the
    game thread («все получают уведомление об этом»)."""
    state_apply_now(game=stage.game, phase=stage.phase, state=state, events=events, now=now)
    stage.state = state


def _touch(stage: _Stage, now: datetime) -> None:
    """«Как только герой проявляет любую активность ..., он автоматически выходит из комы и все
    получают уведомление об этом»: any input of a free hero in coma wakes him at once."""
    if not in_coma(stage.state, stage.seat.pk):
        return
    state, events = SHOW.wake(stage.state, stage.seat.pk)
    _write(stage, action=WAKE, now=now)
    _save_state(stage, state, events, now)


def _close_if_done(stage: _Stage, now: datetime, early_close: bool) -> bool:
    """«Любой этап заканчивается либо когда все активные герои совершают необходимое на этом этапе
    действие, либо когда Таймер обнуляется»: closed at once when the engine waits for nobody."""
    if not early_close or stage.game.status != Game.Status.RUNNING:
        return False
    if not SHOW.ends_early(stage.state, ledger_inputs(stage.phase)):
        return False
    return phase_close(phase_id=stage.phase.pk, now=now)


def _accepted(stage: _Stage, *, action: str, now: datetime, early_close: bool, target: int | None = None,
              detail: dict | None = None) -> ShowResult:
    """An input that stands: the hero woken if he slept, the input in the ledger, the stage closed
    if it now waits for nobody."""
    _touch(stage, now)
    _write(stage, action=action, now=now, target=target, detail=detail)
    return ShowResult(True, closed=_close_if_done(stage, now, early_close))


def _refused(stage: _Stage | None, code: str, *, action: str, now: datetime, target: int | None = None,
             detail: dict | None = None) -> ShowResult:
    """An input that does not stand: recorded as refused, and nothing else changes but this: a hero
    in coma who pressed a button is awake («нажимает любые кнопки ... выходит из комы»), as the
    engine's close wakes whoever sent anything."""
    if stage is not None:
        _touch(stage, now)
        _write(stage, action=action, now=now, target=target, detail=detail, code=code)
    return ShowResult(False, code)


def _seat_pk(seat) -> int | None:
    return None if seat is None else getattr(seat, "pk", seat)


def input_pk(value) -> int | None:
    """A seat (or post) given as a model, an id or a form's text, as an id; None for what is none."""
    value = None if value is None else getattr(value, "pk", value)
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def show_input(game: Game, user, action: str, target, now: datetime | None, check, *, detail: dict | None = None,
               at_once=None, early_close: bool = True) -> ShowResult:
    """One input of a hero's panel that needs no more than a check: the game locked, the engine's
    check (`check(stage, target)` -> a reason code or None), then either applied at once
    (`at_once(stage, target)` -> (state, events)) or left in the ledger for the stage's close (which
    it may end now, `early_close`). A refusal is recorded and changes nothing else."""
    now = now or timezone.now()
    target = input_pk(target)
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        code = check(stage, target)
        if code is not None:
            return _refused(stage, code, action=action, now=now, target=target, detail=detail)
        if at_once is None:
            return _accepted(stage, action=action, now=now, target=target, detail=detail, early_close=early_close)
        _touch(stage, now)
        _write(stage, action=action, now=now, target=target, detail=detail)
        state, events = at_once(stage, target)
        _save_state(stage, state, events, now)
        # an at-once input may be the last thing the stage waited for (the Вышибала's stun)
        return ShowResult(True, closed=_close_if_done(stage, now, early_close))


def show_vote(*, game: Game, user, target=None, ballot: str | None = None, now: datetime | None = None,
              early_close: bool = True) -> ShowResult:
    """A day vote or a re-vote ballot: a hero (target), or «В рабство» / «Пощадить» (ballot) with one
    defendant. The ballot is the hero's own until the stage's close («Кто как проголосовал становится
    всем видно только в конце этапа»)."""
    now = now or timezone.now()
    target = _seat_pk(target)
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        detail = {"ballot": ballot} if ballot else None
        kind, _n = parse_phase(stage.state.phase)
        if kind not in (DAY, REVOTE):
            return _refused(stage, "not_your_action", action=VOTE, now=now, target=target, detail=detail)
        if ballot is not None and ballot not in (TO_SLAVERY, SPARE):
            return _refused(stage, "bad_ballot", action=VOTE, now=now, detail=detail)
        value = ballot if ballot is not None else target
        if value is None:
            return _refused(stage, "missing_target", action=VOTE, now=now)
        code = SHOW.check_vote(stage.state, stage.seat.pk, value)
        if code is not None:
            return _refused(stage, code, action=VOTE, now=now, target=target, detail=detail)
        return _accepted(stage, action=VOTE, now=now, target=target, detail=detail, early_close=early_close)


def show_order(*, game: Game, user, action: str, target=None, detail: dict | None = None,
               now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """A night choice (with its extras: the judge's questioning, the Saviour's public key and extra
    Secret Knowledge, as seat ids) or the judge's decision; the last accepted one stands."""
    now = now or timezone.now()
    target = _seat_pk(target)
    detail = {k: _seat_pk(v) for k, v in (detail or {}).items() if v not in (None, "")}
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        kind, _n = parse_phase(stage.state.phase)
        if kind not in (NIGHT, JUDGE) or action not in (NIGHT_ACTIONS if kind == NIGHT else JUDGE_ACTIONS):
            return _refused(stage, "not_your_action", action=action[:32], now=now, target=target, detail=detail)
        if kind == JUDGE and action == SPARE:
            target = None  # «Пощадить» names nobody (the judge's form keeps one defendant select for both)
        code = SHOW.check_order(stage.state, EngineOrder(actor=stage.seat.pk, action=action, target=target,
                                                         detail=detail))
        if code is not None:
            return _refused(stage, code, action=action, now=now, target=target, detail=detail)
        return _accepted(stage, action=action, now=now, target=target, detail=detail, early_close=early_close)


def show_request(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """«каждый оставшийся на свободе участник имеет возможность анонимно выбрать, чьё
    аудио/видео-Мнение он обязательно хочет увидеть»: who asked stays with the GM."""
    now = now or timezone.now()
    target = _seat_pk(target)
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        code = SHOW.check_request(stage.state, stage.seat.pk, target)
        if code is not None:
            return _refused(stage, code, action=REQUEST, now=now, target=target)
        return _accepted(stage, action=REQUEST, now=now, target=target, early_close=early_close)


def show_media_post(*, game: Game, user, kind: str, post: Post | None = None, now: datetime | None = None,
                    early_close: bool = True) -> ShowResult:
    """A greeting, defence speech or opinion made (a media post; or a text post standing in for one,
    show_post_stored)."""
    now = now or timezone.now()
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        return _media_post(stage, kind, post, now, early_close)


def _media_post(stage: _Stage, kind: str, post: Post | None, now: datetime, early_close: bool) -> ShowResult:
    detail = {"kind": kind, **({"post": post.pk} if post is not None else {})}
    if kind not in POST_KINDS or kind not in SHOW.allowed_actions(stage.state, stage.seat.pk):
        return _refused(stage, "not_your_action", action=POST, now=now, detail=detail)
    return _accepted(stage, action=POST, now=now, detail=detail, early_close=early_close)


def owed_post_kind(stage: _Stage) -> str | None:
    """Which media post the hero owes now: his greeting (greetings), his defence speech (a
    defendant in the defence stage), or his opinion (day 2 on, when someone has requested it); None
    once he made it in this stage (a media post or a text post standing in)."""
    kind, _n = parse_phase(stage.state.phase)
    allowed = SHOW.allowed_actions(stage.state, stage.seat.pk)
    if stage.phase.orders.filter(actor=stage.seat, action=POST, valid=True).exists():
        return None
    if kind == GREETINGS and GREETING in allowed:
        return GREETING
    if kind == DEFENCE and DEFENCE_SPEECH in allowed:
        return DEFENCE_SPEECH
    if kind == DAY and OPINION in allowed:
        requested = ledger_inputs(stage.phase).extra.get("opinion_requests") or {}
        if stage.seat.pk in {int(t) for t in requested.values() if t is not None}:
            return OPINION
    return None


def text_post_kind(stage: _Stage) -> str | None:
    """Which media post a hero's text post stands in for, when the GM allows (option `text_posts`,
    on unless the GM ticked «Только медиапосты»): his FIRST post in the game thread in the stage that
    owes one (owed_post_kind). Later posts are talk."""
    if (stage.game.options or {}).get("text_posts", True) is False:
        return None
    return owed_post_kind(stage)


def show_media_owed(*, game: Game, user) -> str | None:
    """Read-only (the reply form asks it; the upload asks it again under the post's lock): the media
    post `user` owes in the game's open stage, or None (not a free hero, no stage, nothing owed)."""
    if game.status != Game.Status.RUNNING or not game.state or not getattr(user, "is_authenticated", False):
        return None
    phase = game.current_phase
    if phase is None or phase.closed_at is not None:
        return None
    seat = Seat.objects.filter(game=game, user=user).first()
    state = game_state(game)
    if seat is None or state is None or not state.has_seat(seat.pk) or not state.seat(seat.pk).is_active:
        return None
    return owed_post_kind(_Stage(game=game, phase=phase, seat=seat, state=state))


def show_post_stored(*, game: Game, post: Post, now: datetime) -> bool:
    """A player's post in the game thread (SiteRuleset.post_stored, in the post's transaction): it
    wakes him, and may stand in for his media post; True when it ended the stage."""
    with transaction.atomic():
        if post.thread_id == game.game_thread_id and not Seat.objects.filter(game=game, user=post.author).exists():
            charge_observer(game=game, post=post)
            return False
        stage, _code = _open(game=game, user=post.author)
        if stage is None or stage.state is None or not stage.state.has_seat(stage.seat.pk):
            return False
        if not stage.state.seat(stage.seat.pk).is_active:
            return False
        # A post carrying an audio or video file (games.services.media) is the media post he owes,
        # whatever the GM's option; a text post stands in for it only when the GM allows.
        kind = owed_post_kind(stage) if _has_media(post) else text_post_kind(stage)
        if post.shown_author_id:
            kind = None  # a post signed as another hero (the Говорун's /fake) stands in for nothing
        if kind is not None:
            return _media_post(stage, kind, post, now, True).closed
        _touch(stage, now)
        charge_message(stage, post, now)
        return False


# --- Message fees (part 2: docs/rulesets/show.md, "Part 2 on the site") ----------------------------
def _is_private_only(body: str) -> bool:
    """A post of [private] messages alone: it has the tag and no public word, read by the one BBCode
    parser (bbcode.searchable_text leaves the [private] texts out)."""
    return permissions.has_private_messages(body) and not bbcode.searchable_text(body or "")


def _media_post_ids(phase) -> set[int]:
    return {int((r.detail or {}).get("post")) for r in phase.orders.filter(valid=True, action=POST)
            if (r.detail or {}).get("post")}


def messages_in_stage(*, game: Game, phase, user, exclude: int | None = None) -> int:
    """The hero's posts in the common thread during the stage that count against the free limit: not
    his media post (the stage's action) and not a post of [private] messages only («Приватные
    персональные сообщения всегда бесплатны»)."""
    posts = Post.objects.filter(thread=game.game_thread, author=user, created_at__gte=phase.opened_at)
    if exclude is not None:
        posts = posts.exclude(pk=exclude)
    media = _media_post_ids(phase)
    return sum(1 for pk, body in posts.values_list("pk", "body") if pk not in media and not _is_private_only(body))


def site_fee(state, seat: int, amount: int, reason: str) -> int:
    """What a fee the site charges itself (a message's) comes to for this hero once the privileges
    change it, by the engine's one rule (privileges.adjust_transfers: «Любые платные сообщения
    (кроме анонимных) НЕ отбирают в Банк монеты у обладателя» — the Говорун's cost him nothing)."""
    if amount <= 0:
        return 0
    return sum(t.amount for t in adjust_transfers(state, [Transfer(hero(seat), BANK, amount, reason)]))


def charge_message(stage: _Stage, post: Post, now: datetime) -> int:
    """In the post's transaction (SiteRuleset.post_stored): «превышая который участник начинает
    платить в Банк за каждое новое сообщение в общий чат»: past the free limit of the stage, the
    message fee from the hero's balance to the show's bank (one ledger line, the game and the stage
    on it), and a row the close reads (`extra["message_fees"]`) so the engine's bank counts it."""
    if _is_private_only(post.body):
        return 0
    sent = messages_in_stage(game=stage.game, phase=stage.phase, user=post.author, exclude=post.pk)
    fee = site_fee(stage.state, stage.seat.pk, message_fee(stage.state.options, sent), MESSAGE_FEE)
    if fee <= 0:
        return 0
    coins.post([coins.Line(coins.user_key(post.author), coins.game_key(stage.game, "bank"), fee, MESSAGE_FEE)],
               game=stage.game, stage=phase_stage_name(stage.phase), action="message")
    _write(stage, action=MESSAGE_FEE, now=now, detail={"amount": fee, "post": post.pk})
    return fee


def observer_fee(game: Game, user) -> int | None:
    """What an observer's (a logged-in user without a seat) next post in the running show's common
    thread costs: «Наблюдатели во время Шоу могут писать в общий чат за плату» (every post, no free
    limit); None for a seated user, the GMs (they run the show) and outside a running show."""
    if game.status != Game.Status.RUNNING or not game.state or not getattr(user, "is_authenticated", False):
        return None
    if game.gm_id == user.pk or game.co_gms.filter(pk=user.pk).exists() or Seat.objects.filter(game=game, user=user).exists():
        return None
    state = game_state(game)
    return message_fee(state.options, 0, observer=True) if state is not None else None


def charge_observer(*, game: Game, post: Post) -> int:
    """In the post's transaction: the observer's fee from his balance to the show's bank, one ledger
    line with the game and the stage on it; the close counts the stage's observer lines in the bank
    (`extra["observer_fees"]`, read from the ledger: an observer has no seat for an order row)."""
    fee = observer_fee(game, post.author)
    if not fee or game.current_phase is None:
        return 0
    coins.post([coins.Line(coins.user_key(post.author), coins.game_key(game, "bank"), fee, OBSERVER_FEE)],
               game=game, stage=phase_stage_name(game.current_phase), action="observer")
    return fee


def _has_media(post: Post) -> bool:
    try:
        return post.media is not None
    except Post.media.RelatedObjectDoesNotExist:
        return False


def show_done(*, game: Game, user, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """«Я всё»: the hero gives none of the optional inputs he may still give in this stage, so they
    hold it open no longer (issue 28, item 4); he may still give them until the stage ends."""
    now = now or timezone.now()
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        if not SHOW.optional_actions(stage.state, stage.seat.pk, ledger_inputs(stage.phase)):
            return _refused(stage, "nothing_open", action=DONE, now=now)
        return _accepted(stage, action=DONE, now=now, early_close=early_close)


def show_wake(*, game: Game, user, now: datetime | None = None) -> ShowResult:
    """The «I am here» button: a hero in coma wakes (any other button does it too)."""
    now = now or timezone.now()
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        if not stage.state.seat(stage.seat.pk).is_active:
            return ShowResult(False, "not_free")
        _touch(stage, now)
        return ShowResult(True, closed=_close_if_done(stage, now, True))


def show_use_knowledge(*, game: Game, user, target, now: datetime | None = None, at_once: bool = True) -> ShowResult:
    """A Secret Knowledge right used at once on a hero: one random key about him that is not public yet
    (never «не-Масон»); the thread hears only that someone received one. `at_once=False` (scenario
    files, as the engine's own files use it) leaves it to the stage's close (`extra["knowledge"]`)."""
    now = now or timezone.now()
    target = _seat_pk(target)
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        code = SHOW.check_knowledge(stage.state, stage.seat.pk, target)
        if code is not None:
            return _refused(stage, code, action=KNOWLEDGE, now=now, target=target)
        _touch(stage, now)
        if not at_once:
            _write(stage, action=KNOWLEDGE, now=now, target=target, detail={"at_close": True})
            return ShowResult(True)
        state, events = SHOW.use_knowledge(stage.state, stage.seat.pk, target, seed=stage.game.rng_seed or 0)
        _write(stage, action=KNOWLEDGE, now=now, target=target)
        _save_state(stage, state, events, now)
        return ShowResult(True)


def show_lull(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """A /lull ballot: «Можно принудительно отправлять в кому героев большинством голосов»; a hero
    named by more than half of the free heroes awake falls into coma at once."""
    now = now or timezone.now()
    target = _seat_pk(target)
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        code = SHOW.check_input(stage.state, stage.seat.pk, LULL, target)
        if code is not None:
            return _refused(stage, code, action=LULL, now=now, target=target)
        _touch(stage, now)
        _write(stage, action=LULL, now=now, target=target)
        ballots: dict[int, int] = {}
        for row in stage.phase.orders.filter(valid=True, action=LULL).order_by("recorded_at", "pk"):
            ballots[row.actor_id] = row.target_id
        state, events = SHOW.lull(stage.state, ballots)
        if events:
            _save_state(stage, state, events, now)
        return ShowResult(True, closed=_close_if_done(stage, now, early_close))


def accepted_text(act: str, *, closed: bool = False) -> str:
    text = _("Done: your choice is recorded.")
    if closed:
        text += " " + _("Everyone has acted: the stage is over.")
    return text


# --- The GM's replacement of a hero's input (issue 28, item 19) ----------------------------------
# What the GM may put right for a hero («Заменить приказ»): every input the stage's close reads from
# the ledger, where a hero's last accepted row of a kind stands, so a new row replaces a misclick:
# the day vote and the re-vote ballots, an opinion request, the night choices (with their extras),
# the judge's decision, the Авторитет's extra vote, the Адвокат's exclusion, a carousel theft, the
# first night's bet and «Выбор Союзника». Not the inputs done when made (a stun, /mole, /lull, a
# Хакер's guess, a Secret Knowledge used, /fake: nothing is left to replace), nor what carries the
# hero's own words or counts once a stage (a sympathy's message, a Talent's raise), nor media posts.
GM_REPLACEABLE: tuple[str, ...] = (VOTE, REQUEST, SUSPECT, SAVE, RELIEVE, ENSLAVE, SPARE, EXTRA_VOTE, EXCLUDE,
                                   STEAL, BET, PICK_ALLY)
# The ballot words a vote (and the Авторитет's extra vote) may carry instead of a hero.
BALLOT_WORDS = (TO_SLAVERY, SPARE)
GM_REPLACED = "order_override"  # the GM log's action (the core's words: «overrode an order»)


def gm_replace_menu(state, hero: int, phase: Phase, inputs: PhaseInputs | None = None) -> dict[str, tuple]:
    """What the GM may enter for the hero now: the engine's menu of the hero (SHOW.menu: the actions
    the engine allows him in this stage and their valid choices), the replaceable inputs only, and
    the night choices' extras (DETAILS) beside them."""
    if phase is None or phase.closed_at is not None or state is None or state.over:
        return {}
    inputs = inputs if inputs is not None else ledger_inputs(phase)
    offers = SHOW.menu(state, hero, inputs)
    keep = set(GM_REPLACEABLE) | set(DETAIL_KEYS)
    return {action: choices for action, choices in offers.items() if action in keep}


def _row_of(action: str, choice) -> tuple[int | None, dict | None]:
    """(target, detail) of the ledger row that carries `choice` for `action` (services' rows)."""
    if choice in BALLOT_WORDS and action in (VOTE, EXTRA_VOTE):
        return None, {"ballot": choice}
    return (None if action == SPARE else choice), None


def show_gm_replace(*, game: Game, gm, seat: Seat, action: str, choice=None, detail: dict | None = None,
                    now: datetime | None = None) -> ShowResult:
    """The GM enters an input for a hero in the open stage (a misclicked ballot put right): checked by
    the engine's one rule for that hero (SHOW.check_input, the whole night order with its extras by
    SHOW.check_order), written as the hero's row in the ledger with `source` GM and the GM as its
    recorder, so it stands as the hero's last one and the close counts it as his (a hero in coma is
    woken by the close, as by any input of his that stands: the GM enters what the hero asked him
    for); logged in the GM log. It wakes nobody at once and ends no stage early (the GM closes it
    when he wants). A refusal is logged too and writes no row."""
    if not permissions.is_game_master(gm, game):
        raise ActionRefused(_("Only the GM replaces a hero's input."), code="not_allowed")
    now = now or timezone.now()
    given = {k: v for k, v in (detail or {}).items() if k in DETAIL_KEYS and v not in (None, "")}
    detail = {k: input_pk(v) for k, v in given.items()}
    with transaction.atomic():
        game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
        phase = game.current_phase
        if game.status != Game.Status.RUNNING or not game.state or phase is None or phase.closed_at is not None:
            raise ActionRefused(_("No phase is going on."), code="no_phase")
        if seat is None or seat.game_id != game.pk:
            raise ActionRefused(_("That player is not in this game."), code="foreign_seat")
        state = game_state(game)
        target, row_detail = _row_of(action, choice)
        kind, _n = parse_phase(state.phase)
        if action not in GM_REPLACEABLE:
            code = "not_your_action"
        else:
            code = SHOW.check_input(state, seat.pk, action, choice, ledger_inputs(phase))
        if code is None and any(v is None for v in detail.values()):
            code = "bad_target"
        if code is None and detail:
            if kind != NIGHT or action not in NIGHT_ACTIONS:
                code = "not_your_action"  # the extras ride on a night choice only
            else:
                code = SHOW.check_order(state, EngineOrder(actor=seat.pk, action=action, target=target, detail=detail))
                row_detail = {**(row_detail or {}), **detail}
        gm_log(game=game, user=gm, action=GM_REPLACED,
               data={"seat": seat.pk, "action": str(action)[:32], "target": target,
                     **({"ballot": choice} if choice in BALLOT_WORDS else {}),
                     **{k: v for k, v in detail.items()}, "accepted": code is None, "reason": code or ""},
               now=now)
        if code is not None:
            return ShowResult(False, code)
        Order.objects.create(phase=phase, actor=seat, action=action, target_id=target, detail=row_detail or None,
                             valid=True, reason="", recorded_at=now, recorded_by=gm, source=Order.Source.GM)
        return ShowResult(True)
