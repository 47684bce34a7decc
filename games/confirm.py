"""Confirmation of the destructive GM and moderator actions (docs/security.md, "Confirmed actions").

Each such action has one question that names what will happen. The page's form carries it in
`data-confirm`, with `{field}` for what the form itself chooses (a seat in a select, a name typed):
static/js/site.js fills those in from the form, asks, and sends `confirm=yes` with the form. A POST
that arrives without `confirm=yes` (no JavaScript, or a forged request) changes nothing: the view
answers it with a page that asks the same question, with the names filled in by the server, and a
button that sends the same fields again with `confirm=yes`.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

CONFIRM_FIELD = "confirm"
CONFIRM_VALUE = "yes"

# Placeholders in braces are the names of the form's fields ({seat}, {name}, {reason}, {faction})
# or values the page knows ({phase}, {outcome}, {players}).
QUESTIONS = {
    "close": _("Close {phase} now and publish the results?"),
    "close_outcome": _("Close {phase} now and publish the results? {outcome}"),
    "forfeit": _("Declare a forfeit for the team «{faction}»? The game ends now."),
    "deadline": _("Move the deadline of {phase} to {deadline_at}?"),
    "event": _("Add the event «{text}» for {audience}? Its readers see it at once."),
    "lock": _("Lock the thread «{title}» now? Nobody but its moderators can post in it until it is unlocked."),
    "foul": _("Give a foul to {seat}?"),
    "replace": _("Give the seat of {seat} to {name}?"),
    "modkill": _("Remove {seat} from the game (modkill)? The reason is posted in the thread: «{reason}»."),
    "rollback": _("Roll back the results of {phase}? The phase opens again without a deadline."),
    "ban": _("Ban {name} from this game's threads?"),
    "start": _("Close the signups and deal the roles to {players}?"),
    "hide": _("Hide the post #{number} by {author}?"),
    "report_ban": _("Ban {author}, the post's author, from the whole site until {until}?"),
    "card_effect_remove": _("Remove the effect «{effect}»?"),
    "collection_reset": _("Go back to the shipped collection? Your own collection is lost."),
    "anonymous_reject": _("Reject the anonymous message to {recipient}? It is never delivered."),
}


class _Keep(dict):
    """Leaves a placeholder it has no value for as it is, for the browser to fill in."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def question(kind: str, **values) -> str:
    """The question of `kind` in the current language, with the values given filled in."""
    return str(QUESTIONS[kind]).format_map(_Keep({k: "" if v is None else str(v) for k, v in values.items()}))


def start_question(names: list[str], size: int) -> str:
    """Before the deal: who is in («5 of 7 players: Петя, Вася, ...»)."""
    players = gettext("%(n)s of %(size)s players: %(names)s") % {"n": len(names), "size": size, "names": ", ".join(names) or "—"}
    return question("start", players=players)


def close_question(phase, outcome: str = "") -> str:
    """Before closing a phase: which one, and what closing it now would publish, if known."""
    label = phase.label if phase is not None else "—"
    return question("close_outcome", phase=label, outcome=outcome) if outcome else question("close", phase=label)


def is_confirmed(request) -> bool:
    return request.POST.get(CONFIRM_FIELD) == CONFIRM_VALUE


def confirmation_page(request, *, question: str, cancel_url: str):
    """The page that asks before a POST that came without confirmation: the same fields again,
    with `confirm=yes`, to the same URL; nothing has changed yet."""
    fields = [(name, value) for name in request.POST for value in request.POST.getlist(name)
              if name not in ("csrfmiddlewaretoken", CONFIRM_FIELD)]
    return render(request, "games/confirm.html", {
        "question": question, "fields": fields, "action_url": request.get_full_path(), "cancel_url": cancel_url,
    })
