"""Admin: disputes and rulings, and the battle event log read-only (M3: entries are never changed)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from moderation.models import Dispute, InterceptionRuling
from tactical.models import BattleEvent


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(BattleEvent)
class BattleEventAdmin(ReadOnlyAdmin):
    list_display = ("battle", "version", "kind", "actor", "created_at")
    list_filter = ("kind",)
    ordering = ("battle", "version")


@admin.register(Dispute)
class DisputeAdmin(ReadOnlyAdmin):
    list_display = ("id", "campaign", "entry_ref", "author", "status", "created_at")
    list_filter = ("status", "campaign")


@admin.register(InterceptionRuling)
class InterceptionRulingAdmin(ReadOnlyAdmin):
    list_display = ("battle", "version", "unit", "target", "verdict", "moderator", "created_at")
