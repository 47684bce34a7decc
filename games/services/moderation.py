"""The GM's and the moderators' tools: replacements, modkills, prods, V/LA, rollback, reports,
hiding posts and bans."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.communication.letters import private_results_rolled_back
from games.engine.events import PUBLIC, Event, seat_audience
from games.engine.state import GameState
from games.rulesets import registry
from games.selectors.duties import owes_order
from games.selectors.holders import replaced_name
from games.selectors.state import game_state
from games.models import Absence, Game, GameBan, GameEvent, Order, Phase, Post, Prod, Replacement, Report, Seat
from games.permissions import in_play, in_play_statuses, is_banned_from, is_game_master, is_moderator, is_site_moderator
from games.services import ActionRefused, notifications
from games.services.journal import gm_log, store_events
from games.services.posts import post_create
from games.wording import agreed, role_label


def _system_post(game: Game, text: str, now: datetime) -> Post:
    return post_create(thread=game.game_thread, author=game.gm, body=text, now=now)


def _require_gm(user, game: Game, seat: Seat | None = None) -> None:
    if not is_game_master(user, game):
        raise ActionRefused(_("Only the GM may do that."), code="not_allowed")
    if seat is not None and seat.game_id != game.pk:  # a forged seat id from another game
        raise ActionRefused(_("That player is not in this game."), code="foreign_seat")


# --- Replacement -----------------------------------------------------------------------------------
def _replacement_check(game: Game, new_user, now: datetime) -> None:
    """Refuse a replacement with the true reason the user cannot take the seat."""
    if game.seats.filter(user=new_user).exists():
        raise ActionRefused(_("%(name)s already plays in this game.") % {"name": new_user.display_name},
                            code="already_in")
    if new_user.is_staff:
        # Staff are GMs of every game (games.permissions.is_game_master): they see its secrets.
        raise ActionRefused(_("%(name)s is a staff account: staff see the secrets of every game, so they cannot "
                              "take a seat.") % {"name": new_user.display_name}, code="staff")
    if is_game_master(new_user, game):
        raise ActionRefused(_("%(name)s hosts this game (GM or co-GM) and cannot play in it.")
                            % {"name": new_user.display_name}, code="hosts")
    if new_user.banned_until is not None and new_user.banned_until > now:
        banned = agreed(new_user.grammatical_gender, _("%(name)s is banned from the site."),
                        pgettext_lazy("masculine", "%(name)s is banned from the site."),
                        pgettext_lazy("feminine", "%(name)s is banned from the site."))
        raise ActionRefused(banned % {"name": new_user.display_name}, code="site_banned")
    if is_banned_from(new_user, game):
        banned = agreed(new_user.grammatical_gender, _("%(name)s is banned from this game."),
                        pgettext_lazy("masculine", "%(name)s is banned from this game."),
                        pgettext_lazy("feminine", "%(name)s is banned from this game."))
        raise ActionRefused(banned % {"name": new_user.display_name}, code="game_banned")


def seat_replace(*, game: Game, seat: Seat, new_user, by, reason: str = "", now: datetime | None = None) -> Seat:
    """A new user takes over the seat: its role, its history, its private results. The old
    name becomes an alias of the seat so that votes and orders naming it still reach it."""
    now = now or timezone.now()
    _require_gm(by, game, seat)
    if game.status == Game.Status.FINISHED:
        raise ActionRefused(_("The game is over."), code="finished")
    if new_user is None or not new_user.is_active:
        raise ActionRefused(_("No user has that name."), code="unknown_user")
    _replacement_check(game, new_user, now)
    with transaction.atomic():
        seat = Seat.objects.select_for_update().select_related("user").get(pk=seat.pk)
        old_user = seat.user
        Replacement.objects.create(seat=seat, old_user=old_user, new_user=new_user, reason=reason[:300],
                                   created_at=now, created_by=by)
        aliases = [a for a in (seat.aliases or []) if a != new_user.display_name]
        if old_user.display_name not in aliases:
            aliases.append(old_user.display_name)
        seat.user, seat.aliases = new_user, aliases
        seat.save(update_fields=["user", "aliases"])
        notifications.replacement_done(game=game, seat=seat, old_user=old_user, new_user=new_user, now=now)
        if game.state:
            state = game_state(game)
            if state.has_seat(seat.pk):
                state = _rename_seat(state, seat.pk, new_user.display_name)
                Game.objects.filter(pk=game.pk).update(state=state.to_json())
                game.state = state.to_json()
        gm_log(game=game, user=by, action="replace", data={"seat": seat.pk, "old": old_user.pk, "new": new_user.pk,
                                                           "reason": reason[:300]}, now=now)
        with translation.override(settings.LANGUAGE_CODE):
            # «Запасной вместо Эсмеральды»: the replaced name in the form the language needs there.
            text = str(_("[b]Replacement:[/b] %(new)s replaces %(old)s.")) % {
                "new": new_user.display_name, "old": replaced_name(old_user.display_name)}
            if reason:
                text += " " + str(_("Reason: %(reason)s")) % {"reason": reason[:300]}
        _system_post(game, text, now)
    return seat


def _rename_seat(state: GameState, seat_id: int, name: str) -> GameState:
    from dataclasses import replace

    return state.with_seats(tuple(replace(s, name=name) if s.id == seat_id else s for s in state.seats))


# --- Modkill -----------------------------------------------------------------------------------------
def seat_modkill(*, game: Game, seat: Seat, by, reason: str, now: datetime | None = None) -> Seat:
    """The GM removes a player from play, with the reason and his role in the thread."""
    from dataclasses import replace

    now = now or timezone.now()
    _require_gm(by, game, seat)
    reason = (reason or "").strip()
    if not reason:
        raise ActionRefused(_("Give the reason: it is posted in the thread."), code="no_reason")
    if game.status != Game.Status.RUNNING or not game.state:
        raise ActionRefused(_("The game is not running."), code="not_running")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seat = Seat.objects.select_for_update().select_related("user").get(pk=seat.pk)
        if not in_play(game, seat):
            raise ActionRefused(_("That player is already out of play."), code="not_active")
        state = game_state(game)
        state = state.with_seats(tuple(replace(s, status="removed") if s.id == seat.pk else s for s in state.seats))
        game.state = state.to_json()
        game.save(update_fields=["state"])
        seat.status, seat.is_alive = "removed", False
        seat.save(update_fields=["status", "is_alive"])
        store_events(game=game, phase=game.current_phase, now=now, events=[
            Event("modkilled", PUBLIC, {"seat": seat.pk, "name": seat.user.display_name, "role": seat.role,
                                        "reason": reason[:300]})])
        gm_log(game=game, user=by, action="modkill", data={"seat": seat.pk, "reason": reason[:300]}, now=now)
        with translation.override(settings.LANGUAGE_CODE):
            text = str(_("[b]%(name)s is removed from the game by the GM[/b] (%(role)s). Reason: %(reason)s")) % {
                "name": seat.user.display_name, "role": role_label(game.ruleset, seat.role), "reason": reason[:300]}
        _system_post(game, text, now)
    return seat


# --- V/LA --------------------------------------------------------------------------------------------
def absence_add(*, user, starts_on: date, ends_on: date, note: str = "") -> Absence:
    if not user.is_authenticated:
        raise ActionRefused(_("Log in first."), code="anonymous")
    if ends_on < starts_on:
        raise ActionRefused(_("The absence must end after it starts."), code="bad_dates")
    if (ends_on - starts_on).days > 90:
        raise ActionRefused(_("An absence is at most 90 days long."), code="too_long")
    if ends_on < timezone.localdate():
        raise ActionRefused(_("That absence is already over."), code="in_past")
    return Absence.objects.create(user=user, starts_on=starts_on, ends_on=ends_on, note=(note or "")[:200])


def absence_remove(*, user, absence_id: int) -> bool:
    """Delete one of the user's own absences; an id that names none of his deletes nothing (a
    forged id is not an error: the page just shows his list again). Whether one was deleted."""
    if not user.is_authenticated:
        return False
    deleted, _rows = Absence.objects.filter(user=user, pk=absence_id).delete()
    return bool(deleted)


# --- Inactivity and prods -----------------------------------------------------------------------------
def prods_send(*, now: datetime | None = None) -> int:
    """Remind active players who have been silent for the game's prod hours, or who owe an
    action when the deadline is near. Each reminder goes once per phase. Runs from beat."""
    now = now or timezone.now()
    sent = 0
    for game in Game.objects.filter(status=Game.Status.RUNNING).select_related("current_phase", "game_thread"):
        phase = game.current_phase
        if phase is None or not phase.is_open or not game.state:
            continue
        silent_after = timedelta(hours=int((game.options or {}).get("prod_hours", 24)))
        adapter = registry.find(game.ruleset)
        awaited = adapter.awaited(game, phase) if adapter is not None else None
        acted = set(Order.objects.filter(phase=phase, valid=True).values_list("actor_id", flat=True))
        last_posts = dict(Post.objects.filter(thread=game.game_thread).values_list("author_id").annotate(last=Max("created_at")))
        seats = list(game.seats.select_related("user").filter(status__in=in_play_statuses(game)))
        away = notifications.users_away([seat.user_id for seat in seats], now=now)  # V/LA days in each player's time zone
        for seat in seats:
            if seat.user_id in away:
                continue  # V/LA: the player said he would be away
            last = last_posts.get(seat.user_id) or phase.opened_at
            kinds = []
            if now - max(last, phase.opened_at) >= silent_after:
                kinds.append(Prod.Kind.SILENT)
            if (phase.deadline_at and timedelta(0) < phase.deadline_at - now <= timedelta(hours=6)
                    and owes_order(game, seat, phase, awaited=awaited, acted=acted)):
                kinds.append(Prod.Kind.NO_ACTION)
            for kind in kinds:
                _, created = Prod.objects.get_or_create(seat=seat, phase=phase, kind=kind, defaults={"sent_at": now})
                if created:
                    _prod_deliver(game, seat, kind, now)
                    sent += 1
    return sent


def _prod_deliver(game: Game, seat: Seat, kind: str, now: datetime) -> None:
    store_events(game=game, phase=game.current_phase, now=now,
                 events=[Event("prod", seat_audience(seat.pk), {"kind": kind, "name": seat.user.display_name})])
    with translation.override(seat.user.language or settings.LANGUAGE_CODE):
        subject = f"[{settings.MAFIA_SITE_NAME}] " + str(_("A reminder from the game «%(title)s»")) % {"title": game.title}
        body = (str(_("You have not posted in the game thread for a while.")) if kind == Prod.Kind.SILENT
                else str(_("The deadline is near and you have not sent your order yet.")))
        # Greeted by the name the player is known by, signed with the site's name and a link.
        body = "\n\n".join([str(_("Hello, %(name)s!")) % {"name": seat.user.display_name}, body,
                             notifications.site_url() + game.get_absolute_url(),
                             str(_("See you at «%(site_name)s»!")) % {"site_name": settings.MAFIA_SITE_NAME}])
    if seat.user.email:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [seat.user.email], fail_silently=True)


# --- Rollback ----------------------------------------------------------------------------------------
def resolution_rollback(*, game: Game, by, reason: str = "", now: datetime | None = None) -> Phase:
    """Undo the last resolution: the state and statuses before it come back, the phase it
    opened is voided (its votes and orders stay on record), the resolved phase is open again
    without a deadline, and a correction is posted."""
    now = now or timezone.now()
    _require_gm(by, game)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        last = (Phase.objects.filter(game=game, closed_at__isnull=False, voided_at__isnull=True)
                .exclude(state_before={}).order_by("-closed_at", "-pk").first())
        if last is None:
            raise ActionRefused(_("There is no resolution to roll back."), code="nothing")
        later = Phase.objects.filter(game=game, voided_at__isnull=True, opened_at__gte=last.closed_at).exclude(pk=last.pk)
        if later.filter(closed_at__isnull=False).exists():
            raise ActionRefused(_("Only the last resolution can be rolled back."), code="not_last")
        later.update(voided_at=now, closed_at=now)
        snapshot = last.state_before
        game.state = snapshot["state"]
        for seat in game.seats.all():
            saved = snapshot["seats"].get(str(seat.pk))
            if saved:
                seat.status, seat.role, seat.faction, seat.is_alive = saved
                seat.save(update_fields=["status", "role", "faction", "is_alive"])
        if game.status == Game.Status.FINISHED:
            game.status, game.winner, game.finished_at = Game.Status.RUNNING, "", None
        game.current_phase = last
        game.save(update_fields=["state", "status", "winner", "finished_at", "current_phase"])
        retracted = list(GameEvent.objects.filter(phase=last))
        for event in retracted:  # kept for the archive, marked as undone
            event.data = {**event.data, "retracted": True}
        GameEvent.objects.bulk_update(retracted, ["data"])
        closed_at = last.closed_at
        Phase.objects.filter(pk=last.pk).update(closed_at=None, deadline_at=None, outcome={}, state_before={})
        gm_log(game=game, user=by, action="rollback", data={"phase": last.pk, "reason": reason[:300]}, now=now)
        with translation.override(settings.LANGUAGE_CODE):
            # The phase's own label: «день 1, переголосование», not «переголосование 1».
            text = str(_("[b]Correction:[/b] the GM rolled back the results of %(phase)s. "
                         "They will be published again.")) % {"phase": last.label.lower()}
            if reason:
                text += " " + str(_("Reason: %(reason)s")) % {"reason": reason[:300]}
        _system_post(game, text, now)
        # The private results and letters of that close stay where they were read; a correction
        # follows them in each thread (docs/architecture.md, "Private communication").
        private_results_rolled_back(game=game, phase=last, closed_at=closed_at, now=now)
    last.refresh_from_db()
    return last


# --- Site moderation ---------------------------------------------------------------------------------
def report_create(*, post: Post, reporter, reason: str, now: datetime | None = None) -> Report:
    reason = (reason or "").strip()
    if not reporter.is_authenticated:
        raise ActionRefused(_("Log in to report a post."), code="anonymous")
    if not reason:
        raise ActionRefused(_("Say what is wrong with the post."), code="no_reason")
    if Report.objects.filter(post=post, reporter=reporter, resolved_at__isnull=True).exists():
        raise ActionRefused(_("You have already reported this post."), code="duplicate")
    return Report.objects.create(post=post, reporter=reporter, reason=reason[:500], created_at=now or timezone.now())


def report_resolve(*, report: Report, by, now: datetime | None = None) -> Report:
    if not is_moderator(by, report.post.thread):
        raise ActionRefused(_("Only moderators handle reports."), code="not_allowed")
    report.resolved_at, report.resolved_by = now or timezone.now(), by
    report.save(update_fields=["resolved_at", "resolved_by"])
    return report


def game_ban(*, game: Game, user, by, reason: str = "", now: datetime | None = None) -> GameBan:
    if not is_game_master(by, game) and not is_moderator(by, game.game_thread):
        raise ActionRefused(_("Only the GM or a moderator bans from a game."), code="not_allowed")
    if user is None or is_game_master(user, game):
        raise ActionRefused(_("That user cannot be banned from this game."), code="bad_user")
    ban, _created = GameBan.objects.get_or_create(game=game, user=user, defaults={
        "reason": reason[:300], "created_at": now or timezone.now(), "created_by": by})
    gm_log(game=game, user=by, action="ban", data={"user": user.pk, "reason": reason[:300]}, now=now)
    return ban


def site_ban(*, user, by, until: datetime | None, reason: str) -> None:
    if not is_site_moderator(by):
        raise ActionRefused(_("Only moderators ban users."), code="not_allowed")
    if user.is_staff:
        raise ActionRefused(_("Staff cannot be banned here."), code="staff")
    user.banned_until, user.ban_reason = until, (reason or "")[:300]
    user.save(update_fields=["banned_until", "ban_reason"])
