"""Forms of the accounts app: the extra signup field and the profile."""

from allauth.core import context as allauth_context
from django import forms
from django.urls import Resolver404, resolve
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from accounts.models import User, validate_display_name_free
from accounts.timezones import time_zone_choices
from accounts.validators import (
    normalise_display_name,
    validate_avatar,
    validate_display_name,
)
from coins import selectors as coin_selectors
from coins import services as coins
from games.models import Game, Notification
from games.rulesets import registry


def offered_indicodes() -> tuple[list[str], bool]:
    """«выбрать один из предлагаемых ему ИндиКодов героев, которые сейчас активны и находятся в
    сессиях»: the codes of the users seated in running games (a code exists once its owner entered
    a show), and True. When nobody is in a session now, the newest heroes' codes (any user with an
    ИндиКод: «одному из уже имеющихся героев»), and False: a newcomer who knows nobody can still give
    the bonus as the rules ask (issue 28, item 22). Empty only when the site has no hero at all."""
    playing = User.objects.filter(seats__game__status=Game.Status.RUNNING, is_active=True)
    codes = coin_selectors.indicodes_of(playing)
    if codes:
        return codes, True
    return coin_selectors.indicodes_of(User.objects.filter(is_active=True)), False


class NoteWidget(forms.Widget):
    """A line of text among the fields (no input): what the form says instead of a question."""

    def render(self, name, value, attrs=None, renderer=None):
        return format_html('<span class="referral-note" id="{}">{}</span>', (attrs or {}).get("id", ""), self.text)

    def __init__(self, text, attrs=None):
        super().__init__(attrs)
        self.text = text


def referral_offered(next_url: str) -> bool:
    """Whether the sign-up offers the referral bonus: not on the way to a game of a rule set that
    has no use for it (SiteRuleset.signup_referral: the show's; a forum game's newcomer is not asked
    about IndiCodes); a sign-up heading nowhere in particular is offered it."""
    try:
        match = resolve((next_url or "").split("?", 1)[0])
    except Resolver404:
        return True
    if match.view_name != "games:game":
        return True
    ruleset = Game.objects.filter(pk=match.kwargs.get("pk")).values_list("ruleset", flat=True).first()
    adapter = registry.find(ruleset or "")
    return adapter is None or adapter.signup_referral


class SignupExtraForm(forms.Form):
    """Mixed into allauth's signup form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("The name other players see and vote for. It cannot be changed to another player's name."),
    )

    # The referral bonus: «При регистрации нового пользователя для него в системе создаётся 1000㉿,
    # при этом 100㉿ нужно отдать одному из уже имеющихся героев»; «новичок должен либо выбрать один
    # из предлагаемых ему ИндиКодов героев ..., либо самостоятельно ввести ИндиКод, который он
    # получил от своего знакомого». No «nobody» while a hero exists (issue 28, item 22).
    referral_pick = forms.ChoiceField(label=_("IndiCode of a hero in play"), required=False, widget=forms.RadioSelect)
    referral_code = forms.CharField(
        label=_("Or the IndiCode of the friend who brought you"), required=False, max_length=80,
        help_text=_("Of your 1,000 ㉿ starting coins, 100 go at once to the hero whose IndiCode you pick or type."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # allauth builds this form without the request; its middleware keeps it for the request's life.
        request = allauth_context.request
        next_url = (request.POST.get("next") or request.GET.get("next") or "") if request is not None else ""
        self.bonus_owed = False
        if not referral_offered(next_url):
            del self.fields["referral_pick"], self.fields["referral_code"]
            return
        offered, in_play = offered_indicodes()
        if not offered:
            # The very first users of a site: no hero exists to give the bonus to, so nothing is
            # asked and the newcomer keeps his whole capital (docs/rulesets/show.md, "Sign-up").
            del self.fields["referral_pick"], self.fields["referral_code"]
            self.fields["referral_note"] = forms.CharField(
                label="", required=False, disabled=True, widget=NoteWidget(_(
                    "There is no hero on the site yet, so the 100 ㉿ registration bonus goes to nobody: "
                    "you keep all your 1,000 ㉿ starting coins.")))
            return
        self.bonus_owed = True
        pick = self.fields["referral_pick"]
        pick.choices = [(code, code) for code in offered]
        if not in_play:  # nobody is in a session now: the newest heroes of the site
            pick.label = _("IndiCode of one of the site's heroes")
        self.fields["referral_code"].help_text = _(
            "Of your 1,000 ㉿ starting coins, 100 go at once to one of the heroes: pick his IndiCode above or type "
            "the IndiCode of the friend who brought you.")

    def clean_display_name(self) -> str:
        value = normalise_display_name(self.cleaned_data["display_name"])
        validate_display_name(value)
        validate_display_name_free(value)
        return value

    def clean(self):
        cleaned = super().clean()
        picked, typed = cleaned.get("referral_pick") or "", (cleaned.get("referral_code") or "").strip()
        if picked and typed and coins.code_key(picked) != coins.code_key(typed):
            raise forms.ValidationError(_("Pick one IndiCode or type one, not two different ones."))
        code = typed or picked
        if not code and self.bonus_owed:
            # «100㉿ нужно отдать одному из уже имеющихся героев»: a hero exists, so nobody is no answer
            self.add_error("referral_pick", _("Give the 100 ㉿ to one of the heroes: pick an IndiCode or type "
                                              "the one your friend gave you."))
        if code and coins.referral_owner(code) is None:
            self.add_error("referral_code" if typed else "referral_pick", _("No hero has this IndiCode."))
        cleaned["referral"] = code
        return cleaned

    def signup(self, request, user) -> None:
        user.display_name = self.cleaned_data["display_name"]
        user.save(update_fields=["display_name"])
        # The user's creation brought his starting capital (coins.signals); the bonus goes now.
        coins.register(user, referral=self.cleaned_data.get("referral") or None)


class ProfileForm(forms.ModelForm):
    # The featured zones first, then by region (accounts/timezones.py); static/js/site.js adds a
    # search box over the options (data-filter). A value not in the list is refused by the field.
    time_zone = forms.ChoiceField()

    class Meta:
        model = User
        fields = ["display_name", "avatar", "time_zone", "language", "gender"]

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
