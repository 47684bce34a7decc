"""The ledger in the admin: read-only, since a line is never changed (a correction is a new transfer)."""

from django.contrib import admin

from coins.models import Account, Entry, Fine, IndiCode


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Account)
class AccountAdmin(ReadOnly):
    list_display = ["key", "balance", "user", "game"]
    search_fields = ["key"]


@admin.register(Entry)
class EntryAdmin(ReadOnly):
    list_display = ["created_at", "debit", "credit", "amount", "reason", "game", "stage", "action"]
    list_filter = ["reason"]
    search_fields = ["debit__key", "credit__key", "reason"]


@admin.register(Fine)
class FineAdmin(ReadOnly):
    list_display = ["created_at", "offender", "reporter", "decided_by", "amount", "game"]


@admin.register(IndiCode)
class IndiCodeAdmin(ReadOnly):
    list_display = ["code", "user", "created_at"]
    search_fields = ["code"]
