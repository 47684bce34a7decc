"""The show's privileges on the site (part 3, issue 20; docs/rulesets/show.md, "Part 3 on the
site"): each holder's input checked with the engine (engine/privileges.py) and written to the
stage's order ledger like the show's other inputs (services.py), or applied at once.

The ledger's rows (action, target, detail):
- "stun" (target): the Вышибала's stun, applied at once (the stunned sends no message until the
  night ends; the night's close voids his action);
- "exclude" (target): the Адвокат's exclusion from the next day's vote list (read at the close);
- "extra_vote" (target, or {"ballot": "enslave" | "spare"}): the Авторитет's extra vote;
- "intercept" (target, {"number": n, "field": "receiver" | "about"}): a Хакер's guess, answered at once;
- "mole_coma" (target): the Крот's /mole, applied at once;
- "steal" (target): a carousel theft ordered after the day vote (resolved as the night begins);
- "fake" (target: the hero shown, {"post": id}): a post of the Говорун signed as another hero
  (counted against the stage's limit; the close's outcome `fakes` reports them).
The last accepted row of a kind per hero stands (every guess of a Хакер does);
privileges.ledger.privilege_inputs reads them as the engine's PhaseInputs.extra.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


from games.models import Game, Order, Phase, Seat
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine import privileges as priv
from games.rulesets.show.engine.privilege_keys import (
    EXCLUDE,
    EXTRA_VOTE,
    FAKE,
    INTERCEPT,
    MOLE_COMA,
    STEAL,
    STUN,
    TALKER,
)
from games.rulesets.show.engine.stages import SPARE, TO_SLAVERY
from games.rulesets.show.privileges.ledger import GUESS_FIELDS, fakes_in_stage
from games.rulesets.show.services import (
    ShowResult,
    ledger_inputs,
    show_input,
)
from games.rulesets.show.wording import WORDING
from games.selectors.state import game_state, stored_state



# --- Writing (each through services.show_input) -------------------------------------------------
def show_stun(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """«Каждую ночь Вышибала ... получает дополнительный приватный вопрос, кого он желает
    "оглушить"»: one hero a night (the engine's check refuses a second one), applied at once (no
    message from him until the night ends)."""
    return show_input(game, user, STUN, target, now, lambda stage, t: SHOW.check_stun(stage.state, stage.seat.pk, t),
                at_once=lambda stage, target: SHOW.stun(stage.state, stage.seat.pk, target), early_close=early_close)


def show_exclude(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """«По ночам Адвокат ... может выбрать одного из других героев и тот будет исключён из списка
    Дневного Голосования следующего дня»: the last choice of the night stands."""
    return show_input(game, user, EXCLUDE, target, now, lambda stage, t: SHOW.check_exclude(stage.state, stage.seat.pk, t),
                early_close=early_close)


def show_extra_vote(*, game: Game, user, target=None, ballot: str | None = None, now: datetime | None = None,
                    early_close: bool = True) -> ShowResult:
    """The Авторитет's extra vote in a day vote or re-vote («можно это сделать только до конца Этапа
    в любой момент»): a hero, or «В рабство» / «Пощадить» with one defendant."""
    if ballot is not None and ballot not in (TO_SLAVERY, SPARE):
        ballot = "?"

    def check(stage, target):
        if ballot == "?":
            return "bad_ballot"
        value = ballot if ballot is not None else target
        if value is None:
            return "missing_target"
        return SHOW.check_extra_vote(stage.state, stage.seat.pk, value)

    return show_input(game, user, EXTRA_VOTE, None if ballot else target, now, check,
                detail={"ballot": ballot} if ballot else None, early_close=early_close)


def show_intercept(*, game: Game, user, number, field: str, target, now: datetime | None = None,
                   early_close: bool = True) -> ShowResult:
    """A Хакер's guess: «перехватить его себе если угадает, НА КОГО или КЕМ оно было получено (за
    ограниченное время)»; one guess per Secret Knowledge, answered at once (a right guess is his key
    from now on; the stage's close reports it)."""
    try:
        number = int(number)
    except (TypeError, ValueError):
        number = None
    detail = {"number": number, "field": field}

    def check(stage, target):
        if number is None or field not in GUESS_FIELDS:
            return "bad_guess"
        guessed = stage.phase.orders.filter(actor=stage.seat, action=INTERCEPT, valid=True,
                                            detail__number=number).exists()
        if guessed:
            return "guessed_before"
        return SHOW.check_intercept(stage.state, stage.seat.pk, {"number": number, field: target})

    return show_input(game, user, INTERCEPT, target, now, check, detail=detail,
                      at_once=lambda stage, target: SHOW.intercept(stage.state, stage.seat.pk, {"number": number, field: target}),
                      early_close=early_close)


def show_mole(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """/mole: «Крот может единолично "закапывать" ... любого героя на свободе один раз за Этап»,
    applied at once like /lull (the thread hears who fell asleep)."""
    return show_input(game, user, MOLE_COMA, target, now, lambda stage, t: SHOW.check_mole(stage.state, stage.seat.pk, t),
                at_once=lambda stage, target: SHOW.mole(stage.state, stage.seat.pk, target), early_close=early_close)


def show_steal(*, game: Game, user, target, now: datetime | None = None, early_close: bool = True) -> ShowResult:
    """The carousel: «сразу после своего выбора на Дневном Голосовании в появляющемся меню выбрать, у
    кого вы хотите попробовать похитить Привилегию» (a voter orders after his ballot; a slave, who
    does not vote, at any time of the day vote)."""
    def check(stage, target):
        return SHOW.check_input(stage.state, stage.seat.pk, STEAL, target, ledger_inputs(stage.phase))

    return show_input(game, user, STEAL, target, now, check, early_close=early_close)


# --- The Говорун's /fake (the core's SiteRuleset.post_sender_* hooks) ------------------------------
def _talker(game: Game, user) -> tuple[Any, Seat, Phase] | None:
    if game.status != Game.Status.RUNNING or not getattr(user, "is_authenticated", False):
        return None
    phase = game.current_phase
    seat = Seat.objects.filter(game=game, user=user).first()
    state = game_state(game)
    if seat is None or state is None or phase is None or phase.closed_at is not None:
        return None
    if not state.has_seat(seat.pk) or not priv.holds(state, seat.pk, TALKER):
        return None
    return state, seat, phase


def sender_choices(*, game: Game, user) -> list[tuple[int, str]]:
    """Whom the Говорун may sign his next post as now: every other hero, while the engine allows a
    fake in this stage («до пяти таких сообщений за Этап»); none for anyone else."""
    found = _talker(game, user)
    if found is None:
        return []
    state, seat, phase = found
    offered = set(SHOW.menu(state, seat.pk, fakes_used=fakes_in_stage(phase, seat.pk)).get(FAKE, ()))
    return [(s.user_id, s.dealt_name) for s in game.seats.order_by("number") if s.pk in offered]


def sender_refusal(*, game: Game, user, shown_user_id: int, now: datetime):
    """Under the post's lock: why `user` may not sign this post as `shown_user_id`, or None."""
    found = _talker(game, user)
    if found is None:
        return WORDING.reason_text("not_your_action")
    state, seat, phase = found
    shown = Seat.objects.filter(game=game, user_id=shown_user_id).first()
    code = priv.check_fake(state, seat.pk, fakes_in_stage(phase, seat.pk),
                           as_hero=shown.pk if shown is not None else -1)
    return WORDING.reason_text(code) if code is not None else None


def post_signed(*, game: Game, post, now: datetime) -> None:
    """The ledger row of a post signed as another hero (the GM reads it; the stage's limit counts it)."""
    phase = game.current_phase
    seat = Seat.objects.filter(game=game, user=post.author).first()
    shown = Seat.objects.filter(game=game, user_id=post.shown_author_id).first()
    if phase is None or seat is None:
        return
    Order.objects.create(phase=phase, actor=seat, action=FAKE, target=shown, detail={"post": post.pk}, valid=True,
                         recorded_at=now, recorded_by=post.author)


# --- Talking: the stunned are silent ---------------------------------------------------------------
def stunned_now(seat) -> bool:
    """«Вышибала лишает оглушаемого возможности отправлять любые сообщения до конца ночи»."""
    game = getattr(seat, "game", None)
    if game is None or game.status != Game.Status.RUNNING:
        return False
    state = stored_state(game.state)
    return state is not None and not priv.can_post(state, seat.pk)


