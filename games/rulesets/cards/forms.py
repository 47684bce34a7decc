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
        "several_avengers": forms.BooleanField(
            label=_("Several Avengers (cards)"), required=False,
            help_text=_("Card mafia: more than one player may take the class «Мститель»; if the whole town dies, the "
                        "team of the Avenger who died last wins (a dice settles Avengers who died in the same phase).")),
    }


def options_from(cleaned: dict) -> dict:
    """Whether a hero is dealt, which extra neutral a game of 13-14 players gets, and whether several
    Avengers are admitted."""
    options = {"hero": bool(cleaned.get("hero")), "extra_neutral": cleaned.get("extra_neutral") or "random"}
    if cleaned.get("several_avengers"):  # stored only when set: the engine's default is one Avenger
        options["several_avengers"] = True
    return options
