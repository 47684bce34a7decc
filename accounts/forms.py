"""Forms of the accounts app: the extra signup field and the profile."""

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.timezones import time_zone_choices
from accounts.validators import (
    normalise_display_name,
    validate_avatar,
    validate_display_name,
    validate_display_name_free,
)
from games.models import Notification


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
    # The featured zones first, then by region (accounts/timezones.py); static/js/site.js adds a
    # search box over the options (data-filter). A value not in the list is refused by the field.
    time_zone = forms.ChoiceField()

    class Meta:
        model = User
        fields = ["display_name", "avatar", "time_zone", "language"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["time_zone"]
        field.label = capfirst(User._meta.get_field("time_zone").verbose_name)
        field.choices = time_zone_choices(current=self.instance.time_zone if self.instance else None)
        field.widget.attrs.update({"data-filter": "", "data-filter-label": _("Find a city, a country or UTC+3"),
                                   "data-filter-empty": _("Nothing found")})

    def clean_display_name(self) -> str:
        value = normalise_display_name(self.cleaned_data["display_name"])
        validate_display_name(value)
        validate_display_name_free(value, exclude_pk=self.instance.pk)
        return value

    def clean_avatar(self):
        avatar = self.cleaned_data.get("avatar")
        validate_avatar(avatar)
        return avatar


def _notification_kinds():
    return Notification.Kind.choices


class NotificationPreferencesForm(forms.Form):
    """The settings page's grid of notification kinds × channels (site, e-mail digest), and how
    often the digest comes. Checked = wanted; the user stores what is switched off. The grid is
    posted with the hidden MARKER field, so a form posted without it leaves the choices alone."""

    MARKER = "notify_grid"

    notify_site = forms.MultipleChoiceField(label=_("On the site"), choices=_notification_kinds, required=False,
                                            widget=forms.CheckboxSelectMultiple)
    notify_email = forms.MultipleChoiceField(label=_("In the e-mail digest"), choices=_notification_kinds,
                                             required=False, widget=forms.CheckboxSelectMultiple)
    email_digest = forms.ChoiceField(label=_("E-mail digest"), choices=User.Digest.choices)

    def __init__(self, data=None, *, user):
        self.user = user
        kinds = [value for value, _label in _notification_kinds()]
        super().__init__(data, initial={
            "notify_site": [k for k in kinds if k not in (user.notify_site_off or [])],
            "notify_email": [k for k in kinds if k not in (user.notify_email_off or [])],
            "email_digest": user.email_digest,
        })

    def rows(self) -> list[tuple[str, str, bool, bool]]:
        """(kind, label, on the site, by e-mail) as the grid shows them (the posted values after
        a refused post)."""
        if self.is_bound:
            site, email = set(self.data.getlist("notify_site")), set(self.data.getlist("notify_email"))
        else:
            site, email = set(self.initial["notify_site"]), set(self.initial["notify_email"])
        return [(value, label, value in site, value in email) for value, label in _notification_kinds()]

    def save(self):
        kinds = [value for value, _label in _notification_kinds()]
        site, email = set(self.cleaned_data["notify_site"]), set(self.cleaned_data["notify_email"])
        self.user.notify_site_off = [k for k in kinds if k not in site]
        self.user.notify_email_off = [k for k in kinds if k not in email]
        self.user.email_digest = self.cleaned_data["email_digest"]
        self.user.save(update_fields=["notify_site_off", "notify_email_off", "email_digest"])
        return self.user
