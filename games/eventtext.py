"""Words for what the engine reports: role names and event texts in the viewer's language.

The engine stores facts (kind + data with seat ids and names); the text is made when shown, so
a Russian reader and an English reader each see their own language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

ROLE_NAMES = {
    "forum": {
        "citizen": gettext_lazy("honest citizen"),
        "recruiter": gettext_lazy("recruiter"),
        "reanimator": gettext_lazy("reanimator"),
        "mafioso": gettext_lazy("mafioso"),
        "killer": gettext_lazy("killer"),
        "thief": gettext_lazy("thief"),
    },
}
ROLE_NAMES["club"] = {
    "don": gettext_lazy("don"),
    "mafioso": gettext_lazy("mafioso"),
    "putana": gettext_lazy("putana"),
    "commissar": gettext_lazy("commissar"),
    "doctor": gettext_lazy("doctor"),
    "maniac": gettext_lazy("maniac"),
    "civilian": gettext_lazy("civilian"),
}
FACTION_NAMES = {
    "town": gettext_lazy("honest citizens"),
    "mafia": gettext_lazy("the mafia"),
    "thief": gettext_lazy("the thief"),
    "none": gettext_lazy("nobody"),
    "red": gettext_lazy("the reds"),
    "black": gettext_lazy("the blacks"),
}
COLOURS = {"red": gettext_lazy("red"), "black": gettext_lazy("black")}


ROLE_HELP = {
    "forum": {
        "citizen": gettext_lazy("No night action. Talk, vote, find the mafia. If the recruiter checks you, you "
                                "may make one check of your own the next turn."),
        "recruiter": gettext_lazy("Each turn you may check one player and learn his role. If he is a plain "
                                  "citizen, he gets one check of his own for the next turn."),
        "reanimator": gettext_lazy("Each turn you may protect one player (not yourself): if he is shot, he "
                                   "survives, wounded."),
        "mafioso": gettext_lazy("You know the other members of the mafia. Each turn the mafia shoots once: one "
                                "mafioso's order is enough, but two different targets mean no shot."),
        "killer": gettext_lazy("You are the mafia's killer: each turn you shoot on your own, besides the mafia's "
                               "shot."),
        "thief": gettext_lazy("Each turn you may steal the action of one player and apply it to anyone, yourself "
                              "included. You are not told what you stole, only what came of it."),
    },
}
ROLE_HELP["club"] = {
    "don": gettext_lazy("You lead the mafia: at night your word decides whom the mafia kills. Voted out by day, you "
                        "take one player with you (not with three or more fouls)."),
    "mafioso": gettext_lazy("You know the blacks. At night the mafia kills one player; the don's word decides while "
                            "he lives."),
    "putana": gettext_lazy("Each night you freeze one player: the commissar does not check, the doctor does not heal, "
                           "the maniac does not kill. Not the same player more than two nights running. Alone among "
                           "the blacks you may also kill."),
    "commissar": gettext_lazy("Each night you check one player: red or black. Once a game you may leave a note, read "
                              "in the morning only if you are killed that night."),
    "doctor": gettext_lazy("Each night you heal one player from everything: the mafia, the maniac, the freeze. Not "
                           "the same player two nights running."),
    "maniac": gettext_lazy("You play for the reds. Each night you may kill one player (never yourself) or abstain."),
    "civilian": gettext_lazy("No night action. Talk, vote, find the blacks."),
}
FACTION_GOALS = {
    "town": gettext_lazy("Your team wins when the mafia and the thief are all jailed or killed."),
    "mafia": gettext_lazy("Your team wins when every other team is jailed or killed."),
    "thief": gettext_lazy("You win only if you are the last one left in play."),
    "red": gettext_lazy("The reds win when every black is out of the game."),
    "black": gettext_lazy("The blacks win when the reds can no longer stop them."),
}


def role_help(ruleset: str, role: str) -> str:
    return str(ROLE_HELP.get(ruleset, {}).get(role, ""))


def faction_goal(faction: str) -> str:
    return str(FACTION_GOALS.get(faction, ""))


def role_label(ruleset: str, role: str) -> str:
    return str(ROLE_NAMES.get(ruleset, {}).get(role, role))


def faction_label(faction: str) -> str:
    return str(FACTION_NAMES.get(faction, faction))


def _name(data: dict, *keys: str) -> str:
    for key in keys:
        if data.get(key):
            return str(data[key])
    return "?"


def _with_role(ruleset: str, data: dict, text: str) -> str:
    role = data.get("role")
    return f"{text} ({role_label(ruleset, role)})" if role else text


def event_text(ruleset: str, kind: str, data: dict) -> str:
    text = _event_text(ruleset, kind, data)
    if data.get("retracted"):
        return _("%(text)s (rolled back by the GM)") % {"text": text}
    return text


def _event_text(ruleset: str, kind: str, data: dict) -> str:
    name = _name(data, "name", "target_name", "seat_name")
    if kind == "jailed":
        return _with_role(ruleset, data, _("%(name)s is jailed.") % {"name": name})
    if kind == "killed":
        return _with_role(ruleset, data, _("%(name)s is killed.") % {"name": name})
    if kind == "wounded":
        return _("%(name)s was shot but survived, wounded.") % {"name": name}
    if kind == "check_result" and data.get("color"):
        return _("Check: %(name)s is %(colour)s.") % {"name": _name(data, "target_name", "name"),
                                                        "colour": str(COLOURS.get(data["color"], data["color"]))}
    if kind == "check_result":
        return _("Check: %(name)s is %(role)s.") % {"name": _name(data, "target_name", "name"),
                                                      "role": role_label(ruleset, data.get("role", ""))}
    if kind == "executed":
        return _with_role(ruleset, data, _("%(name)s is voted out.") % {"name": name})
    if kind == "removed":
        return _with_role(ruleset, data, _("%(name)s is removed for fouls.") % {"name": name})
    if kind == "revote":
        return _("Tie: a re-vote between %(names)s.") % {"names": ", ".join(str(p.get("name")) for p in data.get("leaders", []))}
    if kind == "no_execution":
        return _("A peaceful day: nobody leaves the table.")
    if kind == "taken":
        return _("The don %(don)s takes %(name)s with him.") % {"don": data.get("by_name", "?"), "name": name}
    if kind == "frozen":
        return _("You were frozen this night.")
    if kind == "night_result" and not data.get("killed"):
        return _("The night passed without a death.")
    if kind == "night_result":
        return ""
    if kind == "note":
        return _("The commissar's note, read in the morning: %(name)s is %(colour)s.") % {
            "name": _name(data, "target_name"), "colour": str(COLOURS.get(data.get("color"), data.get("color")))}
    if kind == "foul":
        return _("%(name)s gets a foul (%(n)s in all).") % {"name": name, "n": data.get("fouls", "?")}
    if kind == "forfeit":
        return _("Forfeit: %(loser)s lose; %(winner)s win.") % {"loser": faction_label(data.get("faction", "")),
                                                               "winner": faction_label(data.get("winner", ""))}
    if kind == "newcomers":
        return _("Newcomers with immunity on day 1 and night 1: %(names)s.") % {
            "names": ", ".join(str(p.get("name")) for p in data.get("players", []))}
    if kind == "granted_check":
        return _("You were checked by the recruiter: next turn you may make one check of your own.")
    if kind == "role":
        return _("Your role: %(role)s.") % {"role": role_label(ruleset, data.get("role", ""))}
    if kind == "team":
        members = data.get("names") or [m.get("name") for m in data.get("members", []) if isinstance(m, dict)]
        return _("Your team: %(names)s.") % {"names": ", ".join(str(m) for m in members if m)}
    if kind == "tie_break":
        return _("The vote was tied; %(how)s decided: %(name)s.") % {
            "how": _("the GM") if data.get("by") == "gm" else _("the lot"), "name": name}
    if kind == "game_over":
        return _("The game is over. Winner: %(winner)s.") % {"winner": faction_label(data.get("winner") or "none")}
    if kind in ("vote_dropped", "foul_ignored", "forfeit_ignored"):
        details = ", ".join(f"{k}: {v}" for k, v in data.items() if not isinstance(v, (dict, list)))
        return f"{kind}: {details}"
    if kind == "vote_result":
        tally = data.get("tally") or []
        return _("Votes: %(tally)s.") % {"tally": ", ".join(f"{row.get('name')} — {row.get('votes')}" for row in tally)}
    if kind == "game_started":
        return _("The game has started: %(n)d players.") % {"n": len(data.get("players") or [])}
    if kind == "order":
        return order_summary(data)
    if kind == "tie_break_ignored":
        return _("The GM's tie-break was not used (%(reason)s).") % {"reason": data.get("reason", "")}
    if kind == "modkilled":
        return _with_role(ruleset, data, _("%(name)s is removed from the game by the GM.") % {"name": name})
    if kind == "prod":
        return (_("Reminder: you have not posted in the game thread for a while.") if data.get("kind") == "silent"
                else _("Reminder: the deadline is near and you have not sent your order."))
    if kind == "anonymous_message":
        return _("An anonymous message through the GM: «%(text)s»") % {"text": data.get("text", "")}
    if kind == "manual":
        return str(data.get("text", ""))
    details = ", ".join(f"{k}: {v}" for k, v in data.items() if not isinstance(v, (dict, list)))
    return f"{kind}: {details}" if details else kind


def order_summary(data: dict) -> str:
    """The GM's line about one order: who did what to whom, and what became of it."""
    from games.services.orders import action_label, order_reason_text

    parts = [str(data.get("actor_name") or "?"), action_label(str(data.get("action") or ""))]
    if data.get("source_name"):
        parts.append(f"{data['source_name']} →")
    if data.get("target_name"):
        parts.append(str(data["target_name"]))
    result = data.get("result")
    if result == "done":
        verdict = _("done")
    elif result == "rejected":
        verdict = _("rejected: %(reason)s") % {"reason": order_reason_text(str(data.get("reason") or ""))}
    else:
        verdict = _("failed: %(reason)s") % {"reason": order_reason_text(str(data.get("reason") or ""))}
    return f"{' '.join(parts)} — {verdict}"


def results_bbcode(game, phase, events) -> str:
    """The public results post the close publishes in the game thread."""
    lines = [_("[b]Results: %(phase)s %(number)s[/b]") % {"phase": phase.get_kind_display().lower(), "number": phase.number}]
    for event in events:
        if event.audience == "public":
            text = event_text(game.ruleset, event.kind, dict(event.data))
            if text:
                lines.append(text)
    return "\n".join(lines)
