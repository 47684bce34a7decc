"""Forms of the accounts app: the extra signup field and the profile."""

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.validators import (
    normalise_display_name,
    validate_avatar,
    validate_display_name,
    validate_display_name_free,
)


class SignupExtraForm(forms.Form):
    """Mixed into allauth's signup form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("The name other players see and vote for. It cannot be changed to another player's name."),
    )

    def clean_display_name(self) -> str:
        value = normalise_display_name(self.cleaned_data["display_name"])
        validate_display_name(value)
        validate_display_name_free(value)
        return value

    def signup(self, request, user) -> None:
        user.display_name = self.cleaned_data["display_name"]
        user.save(update_fields=["display_name"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "avatar", "time_zone", "language"]

    def clean_display_name(self) -> str:
        value = normalise_display_name(self.cleaned_data["display_name"])
        validate_display_name(value)
        validate_display_name_free(value, exclude_pk=self.instance.pk)
        return value

    def clean_avatar(self):
        avatar = self.cleaned_data.get("avatar")
        validate_avatar(avatar)
        return avatar
