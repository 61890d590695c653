"""Admin: disputes and rulings, the battle event log read-only (M3), and purging deletes of campaigns and battles."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaign.admin import ReadOnlyAdmin
from campaign.models import Campaign
from moderation.models import Dispute, InterceptionRuling
from moderation.services.purge import battle_purge, campaign_purge
from strategic.models import Battle
from tactical.models import BattleEvent


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


class PurgingAdmin(admin.ModelAdmin):
    """Deleting here purges the logs too (M3's one exception): a superuser's deliberate act only."""

    purge: Any = None

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # The read-only logs and protected rows go with the purge, which deletes in the right order.
        deleted, counts, _perms, _protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), []

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        type(self).purge(actor=request.user, target=obj)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for obj in queryset:
            type(self).purge(actor=request.user, target=obj)


def _purging(model: Any, purge: Any) -> None:
    """Register ``model`` again with its own admin made purging (the admin's delete works on PostgreSQL)."""
    base = type(admin.site._registry[model])
    admin.site.unregister(model)
    admin.site.register(model, type(f"Purging{base.__name__}", (PurgingAdmin, base), {"purge": staticmethod(purge)}))


_purging(Campaign, lambda *, actor, target: campaign_purge(actor=actor, campaign=target))
_purging(Battle, lambda *, actor, target: battle_purge(actor=actor, battle=target))
