"""What the show's privilege panel reads (part 3; docs/rulesets/show.md, "Part 3 on the site"): a
hero's own privileges and the actions they offer him now, the Секретарь's live view of the day
votes, the Говорун's fakes left. Every secret goes through games.permissions (who may look) and
then the engine's viewer-taking functions (engine/privileges.py: what the viewer sees)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games import permissions
from games.models import Game, Seat
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine import privileges as priv
from games.rulesets.show.engine.privilege_keys import (
    EXCLUDE,
    EXTRA_VOTE,
    FAKE,
    FAKES_PER_STAGE,
    GENIUS,
    HACKER,
    INTERCEPT,
    MOLE_COMA,
    SECRETARY,
    STEAL,
    STUN,
)
from games.rulesets.show.engine.facts import holds, judge_today, priv_memory
from games.rulesets.show.engine.stages import REVOTE, SPARE, TO_SLAVERY, parse_phase
from games.rulesets.show.privileges_ledger import fakes_in_stage, privilege_inputs
from games.rulesets.show.privileges_wording import PRIVILEGE_HELP
from games.rulesets.show.services import VOTE, ledger_inputs
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
    allowed = set(SHOW.allowed_actions(state, me)) if open_phase is not None else set()
    others = [s.id for s in state.seats if s.id != me]
    panel: dict[str, Any] = {
        "hero": me, "pov": pov,
        "privileges": [(p, str(PRIVILEGE_NAMES.get(p, p)), str(PRIVILEGE_HELP.get(p, ""))) for p in held],
        # A stable mark per privilege held (the security sweep looks for it: the holder's, the GMs'
        # and everyone's after the end only).
        "marks": [f"showpriv-{me}-{p}" for p in held],
        "stunned": me in priv.stunned_now(state),
    }
    rows = list(open_phase.orders.filter(actor_id=me, valid=True).order_by("recorded_at", "pk")) if open_phase else []
    done = {r.action for r in rows}

    def pick(check) -> list[tuple[int, str]]:
        return [(h, names.get(h, "?")) for h in others if check(h) is None]

    if STUN in allowed:  # the engine offers no second stun in a night
        panel["stun_targets"] = pick(lambda h: SHOW.check_stun(state, me, h))
    if EXCLUDE in allowed:
        panel["exclude_targets"] = [(h, names.get(h, "?")) for h in (s.id for s in state.seats)
                                    if SHOW.check_exclude(state, me, h) is None]
    if EXTRA_VOTE in allowed:
        kind, _n = parse_phase(state.phase)
        bench = [int(h) for h in state.memory.get("bench") or ()]
        if kind == REVOTE and len(bench) == 1:
            panel["extra_vote_words"] = [(w, str(ACTION_LABELS.get(w, w))) for w in (TO_SLAVERY, SPARE)
                                         if SHOW.check_extra_vote(state, me, w) is None]
        else:
            panel["extra_vote_targets"] = pick(lambda h: SHOW.check_extra_vote(state, me, h))
    if INTERCEPT in allowed:
        # the Secret Knowledge he may still guess, with the stage it was given in (its public count
        # is the number the thread told: «Тайное Знание получено (№ n)»)
        numbers = [(int(i["number"]), stage_label(i["phase"])) for i in priv_memory(state).get("hack_open") or ()
                   if me not in (i.get("guessed") or ())]
        if numbers:
            panel["intercept_numbers"] = numbers
            panel["intercept_targets"] = [(s.id, names.get(s.id, "?")) for s in state.seats]
    if holds(state, me, HACKER):
        # (a stable mark per key caught: the security sweep looks for it, the Хакер's and the GMs')
        panel["intercepted"] = [(names.get(int(i["about"]), "?"), key_label(i["key"]), stage_label(i["phase"]),
                                 f"showhack-{me}-{i['about']}") for i in priv.intercepted(state, me)]
    if holds(state, me, GENIUS):
        # «По утрам знает, кто стал Судьёй»: the judge of today, told him this morning
        judge = judge_today(state)
        if judge is not None:
            panel["genius_judge"] = names.get(judge, "?")
    if MOLE_COMA in allowed:
        panel["mole_targets"] = pick(lambda h: SHOW.check_mole(state, me, h))
    if STEAL in allowed:
        voter = me in SHOW.voters(state)
        # «сразу после своего выбора на Дневном Голосовании»: offered once his ballot stands
        if not voter or VOTE in done:
            panel["steal_targets"] = pick(lambda h: SHOW.check_steal(state, me, h))
    if FAKE in allowed:
        used = fakes_in_stage(open_phase, me)
        panel["fakes_left"] = max(0, FAKES_PER_STAGE - used)
    standing = privilege_inputs(rows)
    panel["standing"] = [(str(ACTION_LABELS.get(a, a)), _ballot_word(v, names))
                         for a, key in ((EXCLUDE, "exclude"), (EXTRA_VOTE, "extra_votes"), (STEAL, "steal"))
                         for actor, v in (standing.get(key) or {}).items() if actor == me]
    secretary = secretary_view(game=game, seat=seat, user=user, state=state, names=names, pov=pov)
    if secretary is not None:
        panel["secretary"] = secretary
    if not held and not any(k.endswith(("_targets", "_words", "_numbers")) for k in panel) and secretary is None:
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
