"""What a rule set offers the site: the adapter base class and the app config of a rule set.

The core asks an adapter for capabilities ("give me your phase kinds", "may this seat act now",
"which panels go on the GM's page") and never compares rule-set keys. Every capability has a
default here, the plain forum-like game's, so a new rule set overrides only what it changes
(docs/architecture.md, "Adding a rule set").
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from games.wording.base import RulesetWording


@dataclass(frozen=True)
class GmInput:
    """A GM action a rule set adds to the dashboard (SiteRuleset.gm_inputs): its panel's form posts
    `action=<name>` to games:gm_action, which dispatches here, so the core names no such action.

    `handler(request, game, phase, now)` parses the POST, calls the rule set's service and adds the
    success message; it raises ActionRefused to refuse. It is called only with a phase going on.
    `confirmed`: the dashboard asks first (games/confirm.py words the question under the action's
    name), as it does for its own destructive actions.
    `changes`: what it changes besides its game, declared (games/services/gm_writes.py: "count"
    for the open day's vote count, "threads" for the posts of the game's threads); required, so
    that no GM input leaves a kept page stale.
    """

    handler: Callable[..., None]
    changes: tuple[str, ...]
    confirmed: bool = False


@dataclass(frozen=True)
class ScenarioSpec:
    """What a scenario file (shared/scenarios/FORMAT.md) may say for a rule set
    (SiteRuleset.scenario), so games.scenarios validates and plays it without naming the rule set.

    `gm`: the GM decisions a phase's `gm:` takes, key -> the shape of its value, which the player
    turns into the Phase.gm_decisions the engine reads: "seat" (a player's name -> his seat id),
    "seats" (a name or a list of names -> seat ids), "seat_map" ({name: n} -> {seat id: n}),
    "value" (as written). The plain game's GM settles a tie: `tie_break`.
    `inputs`: the rule set's own phase inputs besides posts, orders and gm, key -> the keys an item
    takes (each item also names its player with `by`); SiteRuleset.scenario_play_inputs plays them.
    `player_keys`: what a player's entry may carry besides its name, role, secret and overt roles;
    `seat_data`: those of them handed to the start as the seat's data (new_game_arguments).
    `own_inputs`: phase keys of any shape the rule set checks itself (SiteRuleset.scenario_check)
    and plays in scenario_play_inputs (the Show's `votes: {voter: target}`, `greetings: [names]`).
    `order_keys`: what an `orders` item may carry besides the common keys; `plays_orders`: the
    rule set plays the `orders` itself in scenario_play_inputs (the Show's night choices carry
    extras), not through the core's order form. `words`: what an own input may hold beside players'
    names (the Show's «В рабство» / «Пощадить» ballots, its media kinds, a grant's «pass»).
    `posts_after_inputs`: a phase's `posts` are played after its orders and the rule set's own
    inputs, not before (the Show: a stun made at once after the night's choices silences the
    stunned hero's posts of that night).
    The outcome keys are the engine's `outcome_keys` (SiteRuleset.scenario_outcome_keys).
    """

    gm: Mapping[str, str] = field(default_factory=lambda: {"tie_break": "seat"})
    inputs: Mapping[str, frozenset[str]] = field(default_factory=dict)
    player_keys: frozenset[str] = frozenset()
    seat_data: tuple[str, ...] = ()
    own_inputs: frozenset[str] = frozenset()
    order_keys: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()
    plays_orders: bool = False
    posts_after_inputs: bool = False


@dataclass(frozen=True)
class CountWords:
    """A rule set's own words for its day's vote count (SiteRuleset.count_words), shown by the count
    page, its live fragment, the GM's count post and the archive instead of the core's «majority:
    N» and each wagon's L-n (the forum) or «Leading: ...» (the club's plurality).

    `decides`: what decides the day, in the rule set's words. `outcome`: what the count does if
    the day ends as it stands (the count of a closed day: what it did). `wagon_notes`: words beside
    a wagon's weight, by its target's seat id (None: the peace wagon). `weights_shown`: each voter's
    vote weight is shown beside his name (a count whose votes weigh differently).
    """

    decides: str
    outcome: str = ""
    wagon_notes: Mapping[int | None, str] = field(default_factory=dict)
    weights_shown: bool = False


class SeatColumn(NamedTuple):
    """One extra column of the GM's players table (SiteRuleset.gm_seat_columns)."""

    label: Any  # a lazy translated header, also the cell's data-label on a phone
    attribute: str  # the Seat attribute shown
    css_class: str = ""


class SiteRuleset:
    """One rule set as the site sees it. Subclass it in `<package>/site.py` as `SITE`.

    Attributes and methods are grouped by what they serve; the defaults are the forum's.
    """

    # --- Identity ---------------------------------------------------------------------------
    key: ClassVar[str] = ""
    label: Any = ""  # a lazy translated name: «Форумная мафия»
    # The engine's Ruleset object (pure, Django-free), from the package's engine module.
    engine: Any = None
    # The rule set's words (games.wording.RulesetWording, from the package's wording module): its
    # roles, factions, reason codes, actions and event texts. The default has none of its own: codes
    # show as they are, events get the shared texts of games.wording.
    wording: Any = RulesetWording()

    # --- Phases -----------------------------------------------------------------------------
    # The phase kinds this rule set plays, key -> label; the first is the kind a game starts with
    # unless the engine says otherwise. Phase.kind stores the key; the label comes from here.
    phase_kinds: ClassVar[dict[str, Any]] = {
        "day": _("Day"),
        "night": _("Night"),
        "revote": _("Re-vote"),
    }

    def phase_label(self, kind: str, number: int) -> str:
        """«День 2», «Ночь 0», «День 1, переголосование»."""
        if kind == "revote":
            return str(_("Day %(n)d, re-vote")) % {"n": number}
        label = self.phase_kinds.get(kind)
        return f"{label} {number}" if label is not None else f"{kind} {number}"

    def is_valid_phase_kind(self, kind: str) -> bool:
        return kind in self.phase_kinds

    # Whether the engine draws each phase's lots from the game's seed and the phase's own name
    # itself (the Show: «show:<seed>:<stage>»), so the close hands it the game's seed as it is and a
    # scenario file's `rng_seed` draws the same lots on the site as in the engine's own tests; else
    # the close mixes the phase into the seed (games.services.resolution.phase_seed).
    seeds_by_phase_name: ClassVar[bool] = False

    def phase_deadline(self, *, game, now) -> Any:
        """The deadline of the phase the engine opens now (its name is the stored state's phase):
        the Show's stage timer, which depends on the free heroes. None: the game's phase length
        (Game.phase_hours), the plain game's."""
        return None

    def default_roles(self, *, game, size: int) -> list[str]:
        """The role table dealt when the GM wrote none: the engine's for `size` players (the Show
        reads the game's options: a show without the Demon)."""
        return list(self.engine.default_roles(size))

    # The kinds votes are cast in (the vote count, the desk, the duties, the archive's counts);
    # the Show votes in some of its stages.
    voting_kinds: ClassVar[frozenset[str]] = frozenset({"day", "revote"})
    # What the rules make of a player who has not voted by the close, said beside the count's
    # «Не голосовали» (the forum: «По умолчанию считается, что игрок голосует сам за себя», so the
    # results' «Голоса: …» count those votes too); empty when the rules make nothing of it.
    not_voting_note: ClassVar[Any] = ""

    @property
    def votes_in_posts(self) -> bool:
        """Whether votes are read from the posts of the game thread (the GM's «vote options», the
        bold vote syntaxes): a rule set with no voting kind casts them elsewhere (the Show on its
        panel) and shows its own help in the place "game.vote_help" instead."""
        return bool(self.voting_kinds)

    # An epilogue: a last phase after the game's end (the Show's «Судный День»). The game is over
    # when it opens (finished: the commitment revealed, every private thread and event unsealed,
    # post-game talk in the game thread, no fee); it runs to its deadline (the Celery close and the
    # sweep, as every phase) or to the GM's «close now», and its close locks the game thread: the
    # game is in the archive (games.services.resolution). None: no epilogue, the game thread stays
    # open after the end, as it always did. The kind must be one of `phase_kinds` (its label).
    epilogue_kind: ClassVar[str | None] = None

    def epilogue_length(self, *, game, state) -> Any:
        """How long the epilogue lasts after the end the engine's `state` reached (a timedelta), or
        None for none (the GM's option may say 0)."""
        return None

    # --- Templates --------------------------------------------------------------------------
    # Panels the core's pages include by name, per page and place: {"game.top": [template, ...]}.
    # A page asks `panels("gm.links")` and includes each; a rule set without a panel adds nothing.
    template_panels: ClassVar[dict[str, tuple[str, ...]]] = {}

    def panels(self, place: str) -> tuple[str, ...]:
        return tuple(self.template_panels.get(place, ()))

    def panel_context(self, place: str, context: dict) -> dict:
        """What a panel of `place` needs besides the page's context (the page's `game`, `request`,
        `my_seat`, ...): override to add it. Reads only; a panel never writes."""
        return {}

    # --- Coins ------------------------------------------------------------------------------
    # The reason codes of the coins ledger lines this rule set's games post (the Show: its fees,
    # burdens, bets...). Each is worded by the words the rule set registers with the coins app
    # (coins.wording.register_game_words), which the «Баланс» page asks; tests/test_wording_complete.py
    # checks every one has a text. Empty: its games move no coins.
    ledger_reasons: ClassVar[frozenset[str]] = frozenset()

    # --- Capabilities by name ---------------------------------------------------------------
    # Plain yes/no features a template may ask with `game|ruleset_has:"name"` (see each rule
    # set's `capabilities`); a feature with data or behaviour gets a method instead.
    capabilities: ClassVar[frozenset[str]] = frozenset()

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    # --- The GM's dashboard -----------------------------------------------------------------
    # Whether the dashboard's «Replace an order» (the core's order ledger and the roles' actions,
    # games.services.orders.order_override) serves this rule set. The Show's inputs are rows of its
    # own, so it offers its own replacement among its GM inputs and panels instead.
    core_order_override: ClassVar[bool] = True

    def gm_inputs(self) -> dict[str, GmInput]:
        """The GM actions this rule set adds to the dashboard, by action name (GmInput). The core's
        own actions (close, deadline, override, moderation ...) come first; the plain game adds none."""
        return {}

    # --- Ratings and the leaderboard --------------------------------------------------------
    def leaderboard_sorts(self) -> dict[str, Any]:
        """Sorts this rule set's leaderboard adds to the core's (games.selectors.stats.SORTS), key -> label.
        A key must be a figure games.selectors.stats sorts by: "rating" (the sum of `seat_ratings`)."""
        return {}

    def seat_ratings(self, games) -> dict[int, float] | None:
        """Seat id -> the seat's rating in its game, for finished games of this rule set (a
        queryset), in a bounded number of queries whatever their number; the leaderboard sums them
        per player. None: the rule set rates nobody (no rating column on its leaderboard)."""
        return None

    # --- Seats and sign-ups ------------------------------------------------------------------
    # Extra columns of the GM dashboard's players table: (header label, Seat attribute, CSS class),
    # rendered by gm.html for every seat (cards: «Класс» and «Внешность»).
    gm_seat_columns: ClassVar[tuple[SeatColumn, ...]] = ()

    def signup_extras(self, *, game, overt_role: str = "", contacts: str = "") -> dict:
        """The Seat fields an application sets besides its text (cards: the «Класс», checked
        unique in the game, and the «Внешность»), as keyword arguments of Seat; {} keeps none.
        Called inside the sign-up's transaction; raise ActionRefused to refuse the application."""
        return {}

    def signup_refusal(self, *, game, user) -> Any:
        """Why `user` may not sign up for this game (a translated text), or None to admit him. Asked
        inside the sign-up's transaction, before the seat is made, so the rule set may also prepare
        there what an admitted player needs (the Show: a positive balance is needed, and the user's
        ИндиКод is made on his first entry into a show). The plain game refuses nobody."""
        return None

    def engine_options(self, *, game) -> dict:
        """The options handed to the engine's new_game: the game's options (the Show keeps its
        site-only options, such as the text stand-in for media posts, to itself)."""
        return dict(game.options or {})

    def new_game_arguments(self, *, game, seats: list, seat_data: dict | None) -> dict:
        """Extra keyword arguments of the engine's new_game at the start (cards: the game's seed
        and each seat's overt role, deck, Hand and Sleeve from `seat_data`, {seat pk: {...}} of
        a scenario file); the default engine takes only the table and the options."""
        return {}

    # --- Orders and phase inputs --------------------------------------------------------------
    # Whether the role page offers the order forms of allowed_actions (cards: every card input
    # has its form on the rule set's own pages, so the role page offers none).
    orders_on_role_page: ClassVar[bool] = True

    def phase_inputs(self, phase) -> Any:
        """The engine's PhaseInputs of a phase when the rule set reads its own ledger (cards: its
        Order rows are card inputs, read as PhaseInputs.extra); None: the core's one order per
        actor and the standing votes."""
        return None

    def awaited(self, game, phase) -> frozenset[int] | None:
        """The seats the open phase still waits for, when the rule set knows (the Show: the stage's
        engine, which counts only the stage's own action: a hero who merely requested an opinion
        still owes his vote); None: the core's rule, an owed action and no accepted order. Read by
        the desk's duties, the due-soon notices and the GM's prods."""
        return None

    def close_outcome(self, *, phase, outcome: dict) -> dict:
        """The phase's outcome as stored, from the engine's resolution: the rule set may add what
        its site did during the phase (the Show: the heroes woken at once by their activity)."""
        return outcome

    def ledger_row_detail(self, order) -> str | None:
        """The words after an order ledger row's action label when the row is an input of this rule
        set's own (cards: the card, its zone, the Price paid: «Пистолет (Рука), платит: Пустышка»),
        "" for none; None for an action that is not one of its inputs (a plain order's row is its
        action's label alone). Asked by games.selectors.orders.order_action_text."""
        return None

    # --- The day's measure (a rule set whose engine reads one from a vote post: parse_measure) ----
    # The measures in the order the vote count lists them (cards' Veche: execution, prison).
    measures: ClassVar[tuple[str, ...]] = ()

    def measure_submit(self, *, game, user, measure: str, post_number: int, now) -> tuple[bool, str]:
        """Write a measure read from a game-thread post to the rule set's ledger, in the post's
        transaction: (accepted, refusal code). Asked only when the engine has parse_measure."""
        raise NotImplementedError(f"the rule set {self.key!r} reads a measure but does not record it")

    def measures_standing(self, phase) -> dict[int, str]:
        """Voter seat id -> the measure standing now for that voter."""
        return {}

    def measure_weights(self, phase, weights: dict[int, int | float]) -> dict[int, int | float]:
        """Voter seat id -> the weight of his measure vote, from his vote's `weights` (cards: the
        same, unless the GM's option `measure_weight` counts every measure vote as one)."""
        return weights

    def measure_refusal(self, *, game, phase, seat, measure: str) -> str:
        """Why the measure would be refused now (a reason code), or "": the check of
        measure_submit without its write (the post preview)."""
        return ""

    # --- Who is in play -------------------------------------------------------------------------
    # The seat statuses that still play: the seat may post, vote, order and talk as its phase
    # allows (the engine's own checks decide each act). A forum, club or cards player leaves play
    # when he leaves the game; the Show's slave is not free, yet still votes in some stages and
    # writes in the slaves' chat, so a status is not "alive or dead" (games.permissions.in_play).
    in_play_statuses: ClassVar[frozenset[str]] = frozenset({"active"})

    def in_play(self, seat) -> bool:
        return getattr(seat, "status", None) in self.in_play_statuses

    # --- Talking (asked by games.permissions, which keeps the checks) -------------------------
    # The lounge's name in its thread title, when the rule set names it itself (the Show: «чат
    # рабов»); None: the core's «lounge».
    lounge_label: ClassVar[Any] = None

    def lounge_reader(self, seat) -> bool:
        """Whether a seat of the running game reads and writes its lounge (the fallen and the
        spectators): a seat out of play. The Show: its slaves' chat, read by the slaves only (a
        slave stays in play)."""
        return not self.in_play(seat)

    # Whether observers (logged-in users without a seat) write in the running game's thread (the
    # Show: «Наблюдатели во время Шоу могут писать в общий чат за плату», its post_stored charges the
    # fee); False: only the players and the GMs post there while it runs.
    observers_post: ClassVar[bool] = False

    def talk_refusal(self, seat, thread_kind: str) -> Any:
        """Why this seat, in play, may not post in a thread of this kind while the game runs (a
        lazy text), or None (the Show: a slave talks only in the slaves' chat)."""
        return None

    def role_known_to_holder(self, *, game, seat) -> bool:
        """Whether this seat's player knows his own role while the game runs (the Show's Крот
        does not): games.permissions.knows_own_role hides it from him and his team-mates, and
        keeps him out of his team's chat and events."""
        return True

    def post_sender_choices(self, *, game, user) -> list[tuple[int, str]]:
        """Whom `user` may sign his next post in the game thread as, instead of himself: [(user id,
        name)] (the Show's Говорун, /fake: another hero), or none (the reply form has no such field).
        Read-only: the page asks it; post_sender_refusal decides under the post's lock."""
        return []

    def post_sender_refusal(self, *, game, user, shown_user_id: int, now) -> Any:
        """In the post's transaction, before it is stored: why `user` may not sign this post as
        `shown_user_id` (a lazy text), or None. The default refuses every false name."""
        return _("Nobody signs a post with another name in this game.")

    def post_signed(self, *, game, post, now) -> None:
        """After a post signed with another name was stored (Post.shown_author), in its transaction:
        what the rule set records of it (the Show: a ledger row counting the stage's fakes)."""

    def media_post_kind(self, *, game, user) -> str | None:
        """The media post (an audio or video upload on the game thread's reply form) `user` owes
        now, or None: then the form has no file input and an upload is refused (the Show: a
        greeting, defence speech or requested opinion). Read-only: the page asks it too."""
        return None

    def post_stored(self, *, game, post, now) -> bool:
        """After a player's post in the game thread was stored, in its transaction: what the post
        does in the rule set (the Show: it wakes a hero in coma and may stand in for a media post).
        True when it closed the phase."""
        return False

    def anonymous_sent(self, *, game, message, now) -> None:
        """After a player's anonymous message was stored, in its transaction (the Show: «За каждое
        анонимное сообщение берётся небольшая плата в Банк»). Nothing by default."""
        return None

    # Phase kinds in which nobody but the GMs posts where the players talk, with the reason a
    # refused poster reads (cards: the radio silence of deck building).
    quiet_phases: ClassVar[dict[str, Any]] = {}
    # What a player out of play may post while the game runs, by the name of a rule of
    # games.permissions: "free" (the general rules), "silent" (cards: nothing where the players
    # talk), "farewell" (one farewell post in the game thread after the events `farewell_events`).
    out_of_play_talk: ClassVar[str] = "free"
    farewell_events: ClassVar[tuple[str, ...]] = ()

    def talks_when_out_of_play(self, seat) -> bool:
        """Whether this seat, out of play, still talks in public and in its rooms (cards: the
        dead «Мститель»). Only a rule with "silent" asks."""
        return False

    # --- Communication (games.communication: [private] tags, rooms, anonymous messages, letters) --
    # The defaults a game's options override (games.services.games.game_set_communication):
    # who a [private] tag may reach ("anyone", "neighbours", "off"), chat rooms by agreement, a
    # chat for a team that knows itself, anonymous messages through the GM ({"limit": per player,
    # "approval": the GM reads first} or None for none).
    private_mode_default: ClassVar[str] = "anyone"
    rooms_default: ClassVar[bool] = False
    team_chat_default: ClassVar[bool] = True
    anonymous_default: ClassVar[dict | None] = {"limit": 5, "approval": False}
    # The close's private events the rule set delivers as letters of its own (`close_letters`),
    # left out of each player's results post.
    letters_apart: ClassVar[frozenset[str]] = frozenset()
    # How many players a room is for (the plain 001 room: you and two others).
    room_size: ClassVar[int] = 3

    def room_sizes(self, game, members: set[int]) -> tuple[int, ...]:
        """The sizes a room of these seats may have (cards: two to four with the Manager in it)."""
        return (self.room_size,)

    def may_call_conspiracy(self, game, seat_pk: int) -> bool:
        """Whether the seat may call, once a game, a room of any size that lasts to the end («заговор:»,
        cards: the Conspirator)."""
        return False

    def may_write_beyond_neighbours(self, game, seat_pk: int) -> bool:
        """Whether the seat may send one [private] a day beyond its neighbours when the game allows
        neighbours only (cards: the Postman)."""
        return False

    def deliver_queued(self, *, phase, now) -> int:
        """Asked of EVERY registered rule set when any phase closes, before it is resolved: deliver
        what this rule set queued for that phase (cards: the card messages a card scheduled, rows
        of its own kind, whatever the game). Returns how many were delivered."""
        return 0

    def close_events_screen(self, *, game, phase, events, now) -> list:
        """The close's events as they are to be stored: drop or amend what the site refuses
        (cards: a card's message with a link). Called before anything is stored."""
        return list(events)

    def close_letters(self, *, game, phase, events, now) -> int:
        """After the close stored its events and the results: the letters the rule set writes
        itself (cards: card and mafia messages, kinds listed in `letters_apart`). Returns how many."""
        return 0

    # --- Automatic games (games.services.autohost, issue 31) ------------------------------------
    # Whether the site can host a game of this rule set with no human GM: every decision a GM makes
    # by hand in it has a rule the site follows, printed in the game's first post.
    auto_host: ClassVar[bool] = False
    # Why not, when it cannot (shown to the staff who would define such a setup).
    auto_host_refusal: Any = _("This rule set needs a human GM.")

    def auto_host_rules(self, *, game) -> list[Any]:
        """The decisions the site makes as this rule set's host, one sentence each, for the
        game's first post and docs (the core adds what every automatic game shares)."""
        return []

    def auto_host_choices(self) -> dict[str, tuple[Any, tuple[tuple[str, Any], ...], str]]:
        """The rules a setup may choose for this rule set's automatic games: option name ->
        (label, ((value, label), ...), default); the engine reads the option (forum: a mafia shot
        nobody ordered, none or by lot). The admin's setup form offers and checks them."""
        return {}

    def auto_host_options(self, options: dict) -> dict:
        """The options of an automatic game: a choice only a human GM could make (the cards'
        «tie_break: gm») is replaced by the rule the site follows; {} of the defaults for none."""
        return dict(options)

    # The account sign-up's referral bonus (accounts.forms.SignupExtraForm: «ИндиКод героя ...,
    # 1000 ㉿»): offered to a newcomer who signs up on the way to a game of this rule set (the show's
    # economy); a newcomer on the way to another rule set's game is not asked.
    signup_referral: ClassVar[bool] = False

    # --- The game-creation form (games.forms.GameCreateForm) ------------------------------------
    # The number of players the new-game form starts with when this rule set is picked (None: the
    # form's own, 9). The Show: «В каждом Большом Шоу всегда ровно 10 участников».
    default_size: ClassVar[int | None] = None

    def option_fields(self) -> dict[str, Any]:
        """Fields this rule set adds to the new-game form, name -> form field, in order (club: the
        newcomers; cards: the hero and the extra neutral). Field names are unique across rule sets."""
        return {}

    def options_from(self, cleaned: dict) -> dict:
        """The new game's `options` from the form's cleaned data (only this rule set's fields are
        read); {} for none."""
        return {}

    def option_errors(self, cleaned: dict) -> dict[str, Any]:
        """What is wrong with this rule set's fields taken together, field name -> a translated
        message (the Show: the least stage fee above the greatest); {} when they stand. Asked by
        the new-game form only when this rule set is picked, after each field's own checks."""
        return {}

    # --- Votes ---------------------------------------------------------------------------------
    def count_words(self, count) -> CountWords | None:
        """The rule set's own words for a day's count (`count`: games.selectors.votes.CountView),
        or None for the core's: a strict majority's «majority: N» and L-n, or a plurality's leaders
        (SiteStyle.majority). Cards: the Veche punishes its leader whatever the margin, and its
        votes weigh 1, 1.5 or 2. Reads only."""
        return None

    # The name of the games.text.votes profile this rule set's votes are read with (registered by
    # the adapter's `vote_profiles`); a game's options refine it (games.services.votes).
    vote_profile_name: ClassVar[str] = "default"

    def vote_profiles(self) -> dict[str, Any]:
        """Profiles this rule set adds to games.text.votes under its own names (name -> profile),
        registered when the rule set is; the `parse_vote` command offers them."""
        return {}

    # --- Scenario files (games.scenarios, shared/scenarios/FORMAT.md) ---------------------------
    scenario: ClassVar[ScenarioSpec] = ScenarioSpec()

    def scenario_outcome_keys(self) -> frozenset[str]:
        """The phase outcome keys a scenario's `expect` may name besides the common ones: those
        the engine's resolution reports."""
        return frozenset(getattr(self.engine, "outcome_keys", ()))

    def scenario_check(self, key: str, value) -> str | None:
        """What is wrong with a phase's value of one of `scenario.own_inputs` keys (a sentence for
        the malformed file's message), or None."""
        return None

    def scenario_outcome(self, outcome: dict, seat_numbers: dict[int, int]) -> dict:
        """A phase's outcome as a scenario file states it, where the outcome names seats by id in
        its own values (not by a name games.scenarios renames): `seat_numbers` maps each seat id to
        the seat's place in the file's `players` (1, 2, ...), the ids the engine's own player
        gives. Seat ids differ between databases (PostgreSQL's sequences are not rolled back
        between tests); the plain game names seats only by name."""
        return outcome

    def scenario_play_inputs(self, *, game, phase_spec: dict, user_of: Callable[[str], Any],
                             seat_of: Callable[[str | None], int | None], now) -> None:
        """Play a scenario phase's own inputs (the keys of `scenario.inputs`) through the services
        the rule set's forms call, after its posts and orders. `user_of(name)` is a player's user,
        `seat_of(name)` his seat id (None for None; a name of no player is a malformed file). The
        plain game has no inputs of its own."""

    # --- URLs -------------------------------------------------------------------------------
    # A module with `urlpatterns` for the rule set's own pages, included under the games URLs.
    urls_module: ClassVar[str | None] = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}>"


class RulesetAppConfig(AppConfig):
    """The app config of a rule-set package: registers `<package>.site.SITE` when Django starts."""

    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.rulesets import registry  # the registry needs the apps loaded, as ready() does

        module = importlib.import_module(f"{self.name}.site")
        registry.register(module.SITE)
        # The rule set's named vote profiles join the text package's (parse_vote, profile_named).
        from games.text.votes import add_profile  # the vote reader loads its word forms: when Django starts

        for name, profile in module.SITE.vote_profiles().items():
            add_profile(name, profile)
