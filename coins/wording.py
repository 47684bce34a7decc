"""How a ledger line reads on the «Баланс» page: its reason, seen from either side, and the other
side of it, told without secrets (a fine's reporter is «анонимно»; a hero inside a game is not
named, since the rules may hide who is who)."""

from __future__ import annotations

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
        return code
    return labels[1] if incoming else labels[0]


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
