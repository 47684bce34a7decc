"""The cards rule set's forms: the GM's collection editor, and the rule set's fields of the
new-game form (SiteRuleset.option_fields)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class CollectionForm(forms.Form):
    """A game's card collection as YAML (games.rulesets.cards.services.game_set_collection)."""

    text = forms.CharField(label=_("The collection (YAML)"), widget=forms.Textarea(attrs={"rows": 30, "spellcheck": "false"}),
                           required=False, max_length=400_000)


# --- The new-game form ----------------------------------------------------------------------------
def option_fields() -> dict[str, forms.Field]:
    return {
        "hero": forms.BooleanField(
            label=_("A hero (cards)"), required=False,
            help_text=_("Card mafia: the hero replaces one member of the Law, drawn at random at the start.")),
        "extra_neutral": forms.ChoiceField(
            label=_("The extra neutral at 13-14 players (cards)"), initial="random", required=False,
            choices=[("random", _("the joker or the traitor, at random")), ("joker", _("the joker")),
                     ("traitor", _("the traitor"))]),
        # Part 2 (b): where the seed leaves a choice open, the GM decides (docs/rulesets/cards.md).
        "tie_break": forms.ChoiceField(
            label=_("A tied vote (cards)"), initial="overt", required=False,
            help_text=_("«Приоритет повешения - по алфавиту»: which alphabet breaks a tie for the lead of the Veche."),
            choices=[("overt", _("the alphabet of the classes (overt roles)")),
                     ("name", _("the alphabet of the characters' names")), ("gm", _("the GM picks"))]),
        "measure_weight": forms.ChoiceField(
            label=_("The measure vote (cards)"), initial="weighted", required=False,
            choices=[("weighted", _("vote strength weighs the measure vote too")),
                     ("plain", _("every measure vote counts 1"))]),
        "illegal_deck": forms.ChoiceField(
            label=_("No legal deck at the deadline (cards)"), initial="random", required=False,
            choices=[("random", _("a random legal deck is dealt")), ("gm", _("the GM builds the deck"))]),
        "several_avengers": forms.BooleanField(
            label=_("Several Avengers (cards)"), required=False,
            help_text=_("Card mafia: more than one player may take the class «Мститель»; if the whole town dies, the "
                        "team of the Avenger who died last wins (a dice settles Avengers who died in the same phase).")),
    }


def options_from(cleaned: dict) -> dict:
    """Whether a hero is dealt, which extra neutral a game of 13-14 players gets, the GM's readings
    of what the seed leaves open (the tie-break, the measure's weights, the deck at the deadline),
    and whether several Avengers are admitted."""
    options = {"hero": bool(cleaned.get("hero")), "extra_neutral": cleaned.get("extra_neutral") or "random",
               "tie_break": cleaned.get("tie_break") or "overt",
               "measure_weight": (cleaned.get("measure_weight") or "weighted") == "weighted",
               "illegal_deck": cleaned.get("illegal_deck") or "random"}
    if cleaned.get("several_avengers"):  # stored only when set: the engine's default is one Avenger
        options["several_avengers"] = True
    return options
