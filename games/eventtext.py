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
# The cards rule set (001): the secret roles by the seed's names, and the placeholders of a role
# table that new_game draws.
ROLE_NAMES["cards"] = {
    "boss": gettext_lazy("boss"),
    "advisor": gettext_lazy("advisor"),
    "killer": gettext_lazy("killer"),
    "sheriff": gettext_lazy("sheriff"),
    "commissioner": gettext_lazy("commissioner"),
    "doctor": gettext_lazy("doctor"),
    "agent": gettext_lazy("agent"),
    "judge": gettext_lazy("judge"),
    "vigilante": gettext_lazy("vigilante"),
    "policeman": gettext_lazy("policeman"),
    "detective": gettext_lazy("detective"),
    "maniac": gettext_lazy("maniac"),
    "joker": gettext_lazy("joker"),
    "traitor": gettext_lazy("traitor"),
    "hero": gettext_lazy("hero"),
    "law": gettext_lazy("a member of the Law (drawn at the start)"),
    "joker_or_traitor": gettext_lazy("the joker or the traitor (drawn at the start)"),
}
FACTION_NAMES = {
    "law": gettext_lazy("the Law"),
    "maniac": gettext_lazy("the maniac"),
    "joker": gettext_lazy("the joker"),
    "traitor": gettext_lazy("the traitor"),
    "hero": gettext_lazy("the hero"),
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


CARD_COLOURS = {
    "damage": gettext_lazy("Damage"),
    "recon": gettext_lazy("Recon"),
    "defence": gettext_lazy("Defence"),
    "sabotage": gettext_lazy("Sabotage"),
    "control": gettext_lazy("Control"),
    "support": gettext_lazy("Support"),
    "neutral": gettext_lazy("Neutral"),
}
MEASURES = {"execution": gettext_lazy("execution"), "prison": gettext_lazy("prison")}
CARD_ZONES = {"hand": gettext_lazy("Hand"), "sleeve": gettext_lazy("Sleeve"), "deck": gettext_lazy("deck")}
REVEALED = {
    "role": gettext_lazy("secret role"), "colours": gettext_lazy("colours"), "hand": gettext_lazy("Hand"),
    "sleeve": gettext_lazy("Sleeve"), "deck_top": gettext_lazy("top of the deck"),
    "visitors": gettext_lazy("who played cards at the target"), "visits": gettext_lazy("at whom the target played cards"),
}
PLAY_RESULTS = {"done": gettext_lazy("done"), "blocked": gettext_lazy("blocked"), "refused": gettext_lazy("refused")}
INTO_ZONE = {"hand": gettext_lazy("into the Hand"), "sleeve": gettext_lazy("into the Sleeve")}
FROM_ZONE = {"hand": gettext_lazy("from the Hand"), "sleeve": gettext_lazy("from the Sleeve"),
             "deck": gettext_lazy("from the top of the deck")}


def play_result_label(result) -> str:
    return str(PLAY_RESULTS.get(result, result or "—"))


def vote_weight_text(value) -> str:
    """A vote's weight in the reader's number format (1, 1,5 or 1.5, 2): the same on every page
    and in the results post (django.utils.formats, as the templates' {{ weight }})."""
    from django.utils.formats import number_format

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value if value is not None else "—")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return number_format(value)


def colour_label(colour: str) -> str:
    return str(CARD_COLOURS.get(colour, colour))


def measure_label(measure) -> str:
    return str(MEASURES.get(measure, measure or "—"))


def role_help(ruleset: str, role: str) -> str:
    return str(ROLE_HELP.get(ruleset, {}).get(role, ""))


# The cards rule set's win conditions (001 «Условия победы» and the neutrals' descriptions).
CARDS_FACTION_GOALS = {
    "law": gettext_lazy("The Law wins when the whole Mafia, the Traitor and the Maniac are dead and at least one "
                        "member of the Law is alive."),
    "mafia": gettext_lazy("The Mafia and the Traitor win when the whole Law and the Maniac are dead and at least one "
                          "mafioso or the Traitor is alive."),
    "traitor": gettext_lazy("You lead the Mafia to victory: you win with it when the whole Law and the Maniac are "
                            "dead and a mafioso or you are alive."),
    "maniac": gettext_lazy("You win when everybody else is dead."),
    "joker": gettext_lazy("You win at once when your list of every player's overt and secret roles is right; a wrong "
                          "list takes you out of the game. Left the last one alive, you lose like everybody."),
    "hero": gettext_lazy("You win with the Law if you live to its victory or fulfil one of your two goals; with "
                         "both goals fulfilled you win and leave the game."),
}
SEAT_STATUSES = {
    "active": gettext_lazy("in play"), "killed": gettext_lazy("killed"), "jailed": gettext_lazy("in jail"),
    "dead": gettext_lazy("dead"), "removed": gettext_lazy("removed"), "left": gettext_lazy("left the game"),
    "executed": gettext_lazy("executed"), "enslaved": gettext_lazy("enslaved"),
}


def faction_goal(faction: str, ruleset: str = "") -> str:
    goals = CARDS_FACTION_GOALS if ruleset == "cards" else FACTION_GOALS
    return str(goals.get(faction, ""))


def seat_status_label(status: str) -> str:
    return str(SEAT_STATUSES.get(status, status))


# The club rating's automatic points (003 «Рейтинг»), by the engine's rule codes
# (games.rulesets.club.engine.rating_breakdown).
RATING_RULES = {
    "civilian_killed_by_mafia_night1": gettext_lazy("+1: a civilian killed by the mafia on the first night"),
    "civilian_taken_by_don_day1": gettext_lazy("+1: a civilian taken by the don on the first day"),
    "maniac_killed_black_night1": gettext_lazy("+1: the maniac killed a black on the first night with no vote on "
                                               "him"),
    "removed": gettext_lazy("−3: removed from the table (fouls or an opened card)"),
    "maniac_killed_civilian_night1": gettext_lazy("−1: the maniac killed a civilian on the first night"),
    "maniac_killed_active_night1": gettext_lazy("−2: the maniac killed an active card on the first night"),
    "finished_off_civilian_day1": gettext_lazy("−1: the finishing vote on a civilian on the first day"),
    "finished_off_active_day1": gettext_lazy("−2: the finishing vote on an active card on the first day"),
    "finisher_killed_by_maniac_night1": gettext_lazy("−1: the finisher killed by the maniac on the first night"),
    "maniac_shot_lost_game": gettext_lazy("−1: the maniac's shot lost the game for the reds"),
    "maniac_refusal_lost_game": gettext_lazy("−1: the maniac's refusal to shoot lost the game for the reds"),
    "blunder": gettext_lazy("−1: could have guaranteed the team's win and erred"),
    "blunder_lost": gettext_lazy("−2: and the team lost"),
}


# Why a club vote was dropped at the close (the rule set's check_vote codes) and why a GM entry
# was ignored, for the GM's event list.
DROPPED_VOTE_REASONS = {
    "not_a_voter": gettext_lazy("the voter may not vote in this round"),
    "bad_target": gettext_lazy("that player cannot be voted for in this round"),
    "self_vote_forbidden": gettext_lazy("a vote against oneself"),
    "peace_not_allowed": gettext_lazy("there is no vote for peace"),
    "target_immune": gettext_lazy("a newcomer is immune on the first day"),
}
IGNORED_REASONS = {
    "unknown_player": gettext_lazy("no such player in the game"),
    "not_active": gettext_lazy("the player is out of play"),
    "not_a_faction": gettext_lazy("no such team"),
}


def rating_rule_label(rule: str) -> str:
    return str(RATING_RULES.get(rule, rule))


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
    """The sentence with the role before its full stop: «Выгнан голосованием: Петя (мафиози).»"""
    role = data.get("role")
    if not role:
        return text
    stem, stop = (text[:-1], text[-1]) if text[-1:] in ".!" else (text, "")
    return f"{stem} ({role_label(ruleset, role)}){stop}"


def event_text(ruleset: str, kind: str, data: dict) -> str:
    text = _event_text(ruleset, kind, data)
    if data.get("retracted") and text:
        return _("%(text)s (rolled back by the GM)") % {"text": text}
    return text


def _event_text(ruleset: str, kind: str, data: dict) -> str:
    if ruleset == "cards":
        text = _cards_text(kind, data)
        if text is not None:
            return text
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
    if kind == "vote_dropped":
        return _("%(voter)s's vote could not stand at the close and is not counted: %(reason)s.") % {
            "voter": data.get("voter_name", "?"), "reason": str(DROPPED_VOTE_REASONS.get(data.get("reason"),
                                                                                          data.get("reason", "")))}
    if kind == "foul_ignored":
        return _("A foul was not given: %(reason)s.") % {"reason": str(IGNORED_REASONS.get(data.get("reason"),
                                                                                           data.get("reason", "")))}
    if kind == "forfeit_ignored":
        return _("The forfeit was not declared: %(reason)s.") % {
            "reason": str(IGNORED_REASONS.get(data.get("reason"), data.get("reason", "")))}
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


# The public events of a cards close that its results post shows (hand sizes last).
CARDS_RESULT_KINDS = ("veche_result", "tie_break", "executed", "imprisoned", "joker_won", "joker_left", "died",
                      "hand_sizes", "game_over")


def results_bbcode(game, phase, events) -> str:
    """The public results post the close publishes in the game thread."""
    if phase.kind == "deckbuilding":
        lines = [_("[b]Deck building is over.[/b] Every player has drawn his Hand; the night begins.")]
    elif phase.kind == "revote":  # «день 1, переголосование»: a re-vote belongs to its day (Phase.label)
        lines = [_("[b]Results: %(phase)s[/b]") % {"phase": phase.label.lower()}]
    else:
        lines = [_("[b]Results: %(phase)s %(number)s[/b]") % {"phase": phase.kind_label.lower(),
                                                             "number": phase.number}]
    for event in events:
        if event.audience == "public" and (game.ruleset != "cards" or event.kind in CARDS_RESULT_KINDS):
            text = event_text(game.ruleset, event.kind, dict(event.data))
            if text:
                lines.append(text)
    return "\n".join(lines)


# --- The cards rule set ------------------------------------------------------------------------
def _cards(names) -> str:
    return ", ".join(str(n) for n in (names or ())) or "—"


def _card_reason(code) -> str:
    from games.rulesets.cards.services import card_reason_text

    return card_reason_text(str(code or ""))


def _reveal_value(what: str, value) -> str:
    if what == "role":
        return role_label("cards", str(value))
    if what == "colours":
        return ", ".join(colour_label(c) for c in value or ()) or "—"
    if isinstance(value, list):
        return _cards(value)
    return str(value)


def _play_outcome(play: dict, *, reason_only_if_refused: bool) -> str:
    """A play's targets, result, reason and the cards that paid for it, after its first words."""
    text = ""
    if play.get("target_name"):
        text += f" → {play['target_name']}"
    if play.get("target2_name"):
        text += f", {play['target2_name']}"
    result = play.get("result")
    text += ": " + play_result_label(result)
    if play.get("reason") and (result == "refused" or not reason_only_if_refused):
        text += f" ({_card_reason(play['reason'])})"
    if play.get("paid"):
        text += "; " + _("paid with %(cards)s") % {"cards": _cards(play["paid"])}
    effects = [effect_text(e) for e in play.get("effects") or () if isinstance(e, dict)]
    if effects:
        text += "; " + "; ".join(effects)
    return text


def effect_text(effect: dict, names: dict | None = None) -> str:
    """One primitive in words, as a card did it (the `effects` of a `play` event) or as the GM
    applies it by hand (docs/rulesets/cards.md, "Primitives" and "GM decisions")."""
    names = names or {}

    def who(key: str) -> str:
        if effect.get(f"{key}_name"):
            return str(effect[f"{key}_name"])
        value = effect.get(key)
        try:
            return str(names.get(int(value), value if value is not None else "?"))
        except (TypeError, ValueError):
            return str(value if value is not None else "?")

    op = str(effect.get("op") or "")
    n = effect.get("n", 1)
    values = {"name": who("target"), "n": n, "into": str(INTO_ZONE.get(effect.get("to"), INTO_ZONE["hand"])),
              "from": str(FROM_ZONE.get(effect.get("zone"), FROM_ZONE["hand"])), "card": effect.get("card") or "—",
              "cards": _cards(effect.get("cards")), "viewer": who("viewer"),
              "what": str(REVEALED.get(effect.get("what"), effect.get("what") or "—")),
              "text": effect.get("text") or ""}
    if op == "damage":
        return _("%(name)s: %(n)s damage") % values
    if op == "armour":
        return _("%(name)s: %(n)s armour") % values
    if op == "break_armour":
        return _("%(name)s: armour broken") % values
    if op == "draw":
        return _("%(name)s draws %(n)s %(into)s") % values
    if op == "discard":
        if effect.get("cards") is not None:
            return _("%(name)s discards %(cards)s %(from)s") % values
        return _("%(name)s discards %(n)s %(from)s") % values
    if op == "reveal":
        if "value" in effect:
            values["value"] = _reveal_value(str(effect.get("what")), effect.get("value"))
            return _("%(name)s — %(what)s: %(value)s") % values
        if effect.get("what") == "deck_top":
            return _("%(viewer)s learns the top %(n)s cards of the deck of %(name)s") % values
        return _("%(viewer)s learns: %(what)s of %(name)s") % values
    if op == "message":
        if effect.get("text"):
            return _("a message to %(name)s: «%(text)s»") % values
        if effect.get("delivered") is False:
            return _("the message to %(name)s is not delivered") % values
        return _("a message to %(name)s") % values
    if op == "give":
        return _("%(name)s gets %(card)s %(into)s") % values
    if op == "block":
        return _("%(name)s is blocked: his cards do nothing this phase") % values
    if op == "redirect":
        return _("the cards aimed at or played by %(name)s are redirected") % values
    if op == "steal":
        return (_("%(card)s is stolen from %(name)s") if effect.get("card") else
                _("nothing to steal from %(name)s")) % values
    if op == "copy":
        return (_("%(card)s of %(name)s is copied") if effect.get("card") else
                _("nothing to copy from %(name)s")) % values
    if op == "restrict":
        return _("%(name)s may not play targeted cards for %(n)s phases") % values
    if op == "gm":
        return _("%(name)s: the GM decides") % values
    return _("%(name)s: an unknown effect") % values


def _phase_report(data: dict) -> str:
    parts = []
    for play in data.get("plays") or ():
        line = _("you played %(card)s (%(zone)s)") % {"card": play.get("card"),
                                                       "zone": str(CARD_ZONES.get(play.get("from"), play.get("from")))}
        parts.append(line + _play_outcome(play, reason_only_if_refused=True))
    discard = data.get("discard")
    if isinstance(discard, dict):
        if discard.get("result") == "done":
            parts.append(_("you discarded %(cards)s") % {"cards": _cards(discard.get("cards"))})
        else:
            parts.append(_("your discard was refused (%(reason)s)") % {"reason": _card_reason(discard.get("reason"))})
    if data.get("rebuilt"):
        parts.append(_("your deck was rebuilt"))
    if data.get("damage"):
        parts.append(_("damage taken: %(n)s") % {"n": data["damage"]})
    if data.get("armour"):
        parts.append(_("armour: %(n)s") % {"n": data["armour"]})
    if data.get("armour_broken"):
        parts.append(_("your armour was broken"))
    if data.get("absorbed"):
        parts.append(_("cards not replaced because of damage: %(n)s") % {"n": data["absorbed"]})
    if data.get("discarded"):
        parts.append(_("discarded from the Hand: %(cards)s") % {"cards": _cards(data["discarded"])})
    if data.get("lost"):
        parts.append(_("lost: %(cards)s") % {"cards": _cards(data["lost"])})
    if isinstance(data.get("prison"), dict):
        parts.append(_("prison: you lost %(cards)s and may not play targeted cards for %(n)s phases") % {
            "cards": _cards(data["prison"].get("lost")), "n": data["prison"].get("phases", 4)})
    if data.get("gained"):
        parts.append(_("gained: %(cards)s") % {"cards": _cards(data["gained"])})
    if data.get("drawn"):
        parts.append(_("drawn into the Hand: %(cards)s") % {"cards": _cards(data["drawn"])})
    if data.get("restricted") and not isinstance(data.get("prison"), dict):  # prison says it already
        parts.append(_("no targeted cards for %(n)s phases") % {"n": data["restricted"]})
    if not parts:
        return _("Nothing happened to your cards this phase.")
    return _("Your phase: %(parts)s.") % {"parts": "; ".join(parts)}


VECHE_REASONS = {
    "two_left": gettext_lazy("two players are left"),
    "peace_majority": gettext_lazy("a strict majority for peace"),
    "no_votes": gettext_lazy("no votes"),
}


def veche_reason_label(reason: str) -> str:
    return str(VECHE_REASONS.get(reason, reason))


def _veche_text(data: dict) -> str:
    if data.get("reason") == "two_left":
        return _("The Veche: two players are left, nobody is punished.")
    tally = ", ".join(
        f"{_('peace') if row.get('target') == 'peace' else row.get('target_name')} — {_weight(row.get('votes'))}"
        for row in data.get("tally") or ())
    measures = data.get("measure_tally") or {}
    measure_part = ", ".join(f"{measure_label(k)} — {_weight(v)}" for k, v in measures.items())
    text = _("The Veche. Votes: %(tally)s.") % {"tally": tally or "—"}
    if measure_part:
        text += " " + _("Measure: %(tally)s.") % {"tally": measure_part}
    if data.get("reason") == "peace_majority":
        text += " " + _("A strict majority voted for peace: nobody is punished.")
    elif data.get("reason") == "no_votes" or not data.get("leader"):
        text += " " + _("Nobody is punished.")
    else:
        text += " " + _("Leader: %(name)s; measure: %(measure)s.") % {
            "name": (data.get("leader") or {}).get("name", "?"), "measure": measure_label(data.get("measure"))}
    return text


def _weight(value) -> str:
    return vote_weight_text(value)


def _cards_text(kind: str, data: dict) -> str | None:
    """The texts of the cards rule set's events (docs/rulesets/cards.md, "Events"); None for kinds
    the common texts handle."""
    name = _name(data, "name", "target_name")
    if kind == "game_started":
        players = data.get("players") or []
        overt = ", ".join(f"{p.get('name')} ({p.get('overt')})" if p.get("overt") else str(p.get("name"))
                          for p in players)
        return _("The game has started: %(n)d players. Classes: %(players)s.") % {"n": len(players), "players": overt}
    if kind == "role":
        text = _("Your secret role: %(role)s (%(faction)s); colours: %(colours)s.") % {
            "role": role_label("cards", data.get("role", "")), "faction": faction_label(data.get("faction", "")),
            "colours": ", ".join(colour_label(c) for c in data.get("colours") or ()) or "—"}
        if data.get("chooses_colours"):
            text += " " + _("You choose your two colours when you build your deck.")
        return text
    if kind == "team":
        return _("The mafia: %(members)s.") % {"members": ", ".join(
            f"{m.get('name')} ({role_label('cards', m.get('role', ''))})" for m in data.get("members") or ())}
    if kind == "deck_refused":
        from games.rulesets.cards.services import deck_refusal_texts

        return _("The deck of %(name)s breaks the deck rules: %(reasons)s.") % {
            "name": name, "reasons": "; ".join(deck_refusal_texts(data.get("refusals") or ()))}
    if kind == "deck_auto":
        text = _("%(name)s had no legal deck at the deadline and was dealt a random legal one, of his colours and "
                 "Neutral: %(cards)s.") % {
            "name": name, "cards": _deck_contents(data.get("deck"))}
        if data.get("colours"):
            text += " " + _("Colours: %(colours)s.") % {"colours": ", ".join(colour_label(c) for c in data["colours"])}
        return text
    if kind == "mafia_decks":
        return _("The mafia's decks and Hands: %(members)s.") % {"members": "; ".join(
            _("%(name)s — deck: %(deck)s; Hand: %(hand)s") % {"name": m.get("name"), "deck": _cards(m.get("deck")),
                                                              "hand": _cards(m.get("hand"))}
            for m in data.get("members") or ())}
    if kind == "deck_order":
        return _("%(name)s's deck, top first: %(cards)s.") % {"name": name, "cards": _cards(data.get("deck"))}
    if kind == "containers":
        text = _("Your Hand: %(hand)s. Sleeve: %(sleeve)s. Cards in the deck: %(deck)s.") % {
            "hand": _cards(data.get("hand")), "sleeve": _cards(data.get("sleeve")), "deck": data.get("deck_size", 0)}
        if data.get("can_rebuild"):
            text += " " + _("Your deck is empty: you may rebuild it.")
        return text
    if kind == "phase_report":
        return _phase_report(data)
    if kind == "reveal":
        return _("%(card)s: %(name)s — %(what)s: %(value)s.") % {
            "card": data.get("card") or _("the GM"), "name": data.get("target_name", "?"),
            "what": str(REVEALED.get(data.get("what"), data.get("what"))),
            "value": _reveal_value(str(data.get("what")), data.get("value"))}
    if kind == "message" and "sender_name" in data:
        return _("Card message from %(sender)s to %(target)s: «%(text)s»%(status)s") % {
            "sender": data.get("sender_name") or _("the GM"), "target": data.get("target_name", "?"),
            "text": data.get("text", ""), "status": "" if data.get("delivered") else " " + _("(not delivered)")}
    if kind == "message":
        return _("A message from the GM (a card was played at you): «%(text)s»") % {"text": data.get("text", "")}
    if kind == "mafia_message" and "sender_name" in data:
        if data.get("result") == "refused":
            return _("The mafia message of %(sender)s was refused (%(reason)s).") % {
                "sender": data.get("sender_name"), "reason": _card_reason(data.get("reason"))}
        return _("Mafia message from %(sender)s to %(target)s: «%(text)s»") % {
            "sender": data.get("sender_name"), "target": data.get("target_name", "?"), "text": data.get("text", "")}
    if kind == "mafia_message":
        return _("A message from %(name)s of the mafia: «%(text)s»") % {"name": name, "text": data.get("text", "")}
    if kind == "hand_sizes":
        return _("Cards in Hand: %(sizes)s.") % {"sizes": ", ".join(
            f"{row.get('name')} — {row.get('size')}" for row in data.get("sizes") or ()) or "—"}
    if kind == "veche_result":
        return _veche_text(data)
    if kind == "tie_break":
        return _("The lead was tied between %(names)s; by the alphabet of the classes, %(name)s is chosen.") % {
            "names": ", ".join(f"{p.get('name')} ({p.get('overt') or '—'})" for p in data.get("leaders") or ()),
            "name": name}
    if kind == "executed":
        return _("%(name)s is executed by the Veche: %(n)s damage.") % {"name": name, "n": data.get("damage", 6)}
    if kind == "imprisoned":
        return _("%(name)s is sent to prison by the Veche: he loses his Sleeve and plays no targeted cards for "
                 "%(n)s phases.") % {"name": name, "n": data.get("phases", 4)}
    if kind == "died":
        return _("%(name)s has no cards left in his Hand and dies.") % {"name": name}
    if kind == "joker_won":
        return _("The joker %(name)s named everybody's roles and wins.") % {"name": name}
    if kind == "joker_left":
        return _("The joker %(name)s named the roles wrongly and leaves the game; every Ace vanishes (%(n)s).") % {
            "name": name, "n": data.get("aces_vanished", 0)}
    if kind == "game_over":
        winners = ", ".join(str(w.get("name")) for w in data.get("winners") or ())
        text = _("The game is over. Winner: %(winner)s.") % {"winner": faction_label(data.get("winner") or "none")}
        if winners:
            text += " " + _("Winners: %(names)s.") % {"names": winners}
        roles = "; ".join(
            f"{s.get('name')}: {role_label('cards', s.get('role', ''))}" + (f" / {s['overt']}" if s.get("overt") else "")
            for s in data.get("seats") or ())
        if roles:
            text += " " + _("Roles: %(roles)s.") % {"roles": roles}
        return text
    if kind == "play":
        text = _("%(by)s plays %(card)s (%(zone)s)") % {
            "by": data.get("by_name", "?"), "card": data.get("card"),
            "zone": str(CARD_ZONES.get(data.get("from"), data.get("from")))}
        text += _play_outcome(data, reason_only_if_refused=False)
        if data.get("resolved_by_gm"):
            text += "; " + _("resolved by the GM")
        return text + "."
    if kind == "gm_resolve":
        return _("For the GM to resolve: %(by)s played %(card)s → %(target)s. %(note)s") % {
            "by": data.get("by_name", "?"), "card": data.get("card"), "target": data.get("target_name") or "—",
            "note": data.get("note", "")}
    if kind == "phase_summary":
        dead = ", ".join(str(d.get("name")) for d in data.get("dead") or ())
        names = data.get("names") or {}
        return _("Phase summary: damage %(damage)s; armour %(armour)s; deaths: %(dead)s.") % {
            "damage": _by_seat(data.get("damage"), names), "armour": _by_seat(data.get("armour"), names),
            "dead": dead or "—"}
    if kind == "discard":
        if data.get("result") == "done":
            return _("%(name)s discards %(cards)s.") % {"name": name, "cards": _cards(data.get("cards"))}
        return _("%(name)s's discard was refused (%(reason)s).") % {"name": name,
                                                                     "reason": _card_reason(data.get("reason"))}
    if kind == "deck_rebuilt":
        return _("%(name)s rebuilt his deck: %(cards)s.") % {"name": name, "cards": _cards(data.get("deck"))}
    if kind == "joker_guess":
        wrong = ", ".join(str(w.get("name")) for w in data.get("wrong") or ())
        return (_("The joker %(name)s named the roles: wrong for %(wrong)s.") % {"name": name, "wrong": wrong}
                if wrong else _("The joker %(name)s named every role rightly.") % {"name": name})
    if kind == "input_ignored":
        who = data.get("name") or _("a player")
        return _("An input of %(name)s was ignored: %(reason)s.") % {"name": who,
                                                                     "reason": _card_reason(data.get("reason"))}
    if kind == "vote_dropped":
        return _("The vote of %(name)s was dropped: %(reason)s.") % {"name": data.get("voter_name", "?"),
                                                                     "reason": _card_reason(data.get("reason"))}
    if kind == "measure_dropped":
        return _("The measure vote of %(name)s was dropped.") % {"name": data.get("voter_name", "?")}
    if kind == "gm_effect_ignored":
        given = data.get("given")
        what = effect_text(given) if isinstance(given, dict) else str(GM_EFFECT_LABELS.get(data.get("op"), "")) or "—"
        return _("An effect applied by the GM was skipped (%(what)s): %(reason)s.") % {
            "what": what, "reason": _card_reason(data.get("reason"))}
    return None


def _by_seat(book, names: dict) -> str:
    """{seat id: n} by the players' names (the event's `names`); a seat without one is «a player»."""
    if not book:
        return "—"
    return ", ".join(f"{names.get(str(k)) or _('a player')} — {v}" for k, v in dict(book).items())


GM_EFFECT_LABELS = {"damage": gettext_lazy("damage"), "armour": gettext_lazy("armour")}


def _deck_contents(cards) -> str:
    """A deck as its contents: «Пистолет ×2, Бункер»."""
    from collections import Counter

    counts = Counter(str(c) for c in cards or ())
    return ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in sorted(counts.items())) or "—"
