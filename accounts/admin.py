"""Admin for users and their profiles."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("display_name", "username", "email", "is_staff", "is_active", "date_joined")
    search_fields = ("display_name", "username", "email")
    fieldsets = BaseUserAdmin.fieldsets + (
        (_("Profile"), {"fields": ("display_name", "avatar", "time_zone", "language")}),
        (_("Site ban"), {"fields": ("banned_until", "ban_reason")}),
    )
    add_fieldsets = BaseUserAdmin.add_fieldsets + ((_("Profile"), {"fields": ("display_name", "email")}),)
