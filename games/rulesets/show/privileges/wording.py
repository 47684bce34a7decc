"""The site's own words of the show's privileges (part 3; the privileges' names, reasons and
event texts are wording.py's): what each privilege does on its holder's panel, the site's refusal
codes, and part 3's change to two of part 1's event texts (wording.py asks site_event_text first).
Imports Django's translation and games.wording only (docs/architecture.md, "Wording")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.wording import names_joined

# What each privilege does, for its holder's panel (the seed's «Привилегии», shortened).
PRIVILEGE_HELP = {
    "snakelet": gettext_lazy("When every Reptiloid is a slave you become a Reptiloid; the Reptiloids cannot "
                             "enslave you at night."),
    "bouncer": gettext_lazy("Each night you may stun a hero: he loses his night action and sends no message until "
                            "the night ends (each hero once per show)."),
    "secretary": gettext_lazy("You see who votes for whom in every day vote as it happens, the Talents' votes too, "
                              "and where the Authority's extra vote went."),
    "bingo": gettext_lazy("Your share of the bank doubles if you win; otherwise your whole result doubles."),
    "talker": gettext_lazy("Your paid messages cost you nothing; up to five messages a stage you may sign as another "
                           "hero (/fake)."),
    "hare": gettext_lazy("You pay no fees and no burden; if a night enslaves nobody you become a public slave for "
                         "not paying taxes."),
    "hacker": gettext_lazy("When someone receives Secret Knowledge you may intercept it by guessing who received it "
                           "or about whom; you get no Secret Knowledge the ordinary way."),
    "genius": gettext_lazy("Every change of your rating doubles; each morning you learn the judge; the first Secret "
                           "Knowledge is yours."),
    "authority": gettext_lazy("In day votes and re-votes you may add one more vote, while more than five heroes are "
                              "free."),
    "lawyer": gettext_lazy("Each night you may take a hero off the next day's vote list (each hero once per show)."),
    "mole": gettext_lazy("You do not know your own role. Once a stage you may put a free hero into a coma (/mole)."),
}
SITE_PRIVILEGE_REASONS = {
    # the site's own (games.rulesets.show.privileges.services)
    "not_after_vote": gettext_lazy("order a theft right after your day vote"),
}


def _names(items) -> str:
    """Heroes joined the Russian way («Вася, Петя и Маша»), «—» for none."""
    return names_joined([i.get("name") if isinstance(i, dict) else i for i in items or ()])


def site_event_text(kind: str, d: dict[str, Any]) -> str | None:
    """Part 3's change to the words of part 1's events, or None (wording.py words them): the
    Reptiloids' team event without the Крот's name, and the Заяц's slavery «за неуплату налогов»."""
    if kind == "team" and d.get("unnamed"):
        return _("The Reptiloids know each other: %(members)s; the name of one more partner is hidden from you.") % {
            "members": _names(d.get("members"))}
    if kind == "enslaved" and d.get("by") == "taxes":
        name = d.get("name")
        return _("%(name)s becomes a public slave for not paying taxes.") % {"name": name or "—"}
    return None
