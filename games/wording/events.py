"""Words for what the engine reports: event texts in the viewer's language, the GM's order lines
and the results post.

The engine stores facts (kind + data with seat ids and names); the text is made when shown, so
a Russian reader and an English reader each see their own language. A rule set's own event kinds
are worded by its wording's `event_text`; the kinds every rule set (or the site itself) emits are
worded here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine.events import PUBLIC
from games.wording.common import agreed, gender_of, name_in, names_joined
from games.wording.lookup import action_label, faction_label, order_reason_text, role_label, wording_of


def event_text(ruleset: str, kind: str, data: dict) -> str:
    text = _event_text(ruleset, kind, data)
    if data.get("retracted") and text:
        return _("%(text)s (rolled back by the GM)") % {"text": text}
    return text


def _event_text(ruleset: str, kind: str, data: dict) -> str:
    wording = wording_of(ruleset)
    text = wording.event_text(kind, data)
    if text is not None:
        return text
    name = name_in(data, "name", "target_name", "seat_name")
    if kind == "killed":
        return wording.with_role(data, agreed(gender_of(name), _("%(name)s is killed."),
                                              pgettext("masculine", "%(name)s is killed."),
                                              pgettext("feminine", "%(name)s is killed.")) % {"name": name})
    if kind == "check_result":
        return _("Check: %(name)s is %(role)s.") % {"name": name_in(data, "target_name", "name"),
                                                      "role": role_label(ruleset, data.get("role", ""))}
    if kind == "executed":
        return wording.with_role(data, agreed(gender_of(name), _("%(name)s is voted out."),
                                              pgettext("masculine", "%(name)s is voted out."),
                                              pgettext("feminine", "%(name)s is voted out.")) % {"name": name})
    if kind == "role":
        return _("Your role: %(role)s.") % {"role": role_label(ruleset, data.get("role", ""))}
    if kind == "team":
        members = data.get("names") or [m.get("name") for m in data.get("members", []) if isinstance(m, dict)]
        return _("Your team: %(names)s.") % {"names": names_joined([m for m in members if m])}
    if kind == "tie_break":
        return _("The vote was tied; %(how)s decided: %(name)s.") % {
            "how": _("the GM") if data.get("by") == "gm" else _("the lot"), "name": name}
    if kind == "game_over":
        return _("The game is over. Winner: %(winner)s.") % {"winner": faction_label(data.get("winner") or "none")}
    if kind == "vote_result":
        tally = data.get("tally") or []
        return _("Votes: %(tally)s.") % {"tally": ", ".join(f"{row.get('name')} — {row.get('votes')}" for row in tally)}
    if kind == "game_started":
        return _("The game has started: %(n)d players.") % {"n": len(data.get("players") or [])}
    if kind == "night_result":  # the deaths have events of their own: only a quiet night is said
        return "" if data.get("killed") else _("The night passed without a death.")
    if kind == "order":
        return order_summary(data)
    return _site_event_text(wording, kind, data, name)


def _site_event_text(wording, kind: str, data: dict, name: str) -> str:
    """The kinds the site stores itself (games.services: the GM's removal, prods, anonymous
    messages, the GM's own lines), and any other kind as its raw data."""
    if kind == "modkilled":
        return wording.with_role(data, _("%(name)s is removed from the game by the GM.") % {"name": name})
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
    """The public results post the close publishes in the game thread. Reads `game.ruleset`, the
    phase's kind, number and labels, and each event's audience, kind and data (duck-typed: the
    service passes its models, a test may pass anything alike)."""
    wording = wording_of(game.ruleset)
    heading = wording.results_heading(phase)
    if heading is not None:
        lines = [heading]
    elif phase.kind == "revote":  # «день 1, переголосование»: a re-vote belongs to its day (Phase.label)
        lines = [_("[b]Results: %(phase)s[/b]") % {"phase": phase.label.lower()}]
    else:
        lines = [_("[b]Results: %(phase)s %(number)s[/b]") % {"phase": phase.kind_label.lower(),
                                                             "number": phase.number}]
    shown = wording.result_kinds
    for event in events:
        if event.audience == PUBLIC and (shown is None or event.kind in shown):
            text = event_text(game.ruleset, event.kind, dict(event.data))
            if text:
                lines.append(text)
    return "\n".join(lines)
