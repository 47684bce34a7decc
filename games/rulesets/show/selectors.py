"""What the show's pages read: the hero's panel of the running stage, the public status of keys and
a hero's /fullstatus. Every secret goes through the engine's viewer-taking functions
(games.rulesets.show.engine.status) after games.permissions has said who may look."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from games import permissions
from games.models import Game, GameEvent, Order, Seat
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.facts import in_coma, judge_today
from games.rulesets.show.engine.menu import (
    DETAILS,
    LULL,
    NIGHT_CHOICES,
    REQUEST_OPINION,
    USE_KNOWLEDGE,
    VOTE,
    WORDS,
)
from games.rulesets.show.engine.roles import ENSLAVE
from games.rulesets.show.engine.stages import DAY, JUDGE, NIGHT, REVOTE, SPARE, parse_phase
from games.rulesets.show.privileges.ledger import fakes_in_stage
from games.rulesets.show.engine.status import NotYours, full_status, public_status, sleep_mark
from games.rulesets.show.services import DETAIL_KEYS, GM_REPLACEABLE, gm_replace_menu, ledger_inputs
from games.rulesets.show.wording import (
    ACTION_LABELS,
    FACTION_NAMES,
    PRIVILEGE_NAMES,
    SLEEP_NAMES,
    DETAIL_LABELS,
    WORDING,
    ballot_label,
    key_label,
    number_text,
    owners_text,
    chance_text,
    role_line,
    role_name,
    stage_label,
    stage_name,
    standing_text,
    time_left,
    you_are_text,
)
from games.selectors.archive import all_events
from games.selectors.orders import phase_ledger
from games.wording import names_joined, phrase_case
from games.selectors.state import game_state


def _names(game: Game) -> dict[int, str]:
    kept = permissions.remembered_seats(game)  # the page's roster, when it read it (the GM dashboard)
    if kept is not None:
        return {s.pk: s.dealt_name for s in kept}
    return dict(game.seats.values_list("pk", "dealt_name"))


def hero_panel(*, game: Game, seat: Seat | None, user, pov: bool = False) -> dict[str, Any] | None:
    """The running stage for the game page: its name and deadline for everyone, and for a free hero
    what he owes, what he may do, the choices of each form and his own inputs so far (never anyone
    else's: the ballots are hidden until the stage's close)."""
    doomsday = doomsday_of(game)
    if doomsday is not None:  # issue 28, item 7: the show is over, Судный День runs or ran
        return {"stage": stage_label(SHOW.doomsday), "over": True, "doomsday": doomsday, "phase": doomsday["phase"],
                "time_left": time_left(doomsday["until"], timezone.now()) if doomsday["open"] else None}
    if game.status != Game.Status.RUNNING or not game.state:
        return None
    state = game_state(game)
    phase = game.current_phase
    panel: dict[str, Any] = {
        "stage": stage_label(state.phase), "phase": phase,
        "time_left": time_left(phase.deadline_at, timezone.now())
        if phase is not None and phase.is_open and phase.deadline_at else None,
        "knowledge_count": int(state.memory.get("knowledge_count", 0)),
    }
    if seat is None or not state.has_seat(seat.pk):
        return panel
    me = state.seat(seat.pk)
    names = _names(game)
    kind, number = parse_phase(state.phase)
    inputs = ledger_inputs(phase) if phase is not None and phase.closed_at is None else None
    owed = SHOW.owed_actions(state, me.id)
    acted = bool(inputs is not None and me.id in SHOW.owing(state) and SHOW.has_acted(state, inputs, me.id))
    rows = list(Order.objects.filter(phase=phase, actor_id=me.id).order_by("-recorded_at", "-pk")[:20]) \
        if phase is not None else []
    mine = next((r for r in rows if r.valid and r.action == VOTE), None)
    bench = [int(h) for h in state.memory.get("bench") or ()]
    # (the rows above are the last 20: a stage's own choices stand among them)
    judge = judge_today(state)
    panel.update({
        "hero": me, "free": me.is_active, "in_coma": in_coma(state, me.id),
        "sleep": SLEEP_NAMES.get(sleep_mark(state, me.id) or "", ""),
        "owed": [str(ACTION_LABELS.get(a, a)) for a in owed], "acted": acted, "pov": pov,
        # «Крот не знает свою Роль»: a role its holder does not know is not told (permissions.can_see_role_of)
        "you_are": you_are_text(me.role, me.faction) if permissions.can_see_role_of(user, game, seat)
        else you_are_text(None, None),
        "owners": owners_text(((state.memory.get("slaves") or {}).get(str(me.id)) or {}).get("owners", ())),
        "kind": kind, "number": number,
        "bench": [(h, names.get(h, "?")) for h in bench],
        "judge": names.get(judge) if judge is not None and (state.options.get("judge_public", True) or judge == me.id)
        else None,
        "my_ballot": _ballot_text(mine, names),
        # A stable mark of the hero's own standing ballot (the security sweep looks for it: nobody
        # else may see it before the stage's close).
        "my_ballot_mark": f"showballot-{me.id}-{(mine.detail or {}).get('ballot') or mine.target_id}" if mine else "",
        "my_rows": [(r, str(ACTION_LABELS.get(r.action, r.action)), names.get(r.target_id, "")) for r in rows[:8]],
        "knowledge_rights": int((state.memory.get("knowledge_rights") or {}).get(str(me.id), 0)),
    })
    # What the panel offers is the engine's menu (engine/menu.py): every form below renders one of
    # its lists, and the services ask the same rule again (issue 28: no template condition decides).
    offers = hero_menu(state, me.id, phase, inputs)
    panel["offers"] = offers

    def named(action: str) -> list[tuple[int, str]]:
        return [(h, names.get(h, "?")) for h in offers.get(action, ()) if isinstance(h, int)]

    standing = _standing_choices(rows)
    panel["standing"] = standing
    if VOTE in offers:
        words = [w for w in offers[VOTE] if w in WORDS]
        if words:  # the buttons and «Ваш голос» say the same words (wording.ballot_label)
            panel["ballot_words"] = [(w, ballot_label(w)) for w in words]
        else:
            panel["vote_targets"] = named(VOTE)
    panel["request_targets"] = named(REQUEST_OPINION)
    if kind == NIGHT:
        panel["night_forms"] = [(a, str(ACTION_LABELS.get(a, a)), named(a), standing.get(a))
                               for a in NIGHT_CHOICES if a in offers]
        panel["details"] = {k: named(k) for k in DETAILS if k in offers}
    if kind == JUDGE and ENSLAVE in offers:
        panel["judge_actions"] = [(a, str(ACTION_LABELS.get(a, a))) for a in (ENSLAVE, SPARE) if a in offers]
        panel["judge_targets"] = named(ENSLAVE)
    # What still holds the stage open for him (issue 28, item 4) and his «Я всё»
    if inputs is not None and me.id not in (inputs.extra.get("done") or ()) and not in_coma(state, me.id):
        panel["optional"] = [str(ACTION_LABELS.get(a, a)) for a in SHOW.optional_actions(state, me.id, inputs)]
    panel["knowledge_targets"] = named(USE_KNOWLEDGE)
    panel["lull_targets"] = named(LULL)
    # The media post still owed (none once his post row stands in this stage).
    posted = phase is not None and Order.objects.filter(phase=phase, actor_id=me.id, action="post", valid=True).exists()
    # in the accusative of «Опубликуйте …» (not «Опубликуйте защитная речь», issue 28, item 14)
    panel["post_kind"] = "" if posted else next(
        (phrase_case(ACTION_LABELS[a], "accs") for a in ("greeting", "defence", "opinion") if a in owed), "")
    # Whether a text post stands in for the media post (the GM's «Только медиапосты» unticked).
    panel["text_posts"] = (game.options or {}).get("text_posts", True) is not False
    # Part 2: the hero's coins, every fee shown before it is paid (coins.selectors; it imports this module's
    # neighbours, so it is asked here at the call).
    from games.rulesets.show.coins.selectors import coins_panel

    panel["coins"] = coins_panel(game=game, state=state, seat=seat, phase=phase, names=names, offers=offers,
                                 standing=standing)
    panel["requested_of_me"] = bool(inputs is not None and kind == DAY and me.id in {
        int(t) for t in (inputs.extra.get("opinion_requests") or {}).values() if t is not None})
    return panel


def hero_menu(state, hero: int, phase, inputs=None) -> dict[str, tuple]:
    """The engine's menu of the hero in the open stage (none once it is closed): the stage's inputs
    so far and the Говорун's fakes counted from the ledger."""
    if phase is None or phase.closed_at is not None:
        return {}
    inputs = inputs if inputs is not None else ledger_inputs(phase)
    return SHOW.menu(state, hero, inputs, fakes_used=fakes_in_stage(phase, hero))


def _standing_choices(rows: list[Order]) -> dict[str, Any]:
    """The hero's standing choice of each kind in the stage (his last accepted row; `rows` newest
    first), so each select shows what he chose instead of its first name (issue 28, item 21)."""
    out: dict[str, Any] = {}
    for row in rows:
        if row.valid and row.action not in out:
            out[row.action] = (row.detail or {}).get("ballot") or row.target_id
    return out


def _ballot_text(row: Order | None, names: dict[int, str]) -> str:
    if row is None:
        return ""
    ballot = (row.detail or {}).get("ballot")
    return ballot_label(ballot) if ballot else names.get(row.target_id, "")


def doomsday_of(game: Game) -> dict[str, Any] | None:
    """Судный День of a show that is over (issue 28, item 7: the site's epilogue phase,
    SiteRuleset.epilogue_kind): {"phase", "open", "until"} — until its deadline while it runs, its
    close once over; None when the show runs, or ended without one."""
    if game.status != Game.Status.FINISHED:
        return None
    phase = game.current_phase
    if phase is None or phase.kind != SHOW.doomsday or phase.voided_at is not None:
        return None
    return {"phase": phase, "open": phase.closed_at is None,
            "until": phase.deadline_at if phase.closed_at is None else phase.closed_at}


def thread_stage(game: Game | None) -> dict[str, Any] | None:
    """The running stage's name and timer for the show's game thread (public, as on the game page),
    and Судный День's while it runs after the end (issue 28, item 7)."""
    if game is None:
        return None
    doomsday = doomsday_of(game)
    if doomsday is not None:
        return {"stage": stage_label(SHOW.doomsday), "deadline_at": doomsday["until"],
                "time_left": time_left(doomsday["until"], timezone.now())} if doomsday["open"] else None
    if game.status != Game.Status.RUNNING or not game.state:
        return None
    state = game_state(game)
    phase = game.current_phase
    return {"stage": stage_label(state.phase),
            "time_left": time_left(phase.deadline_at, timezone.now())
            if phase is not None and phase.closed_at is None and phase.deadline_at else None}


def trial_tasks_of(game: Game) -> list[dict[str, Any]]:
    """Each slaves' trial's day and task, oldest first (issue 28, item 6: the archive keeps them; each
    was public from its morning, so everyone reads the list)."""
    state = game_state(game)
    if state is None:
        return []
    return [{"day": int(item.get("day") or 0), "task": item.get("task") or ""}
            for item in state.memory.get("trial_tasks") or ()]


def status_rows(game: Game) -> dict[str, Any] | None:
    """The public status page («Публичные Ключи доступны всем»): every hero's freedom, owners, public
    keys, revealed role, sleep, the judge (when public) and the Secret Knowledge count."""
    state = game_state(game)
    if state is None:
        return None
    status = public_status(state)
    for hero in status["heroes"]:
        hero["keys_text"] = [key_label(k) for k in hero["keys"]]
        hero["role_text"] = role_name(hero["role"]) if hero["role"] else ""
        hero["owners_text"] = owners_text(hero["owners"])
        hero["standing_text"] = standing_text(free=hero["free"], owners=hero["owners"], relieved=hero.get("relieved"))
        hero["sleep_text"] = SLEEP_NAMES.get(hero["sleep"] or "", "")
    status["stage"] = stage_label(status["phase"])
    # issue 28, item 7: after the win, the stage is Судный День (while it runs, and once it is over)
    status["doomsday"] = doomsday_of(game)
    if status["doomsday"] is not None:
        status["stage"] = stage_label(SHOW.doomsday)
        if status["doomsday"]["open"]:
            status["doomsday_left"] = time_left(status["doomsday"]["until"], timezone.now())
    status["trial"] = SHOW.running_task(state) if not state.over else None
    status["winner_text"] = str(FACTION_NAMES.get(status["winner"] or "", status["winner"] or ""))
    return status


def full_status_rows(*, game: Game, seat: Seat, user) -> dict[str, Any]:
    """A hero's /fullstatus; games.permissions.check_see_full_status has let the viewer in (404 else)."""
    permissions.check_see_full_status(user, game, seat)
    state = game_state(game)
    viewer = permissions.seat_of(user, game)
    try:
        status = full_status(state, seat.pk, viewer=viewer.pk if viewer is not None else None,
                             # after the end the archive is everyone's (games.permissions said so)
                             is_gm=permissions.is_game_master(user, game) or game.status == Game.Status.FINISHED)
    except NotYours:  # the engine's own check agrees with the permissions' or answers 404
        raise Http404 from None
    for row in status["rows"]:
        row["public_text"] = [key_label(k) for k in row["public"]]
        row["secret_text"] = [key_label(k) for k in row["secret"]]
        row["innate_text"] = [key_label(k) for k in row["innate"]]
    # the role and its team said once; the Крот's own, while the show runs, is unknown to him
    # (engine: own_role_view; role_line words a None role)
    status["role_text"] = role_line(status["role"], status.get("faction"))
    status["name"] = seat.dealt_name
    # part 3: his privileges (permissions.can_see_privileges is the full status's own check)
    if permissions.can_see_privileges(user, game, seat):
        status["privilege_rows"] = [(p, str(PRIVILEGE_NAMES.get(p, p))) for p in status.get("privileges") or ()]
    return status



def gm_stage(*, game: Game, user) -> dict[str, Any] | None:
    """The GM's view of the running stage: whom it still waits for, who is in coma, and the last
    judge's lot with its weights («the draw ... is logged, so the GM's dashboard can show the
    weights»; the weights show the Masons' suspicions). Only for the game's masters
    (games.permissions.is_game_master), whatever page asks: None for anyone else."""
    if user is None or not permissions.is_game_master(user, game):
        return None
    if game.status != Game.Status.RUNNING or not game.state or game.current_phase is None:
        return None
    state = game_state(game)
    names = _names(game)
    phase = game.current_phase
    inputs = ledger_inputs(phase) if phase.closed_at is None else None
    waiting = SHOW.waiting_for(state, inputs) if inputs is not None else ()
    optional = SHOW.open_optional(state, inputs) if inputs is not None else ()
    events = all_events(game)  # the page's read of every event (the GM dashboard's log), if any
    lot = GameEvent.objects.filter(game=game, kind="judge_lot").order_by("-pk").first() if events is None else \
        max((e for e in events if e.kind == "judge_lot"), key=lambda e: e.pk, default=None)
    # issue 28, item 6: the slaves' trial's task, which the GM may change until its first answer, and
    # the tasks to come (the next morning's first)
    trial = SHOW.running_task(state)
    if trial is not None:
        trial["editable"] = SHOW.check_trial_task(state, trial["task"] or "…", inputs) is None
    to_come = SHOW.tasks_to_come(state)
    return {
        "trial": trial, "tasks_to_come": to_come, "tasks_text": "\n".join(to_come),
        "stage": stage_label(state.phase),
        "waiting": [names.get(h, "?") for h in waiting],
        "optional": [names.get(h, "?") for h in optional],
        "coma": [names.get(int(h), "?") for h in (state.memory.get("coma") or {})],
        # issue 30: every free hero in coma: the stage runs its timer (docs/rulesets/show.md, "A sleeping table")
        "asleep": phase.closed_at is None and SHOW.sleeping_table(state),
        "lot": None if lot is None else judge_lot_rows(lot.data),
    }


def judge_lot_rows(data: dict) -> dict[str, Any]:
    """The judge's lot for the GM's card (issue 28, item 19): each candidate in seating order with
    the Masons' suspicions of him, his weight in the lot («снижается на порядок»: ×0.1 a suspicion)
    and so his chance to be drawn, in the site's number format (never a float's raw digits)."""
    weights = {who: float(w) for who, w in (data.get("weights") or {}).items() if isinstance(w, (int, float))}
    total = sum(weights.values())
    suspicions = data.get("suspicions") or {}
    return {"day": data.get("day"), "judge": data.get("judge"),
            "rows": [{"name": who, "suspicions": int(suspicions.get(who) or 0), "weight": number_text(w, 6),
                      "chance": chance_text(100 * w / total) if total else "—", "drawn": who == data.get("judge")}
                     for who, w in weights.items()]}


def gm_replace_rows(*, game: Game, user) -> list[dict[str, Any]] | None:
    """The GM's «Заменить приказ» for the show (issue 28, item 19): for each hero the engine lets
    act now, every input the GM may enter for him (services.gm_replace_menu: the engine's menu of
    the hero, the replaceable inputs) as one select of «action: choice» options, his standing choice
    selected, and the night choice's extras beside it. The GMs only (None for anyone else)."""
    if user is None or not permissions.is_game_master(user, game):
        return None
    if game.status != Game.Status.RUNNING or not game.state or game.current_phase is None:
        return None
    phase = game.current_phase
    if phase.closed_at is not None:
        return None
    state = game_state(game)
    inputs = ledger_inputs(phase)
    names = _names(game)
    rows = []
    ledger = phase_ledger(phase)  # the page's read of the stage's ledger (the GM dashboard's), if any
    seats = permissions.remembered_seats(game)
    for seat in game.seats.order_by("number") if seats is None else seats:
        offers = gm_replace_menu(state, seat.pk, phase, inputs)
        main = [a for a in GM_REPLACEABLE if a in offers]
        if not main:
            continue
        if ledger is None:
            mine = list(Order.objects.filter(phase=phase, actor_id=seat.pk).order_by("-recorded_at", "-pk")[:40])
        else:
            mine = [r for r in reversed(ledger) if r.actor_id == seat.pk][:40]
        standing = _standing_choices(mine)
        detail_now = next((dict(r.detail or {}) for r in mine if r.valid and r.action in NIGHT_CHOICES), {})

        def label(choice) -> str:
            if choice is None:
                return ""
            if isinstance(choice, int):
                return names.get(choice, "?")
            return str(ACTION_LABELS.get(choice, choice))

        groups, picked = [], False
        for action in main:
            options = []
            for choice in offers[action]:
                value = f"{action}:{'' if choice is None else choice}"
                text = label(choice) or str(ACTION_LABELS.get(action, action))
                stands = action in standing and standing[action] == choice and not picked
                picked = picked or stands
                options.append((value, text, stands))
            groups.append((str(ACTION_LABELS.get(action, action)), options))
        details = [(key, str(DETAIL_LABELS.get(key, key)),
                    [(h, names.get(h, "?"), detail_now.get(key) == h) for h in offers[key] if isinstance(h, int)])
                   for key in DETAIL_KEYS if key in offers]
        rows.append({"seat": seat, "name": names.get(seat.pk, "?"), "groups": groups, "details": details,
                     "standing": picked})
    return rows


# --- The vote count page (issue 28, item 16) ------------------------------------------------------------
# The events that tell a stage's votes once it has closed («Кто как проголосовал становится всем видно
# только в конце этапа»): the day vote's ballots and tally, the bench, the re-vote's ballots and who
# lost the freedom, the judge's verdict.
VOTE_EVENTS = ("day_votes", "bench", "no_bench", "revote_result", "judge_decision", "judge_missed", "judge_removed")


def stage_votes(*, game: Game, user) -> dict[str, Any]:
    """The show's votes for the core's vote count page, stage by stage, as far as `user` may see
    them (games.permissions.filter_visible_events: every one of these events is public once its
    stage has closed); the running stage's ballots stay hidden until it ends."""
    events = (permissions.filter_visible_events(user, game, GameEvent.objects.filter(kind__in=VOTE_EVENTS))
              .select_related("phase").order_by("created_at", "pk"))
    stages: dict[int, dict[str, Any]] = {}
    for event in events:
        phase, data = event.phase, dict(event.data or {})
        if phase is None:
            continue
        block = stages.setdefault(phase.pk, {"phase": phase, "stage": stage_name(phase.kind, phase.number),
                                             "ballots": [], "tally": [], "outcome": []})
        if event.kind == "revote_result":
            block["outcome"].append(_("Enslaved: %(names)s.") % {"names": names_joined(data.get("enslaved") or ())}
                                    if data.get("enslaved") else _("Nobody lost the freedom."))
        if event.kind in ("day_votes", "revote_result"):
            ballots = data.get("ballots") or {}
            block["ballots"] = [(voter, ballot_label(choice)) for voter, choice in ballots.items()]
            tally = data.get("tally") or {}
            if not tally:  # the re-vote's count, read from its ballots
                for choice in ballots.values():
                    tally[choice] = tally.get(choice, 0) + 1
            block["tally"] = sorted(((ballot_label(t), int(n)) for t, n in tally.items()), key=lambda kv: (-kv[1], kv[0]))
        else:  # the bench, the judge's verdict or his missed time: in the thread's words
            block["outcome"].append(event.text or WORDING.event_text(event.kind, data) or "")
    phase = game.current_phase
    running = (phase is not None and phase.closed_at is None and phase.kind in (DAY, REVOTE)
               and game.status == Game.Status.RUNNING)
    return {"stages": list(stages.values()), "running": stage_name(phase.kind, phase.number) if running else ""}
