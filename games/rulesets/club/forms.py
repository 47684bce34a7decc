"""The club rule set's fields of the new-game form (SiteRuleset.option_fields)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class NamesField(forms.CharField):
    """Display names, comma-separated, as a list with each name's spaces tidied."""

    def clean(self, value) -> list[str]:
        raw = super().clean(value) or ""
        return [" ".join(n.split()) for n in raw.split(",") if n.strip()]


def option_fields() -> dict[str, forms.Field]:
    return {
        "newcomers": NamesField(
            label=_("Newcomers (club)"), required=False, max_length=400,
            help_text=_("Club mafia: display names of newcomers, comma-separated; they cannot be voted out on day 1 "
                        "nor killed on night 1."),
        ),
    }


def options_from(cleaned: dict) -> dict:
    """The newcomers' immunity on day 1 and night 1, when the GM named any."""
    newcomers = cleaned.get("newcomers")
    return {"newcomer_immunity": newcomers} if newcomers else {}
