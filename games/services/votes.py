"""The vote ledger: reading votes out of game-thread posts, GM corrections, and the count."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import router, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from config.prepared import PreparedInsert
from games.caching import pagecache
from games.engine.rulesets import RULESETS
from games.engine.rulesets.base import site_style
from games.wording import suggestion_text, vote_reason_text, vote_weight_text, wording_of
from games.selectors.holders import count_as_cast
from games.selectors.votes import (CountView, count_title, engine_state_of, leading_text, parse_measure, roster_matcher, version_key,
                                   syntax_examples, vote_target_ids,
                                   vote_count, vote_profile_for, voting_phase)
from games.models import Game, Phase, Post, Seat, Thread, VoteRecord
from games.permissions import game_of, is_game_master, roster_rows
from games.rulesets import registry
from games.services import ActionRefused, notifications
from games.services.posts import post_create
from games.text.votes import SYNTAX_NATIVE, VoteReading, might_vote, parse_votes, written_form

def reason_text(code: str, *, game: Game | None = None, vote_word: str = "") -> str:
    """Why a vote did not count; a hint quoting a vote word quotes the game's rule set's own."""
    text = vote_reason_text(code)
    if "%(word)s" in text:
        text = text % {"word": vote_word or vote_word_for(game)}
    return text


def ways_to_vote(game: Game) -> str:
    """How a vote is written in this game, its syntaxes that are on («##vote X; ##unvote»): told to
    a poster whose vote used one that is off (`syntax_disabled`), so he learns how to vote here."""
    return "; ".join(example for _key, example, on, _note in syntax_examples(game) if on)


def _with_hint(text: str, reason: str, suggestions: tuple[str, ...], ways: str) -> str:
    """A refusal's text with what helps the poster: the closest names to a name nobody has, or
    the ways votes are written in this game after one written in a way that is off."""
    hint = ""
    if suggestions and reason in ("name_unknown", "name_ambiguous"):
        hint = suggestion_text(suggestions)
    elif ways and reason == "syntax_disabled":
        hint = str(_("In this game a vote is written so: %(ways)s.")) % {"ways": ways}
    if not hint:
        return text
    return f"{text}{'' if text.endswith(('.', '!', '?', '…')) else '.'} {hint}"


def vote_word_for(game: Game | None) -> str:
    """The words a vote is written with in this game's rule set («в тюрьму», «голосую за»)."""
    return site_style(RULESETS.get(game.ruleset) if game is not None else None).vote_word


# What the rule set's check_vote codes mean in the ledger's words.
_VOTE_CODES = {"not_a_voter": "voter_not_allowed", "bad_target": "target_not_allowed"}


def _vote_refusal(ruleset, state, voter_id: int, kind: str, target_id: int | None) -> str:
    target = target_id if kind == "vote" else ("peace" if kind == "peace" else None)
    if kind == "unvote":
        target = None
    code = ruleset.check_vote(state, voter_id, target)
    if code and kind == "unvote" and code != "not_a_voter":
        return ""  # withdrawing a vote needs no target
    return _VOTE_CODES.get(code, code) if code else ""


# --- Recording ----------------------------------------------------------------------------------
@dataclass
class VoteConfirmation:
    """What the poster is told at once about how the post was read."""

    counted: bool
    kind: str = ""
    target: str = ""
    reason: str = ""
    # The measure read from the same post by a rule set whose vote carries one (cards: "execution"
    # / "prison"), and why it did not count (a reason code of that rule set, worded by `ruleset`'s
    # wording).
    measure: str = ""
    measure_reason: str = ""
    ruleset: str = ""
    vote_word: str = ""  # the rule set's vote words, quoted in a hint
    # The players a refused name comes closest to (a typo: «Вассю», «Фролу») or fits (an ambiguous
    # one), offered in the refusal («Может быть, Фроло?»): never counted for them.
    suggestions: tuple[str, ...] = ()
    # A vote written after the counted one that did not count («##unvote» then «##vote Зорро»):
    # its reason, told too, so a vote that was meant is never lost without a word.
    later_reason: str = ""
    later_suggestions: tuple[str, ...] = ()  # the closest names to that later vote's refused name
    # The game's ways of voting (ways_to_vote), told after a vote written in a way that is off.
    ways: str = ""
    # The phase the post's counted ballot went to (None: no ballot counted): the posting service
    # (games/services/posting.py) checks that day's majority next. Not shown, not compared.
    ballot_phase: Phase | None = field(default=None, compare=False, repr=False)

    @property
    def all_good(self) -> bool:
        """Nothing in the post went unread: shown as a confirmation, not a warning."""
        return self.counted and not self.later_reason and not self.measure_reason

    @property
    def message(self) -> str:
        text = self._vote_message()
        if self.measure:
            wording = wording_of(self.ruleset)
            if self.measure_reason:
                extra = str(_("Measure not counted: %(reason)s")) % {
                    "reason": wording.reason_text(self.measure_reason)}
            else:
                extra = str(_("Measure counted: %(measure)s.")) % {"measure": wording.measure_label(self.measure)}
            text = f"{text} {extra}" if text else extra
        return text

    def _vote_message(self) -> str:
        if self.kind == "measure":
            return ""
        if self.counted:
            if self.kind == VoteRecord.Kind.UNVOTE:
                text = str(_("Vote withdrawn."))
            elif self.kind == VoteRecord.Kind.PEACE:
                text = str(_("Vote for peace counted."))
            else:
                text = str(_("Vote counted: %(name)s")) % {"name": self.target}
            if self.later_reason:
                text += " " + _with_hint(str(_("The vote written after it was not counted: %(reason)s")) % {
                    "reason": reason_text(self.later_reason, vote_word=self.vote_word)},
                    self.later_reason, self.later_suggestions, self.ways)
            return text
        text = str(_("Vote not counted: %(reason)s")) % {"reason": reason_text(self.reason, vote_word=self.vote_word)}
        return _with_hint(text, self.reason, self.suggestions, self.ways)


def count_version_bump(*, phase_id: int) -> None:
    """The day's count changed without a vote (a rule set's own input it reads: cards, the GM's
    pick for a tied Veche): the cached count pages and fragments are made again. Call on commit."""
    _bump_version(phase_id)


def _bump_version(phase_id: int) -> None:
    try:
        cache.incr(version_key(phase_id))
    except ValueError:
        cache.set(version_key(phase_id), 2, timeout=None)


def votes_record_for_post(*, post: Post, game: Game, now: datetime) -> VoteConfirmation | None:
    """Read a new game-thread post and write its votes to the ledger, in the caller's
    transaction (the post and its votes are stored together or not at all). Returns what to
    tell the poster, or None when the post holds nothing vote-like."""
    if game.status != Game.Status.RUNNING or post.thread_id != game.game_thread_id:
        return None
    measure = _measure_record(post=post, game=game, now=now) if parse_measure(game) is not None else None
    confirmation = _votes_record(post=post, game=game, now=now)
    if measure is None:
        return confirmation
    value, reason = measure
    if confirmation is None:
        return VoteConfirmation(counted=not reason, kind="measure", measure=value, measure_reason=reason,
                                ruleset=game.ruleset)
    confirmation.measure, confirmation.measure_reason, confirmation.ruleset = value, reason, game.ruleset
    return confirmation


def _measure_record(*, post: Post, game: Game, now: datetime) -> tuple[str, str] | None:
    """The measure vote read from the post's bold text by the rule set (cards: docs/rulesets/cards.md,
    "The measure's syntax") and written to its ledger (SiteRuleset.measure_submit): (measure,
    refusal code or ""), or None when the post names no measure or is not a player's."""
    value = parse_measure(game)(post.body)
    if value is None:
        return None
    if not any(row[1] == post.author_id for row in roster_rows(game)):
        return None  # the GM's narration
    if voting_phase(game=game) is None:
        return value, "not_a_voter"
    accepted, reason = registry.site(game.ruleset).measure_submit(game=game, user=post.author, measure=value,
                                                                  post_number=post.number, now=now)
    if accepted:
        transaction.on_commit(lambda: _bump_version(game.current_phase_id))
    return value, reason


@dataclass
class _Judged:
    """A post's reading judged for one voter: each vote found with its validity and reason (the
    parser's, the deadline's, the rule set's), or, as `early`, what to answer without a reading."""

    phase: Phase | None = None
    voter_id: int | None = None
    rows: list[tuple[object, bool, str, int | None]] = field(default_factory=list)  # (found, valid, reason, target)
    roster: list = field(default_factory=list)
    early: VoteConfirmation | None = None

    def confirmation(self, game: Game) -> VoteConfirmation:
        """What the poster reads: the final vote, or why nothing counted; and a vote written after
        the final one that failed («##unvote» then «##vote <nobody>»), so it is not lost unsaid."""
        final = max((i for i, row in enumerate(self.rows) if row[1]), default=None)
        if final is None:
            found, reason = self.rows[-1][0], self.rows[-1][2]
            return VoteConfirmation(counted=False, reason=reason, vote_word=vote_word_for(game),
                                    suggestions=tuple(getattr(found, "candidates", ()) or ()),
                                    ways=ways_to_vote(game) if reason == "syntax_disabled" else "")
        found = self.rows[final][0]
        later = [row for row in self.rows[final + 1 :] if not row[1] and row[0].kind == VoteRecord.Kind.VOTE]
        later_reason = later[-1][2] if later else ""
        return VoteConfirmation(counted=True, kind=found.kind, target=found.target or "",
                                later_reason=later_reason, vote_word=vote_word_for(game),
                                later_suggestions=tuple(later[-1][0].candidates or ()) if later else (),
                                ways=ways_to_vote(game) if later_reason == "syntax_disabled" else "")


def _judge(*, game: Game, author_id: int, body: str, now: datetime) -> _Judged | None:
    """Read `body` as `author_id`'s post and judge every vote in it, writing nothing: the one
    path for posting (_votes_record) and the preview (_judge_reading). None: nothing vote-like,
    or the author is not a player (the GM's or staff's bold text is narration, never a vote)."""
    profile = vote_profile_for(game)
    if not might_vote(body, profile=profile):
        return None
    # Lean rows, shared with the permission check that just ran for this post.
    rows_ = roster_rows(game)
    voter = next((r for r in rows_ if r[1] == author_id), None)
    if voter is None:
        return None
    voter_id, _user_id, voter_alive, _name, _aliases = voter
    by_name = {name: (pk, alive) for pk, _uid, alive, name, _al in rows_}
    roster = tuple((name, tuple(aliases or ())) for _pk, _uid, _alive, name, aliases in rows_)
    reading: VoteReading = parse_votes(body, roster_matcher(roster), profile=profile)
    if not reading.votes:
        return None
    phase = voting_phase(game=game)
    if phase is None:
        return _Judged(early=VoteConfirmation(counted=False, reason="no_voting_phase"))
    refusal = ""
    ruleset, state = engine_state_of(phase)
    if phase.closed_at is not None or (phase.deadline_at is not None and now >= phase.deadline_at):
        refusal = "after_deadline"
    elif ruleset is None and not voter_alive:
        refusal = "voter_not_allowed"
    judged = _Judged(phase=phase, voter_id=voter_id, roster=rows_)
    for found in reading.votes:
        target_id, target_alive = by_name.get(found.target, (None, False)) if found.target else (None, False)
        valid, reason = found.valid, found.reason or ""
        if valid and refusal:
            valid, reason = False, refusal
        elif valid and ruleset is not None:
            reason = _vote_refusal(ruleset, state, voter_id, found.kind, target_id)
            valid = not reason
        elif valid and found.kind == "vote" and not target_alive:
            valid, reason = False, "target_not_alive"
        judged.rows.append((found, valid, reason, target_id))
    return judged


# A post's ledger lines, written as bulk_create writes them, compiled once per connection and number of
# lines (config.prepared).
_LEDGER_INSERT = PreparedInsert(VoteRecord, signals=False)


def _votes_record(*, post: Post, game: Game, now: datetime) -> VoteConfirmation | None:
    judged = _judge(game=game, author_id=post.author_id, body=post.body, now=now)
    if judged is None or judged.early is not None:
        return judged.early if judged is not None else None
    phase = judged.phase
    rows = [VoteRecord(phase=phase, post=post, post_number=post.number, voter_id=judged.voter_id, kind=found.kind,
                       target_id=target_id, source=VoteRecord.Source.POST, valid=valid, reason=reason,
                       fragment=found.fragment[:300], recorded_at=now)
            for found, valid, reason, target_id in judged.rows]
    final_row = next((row for row in reversed(rows) if row.valid), None)
    if final_row is not None:
        final_row.is_final = True
    # The ledger lines and the bell of the player voted for: nothing reads between them, so their
    # counters' bumps go together (one round trip), and the count's version with the counters
    # when the transaction commits.
    with pagecache.bumps_held():
        _LEDGER_INSERT.insert(rows, using=router.db_for_write(VoteRecord))  # VoteRecord.objects.bulk_create(rows)
        notifications.notify_vote_on_me(post=post, game=game, row=final_row, roster=judged.roster, now=now)
    pagecache.bump_on_commit(version_key(phase.pk))
    confirmation = judged.confirmation(game)
    if final_row is not None:
        confirmation.ballot_phase = phase
    return confirmation


def vote_correct(*, post: Post, gm, kind: str, target: Seat | None = None, note: str = "",
                 now: datetime | None = None) -> VoteRecord:
    """The GM says how a post should have been read. A new ledger line; nothing is overwritten."""
    now = now or timezone.now()
    game = Game.objects.filter(game_thread_id=post.thread_id).first()
    if game is None or not is_game_master(gm, game):
        raise ActionRefused(_("Only the GM corrects votes."), code="not_allowed")
    if kind not in VoteRecord.Kind.values:
        raise ActionRefused(_("Unknown kind of vote."), code="bad_kind")
    if kind == VoteRecord.Kind.PEACE and not vote_profile_for(game).peace_allowed:
        raise ActionRefused(_("This rule set has no vote for peace."), code="bad_kind")
    if kind == VoteRecord.Kind.VOTE and (target is None or target.game_id != game.pk):
        raise ActionRefused(_("Choose a player of this game."), code="bad_target")
    voter = Seat.objects.filter(game=game, user_id=post.author_id).first()
    if voter is None:
        raise ActionRefused(_("The author of this post is not a player."), code="not_a_player")
    phase = (
        VoteRecord.objects.filter(post=post).values_list("phase", flat=True).first()
        or game.phases.filter(kind=Phase.Kind.DAY, opened_at__lte=post.created_at).order_by("-opened_at").values_list("pk", flat=True).first()
    )
    if phase is None:
        raise ActionRefused(_("The post was not written during a day."), code="no_phase")
    if kind == VoteRecord.Kind.VOTE and target.pk not in vote_target_ids(Phase.objects.select_related("game").get(pk=phase)):
        # The vote page offers only those (vote_target_ids): a dead or jailed player is refused.
        raise ActionRefused(_("That player cannot be voted for on that day."), code="bad_target")
    record = VoteRecord.objects.create(
        phase_id=phase, post=post, post_number=post.number, voter=voter, kind=kind, target=target if kind == VoteRecord.Kind.VOTE else None,
        source=VoteRecord.Source.GM, valid=True, recorded_at=now, recorded_by=gm, note=note[:300],
    )
    transaction.on_commit(lambda: _bump_version(phase))
    return record


def vote_count_bbcode(count: CountView) -> str:
    """The count as a post, the way GMs format it by hand."""
    words = count.words  # the rule set's own words (cards: the Veche's), else the core's
    if count.plurality or words is not None:  # no majority to reach: the count names the leaders instead
        lines = [str(_("[b]Vote count, %(phase)s[/b]")) % {"phase": count_title(count.phase)}]
    else:
        lines = [str(_("[b]Vote count, %(phase)s[/b] (majority: %(n)d)")) % {
            "phase": count_title(count.phase), "n": count.majority}]
    if words is not None:
        lines += [line for line in (words.decides, words.outcome) if line]
    for wagon in count.wagons:
        name = wagon.target.user.display_name if wagon.target else str(_("Peace"))
        if words is not None and words.weights_shown:
            voters = ", ".join(f"{seat.user.display_name} ×{vote_weight_text(weight)} (#{number})"
                               for seat, number, weight in wagon.weighted)
        else:
            voters = ", ".join(f"{seat.user.display_name} (#{number})" for seat, number in wagon.voters)
        weight = vote_weight_text(wagon.weight)  # «6,5» in Russian, as on the count page
        if words is not None:
            note = f" ({wagon.note})" if wagon.note else ""
            lines.append(f"[b]{name}[/b] — {weight}{note}: {voters}")
        elif count.plurality:
            lines.append(f"[b]{name}[/b] — {weight}: {voters}")
        else:
            lines.append(f"[b]{name}[/b] — {weight} (L-{wagon.to_majority}): {voters}")
    for row in count.measures if words is not None else ():
        who = ", ".join(f"{seat.user.display_name} ×{vote_weight_text(w)}" for seat, w in row["weighted"])
        lines.append(f"{row['label']} — {vote_weight_text(row['weight'])}" + (f": {who}" if who else ""))
    if words is None and count.plurality and (count.leaders or count.lead is not None):
        lines.append(leading_text(count))  # the pages' line: whom the close will find level
    if count.not_voting:
        lines.append(str(_("Not voting: %(names)s")) % {"names": ", ".join(s.user.display_name for s in count.not_voting)}
                     + (f" ({count.not_voting_note})" if count.not_voting_note else ""))
    if count.as_of:  # a count as of an earlier post says so under its title
        lines.insert(1, str(_("As of post #%(n)d.")) % {"n": count.as_of})
    return "\n".join(lines)


def vote_count_post(*, game: Game, gm, now: datetime | None = None, phase_id: int | None = None,
                    as_of: int | None = None) -> Post:
    """The GM posts a count of the current day into the game thread: the count his page shows,
    so `phase_id` (the day shown; it must be the current one) and `as_of` (the count as of that
    post, as after a correction; None: the current count)."""
    if not is_game_master(gm, game):
        raise ActionRefused(_("Only the GM posts the vote count."), code="not_allowed")
    phase = voting_phase(game=game)
    if phase is None:
        raise ActionRefused(_("There is no day to count."), code="no_phase")
    if phase_id is not None and phase_id != phase.pk:
        raise ActionRefused(_("The count shown is not the current day's; open the current day's count."),
                            code="not_current")
    if as_of is not None and not (0 < as_of <= game.game_thread.post_count):
        raise ActionRefused(_("No such post in this game."), code="bad_post")
    with translation.override(settings.LANGUAGE_CODE):  # posts are written in the site's language
        # The names the count page shows (docs/votes.md, "Replacements").
        body = vote_count_bbcode(count_as_cast(vote_count(phase=phase, as_of=as_of), game=game))
    return post_create(thread=game.game_thread, author=gm, body=body, now=now)


def vote_button_text(name: str, ruleset: str = "") -> str:
    """What the vote button inserts, the name in the accusative, in the rule set's vote words
    (its wording's `vote_button_form`; the plain game's «В тюрьму X» for none)."""
    return wording_of(ruleset).vote_button_text(name)


def vote_buttons(name: str, ruleset: str = "", syntaxes=None) -> list[tuple[str, str]]:
    """The vote buttons for one player: (label, text to insert), as the rule set's wording offers
    them (cards: «Казнить X» and «В тюрьму X», the vote and the measure at once). `syntaxes`: the
    game's (Game.vote_syntaxes); where its rule set's words are off (a `##vote`-only game) the
    buttons write the vote the way the game reads it («##vote X»), never one it would refuse."""
    written = None
    if syntaxes is not None and SYNTAX_NATIVE not in syntaxes:
        form = written_form("vote", syntaxes)
        written = form.format(name=name) if form is not None else None
    return wording_of(ruleset).vote_buttons(name, written=written)


# --- How a post will be read: the preview, and edits of posts with votes ------------------------
@dataclass
class VotePreview:
    """What the preview says of a text's vote before it is sent: `confirmation` is what posting
    it now would answer (VoteConfirmation), or None when the text holds no vote."""

    confirmation: VoteConfirmation | None

    @property
    def counted(self) -> bool:
        return self.confirmation is not None and self.confirmation.counted

    @property
    def message(self) -> str:
        c = self.confirmation
        if c is None:
            return str(_("No vote: this post does not change your vote."))
        if c.kind == "measure":
            return c.message
        if not c.counted:
            text = _with_hint(str(_("The vote will not count: %(reason)s")) % {
                "reason": reason_text(c.reason, vote_word=c.vote_word)}, c.reason, c.suggestions, c.ways)
        elif c.kind == VoteRecord.Kind.UNVOTE:
            text = str(_("Read as → withdrawing your vote"))
        elif c.kind == VoteRecord.Kind.PEACE:
            text = str(_("Read as → a vote for peace"))
        else:
            text = str(_("Read as → a vote for %(name)s")) % {"name": c.target}
        if c.measure:
            wording = wording_of(c.ruleset)
            text += " " + (str(_("Measure not counted: %(reason)s")) % {"reason": wording.reason_text(c.measure_reason)}
                           if c.measure_reason else
                           str(_("Measure counted: %(measure)s.")) % {"measure": wording.measure_label(c.measure)})
        return text


def _judge_reading(*, game: Game, author_id: int, body: str, now: datetime) -> VoteConfirmation | None:
    """The vote of `body` by `author_id` as posting would read and judge it (_judge), written
    nowhere. None: nothing vote-like, or the author is not a player (the GM's narration)."""
    judged = _judge(game=game, author_id=author_id, body=body, now=now)
    if judged is None or judged.early is not None:
        return judged.early if judged is not None else None
    return judged.confirmation(game)


def _measure_preview(*, game: Game, author, body: str, now: datetime) -> tuple[str, str] | None:
    """The measure a post would vote for (a rule set with `parse_measure`: cards), judged like
    _measure_record without writing: (measure, refusal code or ""), or None."""
    parse = parse_measure(game)
    value = parse(body) if parse is not None else None
    if value is None or not any(row[1] == author.pk for row in roster_rows(game)):
        return None
    phase = voting_phase(game=game)
    if phase is None:
        return value, "not_a_voter"
    if phase.closed_at is not None or (phase.deadline_at is not None and now >= phase.deadline_at):
        return value, "after_deadline"
    seat = game.seats.select_related("user").filter(user=author).first()
    return value, registry.site(game.ruleset).measure_refusal(game=game, phase=phase, seat=seat, measure=value)


def vote_preview(*, thread, author, body: str, now: datetime | None = None) -> VotePreview | None:
    """How `body` would be read if `author` sent it into `thread` now (the preview's "read as"):
    the posting path's reader and judgement (_judge_reading), nothing written. None when no vote
    is read from this post at all: not the game thread of a running game, or not a player."""
    if not getattr(author, "is_authenticated", False) or thread.kind != Thread.Kind.GAME:
        return None
    game = game_of(thread)
    if game is None or game.status != Game.Status.RUNNING or game.game_thread_id != thread.pk:
        return None
    if not any(row[1] == author.pk for row in roster_rows(game)):
        return None  # the GM and outsiders cast no votes
    now = now or timezone.now()
    confirmation = _judge_reading(game=game, author_id=author.pk, body=body, now=now)
    measure = _measure_preview(game=game, author=author, body=body, now=now)
    if measure is not None:
        value, reason = measure
        if confirmation is None:
            confirmation = VoteConfirmation(counted=not reason, kind="measure", measure=value, measure_reason=reason,
                                            ruleset=game.ruleset)
        else:
            confirmation.measure, confirmation.measure_reason, confirmation.ruleset = value, reason, game.ruleset
    return VotePreview(confirmation)


@dataclass
class EditedVote:
    """After an edit of a post whose vote is in the ledger: the vote that stays (`kept`, the
    ledger's reading of the post as sent, or the GM's correction), what the new text would read
    as if posted now (`now`), and the text of a new post that casts it (`new_text`, "" when the
    new text casts no vote that would count, or the same one)."""

    kept: str
    reading: VotePreview | None
    new_text: str

    @property
    def message(self) -> str:
        text = str(_("Your vote stays as this post was first sent (%(vote)s): edits do not change votes.")) % {
            "vote": self.kept}
        if self.new_text:
            text += " " + str(_("To cast the changed vote, post it anew."))
        return text


def _ballot_words(kind: str, target: str) -> str:
    if kind == VoteRecord.Kind.UNVOTE:
        return str(_("withdrawn"))
    if kind == VoteRecord.Kind.PEACE:
        return str(_("for peace"))
    if kind == VoteRecord.Kind.NONE:
        return str(_("no vote"))
    return target


def vote_after_edit(*, post: Post, editor, now: datetime | None = None) -> EditedVote | None:
    """Called after `post` was edited: None unless the post's votes are in the ledger (a game
    thread post whose vote was read when it was sent). The ledger keeps that vote; this says so
    and reads the new text with the preview's reader, offering its vote as a new post when it
    differs and would count. The offer is for the post's author only."""
    rows = list(VoteRecord.objects.filter(post=post).select_related("target__user").order_by("pk"))
    if not rows:
        return None
    gm_rows = [r for r in rows if r.source == VoteRecord.Source.GM]
    kept_row = gm_rows[-1] if gm_rows else next((r for r in rows if r.is_final and r.valid), None)
    if kept_row is None:
        kept = str(_("not counted: %(reason)s")) % {"reason": reason_text(rows[-1].reason, game=game_of(post.thread))}
        kept_key = ("none", None)
    else:
        kept = _ballot_words(kept_row.kind, kept_row.target.user.display_name if kept_row.target else "")
        kept_key = (kept_row.kind, kept_row.target.user.display_name if kept_row.target else None)
    reading, new_text = None, ""
    if editor.pk == post.author_id:
        reading = vote_preview(thread=post.thread, author=editor, body=post.body, now=now)
        c = reading.confirmation if reading is not None else None
        if c is not None and c.counted and c.kind in (VoteRecord.Kind.VOTE, VoteRecord.Kind.UNVOTE, VoteRecord.Kind.PEACE):
            if (c.kind, c.target or None) != kept_key:
                game = game_of(post.thread)
                new_text = vote_text_for(kind=c.kind, name=c.target, ruleset=game.ruleset,
                                         syntaxes=game.vote_syntaxes or ())
    return EditedVote(kept=kept, reading=reading, new_text=new_text)


# The texts a new post casts a withdrawal or a peace vote with (read by games.text.votes).
UNVOTE_TEXT = "[b]Снимаю голос[/b]"
PEACE_TEXT = "[b]За мир[/b]"


def vote_text_for(*, kind: str, name: str = "", ruleset: str = "", syntaxes=None) -> str:
    """The text of a post that casts this vote: the vote button's for a vote, else the bold
    withdrawal or peace words. `syntaxes`: the game's; where its rule set's words are off, the
    first syntax it has on that writes this kind («##vote X», «##unvote»), or "" when none does."""
    if syntaxes is not None and SYNTAX_NATIVE not in syntaxes:
        form = written_form(kind, syntaxes)
        return form.format(name=name) if form is not None else ""
    if kind == VoteRecord.Kind.UNVOTE:
        return UNVOTE_TEXT
    if kind == VoteRecord.Kind.PEACE:
        return PEACE_TEXT
    return vote_button_text(name, ruleset)
