"""What a rule set says: the base class of a rule set's wording (`games/rulesets/<key>/wording.py`,
given to the site by its adapter's `wording` attribute).

The defaults are the plain forum-like game's: no role or faction names of its own (a code is
shown as it is), every public event in the results post, the forum's vote button. A rule set
overrides the tables it has and `event_text` for the event kinds only it emits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.text.names import inflect_name
from games.wording.common import ORDER_REASONS


class RulesetWording:
    """One rule set's words. Tables map the engine's codes to lazy translated texts."""

    # The roles (RoleSpec keys) and factions, and a role's help and a faction's goal on the role page.
    role_names: Mapping[str, Any] = {}
    role_help: Mapping[str, Any] = {}
    faction_names: Mapping[str, Any] = {}
    faction_goals: Mapping[str, Any] = {}
    # The actions of the rule set's orders or inputs, as the ledger and the order form name them.
    action_labels: Mapping[str, Any] = {}
    # The rule set's own reason codes of orders and inputs (check_order and its phase close's
    # failures) beyond the shared ones of games.wording.common.ORDER_REASONS.
    order_reasons: Mapping[str, Any] = {}
    # The public event kinds its results post shows; None: every public event with a text.
    result_kinds: tuple[str, ...] | None = None
    # The words its text orders are read with (games.text.orders.OrderVocabulary); None: no text orders.
    order_vocabulary: Any = None
    # What a vote button inserts; {name} is the player's name in the accusative.
    vote_button_form: str = "[b]В тюрьму {name}[/b]"  # the forum rules' own example

    # The GM log's actions this rule set writes itself (games.services.journal.gm_log), in words;
    # the core's own (and those it words for a rule set already) are games.selectors.archive's.
    gm_action_labels: Mapping[str, Any] = {}

    def gm_log_detail(self, action: str, key: str, value: Any, seat_name) -> tuple[str, str] | None:
        """One data item of a GM log row this rule set writes, in words: (label, value), where
        `seat_name(seat id)` names a seat as it was when the GM acted. None: the core's words
        (games.selectors.archive._gm_log)."""
        return None

    # --- Codes in words ---------------------------------------------------------------------
    def role_label(self, role: str) -> str:
        return str(self.role_names.get(role, role))

    def reason_text(self, code: str, **params) -> str:
        """A reason code of this rule set's orders or inputs in words; an unknown code as it is."""
        text = ORDER_REASONS.get(code)
        if text is None:
            text = self.order_reasons.get(code, code)
        return str(text)

    def measure_label(self, measure) -> str:
        """The punishment a day's vote chose, for a rule set whose vote carries one."""
        return str(measure or "—")

    # --- Events -----------------------------------------------------------------------------
    def event_text(self, kind: str, data: dict) -> str | None:
        """The text of an event kind only this rule set emits (or words differently), or None for
        the shared texts of games.wording.events."""
        return None

    def with_role(self, data: dict, text: str) -> str:
        """The sentence with the role before its full stop: «Выгнан голосованием: Петя (мафиози).»"""
        role = data.get("role")
        if not role:
            return text
        stem, stop = (text[:-1], text[-1]) if text[-1:] in ".!" else (text, "")
        return f"{stem} ({self.role_label(role)}){stop}"

    def results_heading(self, phase) -> str | None:
        """The first line of a phase's results post, when the rule set words it itself (a phase
        kind of its own); None for «Итоги: день 2»."""
        return None

    # --- Votes ------------------------------------------------------------------------------
    def vote_button_text(self, name: str) -> str:
        """What the vote button inserts, the name in the accusative."""
        return self.vote_button_form.format(name=inflect_name(name, "accs"))

    def vote_buttons(self, name: str, written: str | None = None) -> list[tuple[str, str]]:
        """The vote buttons for one player: (label, text to insert). `written`: the vote as the
        game reads it when the rule set's own words are off («##vote X»), inserted instead."""
        return [(name, written if written is not None else self.vote_button_text(name))]

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"
