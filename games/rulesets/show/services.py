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

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.orders import Order as EngineOrder
from games.engine.orders import PhaseInputs
from games.models import Game, Order, Phase, Post, Seat
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.facts import in_coma
from games.rulesets.show.engine.roles import ENSLAVE, RELIEVE, SAVE, SUSPECT
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
from games.rulesets.show.privileges_ledger import PRIVILEGE_ROWS, privilege_inputs, privilege_row_text
from games.rulesets.show.wording import ACTION_LABELS, DETAIL_LABELS, WORDING
from games.selectors.state import game_state, stored_state
from games.services.resolution import phase_close, state_apply_now

VOTE, REQUEST, POST, KNOWLEDGE, LULL, WAKE = "vote", "request_opinion", "post", "use_knowledge", "lull", "wake"
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
    return list(phase.orders.filter(valid=True).order_by("recorded_at", "pk"))


def ledger_inputs(phase: Phase) -> PhaseInputs:
    """The stage's PhaseInputs: the standing ballot, choice and request of each hero, the media posts
    made, and everyone who did anything (the close wakes them)."""
    votes: dict[int, Any] = {}
    orders: dict[int, EngineOrder] = {}
    requests: dict[int, int] = {}
    posted: dict[int, list[str]] = {}
    active: list[int] = []
    knowledge: dict[int, int] = {}
    for row in _rows(phase):
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
        elif row.action in NIGHT_ACTIONS | JUDGE_ACTIONS:
            orders[actor] = EngineOrder(actor=actor, action=row.action, target=row.target_id,
                                        detail={k: detail[k] for k in DETAIL_KEYS if detail.get(k) is not None})
    extra: dict[str, Any] = {"posted": posted, "opinion_requests": requests, "active": active}
    if knowledge:
        extra["knowledge"] = knowledge
    extra.update(privilege_inputs(_rows(phase)))  # part 3, the privileges' rows
    ratings = (phase.gm_decisions or {}).get("ratings")
    if ratings:
        extra["ratings"] = {int(k): v for k, v in ratings.items()}
    return PhaseInputs(votes=votes, orders=orders, extra=extra)


def ledger_row_text(order: Order) -> str | None:
    """The words after a ledger row's action label: a ballot's word, a post's kind, a night extra."""
    detail = dict(order.detail or {})
    if order.action == VOTE and detail.get("ballot"):
        return str(ACTION_LABELS.get(detail["ballot"], detail["ballot"]))
    if order.action == POST:
        return str(ACTION_LABELS.get(detail.get("kind", ""), ""))
    if order.action in NIGHT_ACTIONS and any(detail.get(k) for k in DETAIL_KEYS):
        names = dict(Seat.objects.filter(pk__in=[detail[k] for k in DETAIL_KEYS if detail.get(k)])
                     .values_list("pk", "dealt_name"))
        return ", ".join(f"{DETAIL_LABELS[k]}: {names.get(detail[k], '?')}" for k in DETAIL_KEYS if detail.get(k))
    if order.action in {VOTE, REQUEST, KNOWLEDGE, LULL, WAKE} | NIGHT_ACTIONS | JUDGE_ACTIONS:
        return ""
    if order.action in PRIVILEGE_ROWS:
        return privilege_row_text(order)
    return None


def close_outcome(*, phase: Phase, outcome: dict) -> dict:
    """The heroes woken at once during the stage (by a post or a button) join the close's `woke`."""
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
    return frozenset(SHOW.waiting_for(game_state(game), ledger_inputs(phase)))


def stage_deadline(*, game: Game, now: datetime, silent: timedelta) -> datetime | None:
    state = stored_state(game.state)
    if state is None or state.over:
        return None
    deadline = SHOW.deadline(state, now)
    if not SHOW.waiting_for(state, PhaseInputs()):
        return min(deadline, now + silent)
    return deadline


# --- Writing -------------------------------------------------------------------------------------
@dataclass
class _Stage:
    game: Game
    phase: Phase
    seat: Seat
    state: Any


def _open(*, game: Game, user) -> tuple[_Stage | None, str]:
    """The game locked, its open stage and the hero: (stage, "") or (None, reason)."""
    game = Game.objects.select_for_update().get(pk=game.pk)
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
        return False


def _has_media(post: Post) -> bool:
    try:
        return post.media is not None
    except Post.media.RelatedObjectDoesNotExist:
        return False


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
        state = stage.state
        if not state.seat(stage.seat.pk).is_active:
            return _refused(stage, "not_free", action=LULL, now=now, target=target)
        if target is None or not state.has_seat(target):
            return _refused(stage, "bad_target", action=LULL, now=now, target=target)
        if target == stage.seat.pk:
            return _refused(stage, "self_forbidden", action=LULL, now=now, target=target)
        if not state.seat(target).is_active:
            return _refused(stage, "target_not_free", action=LULL, now=now, target=target)
        if in_coma(state, target):
            return _refused(stage, "in_coma", action=LULL, now=now, target=target)
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
