"""Who held a seat when: the one answer every page, chart, export and statistic uses to attribute a
seat's acts to the person who did them (docs/architecture.md, "Replacements and history").

A replacement keeps the seat (its id, role, ledgers); a `Replacement` row records who left, who
came and when. So the holder of a seat at a moment T is the replaced player of the first
replacement made after T, or the seat's present player when none was. An act recorded at the
very moment of a replacement belongs to the newcomer (the swap happened first). Reads only; one
query per game.
"""

from __future__ import annotations

import copy
import functools
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.utils import translation

from games.models import Game, Post, Replacement, Seat
from games.selectors.play import has_any
from games.text.names import inflect_name


@dataclass(frozen=True)
class Stint:
    """One person's time in a seat: from `start` (None: the deal) to `end` (None: still there,
    or the end of the game)."""

    seat_id: int
    user: object  # accounts.models.User
    start: datetime | None
    end: datetime | None

    @property
    def replaced_out(self) -> bool:
        return self.end is not None


class SeatHolders:
    """The holders of a game's seats through time (built by `for_game`)."""

    def __init__(self, seats: Iterable[Seat], replacements: Iterable[Replacement]):
        self.seats = {s.pk: s for s in seats}
        # Every replacement of the game, oldest first (the archive's roster and the commitment's
        # deal read them from here: one query per page).
        self.replacements: list[Replacement] = sorted(replacements, key=lambda r: (r.created_at, r.pk))
        self._swaps: dict[int, list[Replacement]] = defaultdict(list)
        for r in self.replacements:
            self._swaps[r.seat_id].append(r)

    @classmethod
    def for_game(cls, game: Game, seats: Iterable[Seat] | None = None) -> SeatHolders:
        """The game's holders: its seats (read unless given) and replacements (none read when the
        page's game row says there are none: games.selectors.play.game_for_page's facts)."""
        seats = list(seats) if seats is not None else list(game.seats.select_related("user"))
        if not has_any(game, "any_replacement"):
            return cls(seats, [])
        replacements = Replacement.objects.filter(seat__game=game).select_related("old_user", "new_user", "created_by")
        return cls(seats, list(replacements))

    def __bool__(self) -> bool:
        return bool(self._swaps)

    def replaced_seats(self) -> set[int]:
        return set(self._swaps)

    def user_at(self, seat_id: int, when: datetime | None):
        """The person who held the seat at `when` (None: now)."""
        seat = self.seats[seat_id]
        if when is not None:
            for r in self._swaps.get(seat_id, ()):
                if when < r.created_at:
                    return r.old_user
        return seat.user

    def seat_at(self, seat: Seat | None, when: datetime | None) -> Seat | None:
        """The seat as it was at `when`: a copy whose `user` is that moment's holder, for the
        templates and texts that name a seat by `seat.user.display_name`. Never saved."""
        if seat is None or seat.pk not in self._swaps:
            return seat
        user = self.user_at(seat.pk, when)
        if user.pk == seat.user_id:
            return seat
        shown = copy.copy(seat)
        shown.user = user  # the copy only: Django caches the relation on the instance
        return shown

    def name_at(self, seat_id: int, when: datetime | None) -> str:
        return self.user_at(seat_id, when).display_name

    def names_during(self, seat_id: int, start: datetime | None, end: datetime | None) -> list[str]:
        """Everyone who held the seat at some moment of [start, end), in order (one name unless
        the seat changed hands inside it)."""
        users = [self.user_at(seat_id, start)]
        for r in self._swaps.get(seat_id, ()):
            if (start is None or r.created_at > start) and (end is None or r.created_at < end):
                if r.new_user.pk != users[-1].pk:
                    users.append(r.new_user)
        return [u.display_name for u in users]

    def stints(self, seat_id: int) -> list[Stint]:
        """Each person's time in the seat, the first holder first."""
        swaps = self._swaps.get(seat_id, ())
        if not swaps:
            return [Stint(seat_id, self.seats[seat_id].user, None, None)]
        out, start = [], None
        for r in swaps:
            out.append(Stint(seat_id, r.old_user, start, r.created_at))
            start = r.created_at
        out.append(Stint(seat_id, self.seats[seat_id].user, start, None))
        return out


# --- The same rule on ids, for the statistics' bulk reads ---------------------------------------
def swaps_by_seat(replacements) -> dict[int, list[tuple]]:
    """Seat id -> its replacements, oldest first, as (at, old user id, new user id, old user's
    display name, its name key, whether his account is active); one query over `replacements`."""
    out: dict[int, list[tuple]] = defaultdict(list)
    rows = replacements.order_by("created_at", "pk").values_list(
        "seat_id", "created_at", "old_user_id", "new_user_id", "old_user__display_name", "old_user__display_name_key",
        "old_user__is_active")
    for seat_id, *rest in rows:
        out[seat_id].append(tuple(rest))
    return dict(out)


def user_id_at(swaps, current_user_id: int, when: datetime | None) -> int:
    """SeatHolders.user_at on the rows of swaps_by_seat."""
    if when is not None:
        for at, old_id, *_rest in swaps:
            if when < at:
                return old_id
    return current_user_id


def stint_users(swaps, current_user_id: int) -> list[tuple[int, bool]]:
    """(user id, replaced out) of everyone who held the seat, in order; a player who came back to
    his seat has one stint, his last."""
    users = [(old_id, True) for _at, old_id, *_rest in swaps] + [(current_user_id, False)]
    last = {user_id: index for index, (user_id, _out) in enumerate(users)}
    return [pair for index, pair in enumerate(users) if last[pair[0]] == index]


def post_times(game: Game, numbers: Iterable[int]) -> dict[int, datetime]:
    """Post number in the game thread -> when it was written (the moment of the votes it holds)."""
    wanted = sorted({n for n in numbers if n is not None})
    if not wanted:
        return {}
    rows = Post.objects.filter(thread_id=game.game_thread_id, number__gte=wanted[0], number__lte=wanted[-1])
    wanted_set = set(wanted)
    return {n: t for n, t in rows.values_list("number", "created_at") if n in wanted_set}


def count_as_cast(count, *, game: Game, holders: SeatHolders | None = None, times: dict[int, datetime] | None = None):
    """A vote count (games.selectors.votes.CountView) with every seat named as it was then.

    The rule (docs/votes.md, "Replacements"): a count of the present — the open day with no
    "as of" — names each seat's present player, because a standing vote belongs to the seat and
    its present player may change it (what GMs write in a count after a swap). A count of the
    past — a closed day, or "as of post #N" — names each voter as he was when he wrote the post
    that holds his vote, and the wagons and the non-voters as they were at the close (or at
    post #N). Returns the count itself when nothing needs renaming. `times`: post number -> when it
    was written, for every post of the count's ballots, when the caller has read them (the
    archive: with its ballots, every day's at once)."""
    from dataclasses import replace

    phase = count.phase
    if count.as_of is None and phase.closed_at is None:
        return count
    holders = holders if holders is not None else SeatHolders.for_game(game)
    if not holders:
        return count
    numbers = [n for w in count.wagons for _s, n in w.voters]
    if times is None or (count.as_of and count.as_of not in times):
        times = post_times(game, numbers + ([count.as_of] if count.as_of else []))
    moment = times.get(count.as_of) if count.as_of else phase.closed_at
    wagons = [
        replace(w, target=holders.seat_at(w.target, moment),
                voters=[(holders.seat_at(seat, times.get(n, moment)), n) for seat, n in w.voters])
        for w in count.wagons
    ]
    measures = [{**row, "voters": [holders.seat_at(s, moment) for s in row.get("voters", [])]}
                for row in count.measures]
    lead = count.lead and replace(count.lead, **{key: [holders.seat_at(s, moment) for s in getattr(count.lead, key)]
                                                   for key in ("seats", "own_vote", "alone")})
    return replace(count, wagons=wagons, not_voting=[holders.seat_at(s, moment) for s in count.not_voting],
                   measures=measures, lead=lead)


# --- «вместо Эсмеральды» --------------------------------------------------------------------------
# A word pymorphy3 may inflect: Cyrillic letters (parts joined by hyphens), capitalised at most at
# the start of each part. Anything else (Latin, digits, "ЛунныйСвет", "ЁЖИК") stays as written.
_INFLECTABLE = re.compile(r"^[А-ЯЁ]?[а-яё]+(?:-[А-ЯЁ]?[а-яё]+)*$")


@functools.lru_cache(maxsize=2048)
def _genitive(name: str) -> str:
    words, forms = name.split(), inflect_name(name, "gent").split()
    if len(words) != len(forms):
        return name
    out = []
    for word, form in zip(words, forms):
        same_shape = [part[:1].isupper() for part in word.split("-")] == [part[:1].isupper() for part in form.split("-")]
        out.append(form if _INFLECTABLE.match(word) and _INFLECTABLE.match(form) and same_shape else word)
    return " ".join(out)


def replaced_name(name: str) -> str:
    """The name of a replaced player as it stands in "X replaces Y" in the active language: the
    Russian text says «Запасной вместо Эсмеральды», so Russian puts it in the genitive (pymorphy3
    through games.text.names, like the vote button); a word it cannot inflect safely — Latin,
    digits, inner capitals — is left as written («вместо SleepWalker»). English keeps the name."""
    if not name or not (translation.get_language() or "").lower().startswith("ru"):
        return name
    return _genitive(name)
