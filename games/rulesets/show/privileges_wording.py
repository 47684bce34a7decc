"""The words of the show's privileges (part 3, «Привилегии»): their names, their actions and
reason codes, and the texts of the events the engine's privileges emit (games/rulesets/show/
engine/privileges.py). Kept apart from wording.py, which asks `privilege_event_text` first.
Imports Django's translation only (docs/architecture.md, "Wording")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

PRIVILEGE_NAMES = {
    "snakelet": gettext_lazy("Snakelet"),
    "bouncer": gettext_lazy("Bouncer"),
    "secretary": gettext_lazy("Secretary"),
    "bingo": gettext_lazy("Bingo"),
    "talker": gettext_lazy("Talker"),
    "hare": gettext_lazy("Hare"),
    "hacker": gettext_lazy("Hacker"),
    "genius": gettext_lazy("Genius"),
    "authority": gettext_lazy("Authority"),
    "lawyer": gettext_lazy("Lawyer"),
    "mole": gettext_lazy("Mole"),
}
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
PRIVILEGE_ACTION_LABELS = {
    "stun": gettext_lazy("stun"),
    "exclude": gettext_lazy("exclude from the vote list"),
    "extra_vote": gettext_lazy("extra vote"),
    "intercept": gettext_lazy("intercept Secret Knowledge"),
    "mole_coma": gettext_lazy("/mole"),
    "steal": gettext_lazy("steal a privilege"),
    "fake": gettext_lazy("/fake"),
}
PRIVILEGE_REASONS = {
    # games.rulesets.show.engine.ruleset.REASONS, part 3
    "hacker": gettext_lazy("the Hacker gets no Secret Knowledge the ordinary way"),
    "stun_used": gettext_lazy("this hero has been stunned once already"),
    "excluded_before": gettext_lazy("this hero has been excluded once already"),
    "authority_off": gettext_lazy("the extra vote works only while more than five heroes are free"),
    "bad_guess": gettext_lazy("a guess names the knowledge's number and its receiver or its hero"),
    "no_open_knowledge": gettext_lazy("there is no such Secret Knowledge to intercept now"),
    "guessed_before": gettext_lazy("you have guessed this Secret Knowledge already"),
    "mole_used": gettext_lazy("the Mole buries one hero per stage"),
    "in_coma_already": gettext_lazy("this hero is in coma already"),
    "fake_limit": gettext_lazy("at most five messages a stage under a false name"),
    # the site's own (games.rulesets.show.privileges_services)
    "stunned": gettext_lazy("you are stunned: no message until the night ends"),
    "not_after_vote": gettext_lazy("order a theft right after your day vote"),
}


def privilege_name(key: str) -> str:
    return str(PRIVILEGE_NAMES.get(key, key))


def privilege_names(keys) -> str:
    return ", ".join(privilege_name(k) for k in keys or ()) or "—"


def _name(data: dict, key: str = "name") -> str:
    value = data.get(key)
    if isinstance(value, dict):
        value = value.get("name")
    return str(value or "—")


def _names(items) -> str:
    return ", ".join(str(i.get("name") if isinstance(i, dict) else i) for i in items or ()) or "—"


def privilege_event_text(kind: str, d: dict[str, Any], key_label=str) -> str | None:
    """The text of a privilege event, or None for another kind (wording.py words it, and hands
    its `key_label` for the keys' names)."""
    name = _name(d)
    if kind == "privileges":
        return _("Your privileges: %(privileges)s.") % {"privileges": privilege_names(d.get("privileges"))}
    if kind == "privileges_gm":
        holders = d.get("holders") or {}
        listed = "; ".join(f"{who}: {privilege_names(ps)}" for who, ps in holders.items()) or "—"
        return _("The privileges dealt: %(holders)s.") % {"holders": listed}
    if kind == "mole_role":
        return _("You are %(name)s, the Mole: you do not know your own role and must find it out.") % {"name": name}
    if kind == "team" and d.get("unnamed"):
        return _("The Reptiloids know each other: %(members)s; the name of one more partner is hidden from you.") % {
            "members": _names(d.get("members"))}
    if kind == "enslaved" and d.get("by") == "taxes":
        return _("%(name)s becomes a public slave for not paying taxes.") % {"name": name}
    if kind == "buried":
        return _("%(name)s is buried by the Mole and falls into a coma.") % {"name": name}
    if kind == "buried_gm":
        return _("The Mole %(mole)s buried %(name)s.") % {"mole": d.get("mole") or "—", "name": name}
    if kind == "stunned":
        return _("You are stunned: no night action and no message until the night ends.")
    if kind == "stunned_gm":
        return _("The Bouncer %(bouncer)s stunned %(target)s.") % {"bouncer": d.get("bouncer") or "—",
                                                                   "target": d.get("target") or "—"}
    if kind == "stun_failed":
        return _("The Bouncer %(bouncer)s and %(target)s chose each other: no stun.") % {
            "bouncer": d.get("bouncer") or "—", "target": d.get("target") or "—"}
    if kind == "excluded":
        return _("Off today's vote list: %(heroes)s.") % {"heroes": _names(d.get("heroes"))}
    if kind == "excluded_gm":
        return _("The Lawyer %(lawyer)s excluded %(target)s from the vote list.") % {
            "lawyer": d.get("lawyer") or "—", "target": d.get("target") or "—"}
    if kind == "extra_vote_gm":
        return _("The Authority %(authority)s added a vote: %(target)s.") % {
            "authority": d.get("authority") or "—", "target": d.get("target") or "—"}
    if kind == "intercept_result":
        if d.get("right"):
            return _("Intercepted Secret Knowledge #%(number)s: %(about)s is %(key)s.") % {
                "number": d.get("number", "?"), "about": d.get("about") or "—", "key": key_label(str(d.get("key") or ""))}
        return _("Your guess about Secret Knowledge #%(number)s was wrong.") % {"number": d.get("number", "?")}
    if kind == "intercept_gm":
        right = _("right") if d.get("right") else _("wrong")
        return _("The Hacker %(hacker)s guessed Secret Knowledge #%(number)s: %(right)s.") % {
            "hacker": d.get("hacker") or "—", "number": d.get("number", "?"), "right": right}
    if kind == "privilege_stolen":
        return _("You stole a privilege from %(name)s: %(privilege)s.") % {
            "name": name, "privilege": privilege_name(str(d.get("privilege") or ""))}
    if kind == "privilege_lost":
        return _("A privilege was stolen from you: %(privilege)s.") % {
            "privilege": privilege_name(str(d.get("privilege") or ""))}
    if kind == "theft_failed":
        return _("Your theft from %(name)s failed: nothing could be taken.") % {"name": name}
    if kind == "thefts_gm":
        results = d.get("results") or {}
        listed = "; ".join(f"{thief} → {victim}: {privilege_name(results[thief]) if results.get(thief) else '—'}"
                           for thief, victim in (d.get("thefts") or {}).items()) or "—"
        return _("The carousel's thefts: %(thefts)s.") % {"thefts": listed}
    if kind == "snakelet_turned":
        if d.get("name"):
            return _("The Snakelet %(name)s becomes a Reptiloid.") % {"name": name}
        return _("Every Reptiloid is a slave: the Snakelet becomes a Reptiloid.")
    if kind == "snakelet_turned_gm":
        return _("The Snakelet %(name)s became a Reptiloid.") % {"name": name}
    if kind == "genius_judge":
        return _("The judge of day %(day)s is %(name)s.") % {"day": d.get("day", "?"), "name": name}
    return None

