"""The show's coins on the site (issue 19, docs/rulesets/show.md "Part 2 on the site"): the hero's
part 2 inputs, each checked and written to the show's order ledger like the part 1 ones (an
accepted row stands, a refused one keeps its reason), and the message fee charged when a post is
stored. ledger_inputs (services.py) reads the rows into the engine's `extra` keys:

- "bet" (target: the pick) — the first night, until the morning: `extra["bets"]`;
- "raise" (target: the new pick, optional) — a Talent in the defence: `extra["raise"]` (+ his pick);
- "sympathy" (target) — day 1, defence 1 (the first), revote 1 (the second): `extra["sympathies"]`;
- "pick_ally" (target) — the «Выбор Союзника» stage: `extra["ally_picks"]`;
- "trial_answer" ({"post": id}) — a trial slave's one answer, posted in the game thread by the GM's
  hand (anonymous: the row, seen by its author and the GMs only, is the one place that names him);
- "grant" ({"post": answer post id, "amount": 10 | 15 | 25}) and "grant_pass" — `extra["grants"]`
  (the row names the answer's post, never its author: the granter's own row does not tell him);
- "message_fee" ({"amount", "post"}) — a fee already posted to the ledger: `extra["message_fees"]`.

The time of a hero's standing action row (seconds from the stage's open) is `extra["acted_at"]`,
the stage fee's timing. Every fee is shown before it is paid (selectors: the panel, the reply form).
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from coins import services as coins
from games.models import Game, Order, Seat
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.menu import BET, PICK_ALLY, RAISE, SYMPATHY
from games.rulesets.show.engine.economy import message_fee, stage_fee
from games.rulesets.show.engine.stages import ALLIES, parse_phase
from games.rulesets.show.services import (
    ShowResult,
    _accepted,
    _open,
    _refused,
    _Stage,
    _write,
    messages_in_stage,
    observer_fee,
    input_pk,
    ledger_inputs,
    phase_stage_name,
    show_input,
    site_fee,
)
from games.rulesets.show.engine.privileges import ANONYMOUS_FEE
from games import permissions
from games.rulesets.show.wording import WORDING
from games.selectors.state import game_state
from games.services import ActionRefused
from games.services.journal import gm_log
from games.services.resolution import state_apply_now
from games.services.media import media_check, media_store
from games.services.posts import post_create
from games.text import bbcode

TRIAL_ANSWER, GRANT, GRANT_PASS, MESSAGE_FEE = "trial_answer", "grant", "grant_pass", "message_fee"
TRIAL = "trial"  # the media kind of a trial answer (an image counts: «фото, видео или стикер»)


# --- Reading: what a hero may do now ----------------------------------------------------------------
def trial_of(state) -> dict | None:
    return state.memory.get("trial") or None


def answer_rows(game: Game):
    """Every trial answer of the show, oldest first (the rows name their authors: callers that show
    them to a viewer go through games.permissions)."""
    return Order.objects.filter(phase__game=game, action=TRIAL_ANSWER, valid=True).order_by("recorded_at", "pk")


def open_answers(game: Game, state) -> list[tuple[int, int]]:
    """The running trial's answers as (post id, author seat), in posting order."""
    trial = trial_of(state)
    if not trial:
        return []
    slaves = {int(s) for s in trial.get("slaves") or ()}
    rows = answer_rows(game).filter(phase__number__gte=int(trial.get("day") or 0))
    seen: dict[int, int] = {}
    for row in rows:
        post = (row.detail or {}).get("post")
        if row.actor_id in slaves and row.actor_id not in seen.values() and post:
            seen[int(post)] = row.actor_id
    return list(seen.items())


def acting_fee(state, phase, now: datetime) -> int:
    """«чем позже они это делают - тем выше этот Взнос»: what the stage's action costs if done now."""
    elapsed = (now - phase.opened_at).total_seconds()
    return stage_fee(state.options, elapsed, SHOW.stage_length(state).total_seconds())


def next_message_fee(*, game: Game, user) -> int | None:
    """Read-only, for the reply form: what the user's next post in the game thread costs (None when
    he is no free hero of the running show: he posts nothing there, or nothing is charged)."""
    if game.status != Game.Status.RUNNING or not game.state or not getattr(user, "is_authenticated", False):
        return None
    phase = game.current_phase
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        return observer_fee(game, user)  # an observer pays for every post (None for the GMs)
    if phase is None or phase.closed_at is not None:
        return None
    state = game_state(game)
    if state is None or not state.has_seat(seat.pk) or not state.seat(seat.pk).is_active:
        return None
    return site_fee(state, seat.pk, message_fee(state.options, messages_in_stage(game=game, phase=phase, user=user)),
                    MESSAGE_FEE)


# --- Writing ------------------------------------------------------------------------------------
def _bet_check(stage: _Stage, target: int | None) -> str | None:
    return SHOW.check_input(stage.state, stage.seat.pk, BET, target)


def show_bet(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """«в первую ночь каждый герой автоматически делает Ставку на случайно выбранного героя, но
    может до утра поменять свою Ставку на другого героя»: a free hero (himself allowed)."""
    return show_input(game, user, BET, target, now, _bet_check, early_close=early_close)


def _raise_check(stage: _Stage, target: int | None) -> str | None:
    return SHOW.check_input(stage.state, stage.seat.pk, RAISE, target, ledger_inputs(stage.phase))


def show_raise(*, game: Game, user, target=None, now: datetime | None = None,
               early_close: bool = True) -> ShowResult:
    """A Talent raises every slave's stake by the base in the defence, and may change his pick."""
    return show_input(game, user, RAISE, target, now, _raise_check, early_close=early_close)


def _sympathy_check(stage: _Stage, target: int | None) -> str | None:
    return SHOW.check_input(stage.state, stage.seat.pk, SYMPATHY, target)


SYMPATHY_MESSAGE_MAX = 1000  # characters of a sympathy's deferred message


def sympathy_message_clean(message: str | None) -> str:
    """A sympathy's deferred message as stored («отправляет ему отложенное сообщение,
    подкрепляющее его намерение заключить Альянс»): BBCode as a post's body, its line breaks
    normalised, at most SYMPATHY_MESSAGE_MAX characters, something visible in it; rendered and
    sanitised as posts are when shown (games.text.bbcode.render). Empty: a sympathy without words.
    A refusal raises ActionRefused before anything is written."""
    text = (message or "").replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip()
    if not text:
        return ""
    if len(text) > SYMPATHY_MESSAGE_MAX:
        raise ActionRefused(_("The message is too long: %(length)d characters, the limit is %(limit)d.")
                            % {"length": len(text), "limit": SYMPATHY_MESSAGE_MAX}, code="too_long")
    if not bbcode.plain_text(bbcode.parse(text)).strip():
        raise ActionRefused(_("The message shows nothing: write some text in it."), code="nothing_visible")
    return text


def show_sympathy(*, game: Game, user, target, message: str | None = None, now: datetime | None = None,
                  early_close: bool = True) -> ShowResult:
    """A sympathy (a deferred message to the chosen hero, delivered at the «Выбор Союзника» stage):
    any hero, never to himself; the last one in its window stands, with its message."""
    text = sympathy_message_clean(message)
    return show_input(game, user, SYMPATHY, target, now, _sympathy_check, early_close=early_close,
                      detail={"message": text} if text else None)


def show_pick_ally(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """«Выбор Союзника»: one name from those he sent a sympathy to and those who sent him one."""
    return show_input(game, user, PICK_ALLY, target, now,
                      lambda stage, t: SHOW.check_input(stage.state, stage.seat.pk, PICK_ALLY, t),
                      early_close=early_close)


def show_trial_answer(*, game: Game, user, upload, now: datetime | None = None) -> ShowResult:
    """«раб должен прислать ... одно фото, видео или стикер»: the answer is posted in the game thread
    in the GM's name (everyone sees it, nobody but the GMs learns whose it is until the end); one
    answer per slave per trial. The file is checked by content (an image, audio or video)."""
    now = now or timezone.now()
    check = media_check(upload, images=True)  # refused (ActionRefused) before anything is written
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        trial = trial_of(stage.state)
        if not trial or stage.seat.pk not in {int(s) for s in trial.get("slaves") or ()}:
            return _refused(stage, "not_your_action", action=TRIAL_ANSWER, now=now)
        if stage.seat.pk in {a for _p, a in open_answers(game, stage.state)}:
            return _refused(stage, "already_answered", action=TRIAL_ANSWER, now=now)
        number = len(open_answers(game, stage.state)) + 1
        with translation.override(settings.LANGUAGE_CODE):
            if trial.get("task"):  # issue 28, item 6: the answer read beside the task it answers
                body = translation.gettext("Trial answer no. %(n)s (day %(day)s), anonymous. The task: «%(task)s».") % {
                    "n": number, "day": trial.get("day"), "task": trial["task"]}
            else:
                body = translation.gettext("Trial answer no. %(n)s (day %(day)s), anonymous.") % {
                    "n": number, "day": trial.get("day")}
        post = post_create(thread=game.game_thread, author=game.gm, body=body, now=now)
        media_store(post=post, upload=upload, check=check)
        _write(stage, action=TRIAL_ANSWER, now=now, detail={"post": post.pk})
        return ShowResult(True)


# --- The GM's task of the slaves' trial (issue 28, item 6) -------------------------------------------
def _gm_stage(game: Game, by):
    """The game locked (as a hero's input and the close lock it), its open stage and state, for a GM's
    write; ActionRefused (worded) for anyone else, or with no show running."""
    if not permissions.is_game_master(by, game):
        raise ActionRefused(_("Only the GM sets the slaves' tasks."), code="not_allowed")
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    if game.status != Game.Status.RUNNING or not game.state:
        raise ActionRefused(WORDING.reason_text("not_running"), code="not_running")
    phase = game.current_phase
    if phase is None or phase.closed_at is not None:
        raise ActionRefused(WORDING.reason_text("no_stage"), code="no_stage")
    return game, phase, game_state(game)


def show_trial_task(*, game: Game, by, text: str, now: datetime | None = None) -> dict:
    """«Каждое утро раб получает общее для всех рабов задание на этот день»: the GM changes the running
    trial's task, until its first answer (the answers are judged against it); told in the game thread.
    A refusal raises ActionRefused with the engine's reason, worded, and changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        game, phase, state = _gm_stage(game, by)
        inputs = ledger_inputs(phase)  # the answers given in the running stage count too
        code = SHOW.check_trial_task(state, text, inputs)
        if code is not None:
            raise ActionRefused(WORDING.reason_text(code), code=code)
        new_state, events = SHOW.set_trial_task(state, text, inputs)
        state_apply_now(game=game, phase=phase, state=new_state, events=events, now=now)
        task = SHOW.running_task(new_state)
        gm_log(game=game, user=by, action="trial_task", data=dict(task), now=now)
        return task


def show_trial_tasks(*, game: Game, by, tasks: list[str], now: datetime | None = None) -> list[str]:
    """The GM's list of the tasks still to come, one a line: the next morning that opens a trial takes
    the first (his way to set the next day's task before the morning). Told to the GMs only."""
    now = now or timezone.now()
    with transaction.atomic():
        game, phase, state = _gm_stage(game, by)
        code = SHOW.check_trial_tasks(state, tasks)
        if code is not None:
            raise ActionRefused(WORDING.reason_text(code), code=code)
        new_state, events = SHOW.set_trial_tasks(state, tasks)
        state_apply_now(game=game, phase=phase, state=new_state, events=events, now=now)
        left = SHOW.tasks_to_come(new_state)
        gm_log(game=game, user=by, action="trial_tasks", data={"count": len(left)}, now=now)
        return left


def show_grant(*, game: Game, user, post, amount=None, now: datetime | None = None) -> ShowResult:
    """«каждый участник ... может выделить один из трёх грантов (10㉿-15㉿-25㉿) каждому Ответу»: a
    grant to an answer (its post), never one's own; `amount=None` with post None is the pass
    («или платит базовый взнос (30㉿) и НЕ участвует в последующем дележе»)."""
    now = now or timezone.now()
    with transaction.atomic():
        stage, code = _open(game=game, user=user)
        if stage is None:
            return ShowResult(False, code)
        answers = dict(open_answers(game, stage.state))
        if not answers:
            return _refused(stage, "not_your_action", action=GRANT, now=now)
        if post is None and amount is None:
            return _accepted(stage, action=GRANT_PASS, now=now, early_close=False)
        post = input_pk(post)
        if post not in answers:
            return _refused(stage, "bad_target", action=GRANT, now=now, detail={"post": post})
        if answers[post] == stage.seat.pk:
            return _refused(stage, "self_forbidden", action=GRANT, now=now, detail={"post": post})
        try:
            amount = int(amount)
        except (TypeError, ValueError):
            amount = -1
        if amount not in [int(g) for g in stage.state.options["grants"]]:
            return _refused(stage, "bad_grant", action=GRANT, now=now, detail={"post": post})
        return _accepted(stage, action=GRANT, now=now, detail={"post": post, "amount": amount}, early_close=False)


def is_allies_stage(state) -> bool:
    return parse_phase(state.phase)[0] == ALLIES


def anonymous_fee(game: Game | None) -> int | None:
    """«За каждое анонимное сообщение берётся небольшая плата в Банк»: the anonymous part of
    message_fee (an anonymous message is not a message in the common thread: no free limit)."""
    state = game_state(game) if game is not None and game.state else None
    if state is None:
        return None
    return message_fee(state.options, 0, anonymous=True) - message_fee(state.options, 0)


def charge_anonymous(*, game: Game, message, now: datetime) -> int:
    """In the anonymous message's transaction (SiteRuleset.anonymous_sent): its fee from the
    sender's balance to the show's bank, and the row the close reads (`extra["message_fees"]`)."""
    stage, _code = _open(game=game, user=message.sender.user)
    fee = anonymous_fee(game) if stage is not None else None
    if fee and stage.state is not None and stage.state.has_seat(stage.seat.pk):
        fee = site_fee(stage.state, stage.seat.pk, fee, ANONYMOUS_FEE)  # the privileges' rule (the Говорун pays it)
    if not fee:
        return 0
    coins.post([coins.Line(coins.user_key(message.sender.user_id), coins.game_key(game, "bank"), fee, MESSAGE_FEE)],
               game=game, stage=phase_stage_name(stage.phase), action="anonymous")
    _write(stage, action=MESSAGE_FEE, now=now, detail={"amount": fee, "anonymous": message.pk})
    return fee
