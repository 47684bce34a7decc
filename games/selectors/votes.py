"""Reads of the vote ledger: which phase votes are cast in, who may vote for whom, how a game reads
votes (its profile and weights), the ballots standing and the count. Moved down from
games.services.votes (issue 15) so that the pages, the desk, the duties and the archive read a
count without importing the service that records votes; the service imports them from here."""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from threading import Lock

from django.core.cache import cache
from django.db import connections
from django.db.models import Q
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import votecount
from games.engine.rulesets import get_ruleset
from games.engine.rulesets.base import site_style, voting_order
from games.models import Game, Phase, Seat, VoteRecord
from games.rulesets import registry
from games.rulesets.base import CountWords
from games.selectors.state import stored_state
from games.text.names import RosterMatcher
from games.text.votes import (DEFAULT_PROFILE, SYNTAX_EXAMPLES, SYNTAX_NATIVE, SYNTAX_ORDER, VoteProfile,
                              profile_named)
from games.wording import names_joined, wording_of



def voting_kinds(game: Game | None = None) -> frozenset[str]:
    """The phase kinds votes are cast in: the game's rule set's (SiteRuleset.voting_kinds: a day
    and its re-vote by default), or every rule set's for a read over many games (the leaderboard)."""
    adapters = [a for a in ([registry.find(game.ruleset)] if game is not None else registry.adapters()) if a is not None]
    if not adapters:  # a game of a rule set no longer registered: the core's day and re-vote
        return frozenset({Phase.Kind.DAY, Phase.Kind.REVOTE})
    # A rule set whose ballots are its own (the Show's hidden ones) has none: no core vote count,
    # tally, tie-break or "vote" duty for it.
    return frozenset().union(*(a.voting_kinds for a in adapters))


# --- How a game reads votes -------------------------------------------------------------------
def ruleset_of(game: Game):
    """The game's engine rule set, asked for its capabilities (None for an unknown key)."""
    try:
        return get_ruleset(game.ruleset)
    except (KeyError, ValueError):
        return None


def vote_profile_for(game: Game) -> VoteProfile:
    # The forum rules have no peace vote ("кто-то один сядет обязательно"); club has a
    # peaceful day only by tie, never by a vote. A rule set with `peace_vote` (cards: «Также
    # можно проголосовать "за мир"») accepts it.
    ruleset = ruleset_of(game)
    # The rule set's players' own vote words (club: «Голос: [b]Петя[/b]»), the syntaxes the GM
    # keeps on (the English words among them) and whether spoilers count (docs/votes.md).
    profile = profile_named(_vote_profile_name(game), peace=bool(getattr(ruleset, "peace_vote", False)))
    return (profile.only_syntaxes(game.vote_syntaxes or ())
            .with_intent_words(getattr(ruleset, "vote_intent_words", ()))
            .with_spoilers(game.count_spoiler_votes))


def syntax_examples(game: Game) -> list[tuple[str, str, bool, str]]:
    """Every vote syntax the reader knows (games.text.votes.SYNTAX_ORDER), each as (name, how a
    vote is written in it, whether the game has it on, a note): the GM's vote options are built
    from it, and a poster whose vote used a syntax that is off is told the ones that are on. The
    rule set's own words are shown as its vote button writes them («[b]В тюрьму X[/b]»)."""
    on = set(game.vote_syntaxes or ())
    rows = []
    for syntax in SYNTAX_ORDER:
        if syntax == SYNTAX_NATIVE:
            example = wording_of(game.ruleset).vote_button_form.format(name="X")
            note = str(_("the rule set's vote words with a bold name"))
        else:
            example = next(form for form in SYNTAX_EXAMPLES[syntax] if form is not None).format(name="X")
            note = ""
        rows.append((syntax, example, syntax in on, note))
    return rows


def _vote_profile_name(game: Game) -> str:
    """The games.text.votes profile the game's rule set reads votes with (SiteRuleset.vote_profile_name)."""
    adapter = registry.find(game.ruleset)
    return adapter.vote_profile_name if adapter is not None else DEFAULT_PROFILE.name


def vote_weights_for(game: Game, seats: list[Seat]) -> dict[int, int | float]:
    """Seat id -> weight: one, or what the rule set's vote_weight says (cards: an overt role may
    count 2 or 1.5)."""
    weight = getattr(ruleset_of(game), "vote_weight", None)
    if game.state and weight is not None:
        state = stored_state(game.state)
        return {seat.pk: _number(weight(state, seat.pk)) if state.has_seat(seat.pk) else 1 for seat in seats}
    return {seat.pk: 1 for seat in seats}


def parse_measure(game: Game):
    """The rule set's measure reader (cards: the Veche's «казнь»/«тюрьма»), or None when its day
    vote has no measure."""
    parse = getattr(ruleset_of(game), "parse_measure", None)
    return parse if callable(parse) else None


def _number(value) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


Roster = tuple[tuple[str, tuple[str, ...]], ...]  # (display name, aliases) per player
_MATCHERS: OrderedDict[Roster, RosterMatcher] = OrderedDict()
_MATCHERS_LOCK = Lock()


def roster_matcher(names: Roster) -> RosterMatcher:
    """A matcher per roster, kept in a small LRU: building one runs pymorphy3 over every name."""
    with _MATCHERS_LOCK:
        matcher = _MATCHERS.get(names)
        if matcher is not None:
            _MATCHERS.move_to_end(names)
            return matcher
    matcher = RosterMatcher([(name, list(aliases)) for name, aliases in names])
    with _MATCHERS_LOCK:
        _MATCHERS[names] = matcher
        while len(_MATCHERS) > 64:
            _MATCHERS.popitem(last=False)
    return matcher


def seats_matcher(seats) -> RosterMatcher:
    """The matcher of a game's seats by their players' names and aliases (a private tag's, a
    room's, a written order's names)."""
    return roster_matcher(tuple((s.user.display_name, tuple(s.aliases or ())) for s in seats))


def seats_in_order(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("number"))


# --- Who votes for whom -------------------------------------------------------------------------
def voting_phase(*, game: Game) -> Phase | None:
    """The phase votes are cast in: the game's current phase, if it is a day or a re-vote."""
    phase = game.current_phase
    return phase if phase is not None and phase.kind in voting_kinds(game) else None


def engine_state_of(phase: Phase):
    """The rule set and the engine state a phase's votes are judged by: the state it was closed
    from (kept for rollback), or the game's current state while it runs; (None, None) for a game
    the engine does not run."""
    game = phase.game
    if not game.state:
        return None, None
    data = (phase.state_before or {}).get("state") if phase.closed_at is not None else None
    return get_ruleset(game.ruleset), stored_state(data or game.state)


def voters_and_targets(phase: Phase, seats: list[Seat]) -> tuple[list[int], list[int]]:
    ruleset, state = engine_state_of(phase)
    if ruleset is None:
        living = [s.pk for s in seats if s.is_alive]
        return living, living
    return list(ruleset.voters(state)), list(ruleset.vote_targets(state))


def vote_target_ids(phase: Phase) -> list[int]:
    """The seats a vote of `phase` may name, by its rule set (the engine's vote_targets, in the
    state the phase is judged by): no dead or jailed player. What the GM may name for a tie-break
    or in a vote's correction, offered and checked alike."""
    ruleset, state = engine_state_of(phase)
    if ruleset is None:
        return list(phase.game.seats.filter(is_alive=True).values_list("pk", flat=True))
    return list(ruleset.vote_targets(state))


def vote_targets_for(phase: Phase, seats: list[Seat], voter: int) -> list[int] | None:
    """The seats `voter` may vote for now, by the rule that judges the vote (the engine's
    check_vote, asked again when the post is read): the thread's vote buttons. Not himself where
    the rules forbid it (the club's «Нельзя голосовать против себя»). None: he does not vote now."""
    ruleset, state = engine_state_of(phase)
    voters, targets = voters_and_targets(phase, seats)
    if voter not in voters:
        return None
    if ruleset is None:
        return targets
    return [target for target in targets if ruleset.check_vote(state, voter, target) is None]


# --- The count's version (the cached count pages key on it) -------------------------------------
def version_key(phase_id: int) -> str:
    return f"votes:version:{phase_id}"


def count_version(phase_id: int) -> int:
    version = cache.get(version_key(phase_id))
    if version is None:
        version = 1
        cache.add(version_key(phase_id), version, timeout=None)
    return version


# --- The ballots and the count ------------------------------------------------------------------
@dataclass
class WagonView:
    target: Seat | None
    voters: list[tuple[Seat, int | None]]
    weight: int
    to_majority: int
    # The voters with their vote weights: (seat, post number, weight), for a rule set whose count
    # shows them (CountWords.weights_shown).
    weighted: list[tuple[Seat, int | None, int | float]] = field(default_factory=list)
    # The rule set's words beside the wagon's weight (CountWords.wagon_notes), in place of L-n.
    note: str = ""


@dataclass
class LeadAtClose:
    """Who leads if the day closes as it stands, by the rule set's own count at the close (its
    engine's `count_at_close`; the forum: «По умолчанию считается, что игрок голосует сам за
    себя», so a player not voting has a vote on himself that no wagon shows)."""

    weight: int | float  # the most votes anyone has at the close
    seats: list[Seat]  # the leaders: those with votes cast on them (in the wagons' order), then the others by seat
    own_vote: list[Seat]  # those of them whose votes include their own by the rules' default
    alone: list[Seat]  # those of them leading by their own default vote alone (no vote cast on them)
    every_silent: bool = False  # `alone` is every player whose vote is the default
    defaulted: frozenset[int] = frozenset()  # the seats whose vote at the close is the default one


@dataclass
class CountView:
    phase: Phase
    wagons: list[WagonView]
    not_voting: list[Seat]
    majority: int
    as_of: int | None
    ballots: list[votecount.Ballot] = field(default_factory=list)
    # The cards rule set's measure tally: [{"measure", "label", "weight", "voters": [Seat]}];
    # empty for the other rule sets.
    measures: list[dict] = field(default_factory=list)
    # A rule set without a majority (SiteStyle.majority False: club's plurality) shows the
    # leaders, not "majority: N" and L-n, and never closes the day on a majority.
    plurality: bool = False
    # The voters in the order they vote, for a rule set that votes in turn (club).
    voting_order: list[Seat] = field(default_factory=list)
    # In a re-vote: the tied players it is between.
    candidates: list[Seat] = field(default_factory=list)
    # A table of numbered seats (SiteStyle.rounds): players are shown under their seat numbers.
    by_seat: bool = False
    # The rule set's own words for the count (SiteRuleset.count_words; cards: the Veche's), or
    # None for the core's «majority: N» and L-n, or the plurality's leaders.
    words: CountWords | None = None
    # What the rules make of the players not voting (SiteRuleset.not_voting_note; the forum: each
    # votes for himself at the close), said beside them; "" for nothing.
    not_voting_note: str = ""
    # Who leads at the close by the rule set's own count (LeadAtClose), for a plurality whose close
    # counts more than the votes cast (the forum's self-votes); None: the heaviest wagons lead.
    lead: LeadAtClose | None = None

    @property
    def majority_reached(self) -> WagonView | None:
        if self.plurality:
            return None
        return next((w for w in self.wagons if w.to_majority <= 0), None)

    @property
    def leaders(self) -> list[WagonView]:
        """The wagons of the players who lead (several on a tie): the heaviest, or, where the close
        counts more than the votes cast, those of the leaders at the close (`lead`)."""
        if self.lead is not None:
            ids = {seat.pk for seat in self.lead.seats}
            return [w for w in self.wagons if w.target is not None and w.target.pk in ids]
        top = max((w.weight for w in self.wagons), default=0)
        return [w for w in self.wagons if top and w.weight == top]

    @property
    def top(self) -> int | float:
        """The most votes anyone has at the close (what a plurality is decided by); 0 for none."""
        if self.lead is not None:
            return self.lead.weight
        return max((w.weight for w in self.wagons), default=0)

    @property
    def leading_html(self) -> SafeString:
        """The count's line of who leads (leading_text), its names in bold, for the pages."""
        return leading_text(self, html=True)


def effective_ballots(*, phase: Phase) -> list[votecount.Ballot]:
    """One ballot per post: its latest GM correction, else its own final reading. The ballots a
    page read already for this phase instance when it kept them (remember_ballots)."""
    kept = phase.__dict__.get("_effective_ballots")
    if kept is not None:
        return kept
    return effective_ballots_by_phase([phase]).get(phase.pk, [])


def remember_ballots(phase: Phase, ballots: list[votecount.Ballot]) -> None:
    """Keep the phase's effective ballots a page has read (its count's) on the phase instance, for
    the page's other readers (the GM dashboard's preview, a rule set's inputs: issue 30). For a
    page's reads only: a vote recorded after this is not seen through it."""
    phase.__dict__["_effective_ballots"] = ballots


@contextmanager
def _no_gc_pauses():
    """Building a day's 100,000 ballots allocates 200,000 tuples, each allocation counting toward
    the collector's next pass over every young object; none of them can be garbage (issue 30:
    about a third of a 100,000-vote recount was the collector's)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _rows(queryset) -> list[tuple]:
    """A values_list query's rows in one fetchall (psycopg parses them in C), without Django's
    per-chunk iteration: a 100,000-vote day's ledger is read several times faster."""
    sql, params = queryset.query.get_compiler(using=queryset.db).as_sql()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def effective_ballots_by_phase(phases: list[Phase], *, times: dict | None = None) -> dict[int, list[votecount.Ballot]]:
    """effective_ballots of several days in one query (the archive's counts: issue 30), by phase id.
    `times`: a dict filled, in the same query, with each ballot's post number -> when the post was
    written (what a count names its voters by after a replacement: holders.count_as_cast)."""
    if not phases:
        return {}
    with _no_gc_pauses():
        return _effective_ballots_by_phase(phases, times)


def _effective_ballots_by_phase(phases: list[Phase], times: dict | None = None) -> dict[int, list[votecount.Ballot]]:
    columns = ("phase_id", "post_number", "voter_id", "kind", "target_id", "source")
    rows = _rows(
        VoteRecord.objects.filter(phase_id__in=[p.pk for p in phases], valid=True)
        .exclude(source=VoteRecord.Source.POST, is_final=False)
        .order_by("phase_id", "post_number", "pk")
        .values_list(*columns, *(("post__created_at",) if times is not None else ()))
    )
    if times is not None:
        connection = connections[VoteRecord.objects.db]
        for row in rows:
            when = row[6]
            if when is not None and (isinstance(when, str) or when.tzinfo is None):
                # SQLite's naive value, which _rows reads without the ORM's converters
                when = connection.ops.convert_datetimefield_value(when, None, connection)
            times[row[1]] = when
        rows = [row[:6] for row in rows]
    gm = VoteRecord.Source.GM
    if any(row[5] == gm for row in rows):
        # A GM line beats the post's own line; a later GM line beats an earlier one.
        per_post: dict[tuple[int, int], tuple] = {}
        for row in rows:
            if row[5] == gm or (row[0], row[1]) not in per_post:
                per_post[(row[0], row[1])] = row
        rows = list(per_post.values())  # still in post order within each day
    # Else each post has one line (its final reading): nothing to choose between.
    none = VoteRecord.Kind.NONE
    new, Ballot = tuple.__new__, votecount.Ballot  # built by tuple's own constructor: no Python frame
    out: dict[int, list[votecount.Ballot]] = {p.pk: [] for p in phases}
    if len(phases) == 1:
        out[phases[0].pk] = [new(Ballot, (voter, kind, target, number, number))
                             for _phase, number, voter, kind, target, _source in rows if kind != none]
        return out
    for phase_id, number, voter, kind, target, _source in rows:
        if kind != none:
            out[phase_id].append(new(Ballot, (voter, kind, target, number, number)))
    return out


def standing_votes_of(phases: list[Phase], voter_ids: list[int]) -> dict[tuple[int, int], int | str | None]:
    """standing_votes for some voters in several days at once, in one query: {(phase id, voter):
    his vote at the close}, a voter with no ballot absent. The same reading as effective_ballots
    (a GM line beats the post's own line, the last ballot of the day stands); the GM's lines are
    read whoever they name, since one may move a post's ballot away from its author."""
    if not phases or not voter_ids:
        return {}
    rows = (
        VoteRecord.objects.filter(phase_id__in=[p.pk for p in phases], valid=True)
        .filter(Q(voter_id__in=voter_ids) | Q(source=VoteRecord.Source.GM))
        .exclude(source=VoteRecord.Source.POST, is_final=False)
        .order_by("phase_id", "post_number", "pk")
        .values_list("phase_id", "post_number", "voter_id", "kind", "target_id", "source")
    )
    per_post: dict[tuple[int, int], tuple] = {}
    gm = VoteRecord.Source.GM
    for row in rows:
        if row[5] == gm or (row[0], row[1]) not in per_post:
            per_post[(row[0], row[1])] = row
    wanted = set(voter_ids)
    votes: dict[tuple[int, int], int | str | None] = {}
    for phase_id, _number, voter_id, kind, target_id, _source in per_post.values():  # in post order per day
        if kind == VoteRecord.Kind.NONE or voter_id not in wanted:
            continue
        votes[(phase_id, voter_id)] = target_id if kind == "vote" else ("peace" if kind == "peace" else None)
    return votes


def standing_votes(phase: Phase, *, ballots: list | None = None) -> dict[int, int | str | None]:
    """Each voter's vote at the close: the last effective ballot of the day (`ballots`: the
    day's effective_ballots when the caller has read them, e.g. a vote_count's)."""
    ballots = effective_ballots(phase=phase) if ballots is None else ballots
    # Each voter's last ballot, picked in C (a 100,000-vote day is read by every count: issue 29).
    last = dict(zip(map(itemgetter(0), ballots), ballots))
    return {voter: ballot.target if ballot.kind == "vote" else ("peace" if ballot.kind == "peace" else None)
            for voter, ballot in last.items()}


def vote_count(*, phase: Phase, as_of: int | None = None, seats: list[Seat] | None = None,
               ballots: list | None = None) -> CountView:
    """The count of a day; `seats` (seats_in_order) and `ballots` (effective_ballots) when the
    caller has read them for several days at once (the archive)."""
    seats = seats_in_order(phase.game) if seats is None else seats
    by_id = {s.pk: s for s in seats}
    voters, targets = voters_and_targets(phase, seats)
    ballots = effective_ballots(phase=phase) if ballots is None else ballots
    weights = vote_weights_for(phase.game, seats)
    count = votecount.tally(ballots, voters=voters, targets=targets, weights=weights, as_of=as_of)
    ruleset, state = engine_state_of(phase)
    plurality, by_seat, order = _count_style(phase, ruleset, state)
    view = CountView(
        plurality=plurality, by_seat=by_seat,
        voting_order=[by_id[i] for i in order if i in by_id],
        candidates=[by_id[i] for i in targets if i in by_id] if phase.kind == Phase.Kind.REVOTE else [],
        phase=phase,
        wagons=[
            WagonView(target=by_id.get(w.target) if w.target else None,
                      voters=[(by_id[v], n) for v, n in w.voters], weight=w.weight, to_majority=w.to_majority,
                      weighted=[(by_id[v], n, weights.get(v, 1)) for v, n in w.voters])
            for w in count.wagons
        ],
        not_voting=[by_id[v] for v in count.not_voting],
        majority=count.majority,
        as_of=as_of,
        ballots=ballots,
        measures=_measure_tally(phase, by_id, voters) if parse_measure(phase.game) is not None else [],
    )
    adapter = registry.find(phase.game.ruleset)
    view.words = adapter.count_words(view) if adapter is not None else None
    view.not_voting_note = str(adapter.not_voting_note) if adapter is not None else ""
    if view.words is not None:
        for wagon in view.wagons:
            wagon.note = view.words.wagon_notes.get(wagon.target.pk if wagon.target is not None else None, "")
    elif plurality:
        view.lead = _lead_at_close(ruleset, state, view, by_id)
    return view


def _lead_at_close(ruleset, state, view: CountView, by_id: dict[int, Seat]) -> LeadAtClose | None:
    """Who leads at the close by the rule set's own count there (the engine's `count_at_close`, the
    very function its close decides by), from each voter's last vote as the close reads it
    (standing_votes; up to the count's post for a count "as of"). None for a rule set whose close
    counts the votes cast as they are."""
    count_at_close = getattr(ruleset, "count_at_close", None)
    if not callable(count_at_close) or state is None:
        return None
    # The ballots come in post order: a count "as of" post #N reads those up to it.
    ballots = view.ballots if view.as_of is None else view.ballots[:bisect_right(view.ballots, view.as_of,
                                                                                  key=attrgetter("order"))]
    close = count_at_close(state, standing_votes(view.phase, ballots=ballots))
    if not close.top:
        return None
    leaders = set(close.leaders)
    on_wagons = [w.target for w in view.wagons if w.target is not None and w.weight]
    cast_on = {seat.pk for seat in on_wagons}
    seats = [seat for seat in on_wagons if seat.pk in leaders]
    seats += [by_id[i] for i in close.leaders if i not in cast_on and i in by_id]
    alone = [seat for seat in seats if seat.pk in close.defaulted and seat.pk not in cast_on]
    return LeadAtClose(weight=close.top, seats=seats, alone=alone,
                       own_vote=[seat for seat in seats if seat.pk in close.defaulted],
                       every_silent=bool(alone) and {seat.pk for seat in alone} == close.defaulted,
                       defaulted=close.defaulted)


def leading_text(count: CountView, *, html: bool = False) -> str:
    """Who leads, said under a plurality's count (the pages, `html`: the names in bold) and in the
    GM's count post: «Больше всего голосов: Вася (2 голоса)». Where the close counts a player not
    voting as voting for himself (count.lead), a leader by that vote is said to be one, so the
    line names whom the close will find level (docs/votes.md, "Leaders at the close"). "" for a
    count that shows no leaders (a majority's, or the rule set's own words)."""
    if not count.plurality or count.words is not None:
        return ""

    def shown(seats) -> list[str]:
        names = [seat.user.display_name for seat in seats]
        return [format_html("<strong>{}</strong>", name) for name in names] if html else names

    def said(text: str, weight: str = "") -> str:
        text += f" ({weight})" if weight else ""
        # The catalogue's texts hold no markup, and every name in them is escaped by format_html.
        return mark_safe(text) if html else text  # noqa: S308

    lead = count.lead
    if lead is None:
        leaders = [w.target for w in count.leaders if w.target is not None]
        if not leaders:
            return said(_("No leader yet: the most votes at the close decide."))
        return said(_("Leading: %(names)s") % {"names": ", ".join(shown(leaders))}, _votes(count.top))
    if lead.every_silent:
        named = [seat for seat in lead.seats if seat not in lead.alone]
        if not named:  # nobody has voted: every player's vote is on himself
            return said(_("All are level: each player votes for himself."))
        return said(_("Leading: %(names)s (%(weight)s), and as many has each player not voting: his own vote "
                      "for himself") % {"names": ", ".join(shown(named)), "weight": _votes(lead.weight)})
    if lead.own_vote and len(lead.own_vote) == len(lead.seats):
        return said(_("Leading: %(names)s (%(weight)s, with their own vote for themselves)") % {
            "names": ", ".join(shown(lead.seats)), "weight": _votes(lead.weight)})
    if lead.own_vote:
        return said(_("Leading: %(names)s (%(weight)s; %(who)s counting their own vote for themselves)") % {
            "names": ", ".join(shown(lead.seats)), "weight": _votes(lead.weight),
            "who": names_joined(shown(lead.own_vote), "nomn")})
    return said(_("Leading: %(names)s") % {"names": ", ".join(shown(lead.seats))}, _votes(lead.weight))


def _votes(weight: int | float) -> str:
    """«2 голоса»."""
    return ngettext("%(n)s vote", "%(n)s votes", weight) % {"n": weight}


def _count_style(phase: Phase, ruleset, state) -> tuple[bool, bool, tuple[int, ...]]:
    """Whether the phase's rule set (`ruleset`, judging `state`: engine_state_of) counts by
    plurality, whether it numbers players by seat, and its voters in voting order."""
    if ruleset is None:
        return False, False, ()
    style = site_style(ruleset)
    # A majority decides only where the rule set allows it and the GM chose it (the forum's
    # «Закончить день, как только набрано большинство»); otherwise the most votes at the close
    # decide («Набравший большинство … садится в тюрьму. Если большинство голосов набрали несколько
    # игроков …»: several can lead, so the seed's «большинство» is the most votes), and a count of
    # «majority: N» and L-n would tell players of a threshold that decides nothing.
    plurality = not (style.majority and phase.game.end_day_on_majority)
    return plurality, style.rounds, voting_order(ruleset, state)


def _measure_tally(phase: Phase, by_id: dict[int, Seat], voters: list[int]) -> list[dict]:
    """The measure votes standing now (SiteRuleset.measures_standing; cards: the card ledger's
    `measure` rows), weighed like the votes, in the rule set's order (cards: «При равенстве голосов
    побеждает тюрьма»)."""
    adapter = registry.site(phase.game.ruleset)
    measures = adapter.measures_standing(phase)
    weights = adapter.measure_weights(phase, vote_weights_for(phase.game, list(by_id.values())))
    wording = wording_of(phase.game.ruleset)
    rows = []
    for value in adapter.measures:
        who = [by_id[v] for v, m in measures.items() if m == value and v in by_id and v in voters]
        rows.append({"measure": value, "label": wording.measure_label(value), "voters": who,
                     "weighted": [(s, weights.get(s.pk, 1)) for s in who],
                     "weight": sum(weights.get(s.pk, 1) for s in who)})
    return rows


def count_title(phase: Phase) -> str:
    """«день 1», or «день 1, переголосование» for the re-vote of day 1."""
    return phase.label.lower()


# --- The vote pages (games.views.votes) -----------------------------------------------------------
def voting_days(game: Game) -> list[Phase]:
    """The game's days and re-votes that count (not voided), in order: the vote page's tabs."""
    return list(game.phases.filter(kind__in=voting_kinds(game), voided_at__isnull=True).order_by("opened_at", "pk"))


def last_voting_day(game: Game) -> Phase | None:
    """The last closed day or re-vote that counts (a finished game keeps its last count on show)."""
    return game.phases.filter(kind__in=voting_kinds(game), voided_at__isnull=True,
                              closed_at__isnull=False).order_by("-closed_at", "-pk").first()


def vote_history(phase: Phase) -> list[VoteRecord]:
    """Every vote ledger row of the phase in the order of the posts (corrections included)."""
    return list(VoteRecord.objects.filter(phase=phase)
                .select_related("post", "voter__user", "target__user", "recorded_by")
                .order_by("post_number", "recorded_at", "pk"))
