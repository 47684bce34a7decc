"""The user with the profile players see: display name, avatar, time zone, language."""

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.confusables import confusable_key
from games.text.names import guess_gender

TIME_ZONE_CHOICES = sorted((name, name) for name in zoneinfo.available_timezones() if "/" in name)


class User(AbstractUser):
    # The name everybody sees and votes for; unique regardless of case so that "вася" and "Вася"
    # can never both sit in one game.
    display_name = models.CharField(_("display name"), max_length=40)
    # The name folded for comparison (case, ё/е). Computed in Python because SQLite's lower()
    # and LIKE fold only ASCII, so a Lower() constraint would let "Вася" and "ВАСЯ" coexist.
    display_name_key = models.CharField(max_length=40, unique=True, editable=False)
    # The name as it looks (accounts/confusables.py): `Aнтон` with a Latin A has the key of
    # `Антон`, so nobody can take a look-alike of another player's name. Longer than the name:
    # a few characters look like two.
    display_name_confusable_key = models.CharField(max_length=160, unique=True, editable=False)
    avatar = models.ImageField(_("avatar"), upload_to="avatars/", blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default=settings.TIME_ZONE, choices=TIME_ZONE_CHOICES)
    # A site ban: the account can log in to read, but posts nothing until the date.
    banned_until = models.DateTimeField(_("banned until"), null=True, blank=True)
    ban_reason = models.CharField(_("ban reason"), max_length=300, blank=True)
    language = models.CharField(_("language"), max_length=8, default=settings.LANGUAGE_CODE, choices=settings.LANGUAGES)
    # Notification kinds (games.models.Notification.Kind values) the user switched off, per channel.
    notify_site_off = models.JSONField(_("notifications switched off on the site"), default=list, blank=True)
    notify_email_off = models.JSONField(_("notifications switched off in e-mail digests"), default=list, blank=True)

    class Digest(models.TextChoices):
        NEVER = "never", _("never")
        HOURLY = "hourly", _("hourly")
        DAILY = "daily", _("daily")

    class Gender(models.TextChoices):
        # For agreement in the site's sentences («убита», «ей выдана»); unset, the display name's
        # first name is guessed from (games.text.names.guess_gender), else the wording is neutral.
        UNSET = "", _("not given")
        MALE = "m", _("male")
        FEMALE = "f", _("female")

    gender = models.CharField(_("gender"), max_length=1, choices=Gender.choices, default=Gender.UNSET, blank=True,
                              help_text=_("Only for the words the site writes about you: «убит» or «убита»."))

    email_digest = models.CharField(_("e-mail digest"), max_length=8, choices=Digest.choices, default=Digest.DAILY)
    last_digest_at = models.DateTimeField(_("last digest sent at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def grammatical_gender(self) -> str:
        """"m", "f" or "" (unknown: neutral wording): the profile's, else a confident guess from
        the display name's first name."""
        return self.gender or guess_gender(self.display_name or "")

    def clean(self):
        """Every form of a user (the admin's too, which shows no key field and so would leave the
        keys' unique indexes to fail as a 500) refuses a taken or look-alike display name."""
        super().clean()
        if self.display_name:
            try:
                validate_display_name_free(self.display_name, exclude_pk=self.pk)
            except ValidationError as error:
                raise ValidationError({"display_name": error.messages}) from None

    def save(self, *args, **kwargs):
        if not self.display_name:
            self.display_name = self.username
        self.display_name_key = display_name_key(self.display_name)
        self.display_name_confusable_key = confusable_key(self.display_name)
        if kwargs.get("update_fields") is not None and "display_name" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "display_name_key", "display_name_confusable_key"}
        super().save(*args, **kwargs)


def display_name_key(name: str) -> str:
    """The form in which two display names are the same name: case- and ё-insensitive."""
    return " ".join(name.split()).casefold().replace("ё", "е")


def validate_display_name_free(value: str, *, exclude_pk: int | None = None) -> None:
    """A name no other user has, nor a look-alike of one: a question to the users' table, so it
    lives with the model (accounts.validators checks a name's form alone and imports no model)."""
    others = User.objects.all() if exclude_pk is None else User.objects.exclude(pk=exclude_pk)
    if others.filter(display_name_key=display_name_key(value)).exists():
        raise ValidationError(_("This name is already taken."), code="taken")
    alike = others.filter(display_name_confusable_key=confusable_key(value)).first()
    if alike is not None:
        raise ValidationError(_("This name looks the same as another player's name, «%(name)s»; choose another.")
                              % {"name": alike.display_name}, code="look_alike")
