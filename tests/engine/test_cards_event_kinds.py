"""EVENT_KINDS (the list the site's texts are walked from, tests/games/test_cards_texts.py) holds
every kind of event the cards rule set emits: read from its source, so a new kind cannot be missed."""

import re
from pathlib import Path

from games.rulesets.cards.engine import ruleset
from games.rulesets.cards.engine.ruleset import EVENT_KINDS


def test_event_kinds_list_every_event_the_cards_engine_emits_when_read_from_its_source():
    source = "\n".join(p.read_text(encoding="utf-8") for p in Path(ruleset.__file__).parent.glob("*.py"))
    emitted = set(re.findall(r'Event\(\s*"([a-z_]+)"', source)) | set(re.findall(r'gm_note\(\s*"([a-z_]+)"', source))
    assert emitted and emitted <= set(EVENT_KINDS), sorted(emitted - set(EVENT_KINDS))
