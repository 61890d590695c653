"""Admin of the campaign app; the log is read-only (M3: nothing is ever silently changed)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaign.models import Campaign, Commander, Faction, Invitation, LogEntry, Membership, Relation


class FactionInline(admin.TabularInline):
    model = Faction
    fields = ("slug", "name_en", "name_ru", "color", "turn_order", "naval_capacity", "roster_locked")
    extra = 0
    show_change_link = True


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = (
        "slug",
        "name_en",
        "name_ru",
        "is_public",
        "turn",
        "phase",
        "current_faction",
        "faction_deadline",
    )
    list_filter = ("is_public", "phase")
    search_fields = ("slug", "name_en", "name_ru")
    inlines = (FactionInline,)


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = (
        "slug",
        "name_en",
        "name_ru",
        "campaign",
        "color",
        "turn_order",
        "leader",
        "naval_capacity",
        "roster_locked",
    )
    list_filter = ("campaign", "roster_locked")
    search_fields = ("slug", "name_en", "name_ru")


@admin.register(Relation)
class RelationAdmin(admin.ModelAdmin):
    list_display = ("campaign", "a", "b", "kind")
    list_filter = ("campaign", "kind")


@admin.register(Commander)
class CommanderAdmin(admin.ModelAdmin):
    list_display = ("name", "faction", "rank", "user", "strategy", "tactics", "has_luck", "displaced")
    list_filter = ("campaign", "faction", "rank", "displaced")
    search_fields = ("name", "user__username")


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "campaign", "role", "faction")
    list_filter = ("campaign", "role")
    search_fields = ("user__username",)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = (
        "campaign",
        "role",
        "faction",
        "commander",
        "created_by",
        "created_at",
        "used_by",
        "used_at",
    )
    list_filter = ("campaign", "role")
    readonly_fields = ("token", "created_at", "used_by", "used_at")


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted here: logs and records are written by services only (M3)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "campaign", "turn", "created_at", "kind", "rule", "actor")
    list_filter = ("campaign", "kind", "rule")
    search_fields = ("kind", "reason")
