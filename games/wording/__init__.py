"""The wording layer: every text for an engine's code (role, faction, reason, action, event kind)
in the reader's language (docs/architecture.md, "Wording").

The bottom of the site's layers: it imports Django's translation, the engine, games.text and the
rule-set registry, nothing else of `games`. Shared words are in this package (common.py: tables;
events.py: event texts and the results post; lookup.py: a code in words for a rule set's key); a
rule set's own words are in `games/rulesets/<key>/wording.py`, a RulesetWording the rule set's
adapter carries as `wording`. tests/test_wording_complete.py walks every registered rule set's
engine codes and event kinds and fails on one without a text in Russian and English.
"""

from games.wording.base import RulesetWording
from games.wording.common import (agreed, gender_of, name_case, name_in, names_joined, phrase_case, seat_status_label,
                                  speaking_of, suggestion_text, vote_reason_text, vote_weight_text)
from games.wording.events import event_text, order_summary, results_bbcode
from games.wording.lookup import (
    DEFAULT_WORDING,
    action_label,
    faction_goal,
    faction_label,
    order_reason_text,
    order_vocabulary,
    role_help,
    role_label,
    wording_of,
    wordings,
)

__all__ = [
    "DEFAULT_WORDING",
    "RulesetWording",
    "action_label",
    "agreed",
    "event_text",
    "faction_goal",
    "faction_label",
    "gender_of",
    "name_case",
    "name_in",
    "names_joined",
    "order_reason_text",
    "order_summary",
    "order_vocabulary",
    "phrase_case",
    "results_bbcode",
    "role_help",
    "suggestion_text",
    "role_label",
    "seat_status_label",
    "speaking_of",
    "vote_reason_text",
    "vote_weight_text",
    "wording_of",
    "wordings",
]
