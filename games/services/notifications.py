"""Notifications (the bell, the list, the e-mail digests) and replacement requests.

`notify` writes one notification per recipient in ONE statement (an INSERT ... SELECT over the
users table, duplicates by key ignored by the database), so a hook costs one query whatever the
number of recipients: the vote-posting path stays cheap. The hooks below it are the one-line
calls the other services make inside their own transactions. See docs/notifications.md.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.constants import OnConflict
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from games.caching import pagecache
from games.models import Absence, AnonymousMessage, Game, Notification, Phase, Post, Seat
from games.permissions import game_of, in_play, in_play_statuses
from games.selectors.duties import duties_of
from games.services import ActionRefused
from games.wording import agreed

log = logging.getLogger(__name__)

Kind = Notification.Kind
TEXT_MAX = Notification._meta.get_field("text").max_length
URL_MAX = Notification._meta.get_field("url").max_length
KEY_MAX = Notification._meta.get_field("key").max_length
# "Due soon": a vote or an order whose deadline is at most this far away.
DUE_SOON = timedelta(hours=3)
# The digest's periods; beat runs every 15 minutes, so a little slack keeps an hourly digest
# from slipping to every 75 minutes.
DIGEST_PERIODS = {"hourly": timedelta(hours=1), "daily": timedelta(days=1)}
DIGEST_SLACK = timedelta(minutes=5)
# Older unread notifications are not e-mailed (e.g. after switching the digest back on).
DIGEST_MAX_AGE = timedelta(days=7)
DIGEST_MAX_ITEMS = 50
REASON_MAX = Seat._meta.get_field("replacement_reason").max_length


# --- The one writer ---------------------------------------------------------------------------
def _texts(text, params: dict | None) -> dict[str, str]:
    """The text in every site language. `text` is a lazy msgid (with `params`) or a callable
    that builds the text in the active language."""
    out = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            if callable(text) and not isinstance(text, Promise):
                value = str(text())
            elif params:
                value = str(text) % {k: str(v) if isinstance(v, Promise) else v for k, v in params.items()}
            else:
                value = str(text)
        out[code] = value[:TEXT_MAX]
    return out


def notify(*, users, kind: str, text, params: dict | None = None, url: str = "", game: Game | int | None = None,
           key: str = "", now: datetime) -> int:
    """Notify each of `users` (users, user ids, or a queryset of user ids) unless he switched
    this kind off on both channels (the site and the e-mail digest). The text is written in each
    recipient's language; `key` de-duplicates (one notification per user and key, a repeat is
    ignored). One INSERT ... SELECT, in the caller's transaction. Returns the rows written."""
    if kind not in Kind.values:
        raise ValueError(f"unknown notification kind {kind!r}")
    if isinstance(users, QuerySet):
        ids_sql, ids_params = users.order_by().query.get_compiler(connection=connection).as_sql()
    else:
        ids = sorted({getattr(u, "pk", u) for u in users if u is not None})
        if not ids:
            return 0
        ids_sql, ids_params = ", ".join(["%s"] * len(ids)), ids
    texts = _texts(text, params)
    default_text = texts.get(settings.LANGUAGE_CODE) or next(iter(texts.values()))
    # The switched-off lists are JSON arrays of kind values; their text form contains "<kind>"
    # (quotes included) exactly when the kind is in the list, on SQLite and PostgreSQL alike.
    off = f'%"{kind}"%'
    # The bells of these users alone (the page cache, games/caching/pagecache.py).
    with connection.cursor() as cursor, pagecache.writing(users=ids if not isinstance(users, QuerySet) else users):
        cursor.execute(_insert_sql(len(texts), ids_sql), [
            kind, getattr(game, "pk", game), *[p for pair in texts.items() for p in pair], default_text,
            url[:URL_MAX], key[:KEY_MAX], Notification._meta.get_field("created_at").get_db_prep_save(now, connection),
            *ids_params, True, off, off,
        ])
        return max(cursor.rowcount, 0)


def _insert_sql(languages: int, ids_sql: str) -> str:
    """INSERT (ignoring a repeated key) ... SELECT one row per active recipient who keeps the kind
    on at least one channel, its text picked by his language."""
    from accounts.models import User

    qn, ops = connection.ops.quote_name, connection.ops
    n_col = {name: qn(Notification._meta.get_field(name).column)
             for name in ("user", "kind", "game", "text", "url", "key", "created_at")}
    u_col = {name: "u." + qn(User._meta.get_field(name).column)
             for name in ("id", "language", "is_active", "notify_site_off", "notify_email_off")}
    cases = " ".join(["WHEN %s THEN %s"] * languages)
    return (
        f"{ops.insert_statement(on_conflict=OnConflict.IGNORE)} {qn(Notification._meta.db_table)} "
        f"({', '.join(n_col.values())}) "
        f"SELECT {u_col['id']}, %s, %s, CASE {u_col['language']} {cases} ELSE %s END, %s, %s, %s "
        f"FROM {qn(User._meta.db_table)} u "
        f"WHERE {u_col['id']} IN ({ids_sql}) AND {u_col['is_active']} = %s "
        f"AND NOT (CAST({u_col['notify_site_off']} AS TEXT) LIKE %s "
        f"AND CAST({u_col['notify_email_off']} AS TEXT) LIKE %s) "
        f"{ops.on_conflict_suffix_sql([], OnConflict.IGNORE, None, None)}"
    )


def _thread_url(game: Game) -> str:
    return reverse("games:thread", args=[game.game_thread_id])


def phase_label(phase: Phase) -> str:
    """"Day 2", "Night 0", "Deck building" in the active language (Phase.label)."""
    return phase.label


# --- Hooks (one line each in the services that make things happen) ---------------------------
def notify_phase_opened(*, phase: Phase, now: datetime) -> int:
    """Every player seated in the game (all statuses; the GMs open phases themselves)."""
    game = phase.game
    return notify(users=Seat.objects.filter(game_id=game.pk).values("user_id"), kind=Kind.PHASE_OPENED,
                  text=lambda: _("«%(game)s»: %(phase)s has begun.") % {"game": game.title, "phase": phase_label(phase)},
                  url=_thread_url(game), game=game, key=f"phase_opened:{phase.pk}", now=now)


def notify_phase_closed(*, phase: Phase, now: datetime) -> int:
    game = phase.game
    return notify(users=Seat.objects.filter(game_id=game.pk).values("user_id"), kind=Kind.PHASE_CLOSED,
                  text=lambda: _("«%(game)s»: %(phase)s is over.") % {"game": game.title, "phase": phase_label(phase)},
                  url=_thread_url(game), game=game, key=f"phase_closed:{phase.pk}", now=now)


def notify_vote_on_me(*, post: Post, game: Game, row, roster, now: datetime) -> int:
    """The post's counted vote names a player: he is told (not for unvotes, peace or a vote for
    oneself). `row` is the post's final valid ledger line or None; `roster` the game's roster
    rows (games.permissions.roster_rows), so that this costs the INSERT only."""
    if row is None or row.kind != "vote" or row.target_id is None or row.target_id == row.voter_id:
        return 0
    seats = {pk: (user_id, name) for pk, user_id, _alive, name, _aliases in roster}
    if row.target_id not in seats or row.voter_id not in seats:
        return 0
    params = {"voter": seats[row.voter_id][1], "game": game.title, "number": post.number}
    return notify(users=[seats[row.target_id][0]], kind=Kind.VOTE_ON_ME, params=params,
                  text=_("%(voter)s voted for you in «%(game)s» (post #%(number)d)."),
                  url=post.get_absolute_url(), game=game, key=f"vote:{post.pk}:{row.target_id}", now=now)


def notify_private_messages(*, post: Post, pending, now: datetime) -> int:
    """[private] messages just stored: each recipient is told who wrote to him and where, never
    the text (the notification may be e-mailed)."""
    game = game_of(post.thread)
    written = 0
    for recipient in {p.recipient.pk: p.recipient for p in pending}.values():
        sender = next(p.sender for p in pending if p.recipient.pk == recipient.pk)
        written += notify(users=[recipient.user_id], kind=Kind.PRIVATE_MESSAGE,
                          text=agreed(sender.user.grammatical_gender,
                                      _("%(sender)s sent you a private message in post #%(number)d of «%(game)s»."),
                                      pgettext_lazy("masculine",
                                                    "%(sender)s sent you a private message in post #%(number)d of «%(game)s»."),
                                      pgettext_lazy("feminine",
                                                    "%(sender)s sent you a private message in post #%(number)d of «%(game)s».")),
                          params={"sender": sender.user.display_name, "number": post.number,
                                  "game": game.title if game else ""},
                          url=post.get_absolute_url(), game=game, key=f"private:{post.pk}:{recipient.pk}", now=now)
    return written


def notify_anonymous_delivered(*, message, now: datetime) -> int:
    """An anonymous message (or a card's message) reached its recipient: he is told to look at
    his role page; neither the sender nor the text is in the notification."""
    game = message.game
    text = (_("You received an anonymous message in «%(game)s».") if message.kind == AnonymousMessage.Kind.ANONYMOUS
            else _("A card's message reached you in «%(game)s»."))
    return notify(users=Seat.objects.filter(pk=message.recipient_id).values("user_id"), kind=Kind.PRIVATE_MESSAGE,
                  text=text, params={"game": game.title}, url=reverse("games:role", args=[game.pk]), game=game,
                  key=f"anonymous:{message.pk}", now=now)


# --- V/LA: no reminders on the days a player said he would be away -----------------------------
def users_away(user_ids: Iterable[int], *, now: datetime) -> set[int]:
    """The users among `user_ids` on V/LA at `now`: one of their absences (`Absence`, dates
    inclusive) covers the date it is at `now` in the user's OWN time zone (his profile's), not the
    server's. Every reminder path asks this (the due-soon notices, the prods, the e-mail digest):
    the V/LA page promises no reminders on those days. One query."""
    from zoneinfo import ZoneInfo

    ids = {getattr(u, "pk", u) for u in user_ids if u is not None}
    if not ids:
        return set()
    utc_day = now.astimezone(dt_timezone.utc).date()
    # Time zones are at most a day either side of UTC: a wider window than any user needs.
    rows = (Absence.objects.filter(user_id__in=ids, starts_on__lte=utc_day + timedelta(days=1),
                                   ends_on__gte=utc_day - timedelta(days=1))
            .values_list("user_id", "starts_on", "ends_on", "user__time_zone"))
    away = set()
    for user_id, starts_on, ends_on, zone in rows:
        try:
            local_day = now.astimezone(ZoneInfo(zone or settings.TIME_ZONE)).date()
        except (KeyError, ValueError):  # an unknown zone name: the site's
            local_day = now.astimezone(ZoneInfo(settings.TIME_ZONE)).date()
        if starts_on <= local_day <= ends_on:
            away.add(user_id)
    return away


def notify_due_soon(*, now: datetime | None = None) -> int:
    """From beat: every player of a running game who still owes a vote or an order in a phase
    whose deadline is less than DUE_SOON away is told once (key per phase, seat and kind).
    Only users with such a phase are looked at; games.selectors.duties.duties_of says what they owe. A user
    on V/LA that day (users_away, his own time zone) is not told."""
    from accounts.models import User

    now = now or timezone.now()
    until = now + DUE_SOON
    soon = Q(seats__status__in=in_play_statuses(), seats__game__status=Game.Status.RUNNING,
             seats__game__current_phase__closed_at__isnull=True,
             seats__game__current_phase__voided_at__isnull=True,
             seats__game__current_phase__deadline_at__gt=now, seats__game__current_phase__deadline_at__lte=until)
    written = 0
    users = list(User.objects.filter(soon, is_active=True).distinct().order_by("pk"))
    away = users_away([u.pk for u in users], now=now)
    for user in users:
        if user.pk in away:
            continue
        for duty in duties_of(user, now=now):
            if duty.deadline_at is None or not now < duty.deadline_at <= until:
                continue
            game, phase = duty.game, duty.phase
            if duty.kind == "vote":
                text = _("«%(game)s»: %(phase)s ends in less than three hours and you have not voted yet.")
                url = _thread_url(game)
            else:
                text = _("«%(game)s»: %(phase)s ends in less than three hours and you have not sent your order yet.")
                url = reverse("games:role", args=[game.pk])
            written += notify(users=[user], kind=Kind.ORDER_DUE, url=url, game=game, now=now,
                              text=lambda text=text, game=game, phase=phase: text % {
                                  "game": game.title, "phase": phase_label(phase)},
                              key=f"due:{phase.pk}:{duty.seat.pk}:{duty.kind}")
    return written


# --- Replacement requests ---------------------------------------------------------------------
def _game_masters(game: Game):
    from accounts.models import User

    return User.objects.filter(Q(pk=game.gm_id) | Q(games_co_hosted=game)).values("pk")


def replacement_request(*, game: Game, user, reason: str, now: datetime | None = None) -> Seat:
    """A player in play asks the GMs to find someone to take his seat. The GMs and co-GMs are
    told once per player and seat; asking again only updates the reason."""
    now = now or timezone.now()
    reason = " ".join((reason or "").split())
    if len(reason) > REASON_MAX:
        raise ActionRefused(_("The reason is too long (at most %(n)d characters).") % {"n": REASON_MAX},
                            code="too_long")
    if game.status != Game.Status.RUNNING:
        raise ActionRefused(_("Replacements are asked for while the game runs."), code="not_running")
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(game=game, user=user).first() if user.is_authenticated else None
        if not in_play(game, seat):
            raise ActionRefused(_("Only a player still in play asks for a replacement."), code="not_active")
        seat.replacement_requested_at, seat.replacement_reason = seat.replacement_requested_at or now, reason
        seat.save(update_fields=["replacement_requested_at", "replacement_reason"])
        notify(users=_game_masters(game), kind=Kind.REPLACEMENT, url=reverse("games:gm_dashboard", args=[game.pk]),
               text=_("%(name)s (seat %(number)d) asks for a replacement in «%(game)s»."),
               params={"name": user.display_name, "number": seat.number, "game": game.title}, game=game,
               key=f"replacement_request:{seat.pk}:{user.pk}", now=now)
    return seat


def replacement_withdraw(*, game: Game, user) -> Seat:
    seat = Seat.objects.filter(game=game, user=user).first() if user.is_authenticated else None
    if seat is None or seat.replacement_requested_at is None:
        raise ActionRefused(_("You have not asked for a replacement."), code="no_request")
    Seat.objects.filter(pk=seat.pk).update(replacement_requested_at=None, replacement_reason="")
    seat.replacement_requested_at, seat.replacement_reason = None, ""
    return seat


def replacement_done(*, game: Game, seat: Seat, old_user, new_user, now: datetime) -> None:
    """Called by seat_replace: the request (if any) is settled, the new player learns which seat
    he took, the old one that he was replaced."""
    Seat.objects.filter(pk=seat.pk).update(replacement_requested_at=None, replacement_reason="")
    seat.replacement_requested_at, seat.replacement_reason = None, ""
    stamp = int(now.timestamp())
    notify(users=[new_user], kind=Kind.REPLACEMENT, text=_("You took seat %(number)d in «%(game)s»."),
           params={"number": seat.number, "game": game.title}, url=reverse("games:role", args=[game.pk]), game=game,
           key=f"seat_taken:{seat.pk}:{new_user.pk}:{stamp}", now=now)
    notify(users=[old_user], kind=Kind.REPLACEMENT, text=_("You were replaced in «%(game)s»."),
           params={"game": game.title}, url=game.get_absolute_url(), game=game,
           key=f"replaced:{seat.pk}:{old_user.pk}:{stamp}", now=now)


# --- Reading (what the user reads: games.selectors.notifications) ------------------------------
def notification_mark_read(*, user, pk: int, now: datetime | None = None) -> Notification | None:
    """The user's own notification, marked read; None when it is not his (or does not exist)."""
    notification = Notification.objects.filter(user=user, pk=pk).first() if user.is_authenticated else None
    if notification is not None and notification.read_at is None:
        notification.read_at = now or timezone.now()
        with pagecache.writing(users=[user]):
            Notification.objects.filter(pk=notification.pk, read_at__isnull=True).update(read_at=notification.read_at)
    return notification


def notifications_mark_all_read(*, user, now: datetime | None = None) -> int:
    with pagecache.writing(users=[user]):
        return Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=now or timezone.now())


# --- E-mail digests ---------------------------------------------------------------------------
def site_url() -> str:
    return str(getattr(settings, "MAFIA_SITE_URL", "") or "http://127.0.0.1:8000").rstrip("/")


def digest_due_users(*, now: datetime) -> QuerySet:
    """Users whose digest period has passed since the last one, with a verified address and
    something unread and not yet e-mailed."""
    from allauth.account.models import EmailAddress

    from accounts.models import User

    due = Q()
    for frequency, period in DIGEST_PERIODS.items():
        due |= Q(email_digest=frequency) & (Q(last_digest_at__isnull=True) | Q(last_digest_at__lte=now - period + DIGEST_SLACK))
    pending = Notification.objects.filter(user=OuterRef("pk"), read_at__isnull=True, emailed_at__isnull=True,
                                          created_at__gt=now - DIGEST_MAX_AGE)
    verified = EmailAddress.objects.filter(user=OuterRef("pk"), email__iexact=OuterRef("email"), verified=True)
    return User.objects.filter(due, Exists(pending), Exists(verified), is_active=True).exclude(email="").order_by("pk")


def digest_items(user, *, now: datetime) -> list[Notification]:
    return list(Notification.objects.filter(user=user, read_at__isnull=True, emailed_at__isnull=True,
                                            created_at__gt=now - DIGEST_MAX_AGE)
                .exclude(kind__in=list(user.notify_email_off or ())).order_by("created_at", "pk")[:DIGEST_MAX_ITEMS])


def digest_send(*, user, now: datetime) -> int:
    """One user's digest: the unread notifications not e-mailed yet of the kinds he wants by
    e-mail. The user row is claimed with a guarded UPDATE first, so two runs never both send.
    Returns how many notifications went out (0 when nothing was due)."""
    from django.core.mail import EmailMultiAlternatives
    from django.template.loader import render_to_string

    from accounts.models import User

    items = digest_items(user, now=now)
    if not items:
        return 0
    previous = user.last_digest_at
    claim = User.objects.filter(pk=user.pk)
    claim = claim.filter(last_digest_at__isnull=True) if previous is None else claim.filter(last_digest_at=previous)
    if not claim.update(last_digest_at=now):
        return 0
    ids = [n.pk for n in items]
    Notification.objects.filter(pk__in=ids, emailed_at__isnull=True).update(emailed_at=now)
    base = site_url()
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(user.time_zone):
        context = {
            "user": user, "base": base,
            "items": [{"n": n, "link": base + reverse("games:notification_open", args=[n.pk])} for n in items],
            "settings_url": base + reverse("accounts:profile_edit") + "#notification-settings",
            "list_url": base + reverse("games:notifications"),
        }
        subject = ngettext("%(site)s: %(n)d new notification", "%(site)s: %(n)d new notifications", len(items)) % {
            "site": settings.MAFIA_SITE_NAME, "n": len(items)}
        text = render_to_string("games/email/digest.txt", context)
        html = render_to_string("games/email/digest.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email])
    message.attach_alternative(html, "text/html")
    try:
        message.send()
    except Exception:  # the mail server failed: put everything back, the next run tries again
        log.exception("digest to user %s failed", user.pk)
        Notification.objects.filter(pk__in=ids, emailed_at=now).update(emailed_at=None)
        User.objects.filter(pk=user.pk, last_digest_at=now).update(last_digest_at=previous)
        return 0
    user.last_digest_at = now
    return len(items)


def digests_send(*, now: datetime | None = None) -> int:
    """From beat every 15 minutes: send every digest that is due. Returns the e-mails sent."""
    now = now or timezone.now()
    users = list(digest_due_users(now=now))
    # No e-mail on a V/LA day (in the user's time zone): his notifications wait for the first
    # digest after it (up to DIGEST_MAX_AGE old).
    away = users_away([u.pk for u in users], now=now)
    return sum(1 for user in users if user.pk not in away and digest_send(user=user, now=now))


def clean_kinds(values: Iterable[str]) -> list[str]:
    """Known kind values only, in the model's order."""
    wanted = set(values)
    return [k for k in Kind.values if k in wanted]

