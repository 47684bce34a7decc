"""The personal desk ("my desk", /me/): one read model of everything a user has to do or to read
across his games. Every secret goes through games.permissions; docs/desk.md describes each
section, where it comes from and what it costs in queries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.core.cache import cache
from django.db.models import CharField, Count, Exists, F, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from games import permissions
from games.selectors.duties import Duty, duties_of
from games.selectors.orders import remember_phase_ledgers
from games.selectors.votes import (
    count_version,
    effective_ballots_by_phase,
    parse_measure,
    version_key,
    vote_count,
    voting_kinds,
)
from games.wording import role_label
from games.models import AnonymousMessage, Absence, Game, Phase, Post, Seat, Thread, ThreadReadMark

UNREAD_LIMIT = 30
FINISHED_LIMIT = 10
# The desk's copy of a live count lives until the vote ledger moves on (count_version) or, at
# the latest, this long (a roster change within a day does not bump the version).
COUNT_CACHE_SECONDS = 300


# --- Rows ---------------------------------------------------------------------------------------
@dataclass
class DutyRow:
    duty: Duty
    label: str  # "vote" / "order", translated
    url: str
    time_left: timedelta | None
    time_left_text: str

    @property
    def game(self) -> Game:
        return self.duty.game

    @property
    def phase(self) -> Phase:
        return self.duty.phase


@dataclass
class VotedRow:
    """A running game whose day (or re-vote) is open, seen from the user as a target."""

    game: Game
    phase: Phase
    weight: int  # votes on me (each weighs one unless the rule set says otherwise)
    voters: list[tuple[str, int]]  # (display name, post number) of who votes for me
    majority: int | None  # None: the rule set counts by plurality (no majority, no L-n)
    to_majority: int  # votes short of the majority on me
    top: int = 0  # the most votes anyone has at the close (what a plurality is decided by)
    # His vote at the close is his own by the rules' default (the forum's: he has not voted), one
    # more on him than `weight` says.
    own_vote: bool = False


@dataclass
class PlayingRow:
    game: Game
    seat: Seat
    phase: Phase | None
    in_play: bool
    role_name: str  # empty unless games.permissions lets the user see it


@dataclass
class FinishedRow:
    game: Game
    seat: Seat
    won: bool
    role_name: str


@dataclass
class HostedRow:
    game: Game
    phase: Phase | None
    players: int
    anonymous_pending: int
    replacement_requests: int

    @property
    def pending(self) -> int:
        return self.anonymous_pending + self.replacement_requests


@dataclass
class UnreadRow:
    thread: Thread
    game_title: str  # the title of the thread's game ("" for a thread of no game)
    unread: int


@dataclass
class Desk:
    now: datetime
    today: date  # in the viewer's time zone
    duties: list[DutyRow] = field(default_factory=list)
    voted: list[VotedRow] = field(default_factory=list)
    playing: list[PlayingRow] = field(default_factory=list)
    signups: list[PlayingRow] = field(default_factory=list)
    finished: list[FinishedRow] = field(default_factory=list)
    hosting: list[HostedRow] = field(default_factory=list)
    unread: list[UnreadRow] = field(default_factory=list)
    absences: list[Absence] = field(default_factory=list)
    # His seats in every game not finished (running or signing up), what the unread threads' visibility reads.
    unfinished_seats: list[Seat] | None = None


# --- Sections -----------------------------------------------------------------------------------
def _duty_rows(user, now: datetime, seats: list[Seat]) -> list[DutyRow]:
    rows = []
    for duty in duties_of(user, now=now, seats=seats):
        if duty.kind == "vote":
            label = _("vote")
            url = reverse("games:thread", args=[duty.game.game_thread_id]) + "?page=last"
        else:
            label = _("order")
            url = reverse("games:role", args=[duty.game.pk])
        left = duty.time_left(now)
        rows.append(DutyRow(duty=duty, label=label, url=url, time_left=left,
                            time_left_text=timeuntil(duty.deadline_at, now, depth=2) if left is not None else ""))
    return rows


def count_summaries(pairs: list[tuple[Game, Phase]]) -> dict[int, dict]:
    """The public live count of each of several games' voting phases in a small cacheable form,
    by phase id: the majority and, per target seat id, the weight, the votes short of a majority
    and the voters (name, post number). Cached per ledger version, so a desk costs no query for
    them while nobody votes: the kept ones in one round trip to the cache, the others counted from
    every phase's ballots and every game's seats read at once (issue 30: a desk of 20 games costs
    the same queries as a desk of one)."""
    if not pairs:
        return {}
    versions = cache.get_many([version_key(phase.pk) for _game, phase in pairs])
    keys = {}
    for _game, phase in pairs:
        version = versions.get(version_key(phase.pk))
        if version is None:
            version = count_version(phase.pk)  # starts the ledger's version, as the pages do
        keys[phase.pk] = f"desk:count:{phase.pk}:{version}"
    found = cache.get_many(list(keys.values()))
    out = {phase.pk: found[keys[phase.pk]] for _game, phase in pairs if keys[phase.pk] in found}
    missing = [(game, phase) for game, phase in pairs if phase.pk not in out]
    if not missing:
        return out
    ballots = effective_ballots_by_phase([phase for _game, phase in missing])
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=[game.pk for game, _phase in missing]).select_related("user").order_by(
            "game_id", "number"):
        seats[seat.game_id].append(seat)
    # A count with measures (cards' Veche) reads each day's order ledger: all of them at once.
    remember_phase_ledgers([phase for game, phase in missing if parse_measure(game) is not None])
    made = {}
    for game, phase in missing:
        phase.game = game  # the game is at hand: vote_count need not fetch it again
        count = vote_count(phase=phase, seats=seats[game.pk], ballots=ballots[phase.pk])
        out[phase.pk] = made[keys[phase.pk]] = {
            "majority": None if count.plurality else count.majority,
            "top": count.top,  # at the close, by the rule set's own count there (CountView.lead)
            # The players whose vote at the close is their own by the rules' default (the forum's).
            "own_votes": sorted(count.lead.defaulted) if count.lead is not None else [],
            "wagons": {
                wagon.target.pk: {"weight": wagon.weight, "to_majority": wagon.to_majority,
                                  "voters": [(seat.user.display_name, number) for seat, number in wagon.voters]}
                for wagon in count.wagons if wagon.target is not None
            },
        }
    cache.set_many(made, timeout=COUNT_CACHE_SECONDS)
    return out


def _voted_row(seat: Seat, summaries: dict[int, dict]) -> VotedRow | None:
    game, phase = seat.game, seat.game.current_phase
    if not _counted(seat):
        return None
    summary = summaries[phase.pk]
    wagon = summary["wagons"].get(seat.pk)
    own_vote = seat.pk in summary.get("own_votes", ())
    if wagon is None:
        return VotedRow(game=game, phase=phase, weight=0, voters=[], majority=summary["majority"],
                        to_majority=summary["majority"] or 0, top=summary.get("top", 0), own_vote=own_vote)
    return VotedRow(game=game, phase=phase, weight=wagon["weight"], voters=[tuple(v) for v in wagon["voters"]],
                    majority=summary["majority"], to_majority=wagon["to_majority"], top=summary.get("top", 0),
                    own_vote=own_vote)


def _counted(seat: Seat) -> bool:
    """Whether the desk shows the seat's place in its game's live count: an open, not voided
    voting phase of a running game he plays in."""
    game, phase = seat.game, seat.game.current_phase
    return not (game.status != Game.Status.RUNNING or not permissions.in_play(game, seat) or phase is None
                or not phase.is_open or phase.voided_at is not None or phase.kind not in voting_kinds(game))


def _co_gm_ids(game_ids: list[int]) -> dict[int, set[int]]:
    """Co-GMs of many games in one query."""
    out: dict[int, set[int]] = defaultdict(set)
    rows = Game.co_gms.through.objects.filter(game_id__in=game_ids).values_list("game_id", "user_id")
    for game_id, user_id in rows:
        out[game_id].add(user_id)
    return out


def _role_name(user, seat: Seat) -> str:
    game = seat.game
    if not seat.role or not permissions.can_see_role_of(user, game, seat):
        return ""
    return role_label(game.ruleset, seat.role)


def _my_games(user, desk: Desk) -> list[Seat]:
    """The playing, sign-up and finished sections; returns the seats in play in running games
    (what duties_of reads: the same rows, no second query)."""
    # Whether each game has a co-GM, probed in the same query: the co-GMs are read only if any has.
    any_co_gm = Exists(Game.co_gms.through.objects.filter(game_id=OuterRef("game_id")))
    active = list(
        Seat.objects.filter(user=user, game__status__in=(Game.Status.RUNNING, Game.Status.SIGNUPS))
        .select_related("game", "game__current_phase", "game__gm", "game__game_thread").annotate(any_co_gm=any_co_gm)
        .order_by("-game__created_at", "-game_id")
    )
    finished = list(
        Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).select_related("game")
        .annotate(any_co_gm=any_co_gm)
        .order_by(F("game__finished_at").desc(nulls_last=True), "-game_id")[:FINISHED_LIMIT]
    )
    with_co_gms = [s.game_id for s in active + finished if s.any_co_gm]
    co_gms = _co_gm_ids(with_co_gms) if with_co_gms else {}
    for seat in active + finished:
        permissions.remember_viewer(user, seat.game, seat=seat, co_gm_ids=co_gms.get(seat.game_id, ()))
    summaries = count_summaries([(seat.game, seat.game.current_phase) for seat in active if _counted(seat)])
    for seat in active:
        game = seat.game
        if game.status == Game.Status.SIGNUPS:
            desk.signups.append(PlayingRow(game=game, seat=seat, phase=None, in_play=True, role_name=""))
            continue
        desk.playing.append(PlayingRow(game=game, seat=seat, phase=game.current_phase, in_play=permissions.in_play(game, seat),
                                       role_name=_role_name(user, seat)))
        row = _voted_row(seat, summaries)
        if row is not None:
            desk.voted.append(row)
    for seat in finished:
        desk.finished.append(FinishedRow(game=seat.game, seat=seat, won=bool(seat.faction) and seat.faction == seat.game.winner,
                                         role_name=_role_name(user, seat)))
    far = desk.now + timedelta(days=3650)
    desk.voted.sort(key=lambda r: (-r.weight, r.phase.deadline_at or far))
    in_play = set(permissions.in_play_statuses())
    desk.unfinished_seats = active
    return [s for s in active if s.game.status == Game.Status.RUNNING and s.status in in_play]


def _count_of(queryset) -> Subquery:
    """A correlated COUNT(*) of `queryset` (filtered on OuterRef("pk")), as an integer annotation."""
    return Coalesce(Subquery(queryset.order_by().values("game_id").annotate(n=Count("pk")).values("n")[:1]), 0)


def _hosting(user) -> list[HostedRow]:
    """The games he hosts, each with its players, its anonymous messages waiting for him and its
    players asking for a replacement: one query (issue 30)."""
    games = list(
        Game.objects.filter(Q(gm=user) | Q(pk__in=Game.co_gms.through.objects.filter(user=user).values("game_id")),
                            status__in=(Game.Status.RUNNING, Game.Status.SIGNUPS))
        .select_related("current_phase")
        .annotate(players=_count_of(Seat.objects.filter(game_id=OuterRef("pk"))),
                  anonymous_pending=_count_of(AnonymousMessage.objects.filter(
                      game_id=OuterRef("pk"), status=AnonymousMessage.Status.PENDING,
                      kind=AnonymousMessage.Kind.ANONYMOUS)),
                  replacement_requests=_count_of(Seat.objects.filter(game_id=OuterRef("pk"),
                                                                     replacement_requested_at__isnull=False)))
        .order_by("-created_at", "-pk")
    )
    return [
        HostedRow(game=g, phase=g.current_phase, players=g.players, anonymous_pending=g.anonymous_pending,
                  replacement_requests=g.replacement_requests)
        for g in games
    ]


def followed_thread_ids(user) -> tuple[set[int], set[int]]:
    """What a user follows, as ids: (the game and discussion threads of every game he plays or
    hosts, and every thread he posted in; the games among them not finished, whose private threads
    he follows too). One query, a UNION of reads that each start from his own rows (his seats, the
    games he hosts or co-hosts, his posts) by their indexes, so its cost is his history's, not the
    site's (issue 30: as ORed subqueries inside the thread query, the planner read every game and
    every thread of the site for them)."""
    columns = ("game__game_thread_id", "game__discussion_thread_id", "game_id", "game__status")
    none = Value(None, output_field=IntegerField())
    rows = (
        Seat.objects.filter(user=user).order_by().values_list(*columns)
        .union(Game.objects.filter(gm=user).order_by().values_list("game_thread_id", "discussion_thread_id", "pk", "status"),
               Game.co_gms.through.objects.filter(user=user).order_by().values_list(*columns),
               Post.objects.filter(author=user).order_by().annotate(a=none, b=none, c=Value("", output_field=CharField()))
               .values_list("thread_id", "a", "b", "c"))
    )
    threads, unfinished = set(), set()
    for first, second, game_id, status in rows:
        threads.update(pk for pk in (first, second) if pk is not None)
        if game_id is not None and status != Game.Status.FINISHED:
            unfinished.add(game_id)
    return threads, unfinished


def followed_threads(user, *, unfinished_seats: list[Seat] | None = None):
    """The threads a user follows: the game and discussion threads of every game he plays or
    hosts, the private threads of those games while they are not finished, and every thread he
    posted in. Visibility is games.permissions' (private threads of another team never show);
    `unfinished_seats`: his seats in every game not finished, when the caller has read them.
    The ids are read first (followed_thread_ids), so the planner starts from those few threads."""
    threads, unfinished = followed_thread_ids(user)
    followed = Q(pk__in=threads) | Q(kind__in=Thread.PRIVATE_KINDS, game_id__in=unfinished)
    return permissions.filter_visible_threads(user, Thread.objects.filter(followed), unfinished_seats=unfinished_seats)


def _unread(user, unfinished_seats: list[Seat] | None = None) -> list[UnreadRow]:
    read = ThreadReadMark.objects.filter(user=user, thread=OuterRef("pk")).values("last_read_number")[:1]

    def title_as(column: str) -> Subquery:
        # the game whose game or discussion thread it is: a probe of that column's unique index for
        # each thread listed (a join would read every game of the site: issue 30)
        return Subquery(Game.objects.filter(**{column: OuterRef("pk")}).order_by().values("title")[:1])

    threads = (
        followed_threads(user, unfinished_seats=unfinished_seats)
        .annotate(read_up_to=Coalesce(Subquery(read), 0), game_thread_of=title_as("game_thread"),
                  discussion_thread_of=title_as("discussion_thread"))
        .filter(post_count__gt=F("read_up_to"))
        .select_related("game")
        .order_by(F("last_post_at").desc(nulls_last=True), "-pk")[:UNREAD_LIMIT]
    )
    return [UnreadRow(thread=t, unread=t.post_count - t.read_up_to,
                      game_title=(t.game.title if t.kind in Thread.PRIVATE_KINDS and t.game is not None
                                  else t.game_thread_of or t.discussion_thread_of or ""))
            for t in threads]


def _absences(user, today: date) -> list[Absence]:
    return list(Absence.objects.filter(user=user, ends_on__gte=today).order_by("starts_on", "pk"))


def desk_for(user, *, now: datetime | None = None) -> Desk:
    """Everything on one user's desk. Query cost: a fixed number of queries whatever the number of
    his games (issue 30), plus, per open day not yet in the cache, one live count (see docs/desk.md)."""
    now = now or timezone.now()
    desk = Desk(now=now, today=timezone.localdate(now))
    if not user.is_authenticated:
        return desk
    running = _my_games(user, desk)
    desk.duties = _duty_rows(user, now, running)
    desk.hosting = _hosting(user)
    desk.unread = _unread(user, desk.unfinished_seats)
    desk.absences = _absences(user, desk.today)
    return desk
