"""Checks on what a user may call himself and upload: the form of a name and a file; whether a
name is free asks the users' table (accounts.models.validate_display_name_free)."""

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.confusables import is_mixed_script

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


def validate_avatar(file) -> None:
    if file and file.size > settings.MAFIA_AVATAR_MAX_BYTES:
        raise ValidationError(
            _("The avatar must be at most %(kb)d KB.") % {"kb": settings.MAFIA_AVATAR_MAX_BYTES // 1024},
            code="too_big",
        )
