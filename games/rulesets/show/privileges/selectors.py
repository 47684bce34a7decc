"""What the show's privilege panel reads (part 3; docs/rulesets/show.md, "Part 3 on the site"): a
hero's own privileges and the actions they offer him now, the Секретарь's live view of the day
votes, the Говорун's fakes left. Every secret goes through games.permissions (who may look) and
then the engine's viewer-taking functions (engine/privileges.py: what the viewer sees)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games import permissions
from games.models import Game, Seat
from games.rulesets.show.engine import privileges as priv
from games.rulesets.show.engine.privilege_keys import (
    EXCLUDE,
    EXTRA_VOTE,
    FAKES_PER_STAGE,
    GENIUS,
    HACKER,
    INTERCEPT,
    MOLE_COMA,
    SECRETARY,
    STEAL,
    STUN,
    TALKER,
)
from games.rulesets.show.engine.facts import holds, judge_today, priv_memory
from games.rulesets.show.engine.stages import SPARE, TO_SLAVERY
from games.rulesets.show.privileges.ledger import fakes_in_stage, privilege_inputs
from games.rulesets.show.privileges.wording import PRIVILEGE_HELP
from games.rulesets.show.selectors import hero_menu
from games.rulesets.show.services import ledger_inputs
from games.rulesets.show.wording import ACTION_LABELS, PRIVILEGE_NAMES, key_label, stage_label
from games.selectors.state import game_state


def _ballot_word(value: Any, names: dict[int, str]) -> str:
    if value in (TO_SLAVERY, SPARE):
        return str(ACTION_LABELS.get(value, value))
    try:
        return names.get(int(value), "?")
    except (TypeError, ValueError):
        return "?"


def privileges_panel(*, game: Game, seat: Seat | None, user, pov: bool = False) -> dict[str, Any] | None:
    """The privilege panel of `seat` for `user` (the hero himself, or a GM looking as him): None when
    the viewer may not see that hero's privileges (permissions.can_see_privileges) or he has none
    and is offered nothing (a carousel thief may hold none)."""
    if game.status != game.Status.RUNNING or not game.state or seat is None:
        return None
    if not permissions.can_see_privileges(user, game, seat):
        return None
    state = game_state(game)
    if state is None or not state.has_seat(seat.pk):
        return None
    me = seat.pk
    held = list((state.memory.get("privileges") or {}).get(str(me)) or ())
    phase = game.current_phase
    open_phase = phase if phase is not None and phase.closed_at is None else None
    names = dict(game.seats.values_list("pk", "dealt_name"))
    # What the panel offers is the engine's menu (engine/menu.py; selectors.hero_menu), the same rule
    # the services ask again.
    offers = hero_menu(state, me, open_phase)
    panel: dict[str, Any] = {
        "hero": me, "pov": pov,
        "privileges": [(p, str(PRIVILEGE_NAMES.get(p, p)), str(PRIVILEGE_HELP.get(p, ""))) for p in held],
        # A stable mark per privilege held (the security sweep looks for it: the holder's, the GMs'
        # and everyone's after the end only).
        "marks": [f"showpriv-{me}-{p}" for p in held],
        "stunned": me in priv.stunned_now(state),
    }
    rows = list(open_phase.orders.filter(actor_id=me, valid=True).order_by("recorded_at", "pk")) if open_phase else []
    chosen = {r.action: (r.detail or {}).get("ballot") or r.target_id for r in rows}

    def named(action: str) -> list[tuple[int, str]]:
        return [(h, names.get(h, "?")) for h in offers.get(action, ()) if isinstance(h, int)]

    panel["chosen"] = chosen
    panel["stun_targets"] = named(STUN)
    panel["exclude_targets"] = named(EXCLUDE)
    if EXTRA_VOTE in offers:
        words = [w for w in offers[EXTRA_VOTE] if w in (TO_SLAVERY, SPARE)]
        if words:
            panel["extra_vote_words"] = [(w, str(ACTION_LABELS.get(w, w))) for w in words]
        else:
            panel["extra_vote_targets"] = named(EXTRA_VOTE)
    if INTERCEPT in offers:
        # the Secret Knowledge he may still guess, with the stage it was given in (its public count
        # is the number the thread told: «Тайное Знание получено (№ n)»); every number, field and
        # hero of the menu go together (engine/menu.py lists each triple)
        stages = {int(i["number"]): i["phase"] for i in priv_memory(state).get("hack_open") or ()}
        guesses = offers[INTERCEPT]
        numbers = sorted({n for n, _f, _h in guesses})
        panel["intercept_numbers"] = [(n, stage_label(stages.get(n, ""))) for n in numbers]
        panel["intercept_targets"] = [(h, names.get(h, "?")) for h in dict.fromkeys(h for _n, _f, h in guesses)]
    if holds(state, me, HACKER):
        # (a stable mark per key caught: the security sweep looks for it, the Хакер's and the GMs')
        panel["intercepted"] = [(names.get(int(i["about"]), "?"), key_label(i["key"]), stage_label(i["phase"]),
                                 f"showhack-{me}-{i['about']}") for i in priv.intercepted(state, me)]
    if holds(state, me, GENIUS):
        # «По утрам знает, кто стал Судьёй»: the judge of today, told him this morning
        judge = judge_today(state)
        if judge is not None:
            panel["genius_judge"] = names.get(judge, "?")
    panel["mole_targets"] = named(MOLE_COMA)
    # «сразу после своего выбора на Дневном Голосовании»: the menu offers the theft once his ballot stands
    panel["steal_targets"] = named(STEAL)
    if holds(state, me, TALKER) and open_phase is not None:
        used = fakes_in_stage(open_phase, me)
        panel["fakes_left"] = max(0, FAKES_PER_STAGE - used)
    standing = privilege_inputs(rows)
    panel["standing"] = [(str(ACTION_LABELS.get(a, a)), _ballot_word(v, names))
                         for a, key in ((EXCLUDE, "exclude"), (EXTRA_VOTE, "extra_votes"), (STEAL, "steal"))
                         for actor, v in (standing.get(key) or {}).items() if actor == me]
    secretary = secretary_view(game=game, seat=seat, user=user, state=state, names=names, pov=pov)
    if secretary is not None:
        panel["secretary"] = secretary
    if not held and not any(v for k, v in panel.items() if k.endswith(("_targets", "_words", "_numbers"))) \
            and secretary is None:
        return None
    return panel


def secretary_view(*, game: Game, seat: Seat, user, state=None, names: dict[int, str] | None = None,
                   pov: bool = False) -> dict[str, Any] | None:
    """The Секретарь's live view of the running day vote or re-vote: every ballot given so far (the
    Talents' too) and where the Авторитет's extra votes went, without their owners
    (engine: privileges.secretary_ballots). None for anyone but the Секретарь (and the GMs looking
    as him) and outside the votes."""
    if not permissions.can_see_privileges(user, game, seat):
        return None
    state = state if state is not None else game_state(game)
    phase = game.current_phase
    if state is None or phase is None or phase.closed_at is not None:
        return None
    inputs = ledger_inputs(phase)
    extra = privilege_inputs(phase.orders.filter(valid=True).order_by("recorded_at", "pk"))
    seen = priv.secretary_ballots(state, inputs.votes, extra.get("extra_votes"), viewer=seat.pk)
    if seen is None:
        return None
    names = names if names is not None else dict(game.seats.values_list("pk", "dealt_name"))
    ballots = [(names.get(int(voter), "?"), _ballot_word(target, names), f"showsec-{voter}-{target}")
               for voter, target in sorted(seen["ballots"].items(), key=lambda item: names.get(int(item[0]), ""))]
    extra_votes = [_ballot_word(t, names) for t in seen["extra"]]
    # «видит, кто за кого голосует»: as it happens, so the block asks again every few seconds
    # (games:show_secretary), at the vote counts' pace
    return {"ballots": ballots, "extra": extra_votes, "live": True, "hero": seat.pk, "pov": pov,
            "poll": settings.MAFIA_VOTE_POLL_SECONDS}


def secretary_live(*, game: Game, seat: Seat, user, pov: bool = False) -> dict[str, Any] | None:
    """The answer to the Секретарь's block polling (games:show_secretary): the running vote's view,
    or {"over": True} when no vote runs now (the block says so and stops asking); None for anyone
    who may not look or does not (or no longer: the carousel) hold the Секретарь."""
    view = secretary_view(game=game, seat=seat, user=user, pov=pov)
    if view is not None:
        return view
    state = game_state(game)
    if not permissions.can_see_privileges(user, game, seat) or state is None or not holds(state, seat.pk, SECRETARY):
        return None
    return {"over": True}


def fakes_used_up(*, game: Game | None, user) -> bool:
    """Whether `user` is the Говорун of the running show who has signed this stage's five posts as
    others: the reply form says so instead of silently dropping «Отправить от имени» (issue 28,
    item 20; a sixth signed post is refused by the engine's `fake_limit`)."""
    if game is None or game.status != Game.Status.RUNNING or not game.state or not getattr(user, "is_authenticated", False):
        return False
    seat = game.seats.filter(user=user).first()
    phase = game.current_phase
    state = game_state(game)
    if seat is None or state is None or phase is None or phase.closed_at is not None or not state.has_seat(seat.pk):
        return False
    if not holds(state, seat.pk, TALKER):
        return False
    return priv.check_fake(state, seat.pk, fakes_in_stage(phase, seat.pk)) == "fake_limit"
