"""The cards rule set's adapter for the site."""

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import SiteRuleset
from games.rulesets.cards.engine import CARDS


class CardsSite(SiteRuleset):
    key = "cards"
    label = _("Card mafia")
    engine = CARDS
    urls_module = "games.rulesets.cards.urls"
    phase_kinds = {**SiteRuleset.phase_kinds, "deckbuilding": _("Deck building")}

    def phase_label(self, kind: str, number: int) -> str:
        if kind == "deckbuilding":  # one per game: no number
            return str(self.phase_kinds[kind])
        return super().phase_label(kind, number)


SITE = CardsSite()
