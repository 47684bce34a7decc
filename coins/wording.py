"""How a ledger line reads on the «Баланс» page: its reason, seen from either side, and the other
side of it, told without secrets (a fine's reporter is «анонимно»; a hero inside a game is not
named, since the rules may hide who is who)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.utils.translation import gettext_lazy as _

# reason code -> (label for the side the coins leave, label for the side they reach)
REASON_LABELS: dict[str, tuple] = {
    "registration": (_("Starting capital created"), _("Starting capital")),
    "referral": (_("Referral bonus to the hero whose IndiCode you picked"), _("Referral bonus from a newcomer")),
    "fine": (_("Fine for a forbidden act"), _("Reward for reporting a forbidden act")),
}


def register_reasons(labels: dict[str, tuple]) -> None:
    """A rule set adds the words of its own reason codes (the Show: entry_fee, burden, bet...);
    a label is one text for both sides or a (leaving, reaching) pair."""
    for code, label in labels.items():
        REASON_LABELS[code] = label if isinstance(label, tuple) else (label, label)


def reason_label(code: str, *, incoming: bool):
    labels = REASON_LABELS.get(code)
    if labels is None:
        return _("Other movement of coins")
    return labels[1] if incoming else labels[0]


class GameLineWords(Protocol):
    """A rule set's words for the lines its games post (the Show: its fees, burdens, bets...)."""

    def reason_text(self, reason: str, detail: str, *, incoming: bool) -> str:
        """The line's reason with its detail worded inside: «Бремя уплачено Рептилоидам»."""

    def stage_text(self, stage: str) -> str:
        """The line's stage («night 2») in words: «Ночной выбор 2»."""


# A game's lines are worded by its rule set, registered by its plug-in under its key (the coins
# app may not import games, the coins-below-games contract: it asks what was registered).
GAME_WORDS: dict[str, GameLineWords] = {}


def register_game_words(ruleset: str, words: GameLineWords) -> None:
    GAME_WORDS[ruleset] = words


@dataclass(frozen=True)
class LineText:
    reason: str
    detail: str  # what the reason's words did not say already (a site-wide line's own detail)
    stage: str


def line_text(entry, *, incoming: bool) -> LineText:
    """One ledger line in words for the owner of its one side: a game's line by its rule set's
    words (never a code), a site-wide line (registration, referral, fine) by the table above."""
    game = entry.game if entry.game_id else None
    words = GAME_WORDS.get(getattr(game, "ruleset", "") or "")
    if words is not None and entry.reason != "fine":
        return LineText(str(words.reason_text(entry.reason, entry.detail, incoming=incoming)), "",
                        str(words.stage_text(entry.stage)))
    return LineText(str(reason_label(entry.reason, incoming=incoming)), entry.detail, "")


GAME_ACCOUNT_LABELS = {
    "bank": _("Bank of «%(game)s»"),
    "pot": _("Winners' pot of «%(game)s»"),
    "escrow": _("Deposit held by «%(game)s»"),
}


def other_side(account, entry):
    """The other side of `entry` for the owner of its one side: words only, never a hidden name."""
    key = account.key
    if key == "mint":
        return _("Emission (new coins)")
    if entry.reason == "fine":
        return _("anonymously")
    title = entry.game.title if entry.game_id and entry.game is not None else None
    if key.startswith("game:"):
        name = key.split(":")[2]
        game_title = account.game.title if account.game_id and account.game is not None else "?"
        return GAME_ACCOUNT_LABELS.get(name, _("Account of «%(game)s»")) % {"game": game_title}
    if title is not None:
        return _("a hero of «%(game)s»") % {"game": title}
    if account.user_id and account.user is not None:
        return str(account.user)
    return _("a former user")
