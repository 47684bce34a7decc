"""Authentication back ends: Django's and allauth's, loading the session's user together with
whether he is a site moderator (one query per request instead of two)."""

from __future__ import annotations

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.db.models import Exists, OuterRef

# The group of site moderators (managed in the admin); games.permissions.is_site_moderator reads
# the flag this module leaves on the user as `_is_site_moderator`.
MODERATORS_GROUP = "Moderators"


def _user_with_moderator_flag(user_id):
    User = get_user_model()
    in_group = User.groups.through.objects.filter(user_id=OuterRef("pk"), group__name=MODERATORS_GROUP)
    user = User._default_manager.annotate(_in_moderators=Exists(in_group)).filter(pk=user_id).first()
    if user is not None:
        user._is_site_moderator = bool(user.is_staff or user._in_moderators)
    return user


class _MergedGetUser:
    def get_user(self, user_id):
        user = _user_with_moderator_flag(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


class ModelBackend(_MergedGetUser, DjangoModelBackend):
    pass


class AuthenticationBackend(_MergedGetUser, AllauthBackend):
    pass
