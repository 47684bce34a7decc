"""Persistence of the forum and the games: threads, posts and their history, games and seats."""

from django.conf import settings
from django.core.files.storage import storages
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.rulesets import registry
from games.wording import seat_status_label


class Thread(models.Model):
    class Kind(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        GENERAL = "general", _("General")
        GAME = "game", _("Game thread")
        DISCUSSION = "discussion", _("Discussion thread")
        FACTION = "faction", _("Team chat")
        GM_CHAT = "gm_chat", _("Letters to the GM")
        LOUNGE = "lounge", _("Lounge of the fallen and spectators")
        ROOM = "room", _("Chat room")

    # Sections a user may open threads in; game and discussion threads belong to a game.
    STANDALONE_KINDS = (Kind.LOBBY, Kind.GENERAL)
    # Threads whose readers games.permissions decides (secret while the game runs).
    PRIVATE_KINDS = (Kind.FACTION, Kind.GM_CHAT, Kind.LOUNGE, Kind.ROOM)

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    title = models.CharField(_("title"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="threads_created", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Denormalised so that numbering a new post and paging need no COUNT(*).
    post_count = models.PositiveIntegerField(_("post count"), default=0)
    last_post_at = models.DateTimeField(_("last post at"), null=True, blank=True)
    is_locked = models.BooleanField(_("locked"), default=False)
    # A scheduled lock: the thread closes itself at this moment (the deadline machinery).
    lock_at = models.DateTimeField(_("locks at"), null=True, blank=True)
    is_pinned = models.BooleanField(_("pinned"), default=False)
    # For a game's private threads: the game, the team of a team chat, the seat of a GM chat.
    game = models.ForeignKey("Game", on_delete=models.CASCADE, null=True, blank=True, related_name="private_threads",
                             verbose_name=_("game"))
    faction = models.CharField(_("team"), max_length=32, blank=True)
    seat = models.ForeignKey("Seat", on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                             verbose_name=_("seat"))
    # A chat room's members, and the phase at whose close it locks (001: it lives through the
    # night after the day it was agreed).
    members = models.ManyToManyField("Seat", blank=True, related_name="rooms", verbose_name=_("members"))
    closes_with = models.ForeignKey("Phase", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                    verbose_name=_("closes with"))
    opened_by = models.ForeignKey("Phase", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                  verbose_name=_("agreed in"))

    class Meta:
        verbose_name = _("thread")
        verbose_name_plural = _("threads")
        indexes = [
            models.Index(fields=["kind", "-is_pinned", "-last_post_at"], name="games_thread_section_idx"),
            models.Index(fields=["is_locked", "lock_at"], name="games_thread_lock_due_idx"),
        ]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("games:thread", args=[self.pk])


def default_vote_syntaxes() -> list[str]:
    """A new game reads its rule set's own vote words (`native`) and the English vote words in bold,
    as forum games always have (games.text.votes.SYNTAXES; migration 0013 gave `native` to every
    game made before it could be switched off)."""
    return ["bold_vote", "native"]


class AutoSetup(models.Model):
    """A game the site hosts by itself, over and over (issue 31): site staff define it in the admin;
    it keeps one game of its kind in sign-ups, and opens the next when that one fills and starts
    (games.services.autohost). The lobby lists the active ones."""

    title = models.CharField(_("title"), max_length=120)
    ruleset = models.CharField(_("rule set"), max_length=16, choices=registry.choices, default=registry.default_key)
    size = models.PositiveSmallIntegerField(_("number of players"), default=9)
    phase_hours = models.PositiveSmallIntegerField(_("phase length, hours"), default=24)
    # The rule set's options (as Game.options) for every game of the setup.
    options = models.JSONField(_("rule set options"), default=dict, blank=True)
    # When the site steps in for a silent player (games.services.autohost.HostRules): hours of
    # silence before a prod, missed votes or orders in a row before the player is replaced.
    prod_after_hours = models.PositiveSmallIntegerField(_("prod after hours of silence"), default=12)
    missed_limit = models.PositiveSmallIntegerField(_("missed votes or orders in a row before a replacement"),
                                                    default=2)
    active = models.BooleanField(_("open for sign-ups"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("automatic setup")
        verbose_name_plural = _("automatic setups")
        ordering = ["title", "pk"]

    def __str__(self) -> str:
        return self.title


class Game(models.Model):
    class Status(models.TextChoices):
        SIGNUPS = "signups", _("Signups open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    title = models.CharField(_("title"), max_length=200)
    # The rule set's key; the registered rule sets give the choices (games.rulesets.registry).
    ruleset = models.CharField(_("rule set"), max_length=16, choices=registry.choices, default=registry.default_key)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.SIGNUPS)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_hosted", verbose_name=_("game master")
    )
    game_thread = models.OneToOneField(
        Thread, on_delete=models.PROTECT, related_name="game_as_game_thread", verbose_name=_("game thread")
    )
    discussion_thread = models.OneToOneField(
        Thread, on_delete=models.PROTECT, related_name="game_as_discussion_thread", verbose_name=_("discussion thread")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The vote syntaxes in force (games.text.votes.SYNTAXES): the rule set's own words with a bold
    # name ("native") and the English words in bold ("bold_vote"), both on by default, tags,
    # "##vote"; the GM may switch each, keeping at least one that casts a vote.
    vote_syntaxes = models.JSONField(_("vote syntaxes"), default=default_vote_syntaxes, blank=True)
    # Whether a vote inside [spoiler] counts (by default not: a spoiler mostly holds a pasted quote).
    count_spoiler_votes = models.BooleanField(_("votes inside spoilers count"), default=False)
    # The latest phase opened (kept by games.services.phases), so that a post's vote check
    # reads it with the game in one query.
    current_phase = models.ForeignKey(
        "Phase", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("current phase")
    )
    end_day_on_majority = models.BooleanField(_("end the day as soon as a majority is reached"), default=False)
    co_gms = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="games_co_hosted",
                                    verbose_name=_("co-GMs"))
    size = models.PositiveSmallIntegerField(_("number of players"), default=9)
    # Roles the GM chose (one per seat); empty = the rule set's default table for the size.
    role_table = models.JSONField(_("roles"), default=list, blank=True)
    phase_hours = models.PositiveSmallIntegerField(_("phase length, hours"), default=24)
    options = models.JSONField(_("rule set options"), default=dict, blank=True)
    # The engine's state between phases (games.engine.state.GameState.to_json()).
    state = models.JSONField(_("engine state"), default=dict, blank=True, editable=False)
    # Secret until the game ends: the seed of every random choice and the salt of the commitment.
    rng_seed = models.BigIntegerField(_("random seed"), null=True, blank=True, editable=False)
    commitment_salt = models.CharField(max_length=64, blank=True, editable=False)
    commitment = models.CharField(_("role commitment (SHA-256)"), max_length=64, blank=True, editable=False)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    winner = models.CharField(_("winner"), max_length=32, blank=True)
    # An automatic game: created to be hosted by the site itself, with no human GM
    # (games.services.autohost). The site hosts it while its GM is the site's host account; a
    # site moderator who takes it over becomes its GM until he hands it back.
    automatic = models.BooleanField(_("automatic game"), default=False)
    setup = models.ForeignKey(AutoSetup, on_delete=models.SET_NULL, null=True, blank=True, related_name="games",
                              verbose_name=_("automatic setup"))

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        # the games list's default order within a status («Завершённые», newest first): a page
        # of it is read from the index, not by sorting every finished game (issue 30)
        indexes = [models.Index(fields=["status", "-created_at", "-id"], name="games_game_list_idx")]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("games:game", args=[self.pk])


class Seat(models.Model):
    """A player's place in a game. The rules engine gives it a role and a status later."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    number = models.PositiveSmallIntegerField(_("seat number"))
    is_alive = models.BooleanField(_("alive"), default=True)
    # Mirrors of the engine state, for queries and the visibility rules; the engine is the truth.
    role = models.CharField(_("role"), max_length=32, blank=True)
    faction = models.CharField(_("faction"), max_length=32, blank=True)
    status = models.CharField(_("status"), max_length=16, default="active")

    def get_status_display(self) -> str:
        # The statuses are the engines' (each rule set adds its own), so they have no choices here.
        # «убит»/«убита» agrees with the player when the page has the user at hand (no query for it).
        gender = self.user.grammatical_gender if Seat.user.is_cached(self) else ""
        return seat_status_label(self.status, gender)

    # What the player asked for at signup (the overt role wish of the card rule set), for the GM.
    application = models.TextField(_("application"), blank=True)
    # The card rule set's application fields (001): «Класс», the overt role the player asks for
    # (public once the game starts; one holder per overt role), and «Внешность», his contacts in
    # outside messengers (shown to the GMs only: games.permissions.can_see_contacts).
    overt_role = models.CharField(_("class (overt role)"), max_length=40, blank=True)
    contacts = models.TextField(_("appearance (contacts, for the GM)"), blank=True)
    # Other names the player answers to in this game ("Слипик" for SleepWalker); votes, orders
    # and [private] tags naming an alias reach the player. Set by the GM.
    aliases = models.JSONField(_("aliases"), default=list, blank=True)
    # The player's display name when the roles were dealt: the role commitment names it, so a
    # later replacement or rename does not break the hash revealed at the end.
    dealt_name = models.CharField(_("name at the deal"), max_length=40, blank=True, editable=False)
    # The role dealt, as the commitment hashed it: a rule set may change a role later (the Show's
    # Змеёныш turns a Масон into a Рептилоид; a card can), and `role` follows the game, so the
    # reveal reads this one (games.selectors.commitment) and shows the change beside it.
    dealt_role = models.CharField(_("role at the deal"), max_length=32, blank=True, editable=False)
    # The player asked to be replaced (the GMs are told; cleared when someone takes the seat).
    replacement_requested_at = models.DateTimeField(_("replacement requested at"), null=True, blank=True)
    replacement_reason = models.CharField(_("why a replacement is wanted"), max_length=300, blank=True)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="games_seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "number"], name="games_seat_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.number}: {self.user}"


class Post(models.Model):
    # No index of its own: (thread, number) and (thread, created_at, number) below lead with it (issue 30).
    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="posts", verbose_name=_("thread"),
                               db_index=False)
    # Players cite posts by this number (#1, #2, ...); it never changes, deleted posts keep theirs.
    number = models.PositiveIntegerField(_("number"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="posts", verbose_name=_("author")
    )
    # The hero the post is SHOWN as written by, when its rule set lets its author sign with another
    # name (the Show's Говорун, /fake); the true author stays `author`. Who sees which:
    # games.permissions.shown_author (the GMs, and everyone after the game, see the truth).
    shown_author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("shown author"),
    )
    body = models.TextField(_("body (BBCode)"))
    # The post's comment field (001: «комната: Вася, Петя» proposes a chat room).
    comment = models.CharField(_("comment"), max_length=300, blank=True)
    # Sanitised at write time; re-rendered when the renderer's version moves on.
    html = models.TextField(_("rendered HTML"))
    # The public plain text of the post (tags stripped, [private] texts left out: the HTML shows
    # only their placeholders), kept with the HTML for full-text search (games.selectors.search).
    search_text = models.TextField(_("searchable text"), blank=True, editable=False)
    renderer_version = models.PositiveIntegerField(_("renderer version"))
    created_at = models.DateTimeField(_("created at"), db_index=True)
    edited_at = models.DateTimeField(_("last edited at"), null=True, blank=True)
    edit_count = models.PositiveIntegerField(_("edit count"), default=0)
    is_deleted = models.BooleanField(_("deleted"), default=False)
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deleted by"),
    )
    deleted_reason = models.CharField(_("reason for hiding"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("post")
        verbose_name_plural = _("posts")
        ordering = ["thread", "number"]
        constraints = [models.UniqueConstraint(fields=["thread", "number"], name="games_post_number_unique")]
        indexes = [models.Index(fields=["thread", "author", "number"], name="games_post_iso_idx"),
                   # a day's posts by time, with their numbers: the replay's and archive's post
                   # ranges read the day's entries alone, from the index (issue 30; post_ranges)
                   models.Index(fields=["thread", "created_at", "number"], name="games_post_day_range_idx")]

    def __str__(self) -> str:
        return f"{self.thread} #{self.number}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("games:post", args=[self.thread_id, self.number])


class PostRevision(models.Model):
    """The text a post had before an edit; the history players can audit."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="revisions", verbose_name=_("post"))
    body = models.TextField(_("body (BBCode)"))
    # When this text was replaced, and by whom (the author, or a moderator).
    replaced_at = models.DateTimeField(_("replaced at"))
    replaced_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("replaced by")
    )

    class Meta:
        verbose_name = _("post revision")
        verbose_name_plural = _("post revisions")
        ordering = ["post", "replaced_at", "pk"]


class ThreadReadMark(models.Model):
    """How far a user has read a thread: the first unread post is the next number."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="+")
    last_read_number = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("read mark")
        verbose_name_plural = _("read marks")
        constraints = [models.UniqueConstraint(fields=["user", "thread"], name="games_readmark_unique")]


class Phase(models.Model):
    """A day or a night of a game; votes belong to the day they were cast in."""

    class Kind:
        """The kinds most rule sets share (their labels: SiteRuleset.phase_kinds); a rule set may
        declare more (the cards' «deckbuilding», the Show's stages)."""

        DAY = "day"
        NIGHT = "night"
        REVOTE = "revote"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases", verbose_name=_("game"))
    # The kind of phase, one the game's rule set declares (SiteRuleset.phase_kinds): «day»,
    # «night», «revote», cards' «deckbuilding», the show's stages. Kind lists the common keys.
    kind = models.CharField(_("kind"), max_length=24)
    number = models.PositiveSmallIntegerField(_("number"))
    opened_at = models.DateTimeField(_("opened at"))
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # GM decisions for the close (e.g. {"tie_break": seat id}).
    gm_decisions = models.JSONField(_("GM decisions"), default=dict, blank=True)
    # What the close produced (the rule set's outcome keys, with names), for results and scenarios.
    outcome = models.JSONField(_("outcome"), default=dict, blank=True)
    # The engine state and seat statuses just before this phase was resolved: a GM's rollback
    # restores them.
    state_before = models.JSONField(_("state before the close"), default=dict, blank=True, editable=False)
    # A phase opened by a resolution the GM rolled back; it stays for the record (its votes and
    # orders are kept), but no longer counts.
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("phase")
        verbose_name_plural = _("phases")
        ordering = ["game", "opened_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "kind", "number"], condition=models.Q(voided_at__isnull=True),
                                               name="games_phase_unique")]
        indexes = [models.Index(fields=["closed_at", "deadline_at"], name="games_phase_due_idx")]

    def __str__(self) -> str:
        return f"{self.game}: {self.label}"

    @property
    def label(self) -> str:
        """«День 2», «Ночь 0» (club's acquaintance night), «День 1, переголосование» (the re-vote
        belongs to its day): the game's rule set words it (SiteRuleset.phase_label)."""
        adapter = self._adapter()
        if adapter is None:
            return f"{self.kind} {self.number}"
        return adapter.phase_label(self.kind, self.number)

    @property
    def kind_label(self) -> str:
        """The kind's name alone: «День», «Ночь», «Сбор колоды»."""
        adapter = self._adapter()
        return str(adapter.phase_kinds.get(self.kind, self.kind)) if adapter is not None else self.kind

    def _adapter(self):
        """The game's rule set when the game is loaded; else the first that declares the kind
        (kinds rule sets share are worded alike), so a label costs no query."""
        if Phase.game.is_cached(self):
            return registry.find(self.game.ruleset)
        return registry.adapter_of_phase_kind(self.kind)

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class VoteRecord(models.Model):
    """One line of the vote ledger. Lines are never changed: a GM correction is a new line about
    the same post, and the count reads, for each post, its latest GM line or else its own final
    reading."""

    class Kind(models.TextChoices):
        VOTE = "vote", _("vote")
        UNVOTE = "unvote", _("unvote")
        PEACE = "peace", _("peace")
        NONE = "none", _("no vote")  # only in GM corrections: "this post casts no vote"

    class Source(models.TextChoices):
        POST = "post", _("read from the post")
        GM = "gm", _("GM correction")

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="votes", verbose_name=_("phase"))
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="votes", verbose_name=_("post"))
    # The post's number, copied (it never changes) so that counting a day needs no join.
    post_number = models.PositiveIntegerField(_("post number"))
    voter = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="votes_cast", verbose_name=_("voter"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    target = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="votes_received", verbose_name=_("target")
    )
    source = models.CharField(_("source"), max_length=8, choices=Source.choices, default=Source.POST)
    valid = models.BooleanField(_("counted"), default=True)
    reason = models.CharField(_("reason"), max_length=32, blank=True)
    # The post's own final vote (the last valid one in it); earlier ones stay for the history.
    is_final = models.BooleanField(_("final in its post"), default=False)
    fragment = models.CharField(_("as written"), max_length=300, blank=True)
    recorded_at = models.DateTimeField(_("recorded at"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("recorded by"),
    )
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("vote ledger line")
        verbose_name_plural = _("vote ledger")
        ordering = ["phase", "post_number", "pk"]
        indexes = [models.Index(fields=["phase", "post_number"], name="games_vote_phase_idx")]

    def __str__(self) -> str:
        return f"{self.phase} #{self.post_id}: {self.kind}"


class Order(models.Model):
    """One line of the order ledger: what a player asked to do in a phase. Never changed; the
    last valid line per actor is the order that stands at the close."""

    class Source(models.TextChoices):
        FORM = "form", _("form")
        TEXT = "text", _("text to the GM")
        GM = "gm", _("GM override")

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="orders", verbose_name=_("phase"))
    actor = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="orders", verbose_name=_("actor"))
    action = models.CharField(_("action"), max_length=32, blank=True)
    target = models.ForeignKey(Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                               verbose_name=_("target"))
    source_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                                    verbose_name=_("stolen from"))
    text = models.TextField(_("text as sent"), blank=True)
    # Rule-set extras of an order (the lone putana's kill carries {"freeze": seat id}).
    detail = models.JSONField(_("detail"), null=True, blank=True)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices, default=Source.FORM)
    valid = models.BooleanField(_("accepted"), default=True)
    reason = models.CharField(_("reason"), max_length=32, blank=True)
    recorded_at = models.DateTimeField(_("recorded at"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("recorded by"))

    class Meta:
        verbose_name = _("order")
        verbose_name_plural = _("orders")
        ordering = ["phase", "recorded_at", "pk"]
        indexes = [models.Index(fields=["phase", "actor", "valid"], name="games_order_phase_idx")]


class GameEvent(models.Model):
    """Something the engine or the GM made happen, with who may see it (games.engine.events)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", verbose_name=_("game"))
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, null=True, blank=True, related_name="events",
                              verbose_name=_("phase"))
    kind = models.CharField(_("kind"), max_length=32)
    # "public", "gm", "faction:<key>" or "seat:<id>"; filtered in the query by games.permissions.
    audience = models.CharField(_("audience"), max_length=48, db_index=True)
    data = models.JSONField(_("data"), default=dict)
    text = models.TextField(_("text"), blank=True)
    created_at = models.DateTimeField(_("created at"))

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        ordering = ["game", "created_at", "pk"]


class GMAction(models.Model):
    """The GM's log: every decision a GM made, for the archive."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="gm_actions", verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                             related_name="+", verbose_name=_("by"))
    action = models.CharField(_("action"), max_length=48)
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("GM action")
        verbose_name_plural = _("GM actions")
        ordering = ["game", "created_at", "pk"]


class Standby(models.Model):
    """A user standing by to replace a player of a game (issue 31): when a player of an automatic
    game misses too many votes or orders in a row, the site seats the first one standing by."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="standbys", verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("user"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("player standing by")
        verbose_name_plural = _("players standing by")
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="games_standby_once")]


class Replacement(models.Model):
    """A new player took over a seat mid-game; the seat keeps its history."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="replacements", verbose_name=_("seat"))
    old_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("replaced player"))
    new_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("replacement"))
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("at"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("by"))

    class Meta:
        verbose_name = _("replacement")
        verbose_name_plural = _("replacements")
        ordering = ["seat", "created_at", "pk"]


class Absence(models.Model):
    """V/LA: dates a player will be away or barely around, shown in his games' rosters."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences",
                             verbose_name=_("player"))
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until"))
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("absence (V/LA)")
        verbose_name_plural = _("absences (V/LA)")
        ordering = ["user", "starts_on"]


class Prod(models.Model):
    """A reminder sent to an inactive player (once per kind and phase)."""

    class Kind(models.TextChoices):
        SILENT = "silent", _("has not posted")
        NO_ACTION = "no_action", _("has not acted")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="prods", verbose_name=_("seat"))
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="prods", verbose_name=_("phase"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        verbose_name = _("prod")
        verbose_name_plural = _("prods")
        constraints = [models.UniqueConstraint(fields=["seat", "phase", "kind"], name="games_prod_once")]


class Report(models.Model):
    """A user's report of a post to the moderators."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="reports", verbose_name=_("post"))
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                                 verbose_name=_("reported by"))
    reason = models.CharField(_("reason"), max_length=500)
    created_at = models.DateTimeField(_("at"))
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="+", verbose_name=_("resolved by"))

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at", "-pk"]


class GameBan(models.Model):
    """A user barred from posting in one game's threads."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="bans", verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("user"))
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("at"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("by"))

    class Meta:
        verbose_name = _("game ban")
        verbose_name_plural = _("game bans")
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="games_ban_once")]


class BestPlayerVote(models.Model):
    """After a club game each player names the best player (003, «Рейтинг»)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="best_player_votes", verbose_name=_("game"))
    voter = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="best_player_vote", verbose_name=_("voter"))
    chosen = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", verbose_name=_("best player"))
    created_at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("best-player vote")
        verbose_name_plural = _("best-player votes")


class RatingDecision(models.Model):
    """The GM's part of a club game's rating: discretionary points and the blunders he marks."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="rating_decision", verbose_name=_("seat"))
    points = models.FloatField(_("GM points"), default=0)
    blunder = models.BooleanField(_("cost the team a sure win"), default=False)

    class Meta:
        verbose_name = _("rating decision")
        verbose_name_plural = _("rating decisions")


class PrivateMessage(models.Model):
    """A [private="Name"] message inside a game-thread post: the thread shows that it is there and
    to whom; its text is read by the recipient, the sender and the GMs (games.permissions)."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="private_messages", verbose_name=_("post"))
    # Which [private] tag of the post (document order, quoted ones counted too) this is.
    index = models.PositiveSmallIntegerField(_("position in the post"))
    sender = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", verbose_name=_("sender"))
    recipient = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="private_received",
                                  verbose_name=_("recipient"))
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                              verbose_name=_("phase"))
    html = models.TextField(_("rendered text"))
    created_at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("private message")
        verbose_name_plural = _("private messages")
        ordering = ["post", "index"]
        constraints = [models.UniqueConstraint(fields=["post", "index"], name="games_private_once")]


class AnonymousMessage(models.Model):
    """A message a player sends through the GM to another player without his name (002)."""

    class Kind(models.TextChoices):
        ANONYMOUS = "anonymous", _("anonymous message")
        CARD = "card", _("a card's message, delivered at the end of the phase")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the GM")
        DELIVERED = "delivered", _("delivered")
        REJECTED = "rejected", _("rejected by the GM")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="anonymous_messages", verbose_name=_("game"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.ANONYMOUS)
    sender = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", verbose_name=_("sender"))
    recipient = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", verbose_name=_("recipient"))
    # A card's message waits for the close of this phase.
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                              verbose_name=_("phase"))
    text = models.TextField(_("text"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("sent at"))
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by"))

    class Meta:
        verbose_name = _("anonymous message")
        verbose_name_plural = _("anonymous messages")
        ordering = ["game", "created_at", "pk"]


class RoomProposal(models.Model):
    """A player's wish, in a post's comment, to share a room with the players he names. The last
    one of a day counts; a room opens at the day's close when every member named the same room."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="room_proposals", verbose_name=_("phase"))
    proposer = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", verbose_name=_("proposer"))
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="+", verbose_name=_("post"))
    members = models.JSONField(_("members (seat ids)"))
    created_at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("room proposal")
        verbose_name_plural = _("room proposals")
        ordering = ["phase", "created_at", "pk"]


class Notification(models.Model):
    """Something a user should know about: the bell's list and the e-mail digests
    (games.services.notifications). Text is written in the user's language when created."""

    class Kind(models.TextChoices):
        PHASE_OPENED = "phase_opened", _("a phase opened in my game")
        PHASE_CLOSED = "phase_closed", _("a phase closed in my game")
        VOTE_ON_ME = "vote_on_me", _("somebody voted for me")
        ORDER_DUE = "order_due", _("my vote or order is due soon")
        PRIVATE_MESSAGE = "private_message", _("a private message for me")
        REPLACEMENT = "replacement", _("replacement requests and replacements")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications",
                             verbose_name=_("user"))
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                             verbose_name=_("game"))
    text = models.CharField(_("text"), max_length=500)
    url = models.CharField(_("link"), max_length=300, blank=True)
    # One notification per key and user ("order_due:<phase>:<seat>"); empty = no de-duplication.
    key = models.CharField(_("de-duplication key"), max_length=100, blank=True)
    created_at = models.DateTimeField(_("created at"))
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    emailed_at = models.DateTimeField(_("e-mailed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at", "-created_at"], name="games_notif_user_idx")]
        constraints = [models.UniqueConstraint(fields=["user", "key"], condition=~models.Q(key=""),
                                               name="games_notif_once")]

    def __str__(self) -> str:
        return self.text


def post_media_storage():
    """The storage of media posts' files: settings.STORAGES["media_posts"] (local by default, an
    S3-compatible bucket by environment). Django calls it once, when the model is loaded; a
    callable keeps the setting out of the migrations."""
    return storages["media_posts"]


class PostMedia(models.Model):
    """An audio or video file attached to a post by the site (never by the post's markup): a media
    post the rule set owes the author (the Show's greeting, defence speech, opinion). Its type is read
    from the file's content (games.services.media); the file is kept by the default storage."""

    class Kind(models.TextChoices):
        AUDIO = "audio", _("audio")
        VIDEO = "video", _("video")
        IMAGE = "image", _("image")  # the Show's trial answers (games.services.media, images=True)

    post = models.OneToOneField(Post, on_delete=models.CASCADE, related_name="media", verbose_name=_("post"))
    file = models.FileField(_("file"), upload_to="posts/%Y/%m/", storage=post_media_storage)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    mime = models.CharField(_("content type"), max_length=64)
    size = models.PositiveBigIntegerField(_("size in bytes"))

    class Meta:
        verbose_name = _("post media")
        verbose_name_plural = _("post media")

    def __str__(self) -> str:
        return f"{self.post} ({self.kind})"
