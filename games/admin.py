"""Admin for every model of the games app."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.engine.rulesets import get_ruleset
from games.rulesets import registry
from games.models import (Absence, AutoSetup, Standby, AnonymousMessage, BestPlayerVote, Game, GameBan, GameEvent, GMAction, Notification, Order, Phase, Post, PostMedia, PostRevision, PrivateMessage, Prod, RatingDecision, Replacement, RoomProposal,
                          Report, Seat, Thread, ThreadReadMark, VoteRecord)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("user",)
    fields = ("number", "user", "role", "faction", "status", "is_alive", "overt_role", "contacts", "application", "aliases")


class AutoSetupForm(forms.ModelForm):
    class Meta:
        model = AutoSetup
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        key = cleaned.get("ruleset")
        if key and registry.find(key) is not None:
            adapter = registry.site(key)
            ruleset = get_ruleset(key)
            if not adapter.auto_host:
                self.add_error("ruleset", adapter.auto_host_refusal)
            options = cleaned.get("options") or {}
            for name, (label, values, _default) in adapter.auto_host_choices().items():
                if name in options and options[name] not in {value for value, _text in values}:
                    self.add_error("options", _("%(label)s: one of %(values)s.") % {
                        "label": label, "values": ", ".join(value for value, _text in values)})
            size = cleaned.get("size")
            if size is not None and not ruleset.min_players <= size <= ruleset.max_players:
                self.add_error("size", _("This rule set is played by %(min)d to %(max)d players.")
                               % {"min": ruleset.min_players, "max": ruleset.max_players})
        return cleaned


@admin.register(AutoSetup)
class AutoSetupAdmin(admin.ModelAdmin):
    """Site staff define the automatic games' setups here (issue 31); the lobby lists the active ones."""

    form = AutoSetupForm
    list_display = ("title", "ruleset", "size", "phase_hours", "active")
    list_filter = ("ruleset", "active")


@admin.register(Standby)
class StandbyAdmin(admin.ModelAdmin):
    """Who stands by to replace a silent player of an automatic game (issue 31)."""

    list_display = ("game", "user", "created_at")
    raw_id_fields = ("game", "user")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("title", "ruleset", "status", "gm", "created_at")
    list_filter = ("ruleset", "status")
    search_fields = ("title",)
    raw_id_fields = ("gm", "game_thread", "discussion_thread", "current_phase")
    inlines = [SeatInline]


@admin.register(Thread)
class ThreadAdmin(admin.ModelAdmin):
    list_display = ("title", "kind", "post_count", "is_locked", "lock_at", "last_post_at")
    list_filter = ("kind", "is_locked", "is_pinned")
    search_fields = ("title",)
    raw_id_fields = ("created_by",)
    readonly_fields = ("post_count", "last_post_at")


class PostRevisionInline(admin.TabularInline):
    model = PostRevision
    extra = 0
    readonly_fields = ("body", "replaced_at", "replaced_by")
    can_delete = False


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    list_display = ("__str__", "author", "created_at", "edit_count", "is_deleted")
    list_filter = ("is_deleted",)
    search_fields = ("body",)
    raw_id_fields = ("thread", "author", "deleted_by")
    readonly_fields = ("html", "renderer_version", "number", "created_at")
    inlines = [PostRevisionInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "user", "is_alive", "overt_role")
    raw_id_fields = ("game", "user")
    search_fields = ("overt_role",)


@admin.register(PostMedia)
class PostMediaAdmin(admin.ModelAdmin):
    list_display = ("post", "kind", "mime", "size")
    list_filter = ("kind",)
    raw_id_fields = ("post",)
    readonly_fields = ("kind", "mime", "size")


@admin.register(PostRevision)
class PostRevisionAdmin(admin.ModelAdmin):
    list_display = ("post", "replaced_at", "replaced_by")
    raw_id_fields = ("post", "replaced_by")


@admin.register(ThreadReadMark)
class ThreadReadMarkAdmin(admin.ModelAdmin):
    list_display = ("user", "thread", "last_read_number")
    raw_id_fields = ("user", "thread")


@admin.register(Phase)
class PhaseAdmin(admin.ModelAdmin):
    list_display = ("game", "kind", "number", "opened_at", "deadline_at", "closed_at")
    list_filter = ("kind",)
    raw_id_fields = ("game",)




class _AppendOnlyAdmin(admin.ModelAdmin):
    """Ledgers and logs are read in the admin, never rewritten there."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Order)
class OrderAdmin(_AppendOnlyAdmin):
    list_display = ("phase", "actor", "action", "target", "source_seat", "valid", "reason", "source", "recorded_at")
    list_filter = ("valid", "source", "action")
    raw_id_fields = ("phase", "actor", "target", "source_seat", "recorded_by")


@admin.register(GameEvent)
class GameEventAdmin(_AppendOnlyAdmin):
    list_display = ("game", "phase", "kind", "audience", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("game", "phase")


@admin.register(GMAction)
class GMActionAdmin(_AppendOnlyAdmin):
    list_display = ("game", "user", "action", "created_at")
    list_filter = ("action",)
    raw_id_fields = ("game", "user")


@admin.register(VoteRecord)
class VoteRecordAdmin(_AppendOnlyAdmin):
    """Corrections go through the GM's vote page, as new ledger lines."""

    list_display = ("phase", "post_number", "voter", "kind", "target", "valid", "reason", "source", "recorded_at")
    list_filter = ("valid", "source", "kind")
    raw_id_fields = ("phase", "post", "voter", "target", "recorded_by")


@admin.register(Replacement)
class ReplacementAdmin(_AppendOnlyAdmin):
    list_display = ("seat", "old_user", "new_user", "created_at", "created_by")
    raw_id_fields = ("seat", "old_user", "new_user", "created_by")


@admin.register(Prod)
class ProdAdmin(_AppendOnlyAdmin):
    list_display = ("seat", "phase", "kind", "sent_at")
    raw_id_fields = ("seat", "phase")


@admin.register(Absence)
class AbsenceAdmin(admin.ModelAdmin):
    list_display = ("user", "starts_on", "ends_on", "note")
    raw_id_fields = ("user",)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("post", "reporter", "reason", "created_at", "resolved_at", "resolved_by")
    list_filter = ("resolved_at",)
    raw_id_fields = ("post", "reporter", "resolved_by")


@admin.register(GameBan)
class GameBanAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "reason", "created_at", "created_by")
    raw_id_fields = ("game", "user", "created_by")


@admin.register(BestPlayerVote)
class BestPlayerVoteAdmin(admin.ModelAdmin):
    list_display = ("game", "voter", "chosen", "created_at")
    raw_id_fields = ("game", "voter", "chosen")


@admin.register(RatingDecision)
class RatingDecisionAdmin(admin.ModelAdmin):
    list_display = ("seat", "points", "blunder")
    raw_id_fields = ("seat",)


@admin.register(PrivateMessage)
class PrivateMessageAdmin(_AppendOnlyAdmin):
    list_display = ("post", "index", "sender", "recipient", "created_at")
    raw_id_fields = ("post", "sender", "recipient", "phase")


@admin.register(AnonymousMessage)
class AnonymousMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "sender", "recipient", "status", "created_at")
    list_filter = ("status",)
    raw_id_fields = ("game", "sender", "recipient", "decided_by")


@admin.register(RoomProposal)
class RoomProposalAdmin(_AppendOnlyAdmin):
    list_display = ("phase", "proposer", "members", "created_at")
    raw_id_fields = ("phase", "proposer", "post")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "game", "created_at", "read_at", "emailed_at")
    list_filter = ("kind",)
    search_fields = ("text",)
    raw_id_fields = ("user", "game")
