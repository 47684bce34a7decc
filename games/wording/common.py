"""The words every rule set shares: the site's own order and vote reasons, seat statuses, the
"nobody" faction, and a vote's weight as a number of the reader's locale.

Pure tables and small helpers: nothing here knows a rule set (a rule set's own words are in
`games/rulesets/<key>/wording.py`, reached through the registry by games.wording.lookup).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from contextvars import ContextVar

from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.text.names import guess_gender, inflect_name, inflect_phrase

# Factions no rule set owns: the winner of a game nobody won.
FACTION_NAMES = {
    "none": _("nobody"),
}

# A seat's status (games.models.Seat.status), for every rule set.
SEAT_STATUSES = {
    "active": _("in play"), "killed": _("killed"), "jailed": _("in jail"),
    "dead": _("dead"), "removed": _("removed"), "left": _("left the game"),
    "executed": _("executed"), "enslaved": _("enslaved"),
}
# The statuses whose Russian agrees with the player («убит», «убита»): their masculine and
# feminine forms; the plain msgid is the neutral one (a noun: «гибель», «казнь»).
AGREEING_STATUSES = {
    "killed": (pgettext_lazy("masculine", "killed"), pgettext_lazy("feminine", "killed")),
    "dead": (pgettext_lazy("masculine", "dead"), pgettext_lazy("feminine", "dead")),
    "removed": (pgettext_lazy("masculine", "removed"), pgettext_lazy("feminine", "removed")),
    "left": (pgettext_lazy("masculine", "left the game"), pgettext_lazy("feminine", "left the game")),
    "executed": (pgettext_lazy("masculine", "executed"), pgettext_lazy("feminine", "executed")),
}

# Why an order was refused or came to nothing: the codes the site's order ledger gives itself
# (the deadline, the text reader of games.text.orders) and those the rule sets' check_order share.
# A rule set's own codes are its wording's `order_reasons`.
ORDER_REASONS = {
    "not_your_action": _("you do not have that action"),
    "not_active": _("you are out of play"),
    "target_not_active": _("that player is out of play"),
    "self_forbidden": _("you may not choose yourself"),
    "bad_target": _("that target is not allowed"),
    "missing_target": _("say whom the action is for"),
    "unexpected_source": _("only a theft names whose action is taken"),
    "after_deadline": _("the phase is over"),
    "no_phase": _("no phase is going on"),
    "not_a_player": _("you are not a player of this game"),
    "no_action_word": _("no action word found (e.g. «Проверяю Кикимору»)"),
    "name_unknown": _("no player has that name"),
    "name_ambiguous": _("the name fits several players"),
    "name_missing": _("no name after the action word"),
    "game_over": _("the game is over"),
    "negated": _("the order is negated"),
    "actor_mismatch": _("the order is not this player's"),
    "mafia_disagree": _("the mafiosi named different targets"),
}

# Why a vote did not count, in the poster's words. Codes come from games.text.votes and from the
# vote ledger's checks (games.services.votes), which name the engines' check_vote codes in these.
VOTE_REASONS = {
    "name_unknown": _("no player has that name"),
    "name_ambiguous": _("the name fits several players"),
    "name_missing": _("no name after the vote word"),
    "not_bold": _("the name must be in bold"),
    # %(word)s: the rule set's own vote words (SiteStyle.vote_word): «в тюрьму», «голосую за».
    "no_intent": _("a word saying it is a vote (e.g. «%(word)s») must stand with the bold name"),
    "negated": _("the vote is negated"),
    "peace_not_allowed": _("this game has no peace vote"),
    "syntax_disabled": _("this way of voting is not enabled in this game"),
    "after_deadline": _("the voting is over"),
    "voter_not_allowed": _("you may not vote now"),
    "target_not_alive": _("that player is out of the game"),
    "target_not_allowed": _("that player cannot be voted for now"),
    "self_vote_forbidden": _("you may not vote for yourself"),
    "target_immune": _("a newcomer may not be voted out on the first day"),
    "target_protected": _("that character cannot be voted for now: his role protects him"),
    "no_voting_phase": _("there is no vote going on"),
}


def vote_reason_text(code: str) -> str:
    """Why a vote did not count; a text quoting the vote words keeps its %(word)s for the caller."""
    return str(VOTE_REASONS.get(code, code))


def seat_status_label(status: str, gender: str = "") -> str:
    """A seat's status in words, agreeing with the player's gender ("m", "f", "" unknown)."""
    if status in AGREEING_STATUSES:
        return str(agreed(gender, SEAT_STATUSES[status], *AGREEING_STATUSES[status]))
    return str(SEAT_STATUSES.get(status, status))


def vote_weight_text(value) -> str:
    """A vote's weight in the reader's number format (1, 1,5 or 1.5, 2): the same on every page
    and in the results post (django.utils.formats, as the templates' {{ weight }})."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value if value is not None else "—")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return number_format(value)


def name_case(name, case: str) -> str:
    """A player's name in a Russian grammatical case (pymorphy3, games.text.names.inflect_name)
    for a sentence that governs it («у Эсмеральды», «между Васей»), when the reader reads Russian;
    as written otherwise, and for a name pymorphy3 does not know (SleepWalker, Фроло)."""
    text = str(name if name is not None else "?")
    language = translation.get_language() or ""
    return _inflected_name(text, case) if language.startswith("ru") else text


@lru_cache(maxsize=8192)
def _inflected_name(name: str, case: str) -> str:
    """inflect_name, memoised: pymorphy3 is slow and a page names the same few players often."""
    return inflect_name(name, case)


def phrase_case(phrase, case: str) -> str:
    """A phrase naming a thing («защитная речь») in a Russian grammatical case for a sentence that
    governs it («Опубликуйте защитную речь»), when the reader reads Russian; as written otherwise."""
    text = str(phrase if phrase is not None else "")
    language = translation.get_language() or ""
    return inflect_phrase(text, case) if language.startswith("ru") else text


def names_joined(names, case: str = "nomn") -> str:
    """Names joined the Russian way, each in `case`: «Васей и Кикиморой», «Вася, Петя и Маша»
    ("Вася and Кикимора" in English). In the nominative each is as written (a name may carry its
    detail: «Вася (Гик)»)."""
    names = [str(n if n is not None else "?") if case == "nomn" else name_case(n, case) for n in names]
    if len(names) <= 1:
        return names[0] if names else "—"
    return str(_("%(names)s and %(last)s")) % {"names": ", ".join(names[:-1]), "last": names[-1]}


def suggestion_text(names) -> str:
    """«Может быть, Фроло?», «Может быть, Вася или Василий?»: the names a refused name comes
    closest to (games.text.names.RosterMatcher.suggest) or fits, joined the Russian way."""
    names = [str(n) for n in names]
    joined = names[0] if len(names) == 1 else str(_("%(names)s or %(last)s")) % {
        "names": ", ".join(names[:-1]), "last": names[-1]}
    return str(_("Did you mean %(names)s?")) % {"names": joined}


def name_in(data: dict, *keys: str) -> str:
    """The first name an event's data gives under these keys, or «?»."""
    for key in keys:
        if data.get(key):
            return str(data[key])
    return "?"


# --- Agreement with a player's gender ------------------------------------------------------------
# A Russian sentence about a player agrees with his or her gender («убит»/«убита», «его»/«её»).
# A message that does is written three times: the neutral msgid (present tense, «игрок X», no
# pronoun: the wording for an unknown gender) and the same msgid under the msgctxt "masculine" and
# "feminine" (the .po's agreeing forms). The gender of a name comes from the roster the caller
# speaks of (speaking_of: each seat's user's profile, games.selectors.genders.roster_genders),
# else from a confident guess of its first name (games.text.names.guess_gender), else it is unknown.
GENDER_CONTEXTS = {"m": "masculine", "f": "feminine"}
_ROSTER_GENDERS: ContextVar[Mapping[str, str] | None] = ContextVar("roster_genders", default=None)


@contextmanager
def speaking_of(genders: Mapping[str, str]) -> Iterator[None]:
    """Within the block, the names of `genders` (display name -> "m", "f" or "") agree with the
    gender given there; a name it does not hold is guessed."""
    token = _ROSTER_GENDERS.set(dict(genders))
    try:
        yield
    finally:
        _ROSTER_GENDERS.reset(token)


def gender_of(name) -> str:
    """"m", "f" or "" (unknown) for a player's name: the roster's, else a confident guess."""
    text = str(name or "")
    roster = _ROSTER_GENDERS.get()
    if roster is not None and text in roster:
        return roster[text] or ""
    return _guessed_gender(text)


@lru_cache(maxsize=8192)
def _guessed_gender(name: str) -> str:
    """guess_gender, memoised (pymorphy3 is slow)."""
    return guess_gender(name)


def agreed(gender: str, neutral, masculine, feminine) -> str:
    """The message in the form agreeing with `gender`: `masculine` or `feminine` (the same msgid
    marked with pgettext_lazy under GENDER_CONTEXTS; tests/test_i18n.py sees that each has its
    Russian) when the gender is known, `neutral` otherwise. Returned as given (a lazy message
    stays lazy, for a text worded later in each reader's language)."""
    return {"m": masculine, "f": feminine}.get(gender, neutral)
