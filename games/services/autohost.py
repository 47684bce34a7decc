"""Games the site hosts by itself (issue 31): the host account, automatic games and their first
post, the setups' queue (one game in sign-ups per setup, the next opened when it starts), joining
from the lobby, the start when the table is full, and a site moderator taking a game over and
handing it back. Every decision the site makes as host goes to the GM log with the rule it
followed (docs/autohost.md)."""

from __future__ import annotations

from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from games.models import AutoSetup, Game, Order, Phase, Replacement, Seat, Standby, Thread, VoteRecord
from games.permissions import in_play, is_site_moderator
from games.rulesets import registry
from games.selectors.autohost import HOST_USERNAME, hosted_by_site
from games.services import ActionRefused
from games.services.games import game_create
from games.services.journal import gm_log

from games.selectors.state import owed_actions, stored_state
from games.selectors.votes import voting_kinds
from games.services.lifecycle import game_signup, game_start
from games.services.moderation import seat_modkill, seat_replace
from games.services.posts import post_create

HOST_NAMES = ("Автоведущий", "Автоведущий сайта")
# The inactivity rules of an automatic game made without a setup (the new-game form).
DEFAULT_PROD_HOURS = 12
DEFAULT_MISSED_LIMIT = 2
# The game thread of a finished automatic game stays open this long for the players' last words,
# then the host locks it (the discussion thread stays open).
LOCK_AFTER_END = timedelta(hours=24)


def site_host():
    """The account an automatic game is hosted by: its GM and the author of its posts. Nobody can
    log in as it: it has no usable password and no e-mail address to reset one by (it stays
    active, for an inactive account may not post). Created on first use."""
    User = get_user_model()
    host = User.objects.filter(username=HOST_USERNAME).first()
    if host is not None:
        return host
    for name in HOST_NAMES:
        if not User.objects.filter(display_name__iexact=name).exists():
            break
    else:
        name = HOST_USERNAME
    host = User(username=HOST_USERNAME, email="", display_name=name)
    host.set_unusable_password()
    host.save()
    return host


def rules_text(game: Game) -> str:
    """The game's first post: that the site hosts it, and each rule it follows in place of a GM."""
    adapter = registry.site(game.ruleset)
    lines = [
        gettext_now("[b]This game is hosted by the site: there is no human GM.[/b]"),
        gettext_now("It starts by itself when %(size)d players have joined: the roles are dealt at random, "
                    "with a commitment to the role list revealed at the end. Every phase lasts %(hours)d h and "
                    "closes at its deadline; the results are posted here at once.")
        % {"size": game.size, "hours": game.phase_hours},
        *[str(rule) for rule in adapter.auto_host_rules(game=game)],
    ]
    lines.append(gettext_now(
        "A player silent for %(hours)d h is reminded; one who misses %(limit)d votes or orders in a row "
        "is replaced by a player standing by, or, with nobody standing by, removed from the game.")
        % {"hours": _prod_hours(game), "limit": _missed_limit(game)})
    lines.append(gettext_now("When the game is over its thread stays open for a day, then the site locks it; "
                             "the discussion thread stays open."))
    lines.append(gettext_now("A site moderator may take the game over as its GM; everything the site decides "
                             "is in the GM log."))
    heading, rules = lines[0], lines[1:]
    return "\n".join([heading, "[list]", *[f"[*] {rule}" for rule in rules], "[/list]"])


def _prod_hours(game: Game) -> int:
    return int((game.options or {}).get("prod_hours", DEFAULT_PROD_HOURS))


def _missed_limit(game: Game) -> int:
    return max(int((game.options or {}).get("missed_limit", DEFAULT_MISSED_LIMIT)), 1)


def game_create_automatic(*, title: str, ruleset: str, size: int, phase_hours: int = 24, options: dict | None = None,
                          role_table: list[str] | None = None, setup: AutoSetup | None = None, by=None,
                          now: datetime | None = None) -> Game:
    """A game in sign-ups that the site hosts: its GM is the host account, its first post the
    rules the site follows. Refused for a rule set that needs a human GM."""
    now = now or timezone.now()
    adapter = registry.site(ruleset) if registry.find(ruleset) is not None else None
    if adapter is None:
        raise ActionRefused(_("Unknown rule set."), code="bad_ruleset")
    if not adapter.auto_host:
        raise ActionRefused(adapter.auto_host_refusal, code="needs_gm")
    host = site_host()
    options = adapter.auto_host_options(dict(options or {}))
    # The inactivity rules (the prods read prod_hours, autohost_inactivity missed_limit).
    options["prod_hours"] = setup.prod_after_hours if setup else DEFAULT_PROD_HOURS
    options["missed_limit"] = setup.missed_limit if setup else DEFAULT_MISSED_LIMIT
    with transaction.atomic():
        game = game_create(title=title, gm=host, ruleset=ruleset, size=size, phase_hours=phase_hours,
                           role_table=role_table, options=options)
        game.automatic, game.setup = True, setup
        game.save(update_fields=["automatic", "setup"])
        with translation.override(settings.LANGUAGE_CODE):  # posts are written in the site's language
            post_create(thread=game.game_thread, author=host, body=rules_text(game), now=now)
        gm_log(game=game, user=by or host, action="auto_create",
               data={"setup": setup.pk if setup else None, "rule": "automatic game"}, now=now)
    return game


def setup_open_game(*, setup: AutoSetup, now: datetime | None = None) -> Game | None:
    """The setup's game in sign-ups: the one there is, or a new one (numbered after the setup's
    games). None when the setup is switched off."""
    now = now or timezone.now()
    with transaction.atomic():
        setup = AutoSetup.objects.select_for_update().filter(pk=setup.pk).first()
        if setup is None or not setup.active:
            return None
        open_game = setup.games.filter(status=Game.Status.SIGNUPS).order_by("pk").first()
        if open_game is not None:
            return open_game
        number = setup.games.count() + 1
        return game_create_automatic(title=f"{setup.title} №{number}", ruleset=setup.ruleset, size=setup.size,
                                     phase_hours=setup.phase_hours, options=setup.options, setup=setup, now=now)


def setups_open_games(*, now: datetime | None = None) -> int:
    """Every active setup has its game in sign-ups (the beat sweep; a new setup gets its first)."""
    opened = 0
    for setup in AutoSetup.objects.filter(active=True).order_by("pk"):
        had = setup.games.filter(status=Game.Status.SIGNUPS).exists()
        if setup_open_game(setup=setup, now=now) is not None and not had:
            opened += 1
    return opened


def _require_player_for_automatic(game: Game, user) -> None:
    """Who may join an automatic game or stand by for it: a signed-in user with a confirmed e-mail
    address (the site, not a GM, vouches for its players)."""
    if not user.is_authenticated:
        raise ActionRefused(_("Log in to sign up."), code="anonymous")
    if not game.automatic:
        raise ActionRefused(_("This game is not an automatic one: sign up on its page."), code="not_automatic")
    if not EmailAddress.objects.filter(user=user, verified=True).exists():
        raise ActionRefused(_("Confirm your e-mail address first: automatic games take players with a "
                              "confirmed address."), code="unverified")


def autohost_join(*, game: Game, user, now: datetime | None = None) -> Seat:
    """One click from the lobby: a signed-in user with a confirmed e-mail takes a seat; the game
    starts when the table is full."""
    now = now or timezone.now()
    _require_player_for_automatic(game, user)
    seat = game_signup(game=game, user=user)
    autohost_start_if_full(game_id=game.pk, now=now)
    return seat


def autohost_start_if_full(*, game_id: int, now: datetime | None = None) -> bool:
    """Start an automatic game whose table is full, as its host, and open the setup's next game.
    True only for the call that started it (two joins at once: one start)."""
    now = now or timezone.now()
    game = Game.objects.select_related("gm", "setup").filter(pk=game_id).first()
    if game is None or not game.automatic or game.status != Game.Status.SIGNUPS or not hosted_by_site(game):
        return False
    if game.seats.count() < game.size:
        return False
    try:
        game_start(game=game, by=game.gm, now=now)
    except ActionRefused as refusal:
        if refusal.code == "started":
            return False
        raise
    if game.setup_id is not None:
        setup_open_game(setup=game.setup, now=now)
    return True


def autohost_take_over(*, game: Game, by, now: datetime | None = None) -> Game:
    """A site moderator becomes the GM of an automatic game; the site stops deciding for it."""
    now = now or timezone.now()
    if not is_site_moderator(by):
        raise ActionRefused(_("Only a site moderator takes an automatic game over."), code="not_allowed")
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("gm").get(pk=game.pk)
        if not game.automatic:
            raise ActionRefused(_("This game has a GM of its own."), code="not_automatic")
        if not hosted_by_site(game):
            raise ActionRefused(_("%(name)s hosts this game already.") % {"name": game.gm.display_name},
                                code="taken")
        if game.status == Game.Status.FINISHED:
            raise ActionRefused(_("The game is over."), code="finished")
        if game.seats.filter(user=by).exists():
            raise ActionRefused(_("A player of the game cannot host it."), code="player")
        host = game.gm
        game.gm = by
        game.save(update_fields=["gm"])
        gm_log(game=game, user=by, action="take_over", data={"from": host.display_name}, now=now)
        with translation.override(settings.LANGUAGE_CODE):
            post_create(thread=game.game_thread, author=by, now=now, body=gettext_now(
                "[b]%(name)s, a site moderator, hosts this game from now on.[/b]") % {"name": by.display_name})
    return game


def autohost_hand_back(*, game: Game, by, now: datetime | None = None) -> Game:
    """The moderator who took an automatic game over gives it back to the site."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("gm").get(pk=game.pk)
        if not game.automatic or hosted_by_site(game):
            raise ActionRefused(_("The site hosts this game already."), code="not_taken")
        if game.gm_id != by.pk and not by.is_staff:
            raise ActionRefused(_("Only the moderator who hosts it hands it back."), code="not_allowed")
        if game.status == Game.Status.FINISHED:
            raise ActionRefused(_("The game is over."), code="finished")
        host = site_host()
        game.gm = host
        game.save(update_fields=["gm"])
        gm_log(game=game, user=by, action="hand_back", data={}, now=now)
        with translation.override(settings.LANGUAGE_CODE):
            post_create(thread=game.game_thread, author=host, now=now, body=gettext_now(
                "[b]The site hosts this game again.[/b]"))
    return game


# --- Standing by, and the inactivity rules ----------------------------------------------------
def standby_join(*, game: Game, user, now: datetime | None = None) -> Standby:
    """Stand by to replace a player of an automatic game (its seats taken or the game running)."""
    _require_player_for_automatic(game, user)
    if game.status == Game.Status.FINISHED:
        raise ActionRefused(_("The game is over."), code="finished")
    if game.seats.filter(user=user).exists():
        raise ActionRefused(_("You play in this game already."), code="already_in")
    if user.is_staff or game.gm_id == user.pk:
        raise ActionRefused(_("Staff and the game's host cannot play in it."), code="hosts")
    standby, _created = Standby.objects.get_or_create(game=game, user=user, defaults={"created_at": now or timezone.now()})
    return standby


def standby_leave(*, game: Game, user) -> None:
    deleted, _rows = Standby.objects.filter(game=game, user=user).delete()
    if not deleted:
        raise ActionRefused(_("You are not standing by for this game."), code="not_standing_by")


def missed_in_a_row(game: Game, seat: Seat) -> int:
    """How many closed phases in a row, the latest first, the seat's present holder owed a vote or
    an order in and sent none: a voting phase owes a vote (any valid line of the ledger: a vote,
    an unvote, a vote for peace), any other phase owes an order when the engine expected one of
    the seat then (its state before the close, Phase.state_before). Phases before the holder took
    the seat do not count."""
    since = (Replacement.objects.filter(seat=seat).order_by("-created_at").values_list("created_at", flat=True).first()
             or game.started_at)
    phases = Phase.objects.filter(game=game, closed_at__isnull=False, voided_at__isnull=True)
    if since is not None:
        phases = phases.filter(opened_at__gte=since)
    voting = voting_kinds(game)
    missed = 0
    for phase in phases.order_by("-opened_at", "-pk"):
        if phase.kind in voting:
            acted = VoteRecord.objects.filter(phase=phase, voter=seat, valid=True).exists()
        else:
            state = stored_state((phase.state_before or {}).get("state"))
            if state is None:
                break
            if not state.has_seat(seat.pk) or not owed_actions(game, state, seat.pk):
                continue  # nothing owed: neither a miss nor an act
            acted = Order.objects.filter(phase=phase, actor=seat, valid=True).exists()
        if acted:
            break
        missed += 1
    return missed


def autohost_inactivity(*, game: Game, now: datetime | None = None) -> int:
    """The site as host of a running automatic game: a player who missed the game's limit of votes
    or orders in a row is replaced by the first player standing by who may take the seat, or,
    with nobody standing by, removed from play. Each act is posted in the thread and logged with
    the rule it followed. Returns how many seats it acted on."""
    now = now or timezone.now()
    game = Game.objects.select_related("gm", "game_thread").get(pk=game.pk)
    if not game.automatic or game.status != Game.Status.RUNNING or not hosted_by_site(game) or not game.state:
        return 0
    host, limit, acted = game.gm, _missed_limit(game), 0
    for seat in game.seats.select_related("user").order_by("number"):
        if not in_play(game, seat):
            continue
        missed = missed_in_a_row(game, seat)
        if missed < limit:
            continue
        old_name = seat.user.display_name
        rule = {"rule": "missed_limit", "missed": missed, "limit": limit, "seat": seat.pk, "player": old_name}
        replacement = _replace_from_standby(game, seat, host, missed, now)
        with translation.override(settings.LANGUAGE_CODE):
            if replacement is not None:
                gm_log(game=game, user=host, action="auto_replace", data={**rule, "by": replacement.display_name}, now=now)
                body = gettext_now("[b]The site replaces a silent player.[/b] %(old)s missed %(n)d votes or orders in a "
                                   "row (the limit is %(limit)d): %(new)s, who stood by, takes the seat.") % {
                    "old": old_name, "n": missed, "limit": limit, "new": replacement.display_name}
            else:
                seat_modkill(game=game, seat=seat, by=host, now=now, reason=gettext_now(
                    "missed %(n)d votes or orders in a row, and nobody stood by to replace") % {"n": missed})
                gm_log(game=game, user=host, action="auto_modkill", data=rule, now=now)
                body = gettext_now("[b]The site removes a silent player.[/b] %(old)s missed %(n)d votes or orders in "
                                   "a row (the limit is %(limit)d) and nobody stood by.") % {
                    "old": old_name, "n": missed, "limit": limit}
            post_create(thread=game.game_thread, author=host, body=body, now=now)
        acted += 1
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break  # the removal ended the game
    return acted


def _replace_from_standby(game: Game, seat: Seat, host, missed: int, now: datetime):
    """The first player standing by who may take the seat (a refused one is passed over and kept
    in the queue: a ban may end), or None."""
    for standby in game.standbys.select_related("user").order_by("created_at", "pk"):
        try:
            with transaction.atomic():
                seat_replace(game=game, seat=seat, new_user=standby.user, by=host, now=now,
                             reason=gettext_now("missed %(n)d votes or orders in a row") % {"n": missed})
                standby.delete()
        except ActionRefused:
            continue
        return standby.user
    return None


def automatic_games_host(*, now: datetime | None = None) -> int:
    """The beat's round of the site as host: every active setup keeps a game in sign-ups, a full
    table starts, and every running automatic game has its inactivity rules applied."""
    now = now or timezone.now()
    done = setups_open_games(now=now)
    for game in Game.objects.filter(automatic=True, status=Game.Status.SIGNUPS).only("pk"):
        done += autohost_start_if_full(game_id=game.pk, now=now)
    for game in Game.objects.filter(automatic=True, status=Game.Status.RUNNING).only("pk"):
        done += autohost_inactivity(game=game, now=now)
    finished = Game.objects.filter(automatic=True, status=Game.Status.FINISHED, game_thread__is_locked=False,
                                   finished_at__lte=now - LOCK_AFTER_END).select_related("gm", "game_thread")
    for game in finished:
        done += autohost_lock_finished(game=game, now=now)
    return done


def autohost_lock_finished(*, game: Game, now: datetime) -> int:
    """A day after an automatic game the site hosts ended, its game thread locks (the rule its first
    post states); logged with the rule. 1 when it locked the thread."""
    if not hosted_by_site(game) or game.game_thread.is_locked:
        return 0
    Thread.objects.filter(pk=game.game_thread_id).update(is_locked=True, lock_at=None)
    gm_log(game=game, user=game.gm, action="auto_lock", data={"rule": "locked a day after the end"}, now=now)
    return 1
