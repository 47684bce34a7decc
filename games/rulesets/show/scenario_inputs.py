"""A show scenario phase's own keys (docs/rulesets/show.md, "Scenario keys"), played through the
services the hero's panel calls (ShowSite.scenario_play_inputs). The runner closes each stage at
its timer, so nothing here ends a stage early. `greetings`, `defences`, `opinions` and `posted`
are media posts made (the service an upload calls); `ratings` (part 2) are kept on the phase.

Part 2 (docs/rulesets/show.md, "Part 2 on the site"): `acted_at` {name: seconds} writes that hero's
stage action rows at the stage's open plus those seconds (the site reads the stage fee's timing
from the rows' times); `bets`, `raise`, `sympathies`, `ally_picks`, `trial_answers` (a small image
uploaded as the answer) and `grants` ({granter: {slave: amount} | "pass"}, the slave's answer found
by its author) go through the services of the panel's forms. `message_fees` is not played: the site
charges a message fee when a post is stored (send `posts` past the free limit instead).

Part 3, the privileges (docs/rulesets/show.md, "Scenario keys"), through the holder's panel's
services (privileges/services.py): `mole` {mole: hero} (/mole, at once, before the ballots),
`extra_votes` {authority: hero | "enslave" | "spare"}, `steal` {thief: victim} (after his ballot),
`stun` {bouncer: hero} (at once, after the night's choices: the stunned picks nothing afterwards),
`exclude` {lawyer: hero}, `intercept` {hacker: {number, about | receiver} | [guesses]}.

Issue 28, item 4: `done` [names] («Я всё»), played last in the phase: each waives the optional
inputs still open for him, so they hold the stage no longer (the outcome keys `held`, `early`).

Issue 28, item 6, the GM's (docs/rulesets/show.md, "Scenario keys"), played first, at the stage's
open, through his dashboard's services: `trial_tasks` (a text, one task a line: the tasks to come,
replaced) and `trial_task` (a text: the running trial's task, changed before any answer of the
phase). A refusal fails the file (ActionRefused), as the engine's player does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Phase
from games.selectors.state import game_state
from games.rulesets.show.privileges.ledger import GUESS_FIELDS
from games.rulesets.show.privileges.services import (
    show_exclude,
    show_extra_vote,
    show_intercept,
    show_mole,
    show_steal,
    show_stun,
)
from games.rulesets.show.services import (
    show_done,
    show_lull,
    show_media_post,
    show_order,
    show_request,
    show_use_knowledge,
    show_vote,
    show_wake,
)
from games.rulesets.show.coins.services import (
    open_answers,
    show_bet,
    show_grant,
    show_pick_ally,
    show_raise,
    show_sympathy,
    show_trial_answer,
    show_trial_task,
    show_trial_tasks,
)

LISTS = ("greetings", "defences", "opinions", "active", "raise", "trial_answers", "done")
MAPS = ("posted", "votes", "requests", "knowledge", "lull", "ratings", "acted_at", "bets", "sympathies",
        "ally_picks", "grants",
        # part 3, the privileges
        "stun", "exclude", "extra_votes", "intercept", "mole", "steal")
PRIVILEGE_INPUTS = frozenset({"stun", "exclude", "extra_votes", "intercept", "mole", "steal"})
COINS_INPUTS = frozenset({"acted_at", "bets", "raise", "sympathies", "ally_picks", "trial_answers", "grants"})
# The smallest PNG (1×1): a trial answer «фото, видео или стикер» read by its content.
TINY_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                         "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")
POST_OF = {"greetings": "greeting", "defences": "defence", "opinions": "opinion"}
# issue 28, item 6: the GM's texts (a task; the tasks to come, one a line)
TEXTS = ("trial_task", "trial_tasks")


def check(key: str, value) -> str | None:
    if key in TEXTS and not isinstance(value, str):
        return "a text is required (the tasks to come: one a line)"
    if key in LISTS and not isinstance(value, list):
        return "a list of names is required"
    if key in MAPS and not isinstance(value, dict):
        return "a mapping {name: value} is required"
    if key == "intercept":
        for guesses in value.values():
            for guess in guesses if isinstance(guesses, list) else [guesses]:
                if not isinstance(guess, dict) or "number" not in guess or \
                        len(set(guess) & set(GUESS_FIELDS)) != 1 or set(guess) - {"number", *GUESS_FIELDS}:
                    return "each guess is {number: n, about: name} or {number: n, receiver: name}"
    return None


def play_inputs(*, game, phase_spec: dict, user_of: Callable[[str], Any],
                seat_of: Callable[[str | None], int | None], now: datetime) -> None:
    """In this order, a second apart: /lull ballots (applied before the close, as the engine's
    files say), activity, media posts, opinion requests, ballots, night choices and decisions,
    Secret Knowledge used."""
    game.refresh_from_db()
    tick = iter(range(10_000))
    opened = game.current_phase.opened_at
    acted_at = {str(n): v for n, v in (phase_spec.get("acted_at") or {}).items()}

    def at() -> datetime:
        return now + timedelta(seconds=next(tick))

    def acting(name: str) -> datetime:
        """When the hero does the stage's action: at the stage's open plus his `acted_at`, if given."""
        if name in acted_at:
            return opened + timedelta(seconds=float(acted_at[name]))
        return at()

    # the GM's, at the stage's open: the tasks to come, then the running trial's task
    if phase_spec.get("trial_tasks") is not None:
        show_trial_tasks(game=game, by=game.gm, tasks=str(phase_spec["trial_tasks"]).splitlines(), now=at())
    if phase_spec.get("trial_task") is not None:
        show_trial_task(game=game, by=game.gm, text=str(phase_spec["trial_task"]), now=at())
    ratings = phase_spec.get("ratings")
    if ratings:
        phase = game.current_phase
        Phase.objects.filter(pk=phase.pk).update(gm_decisions={
            **(phase.gm_decisions or {}), "ratings": {str(seat_of(n)): v for n, v in ratings.items()}})
    for voter, target in (phase_spec.get("lull") or {}).items():
        show_lull(game=game, user=user_of(voter), target=seat_of(target), now=at(), early_close=False)
    for mole, target in (phase_spec.get("mole") or {}).items():  # /mole, at once
        show_mole(game=game, user=user_of(mole), target=seat_of(target), now=at(), early_close=False)
    for name in phase_spec.get("active") or []:
        show_wake(game=game, user=user_of(name), now=at())
    posted: dict[str, list[str]] = {n: list(k) for n, k in (phase_spec.get("posted") or {}).items()}
    for key, kind in POST_OF.items():
        for name in phase_spec.get(key) or []:
            posted.setdefault(name, []).append(kind)
    for name, kinds in posted.items():
        for kind in kinds:
            show_media_post(game=game, user=user_of(name), kind=kind, now=acting(name), early_close=False)
    for requester, target in (phase_spec.get("requests") or {}).items():
        show_request(game=game, user=user_of(requester), target=seat_of(target), now=at(), early_close=False)
    for voter, target in (phase_spec.get("votes") or {}).items():
        if target in ("enslave", "spare"):
            show_vote(game=game, user=user_of(voter), ballot=target, now=acting(voter), early_close=False)
        else:
            show_vote(game=game, user=user_of(voter), target=seat_of(target), now=acting(voter), early_close=False)
    for item in phase_spec.get("orders") or []:
        detail = {k: seat_of(item[k]) for k in ("question", "public_key", "extra_knowledge") if item.get(k)}
        show_order(game=game, user=user_of(item["by"]), action=str(item["action"]), target=seat_of(item.get("target")),
                   detail=detail, now=acting(item["by"]), early_close=False)
    for holder, about in (phase_spec.get("knowledge") or {}).items():
        show_use_knowledge(game=game, user=user_of(holder), target=seat_of(about), now=at(), at_once=False)
    _play_privileges(game=game, phase_spec=phase_spec, user_of=user_of, seat_of=seat_of, at=at)
    _play_coins(game=game, phase_spec=phase_spec, user_of=user_of, seat_of=seat_of, at=at, acting=acting)
    for name in phase_spec.get("done") or []:  # «Я всё», last: it waives what is still open for him
        show_done(game=game, user=user_of(name), now=at(), early_close=False)


def _play_privileges(*, game, phase_spec: dict, user_of, seat_of, at) -> None:
    """Part 3's inputs (but /mole, played first) through the holder's panel's services, after the
    ballots and the night's choices: a theft is ordered after the thief's ballot, and a stun made
    before the stunned hero's choice would leave him none (the mutual pick of rule 5 needs it)."""
    for name, value in (phase_spec.get("extra_votes") or {}).items():
        if value in ("enslave", "spare"):
            show_extra_vote(game=game, user=user_of(name), ballot=value, now=at(), early_close=False)
        else:
            show_extra_vote(game=game, user=user_of(name), target=seat_of(value), now=at(), early_close=False)
    for thief, victim in (phase_spec.get("steal") or {}).items():
        show_steal(game=game, user=user_of(thief), target=seat_of(victim), now=at(), early_close=False)
    for bouncer, target in (phase_spec.get("stun") or {}).items():
        show_stun(game=game, user=user_of(bouncer), target=seat_of(target), now=at(), early_close=False)
    for lawyer, target in (phase_spec.get("exclude") or {}).items():
        show_exclude(game=game, user=user_of(lawyer), target=seat_of(target), now=at(), early_close=False)
    for hacker, guesses in (phase_spec.get("intercept") or {}).items():
        for guess in guesses if isinstance(guesses, list) else [guesses]:
            field = next(f for f in GUESS_FIELDS if f in guess)
            show_intercept(game=game, user=user_of(hacker), number=guess["number"], field=field,
                           target=seat_of(guess[field]), now=at(), early_close=False)


def _play_coins(*, game, phase_spec: dict, user_of, seat_of, at, acting) -> None:
    """Part 2's inputs through the panel's services: sympathies, ally picks, bets and raises, trial
    answers, then grants (the answers exist by then)."""
    bets = phase_spec.get("bets") or {}
    raisers = set(phase_spec.get("raise") or ())
    for sender, target in (phase_spec.get("sympathies") or {}).items():
        show_sympathy(game=game, user=user_of(sender), target=seat_of(target), now=at(), early_close=False)
    for name, target in (phase_spec.get("ally_picks") or {}).items():
        show_pick_ally(game=game, user=user_of(name), target=seat_of(target), now=acting(name), early_close=False)
    for name, target in bets.items():
        if name not in raisers:
            show_bet(game=game, user=user_of(name), target=seat_of(target), now=at(), early_close=False)
    for name in phase_spec.get("raise") or ():
        show_raise(game=game, user=user_of(name), target=seat_of(bets.get(name)), now=at(), early_close=False)
    for name in phase_spec.get("trial_answers") or ():
        upload = SimpleUploadedFile("answer.png", TINY_PNG, content_type="image/png")
        show_trial_answer(game=game, user=user_of(name), upload=upload, now=at())
    grants = phase_spec.get("grants") or {}
    if grants:
        game.refresh_from_db()
        post_of = {author: post for post, author in open_answers(game, game_state(game))}
        for granter, given in grants.items():
            if given == "pass":
                show_grant(game=game, user=user_of(granter), post=None, amount=None, now=at())
                continue
            for slave, amount in (given or {}).items():
                show_grant(game=game, user=user_of(granter), post=post_of.get(seat_of(slave)), amount=amount, now=at())
