"""Chat rooms (001: three characters name the same room in their posts' comment field).

A room is for three players in play who each named the same two others by day; it opens at the
day's close and lives through the next phase. The rule set may allow other sizes and a once-a-game
room of any size that lasts to the end (SiteRuleset.room_sizes, may_call_conspiracy: the cards'
Manager and Conspirator); a game has rooms when the rule set's default or the GM says so."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import permissions
from games.models import Game, Phase, Post, RoomProposal, Seat, Thread
from games.rulesets import registry
from games.selectors.communication import rooms_enabled
from games.selectors.votes import seats_matcher
from games.services import ActionRefused
from games.wording import agreed, suggestion_text

ROOM_RE = re.compile(r"^\s*(?:комнат[аы]|room)\s*[:\-—–]\s*(?P<names>.+?)\s*$", re.IGNORECASE | re.DOTALL)
# The once-a-game room of any size (the cards' Conspirator): «заговор: Вася, Петя, Маша, Коля»
# (the others name the same members with «комната:»).
CONSPIRACY_RE = re.compile(r"^\s*(?:заговор|conspiracy)\s*[:\-—–]\s*(?P<names>.+?)\s*$", re.IGNORECASE | re.DOTALL)


def _adapter(game: Game):
    return registry.find(game.ruleset)


def room_sizes(game: Game, members: set[int]) -> tuple[int, ...]:
    """The sizes a room of these members may have: three, or what the rule set allows them
    (SiteRuleset.room_sizes: two to four with the cards' Manager in it)."""
    adapter = _adapter(game)
    return adapter.room_sizes(game, members) if adapter is not None else (3,)


def _may_call_conspiracy(game: Game, seat_pk: int) -> bool:
    adapter = _adapter(game)
    return adapter is not None and adapter.may_call_conspiracy(game, seat_pk)


def _joins_a_conspiracy(game: Game, others: set[int]) -> bool:
    """A room of another size may be a conspiracy: the others name it with «комната:»."""
    return any(_may_call_conspiracy(game, pk) and not _conspiracy_used(game, pk) for pk in others)


def _conspiracy_used(game: Game, seat) -> bool:
    # Only a conspiracy room lives without an end (closes_with is empty): ordinary rooms always
    # close with the phase after their day.
    return Thread.objects.filter(kind=Thread.Kind.ROOM, game=game, closes_with__isnull=True, members=seat).exists()


def _takes_rooms(game: Game, seat: Seat | None) -> bool:
    """A player in play, or one out of play who still talks in his rooms and joins new ones
    (permissions.talks_when_dead; cards: the dead Avenger, «участвовать в старых и новых
    чат-комнатах»)."""
    return seat is not None and (permissions.in_play(game, seat) or permissions.talks_when_dead(game, seat))


@dataclass
class PendingRoom:
    phase: Phase
    proposer: Seat
    members: list[int]
    conspiracy: bool = False


def room_check(*, thread: Thread, author, comment: str) -> PendingRoom | None:
    """Read «комната: Вася, Петя» from a post's comment field, or refuse it with the reason. Any
    other comment is just a comment."""
    match = ROOM_RE.match(comment or "")
    conspiracy = False
    if match is None:
        match = CONSPIRACY_RE.match(comment or "")
        conspiracy = match is not None
    if match is None:
        return None
    game = permissions.game_of(thread)
    if game is None or thread.kind != Thread.Kind.GAME or not rooms_enabled(game):
        raise ActionRefused(_("This game has no chat rooms."), code="rooms_off")
    phase = game.current_phase
    if game.status != Game.Status.RUNNING or phase is None or phase.kind != Phase.Kind.DAY or not phase.is_open:
        raise ActionRefused(_("Rooms are agreed by day."), code="room_not_day")
    seats = list(game.seats.select_related("user"))
    proposer = next((s for s in seats if s.user_id == author.pk), None)
    if not _takes_rooms(game, proposer):
        raise ActionRefused(_("Only players in play take rooms."), code="room_not_player")
    # The roster matcher of the vote reader (memoised per roster: games.selectors.votes).
    matcher = seats_matcher(seats)
    by_name = {s.user.display_name: s for s in seats}
    members = {proposer.pk}
    for raw in re.split(r",|\s+и\s+", match.group("names")):
        name = raw.strip(" .!;")
        if not name:
            continue
        found = matcher.match(name)
        if not found.ok:
            refusal = _("Room: no player is called «%(name)s».") % {"name": name}
            if found.candidates:  # a typo: the closest names, never a guess
                refusal = f"{refusal} {suggestion_text(found.candidates)}"
            raise ActionRefused(refusal, code="room_unknown")
        seat = by_name[found.name]
        if not _takes_rooms(game, seat):
            out = agreed(seat.user.grammatical_gender, _("Room: %(name)s is out of the game."),
                         pgettext_lazy("masculine", "Room: %(name)s is out of the game."),
                         pgettext_lazy("feminine", "Room: %(name)s is out of the game."))
            raise ActionRefused(out % {"name": found.name}, code="room_dead")
        members.add(seat.pk)
    if conspiracy:
        if not _may_call_conspiracy(game, proposer.pk):
            raise ActionRefused(_("Only the Conspirator calls a conspiracy."), code="room_not_conspirator")
        if _conspiracy_used(game, proposer):
            raise ActionRefused(_("The Conspirator calls his conspiracy once a game."), code="room_conspiracy_used")
        if len(members) < 2:
            raise ActionRefused(_("Name at least one other player."), code="room_size")
    elif len(members) not in room_sizes(game, members) and not _joins_a_conspiracy(game, members - {proposer.pk}):
        if len(room_sizes(game, members)) > 1:
            raise ActionRefused(_("With the Manager a room is for two, three or four players."), code="room_size")
        raise ActionRefused(_("A room is for three: you and two other players."), code="room_size")
    return PendingRoom(phase=phase, proposer=proposer, members=sorted(members), conspiracy=conspiracy)


def room_store(*, post: Post, pending: PendingRoom | None, now) -> None:
    if pending is not None:
        RoomProposal.objects.create(phase=pending.phase, proposer=pending.proposer, post=post,
                                    members=pending.members, created_at=now)


def rooms_open(*, game: Game, day: Phase, next_phase: Phase | None) -> list[Thread]:
    """At the day's close: a room opens for every set of three players in play (two to four with
    the Manager) who each, in their last proposal of the day, named exactly that room. It lives
    through the next phase. The Conspirator's «заговор:» opens a room of any size when every other
    member named the same members; it lives to the end of the game, beside his other rooms, and
    counts as the others' one room of the day."""
    if not rooms_enabled(game):
        return []
    last: dict[int, tuple[int, ...]] = {}
    plots: dict[int, tuple[int, ...]] = {}  # the Conspirator's last «заговор:» of the day
    for proposal in RoomProposal.objects.filter(phase=day).select_related("post").order_by("created_at", "pk"):
        if CONSPIRACY_RE.match(proposal.post.comment or ""):
            plots[proposal.proposer_id] = tuple(proposal.members)
        else:
            last[proposal.proposer_id] = tuple(proposal.members)
    active = {seat.pk for seat in game.seats.all() if _takes_rooms(game, seat)}
    rooms = []
    wanted: list[tuple[tuple[int, ...], int | None]] = []  # (members, the conspirator or None)
    taken: set[int] = set()
    for conspirator, members in sorted(plots.items()):
        others = [m for m in members if m != conspirator]
        if conspirator in active and all(last.get(m) == members and m in active for m in others):
            wanted.append((members, conspirator))
            taken.update(others)  # the conspiracy is their one room of the day
    for members in sorted(set(last.values())):
        if any(m in taken for m in members) or any(members == w for w, _c in wanted):
            continue
        if len(members) in room_sizes(game, set(members)) and all(last.get(m) == members and m in active
                                                                   for m in members):
            wanted.append((members, None))
    for members, conspirator in wanted:
        with translation.override(settings.LANGUAGE_CODE):
            names = ", ".join(game.seats.filter(pk__in=members).order_by("number").values_list(
                "user__display_name", flat=True))
            title = str(_("%(game)s: room of %(names)s")) % {"game": game.title, "names": names}
        # A conspiracy room «не уничтожается до конца игры»: no phase closes it.
        room = Thread.objects.create(kind=Thread.Kind.ROOM, game=game, title=title, created_by=game.gm,
                                     opened_by=day, closes_with=next_phase if conspirator is None else None)
        room.members.set(members)
        rooms.append(room)
    return rooms


def rooms_close(*, phase: Phase) -> int:
    """When the phase a room lives through closes, the room becomes read-only."""
    return Thread.objects.filter(kind=Thread.Kind.ROOM, closes_with=phase, is_locked=False).update(is_locked=True)


def rooms_close_all(*, game: Game) -> int:
    """At the end of the game every room still open (the conspiracy's) becomes read-only."""
    return Thread.objects.filter(kind=Thread.Kind.ROOM, game=game, is_locked=False).update(is_locked=True)
