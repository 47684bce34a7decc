"""Checks on what a user may call himself and upload."""

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.confusables import confusable_key, is_mixed_script

# Letters (any script), digits, spaces and a few joiners. Square brackets, quotes and '=' are
# excluded because names are written inside BBCode tags ([quote="Name"], [private="Name"]).
DISPLAY_NAME_RE = re.compile(r"^[\w][\w .'\-]*[\w]$|^[\w]$", re.UNICODE)


def normalise_display_name(value: str) -> str:
    return " ".join(value.split())


def validate_display_name(value: str) -> None:
    if len(value) < 2:
        raise ValidationError(_("The name must be at least 2 characters long."), code="too_short")
    if len(value) > 40:
        raise ValidationError(_("The name must be at most 40 characters long."), code="too_long")
    if not DISPLAY_NAME_RE.match(value) or "_" in value and value.strip("_") == "":
        raise ValidationError(
            _("Use letters, digits, spaces, dots, hyphens and apostrophes only."), code="invalid"
        )
    if is_mixed_script(value):
        # A Latin letter among Cyrillic ones is how a look-alike of a name is made.
        raise ValidationError(
            _("Use the letters of one alphabet only (not Cyrillic and Latin together)."), code="mixed_script"
        )


def validate_display_name_free(value: str, *, exclude_pk: int | None = None) -> None:
    from accounts.models import User, display_name_key

    others = User.objects.all() if exclude_pk is None else User.objects.exclude(pk=exclude_pk)
    if others.filter(display_name_key=display_name_key(value)).exists():
        raise ValidationError(_("This name is already taken."), code="taken")
    alike = others.filter(display_name_confusable_key=confusable_key(value)).first()
    if alike is not None:
        raise ValidationError(_("This name looks the same as another player's name, «%(name)s»; choose another.")
                              % {"name": alike.display_name}, code="look_alike")


def validate_avatar(file) -> None:
    if file and file.size > settings.MAFIA_AVATAR_MAX_BYTES:
        raise ValidationError(
            _("The avatar must be at most %(kb)d KB.") % {"kb": settings.MAFIA_AVATAR_MAX_BYTES // 1024},
            code="too_big",
        )
