"""Players' statistics: the profile's figures and the leaderboards per rule set (docs/stats.md).

Only finished games count (`permissions.filter_unsealed_games`): while a game runs its roles,
factions, statuses and the meaning of its votes are secret, so a running game contributes nothing
here; the profile lists it by title only. Every figure is read in a bounded number of queries
whatever the number of games: the seats in one query, the vote ledger of all those games in one
more (the standing vote of each voter at each day's close is worked out in Python, exactly as
`games.selectors.votes.standing_votes` does per phase), a rule set's ratings in a few more
(SiteRuleset.seat_ratings: the club's in three).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from games.wording import faction_label, role_label
from games.selectors.holders import stint_users, swaps_by_seat, user_id_at
from games.models import Game, Replacement, Seat, VoteRecord
from games.permissions import filter_unsealed_games
from games.rulesets import registry
from games.selectors.votes import voting_kinds


MIN_GAMES_DEFAULT = 3
MIN_GAMES_LIMITS = (1, 100)
PAGE_SIZE = 50
# The computed table of a rule set is kept this long; a newly finished game (or a finished game
# reopened by a rollback) changes the key at once, later GM corrections show within this time.
BOARD_CACHE_SECONDS = 300
BOARD_CACHE_VERSION = 2  # 2: replaced players have their stints

NO_WINNER = ("none", "")  # game.winner of a draw ("nobody is left") or of a game ended without one

SORTS: dict[str, object] = {
    "win_rate": _("win rate"),
    "wins": _("wins"),
    "games": _("games"),
    "survival": _("survival rate"),
    "enemy_votes": _("votes for an enemy"),
}
DEFAULT_SORT = "win_rate"


def rulesets() -> tuple[str, ...]:
    """The rule sets with a leaderboard, in the profile's order: the registered ones as the settings
    list them (the Show gets its board when its package registers, issue 18)."""
    return tuple(registry.keys())


def default_ruleset() -> str:
    """The rule set of /leaderboards/: the first listed (the forum)."""
    return registry.default_key()


def ruleset_label(key: str) -> str:
    """A rule set's name in the current language: its adapter's label, or the key itself for a
    key no rule set registers (an old game's)."""
    adapter = registry.find(key)
    return str(adapter.label) if adapter is not None else key


def sorts_for(ruleset: str) -> dict[str, object]:
    """The board's sorts: the core's, and those the rule set adds for its own figures (the club's
    rating, SiteRuleset.leaderboard_sorts) that this module knows how to sort by."""
    adapter = registry.find(ruleset)
    extra = adapter.leaderboard_sorts() if adapter is not None else {}
    return {**SORTS, **{key: label for key, label in extra.items() if key in _SORT_KEYS}}


def with_rating(ruleset: str) -> bool:
    """Whether the rule set rates its players per game, so that its board has a rating column."""
    adapter = registry.find(ruleset)
    return adapter is not None and adapter.has("rating")


def _pct(part: int, whole: int) -> int | None:
    return round(100 * part / whole) if whole else None


# --- Figures -------------------------------------------------------------------------------------
@dataclass
class SeatRecord:
    """One finished game of one player: what he was, how it ended for him."""

    seat_id: int
    game_id: int
    title: str
    ruleset: str
    role: str
    faction: str
    winner: str
    finished_at: datetime | None
    survived: bool
    enemy_votes: int = 0
    player_votes: int = 0
    # A replacement splits a seat into stints (games.selectors.holders): the player's part of the game.
    user_id: int | None = None
    replaced_out: bool = False  # he left the seat to a replacement before the end
    replaced_in: bool = False  # he took the seat over from someone
    automatic: bool = False  # an automatic game, hosted by the site (games.services.autohost)

    @property
    def won(self) -> bool:
        return bool(self.faction) and self.faction == self.winner

    @property
    def draw(self) -> bool:
        return self.winner in NO_WINNER

    @property
    def outcome(self) -> str:
        return "win" if self.won else "draw" if self.draw else "loss"

    @property
    def role_name(self) -> str:
        return role_label(self.ruleset, self.role) if self.role else ""

    @property
    def faction_name(self) -> str:
        return faction_label(self.faction) if self.faction else ""

    @property
    def winner_name(self) -> str:
        return faction_label(self.winner or "none")

    @property
    def ruleset_name(self) -> str:
        return ruleset_label(self.ruleset)


@dataclass
class Tally:
    """Sums over some finished games (a rule set, a faction, a role, everything)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    survived: int = 0
    replaced_out: int = 0  # games he left to a replacement: not in the survival figure either way
    enemy_votes: int = 0
    player_votes: int = 0  # days closed with a standing vote for a player (not peace, not none)

    def add(self, record: SeatRecord) -> None:
        self.games += 1
        self.wins += record.won
        self.draws += record.draw
        self.survived += record.survived
        self.replaced_out += record.replaced_out
        self.enemy_votes += record.enemy_votes
        self.player_votes += record.player_votes

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def played_to_end(self) -> int:
        return self.games - self.replaced_out

    @property
    def survival_rate(self) -> float | None:
        return self.survived / self.played_to_end if self.played_to_end else None

    @property
    def enemy_vote_rate(self) -> float | None:
        return self.enemy_votes / self.player_votes if self.player_votes else None

    @property
    def win_pct(self) -> int | None:
        return _pct(self.wins, self.games)

    @property
    def survival_pct(self) -> int | None:
        return _pct(self.survived, self.played_to_end)

    @property
    def enemy_vote_pct(self) -> int | None:
        return _pct(self.enemy_votes, self.player_votes)


@dataclass
class Group:
    """A tally under a name: one rule set, or one faction or role within a rule set."""

    ruleset: str
    key: str
    label: str
    tally: Tally = field(default_factory=Tally)

    @property
    def ruleset_name(self) -> str:
        return ruleset_label(self.ruleset)


# --- The vote ledger, in bulk ------------------------------------------------------------------
_LEDGER_FIELDS = ("phase_id", "post_number", "voter_id", "kind", "target_id", "source", "voter__faction",
                  "target__faction", "post__created_at", "voter__user_id")


def _ledger(games: QuerySet[Game]) -> QuerySet[VoteRecord]:
    """The lines that can make a standing vote in the games' closed, not voided, voting phases
    (days and re-votes): the same rows `games.selectors.votes.effective_ballots` reads per phase."""
    return (
        VoteRecord.objects.filter(phase__game__in=games, phase__kind__in=voting_kinds(), phase__voided_at__isnull=True,
                                  phase__closed_at__isnull=False, valid=True)
        .exclude(source=VoteRecord.Source.POST, is_final=False)
        .order_by("phase_id", "post_number", "pk")
    )


def _standing_rows(rows: Iterable[tuple]) -> dict[tuple[int, int], tuple]:
    """(phase id, voter seat id) -> the ledger row of his standing ballot at the close. Rows come in
    (phase, post number, pk) order. Per post its latest GM line beats its own final reading; a
    "none" correction removes the post's ballot; then each voter's last ballot of the phase stands
    (an unvote row stands for "no vote"). The same reading as effective_ballots + standing_votes."""
    per_post: dict[tuple[int, int], tuple] = {}
    gm = VoteRecord.Source.GM
    for row in rows:
        key = (row[0], row[1])
        if row[5] == gm or key not in per_post:
            per_post[key] = row
    standing: dict[tuple[int, int], tuple] = {}
    none = VoteRecord.Kind.NONE
    for row in per_post.values():  # in post order: keys keep their first position
        if row[3] != none:
            standing[(row[0], row[2])] = row
    return standing


def standing_votes_bulk(games: QuerySet[Game]) -> dict[int, dict[int, int | str | None]]:
    """{phase id: {voter seat id: target seat id | "peace" | None}} for every voting phase of the
    games, in one query; equal to resolution.standing_votes(phase) for each (tested)."""
    out: dict[int, dict[int, int | str | None]] = defaultdict(dict)
    rows = _ledger(games).values_list(*_LEDGER_FIELDS)
    for (phase_id, voter_id), row in _standing_rows(rows.iterator(chunk_size=5000)).items():
        kind = row[3]
        out[phase_id][voter_id] = row[4] if kind == VoteRecord.Kind.VOTE else "peace" if kind == VoteRecord.Kind.PEACE \
            else None
    return dict(out)


def _vote_tallies(ledger: QuerySet[VoteRecord], swaps: dict[int, list] | None = None) -> dict[tuple[int, int], list[int]]:
    """(seat id, user id) -> [votes for an enemy, votes for a player], one standing vote per voting
    phase, credited to the player who cast it: whoever held the seat when the post holding the
    standing ballot was written (games.selectors.holders), not whoever holds it at the end."""
    tallies: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    vote = VoteRecord.Kind.VOTE
    swaps = swaps or {}
    rows = ledger.values_list(*_LEDGER_FIELDS).iterator(chunk_size=5000)
    for (_phase, voter_id), row in _standing_rows(rows).items():
        if row[3] != vote or row[4] is None:
            continue  # peace, an unvote: no vote for a player
        tally = tallies[(voter_id, user_id_at(swaps.get(voter_id, ()), row[9], row[8]))]
        tally[1] += 1
        if row[7] != row[6]:
            tally[0] += 1
    return tallies


# --- A player's profile ------------------------------------------------------------------------
@dataclass
class Profile:
    overall: Tally
    by_ruleset: list[Group]
    by_faction: list[Group]
    by_role: list[Group]
    games: list[SeatRecord]  # newest first
    playing: list[Game]  # running games, loaded with their title only
    hosted: int  # finished games he ran as the GM
    co_hosted: int  # ... and as a co-GM

    @property
    def automatic(self) -> int:
        """His finished games that the site hosted (automatic games count like any other)."""
        return sum(1 for record in self.games if record.automatic)


def _records(seats: QuerySet[Seat], tallies: dict[tuple[int, int], list[int]], swaps: dict[int, list],
             *extra: str) -> list[tuple[SeatRecord, tuple]]:
    """The seats as records, one per person who held the seat (games.selectors.holders: each plays the
    seat's role for its team, so each has the game with the team's result; only the one who held
    it at the end can have survived; each has the votes he cast), each with the values of the
    `extra` fields asked for (about the seat's present player)."""
    rows = seats.values_list("pk", "game_id", "game__title", "game__ruleset", "role", "faction", "game__winner",
                             "game__finished_at", "status", "user_id", "game__automatic", *extra)
    records = []
    for pk, game_id, title, ruleset, role, faction, winner, finished_at, status, user_id, automatic, *more in rows:
        stints = stint_users(swaps.get(pk, ()), user_id)
        for index, (holder_id, replaced_out) in enumerate(stints):
            enemy, for_player = tallies.get((pk, holder_id), (0, 0))
            records.append((SeatRecord(seat_id=pk, game_id=game_id, title=title, ruleset=ruleset, role=role,
                                       faction=faction, winner=winner, finished_at=finished_at,
                                       survived=status == "active" and not replaced_out,
                                       enemy_votes=enemy, player_votes=for_player, user_id=holder_id,
                                       replaced_out=replaced_out, replaced_in=index > 0, automatic=automatic),
                            tuple(more)))
    return records


def _swaps(games: QuerySet[Game]) -> dict[int, list]:
    return swaps_by_seat(Replacement.objects.filter(seat__game__in=games))


def _groups(records: Iterable[SeatRecord], key, label) -> list[Group]:
    order = {ruleset: n for n, ruleset in enumerate(rulesets())}
    groups: dict[tuple[str, str], Group] = {}
    for record in records:
        k = (record.ruleset, key(record))
        if k not in groups:
            groups[k] = Group(ruleset=record.ruleset, key=k[1], label=label(record))
        groups[k].tally.add(record)
    return sorted(groups.values(), key=lambda g: (order.get(g.ruleset, 99), -g.tally.games, g.label))


def player_profile(user) -> Profile:
    """Everything the public profile shows of a player's games, in six queries."""
    finished = filter_unsealed_games(Game.objects.all())
    # His seats: those he holds and those he left to a replacement (games.selectors.holders).
    seats = Seat.objects.filter(Q(user=user) | Q(replacements__old_user=user), game__in=finished).distinct()
    swaps = swaps_by_seat(Replacement.objects.filter(seat__in=seats))
    # A GM line about a post names the post's own voter seat, so keeping only his seats' lines
    # keeps every post's lines whole and the standing votes are read exactly.
    tallies = _vote_tallies(_ledger(finished).filter(voter__in=seats), swaps)
    records = [r for r, _more in _records(seats, tallies, swaps) if r.user_id == user.pk]
    records.sort(key=lambda r: (r.finished_at.timestamp() if r.finished_at else 0, r.game_id), reverse=True)
    overall = Tally()
    for record in records:
        overall.add(record)
    by_ruleset = _groups(records, lambda r: r.ruleset, lambda r: r.ruleset_name)
    playing = list(Game.objects.filter(status=Game.Status.RUNNING, seats__user=user).only("pk", "title")
                   .order_by("-started_at", "-pk"))
    hosted = finished.filter(gm=user).count()
    co_hosted = Game.co_gms.through.objects.filter(user=user, game__in=finished).count()
    return Profile(
        overall=overall, by_ruleset=by_ruleset,
        by_faction=_groups(records, lambda r: r.faction, lambda r: r.faction_name),
        by_role=_groups(records, lambda r: r.role, lambda r: r.role_name),
        games=records, playing=playing, hosted=hosted, co_hosted=co_hosted,
    )


# --- Leaderboards ------------------------------------------------------------------------------
@dataclass
class BoardLine:
    user_id: int
    display_name: str
    name_key: str
    tally: Tally
    rating: float | None = None  # a rule set that rates players: the sum of its per-game ratings (seat_ratings)


def _compute_board(ruleset: str) -> list[BoardLine]:
    games = filter_unsealed_games(Game.objects.filter(ruleset=ruleset))
    swaps = _swaps(games)
    tallies = _vote_tallies(_ledger(games), swaps)
    adapter = registry.find(ruleset)
    ratings = adapter.seat_ratings(games) if adapter is not None else None
    lines: dict[int, BoardLine] = {}
    seats = Seat.objects.filter(game__in=games)
    # Every player who held a seat, replaced ones included: (name, name key, active) by user id.
    people = {u: (name, key, active) for swap in swaps.values() for _at, u, _new, name, key, active in swap}
    for record, (name, key, active) in _records(seats, tallies, swaps, "user__display_name",
                                                "user__display_name_key", "user__is_active"):
        user_id = record.user_id
        if record.replaced_out:
            name, key, active = people[user_id]
        if not active:
            continue  # inactive accounts are left out (their profile is a 404 too)
        line = lines.get(user_id)
        if line is None:
            line = lines[user_id] = BoardLine(user_id=user_id, display_name=name, name_key=key, tally=Tally(),
                                              rating=0.0 if ratings is not None else None)
        line.tally.add(record)
        if ratings is not None and not record.replaced_out:
            # A rating is the seat's at the end (the club gives its points then): the last holder's.
            line.rating += ratings.get(record.seat_id, 0.0)
    return list(lines.values())


def board_lines(ruleset: str) -> list[BoardLine]:
    """Every player with a finished game of the rule set, unsorted. Cached for a few minutes under a
    key that changes as soon as a game of the rule set finishes (or is reopened)."""
    games = filter_unsealed_games(Game.objects.filter(ruleset=ruleset))
    version = games.aggregate(n=Count("pk"), last=Max("finished_at"))
    last = version["last"].timestamp() if version["last"] else 0
    key = f"stats:board:{BOARD_CACHE_VERSION}:{ruleset}:{version['n']}:{last}"
    lines = cache.get(key)
    if lines is None:
        lines = _compute_board(ruleset) if version["n"] else []
        cache.set(key, lines, BOARD_CACHE_SECONDS)
    return lines


def _neg(value: float | None) -> float:
    """Descending order with the players who have no such figure last."""
    return float("inf") if value is None else -value


_SORT_KEYS = {
    "win_rate": lambda l: (_neg(l.tally.win_rate), -l.tally.games),
    "wins": lambda l: (-l.tally.wins,),
    "games": lambda l: (-l.tally.games,),
    "survival": lambda l: (_neg(l.tally.survival_rate), -l.tally.games),
    "enemy_votes": lambda l: (_neg(l.tally.enemy_vote_rate), -l.tally.player_votes),
    "rating": lambda l: (_neg(l.rating),),
}


def leaderboard(ruleset: str, *, sort: str = DEFAULT_SORT, min_games: int = MIN_GAMES_DEFAULT) -> list[BoardLine]:
    """Players with at least `min_games` finished games of the rule set, sorted by `sort` (descending;
    rates then by games), ties by display name. An unknown sort is the default one."""
    if sort not in sorts_for(ruleset):
        sort = DEFAULT_SORT
    key = _SORT_KEYS[sort]
    lines = [line for line in board_lines(ruleset) if line.tally.games >= min_games]
    return sorted(lines, key=lambda l: (*key(l), l.name_key, l.user_id))
