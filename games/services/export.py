"""The JSON export of a game (docs/export.md, schema docs/export.schema.json).

game_export(game) builds a dict of JSON types only (datetimes as ISO 8601 strings), so that
json.dumps(game_export(game)) needs no custom encoder and json.loads gives the same dict back.
Seats are referred to by their seat number; the engine's own data (events' data, phases'
outcome and GM decisions, orders' detail, the GM log's data) keeps the seat ids it was stored
with, and the roster maps each seat id to its number. Every act also names the person who did it
(`*_player`: who held the seat then, games.selectors.holders), since a replacement changes a seat's player.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import F
from django.utils import timezone

from games import permissions
from games.selectors.holders import SeatHolders
from games.models import (
    AnonymousMessage,
    Game,
    GameEvent,
    GMAction,
    Order,
    Post,
    PrivateMessage,
    Replacement,
    Thread,
    VoteRecord,
)

SCHEMA_VERSION = 2  # 2: the players of each act (`*_player`) and the seats' `holders`


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _person(user) -> dict | None:
    return {"id": user.pk, "display_name": user.display_name} if user is not None else None


def game_export(game: Game, *, user=None) -> dict:
    """Everything recorded about the game, for a viewer permissions.check_see_archive lets
    through (Http404 otherwise): anybody after the game, only the game's GMs while it runs.
    Without `user`, as an anonymous visitor (so: finished games only). Every secret is still read
    through games.permissions as that viewer. While the game runs the salt and the seed stay out
    (null) and `sealed` is true. Deleted posts keep their number but not their text."""
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

    user = user if user is not None else AnonymousUser()
    permissions.check_see_archive(user, game)
    finished = game.status == Game.Status.FINISHED
    seats = list(game.seats.select_related("user").order_by("number"))
    number = {s.pk: s.number for s in seats}
    phases = list(game.phases.order_by("opened_at", "pk"))

    def seat_no(seat_id: int | None) -> int | None:
        return number.get(seat_id) if seat_id is not None else None

    holders = SeatHolders.for_game(game, seats)

    def player(seat_id: int | None, when: datetime | None) -> dict | None:
        """Who held the seat at that moment: the person who did the act."""
        return _person(holders.user_at(seat_id, when)) if seat_id in holders.seats else None

    replacements: dict[int, list] = {}
    for r in Replacement.objects.filter(seat__game=game).select_related("old_user", "new_user", "created_by").order_by("created_at", "pk"):
        replacements.setdefault(r.seat_id, []).append({
            "old_player": _person(r.old_user), "new_player": _person(r.new_user), "reason": r.reason,
            "at": _iso(r.created_at), "by": _person(r.created_by)})

    roster = []
    for seat in seats:
        visible = permissions.can_see_role_of(user, game, seat)
        roster.append({
            "id": seat.pk, "number": seat.number, "player": _person(seat.user),
            "role": seat.role or None if visible else None, "faction": seat.faction or None if visible else None,
            # the role the commitment hashed (a rule may have changed `role` since: issue 28)
            "dealt_role": (seat.dealt_role or seat.role) or None if visible else None,
            "status": seat.status, "alive": seat.is_alive,
            "aliases": list(seat.aliases or []), "replacements": replacements.get(seat.pk, []),
            "holders": [{"player": _person(st.user), "from": _iso(st.start), "until": _iso(st.end)}
                        for st in holders.stints(seat.pk)],
        })

    # A vote is its post's: cast when the post was written (a GM correction too names that post).
    votes = [
        {"id": v.pk, "phase": v.phase_id, "post_number": v.post_number, "voter_seat": seat_no(v.voter_id),
         "voter_player": player(v.voter_id, v.post_at),
         "kind": v.kind, "target_seat": seat_no(v.target_id), "target_player": player(v.target_id, v.post_at),
         "source": v.source, "valid": v.valid,
         "reason": v.reason, "is_final": v.is_final, "fragment": v.fragment, "recorded_at": _iso(v.recorded_at),
         "recorded_by": _person(v.recorded_by), "note": v.note}
        for v in VoteRecord.objects.filter(phase__game=game).select_related("recorded_by")
        .annotate(post_at=F("post__created_at")).order_by("phase__opened_at", "phase_id", "post_number", "pk")
    ]

    orders = [
        {"id": o.pk, "phase": o.phase_id, "actor_seat": seat_no(o.actor_id), "actor_player": player(o.actor_id, o.recorded_at),
         "action": o.action, "target_seat": seat_no(o.target_id), "target_player": player(o.target_id, o.recorded_at),
         "source_seat": seat_no(o.source_seat_id), "source_player": player(o.source_seat_id, o.recorded_at),
         "text": o.text, "detail": o.detail,
         "source": o.source, "valid": o.valid, "reason": o.reason, "recorded_at": _iso(o.recorded_at),
         "recorded_by": _person(o.recorded_by)}
        for o in permissions.filter_visible_orders(user, game, Order.objects.select_related("recorded_by")).order_by("recorded_at", "pk")
    ]

    events = [
        {"id": e.pk, "phase": e.phase_id, "kind": e.kind, "audience": e.audience, "data": e.data, "text": e.text,
         "created_at": _iso(e.created_at)}
        for e in permissions.filter_visible_events(user, game, GameEvent.objects.all()).order_by("created_at", "pk")
    ]

    threads = [game.game_thread, game.discussion_thread]
    threads += list(permissions.filter_visible_threads(user, game.private_threads.all())
                    .select_related("seat").prefetch_related("members").order_by("kind", "pk"))
    thread_rows = [
        {"id": t.pk, "kind": t.kind, "title": t.title, "post_count": t.post_count, "faction": t.faction or None,
         "seat": seat_no(t.seat_id), "locked": t.is_locked, "created_at": _iso(t.created_at)}
        for t in threads
    ]
    kinds = {t.pk: t.kind for t in threads}
    messages = []
    posts = (Post.objects.filter(thread_id__in=list(kinds)).order_by("thread_id", "number")
             .values_list("thread_id", "number", "author_id", "created_at", "edited_at", "body", "comment", "is_deleted"))
    rows = list(posts.iterator(chunk_size=2000))
    author_ids = {row[2] for row in rows}
    authors = {u.pk: {"id": u.pk, "display_name": u.display_name} for u in User.objects.filter(pk__in=author_ids)}
    for thread_id, post_number, author_id, created_at, edited_at, body, comment, deleted in rows:
        messages.append({
            "thread": thread_id, "thread_kind": kinds[thread_id], "number": post_number, "author": authors.get(author_id),
            "created_at": _iso(created_at), "edited_at": _iso(edited_at), "body": None if deleted else body,
            "comment": comment, "deleted": deleted})

    private_messages = [
        {"thread": m.post.thread_id, "post_number": m.post.number, "index": m.index,
         "sender_seat": seat_no(m.sender_id), "recipient_seat": seat_no(m.recipient_id),
         "sender_player": player(m.sender_id, m.created_at), "recipient_player": player(m.recipient_id, m.created_at),
         "phase": m.phase_id, "html": m.html, "created_at": _iso(m.created_at)}
        for m in permissions.filter_visible_private_messages(user, game, PrivateMessage.objects.select_related("post"))
        .order_by("post__number", "index")
    ]

    anonymous = [
        {"id": m.pk, "kind": m.kind, "sender_seat": seat_no(m.sender_id), "recipient_seat": seat_no(m.recipient_id),
         "sender_player": player(m.sender_id, m.created_at), "recipient_player": player(m.recipient_id, m.created_at),
         "phase": m.phase_id, "text": m.text, "status": m.status, "created_at": _iso(m.created_at),
         "decided_at": _iso(m.decided_at), "decided_by": _person(m.decided_by)}
        for m in permissions.filter_visible_anonymous(user, game, AnonymousMessage.objects.select_related("decided_by"))
        .order_by("created_at", "pk")
    ]

    rooms = [
        {"thread": t.pk, "title": t.title, "members": sorted(seat_no(s.pk) for s in t.members.all()),
         "opened_in": t.opened_by_id, "closes_with": t.closes_with_id}
        for t in threads if t.kind == Thread.Kind.ROOM
    ]

    gm_log = [
        {"id": a.pk, "by": _person(a.user), "action": a.action, "data": a.data, "at": _iso(a.created_at)}
        for a in permissions.filter_visible_gm_actions(user, game, GMAction.objects.select_related("user")).order_by("created_at", "pk")
    ]

    return {
        "schema_version": SCHEMA_VERSION,
        "exported_at": _iso(timezone.now()),
        "sealed": not finished,
        "game": {
            "id": game.pk, "title": game.title, "ruleset": game.ruleset, "status": game.status,
            "options": game.options or {}, "size": game.size, "phase_hours": game.phase_hours,
            "vote_syntaxes": list(game.vote_syntaxes or []), "end_day_on_majority": game.end_day_on_majority,
            "count_spoiler_votes": game.count_spoiler_votes,
            "gm": _person(game.gm), "co_gms": [_person(u) for u in game.co_gms.order_by("pk")],
            "created_at": _iso(game.created_at), "started_at": _iso(game.started_at), "finished_at": _iso(game.finished_at),
            "winner": game.winner or None, "commitment": game.commitment or None,
            "commitment_salt": (game.commitment_salt or None) if finished else None,
            "rng_seed": game.rng_seed if finished else None,
            "game_thread": game.game_thread_id, "discussion_thread": game.discussion_thread_id,
        },
        "roster": roster,
        "phases": [
            {"id": p.pk, "kind": p.kind, "number": p.number, "opened_at": _iso(p.opened_at),
             "deadline_at": _iso(p.deadline_at), "closed_at": _iso(p.closed_at), "voided": p.voided_at is not None,
             "voided_at": _iso(p.voided_at), "outcome": p.outcome or {}, "gm_decisions": p.gm_decisions or {}}
            for p in phases
        ],
        "votes": votes,
        "orders": orders,
        "events": events,
        "threads": thread_rows,
        "messages": messages,
        "private_messages": private_messages,
        "anonymous_messages": anonymous,
        "rooms": rooms,
        "gm_log": gm_log,
    }
