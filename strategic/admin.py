"""Admin of the strategic map: provinces, borders, relief table, unit types, armies, units, battles."""

from __future__ import annotations

from django.contrib import admin

from campaign.admin import ReadOnlyAdmin
from strategic.models import (
    Army,
    Battle,
    BattleSupport,
    BattleTime,
    BattleTimeAcceptance,
    Border,
    Province,
    QuickBattleRecord,
    RetreatRecord,
    SupportPoints,
    TerrainTransition,
    Unit,
    UnitType,
)


@admin.register(Province)
class ProvinceAdmin(admin.ModelAdmin):
    list_display = (
        "code",
        "name_en",
        "name_ru",
        "campaign",
        "terrain",
        "controller",
        "capital_of",
        "has_fortress",
        "is_port",
        "has_tribe",
        "x",
        "y",
    )
    list_filter = ("campaign", "terrain", "has_fortress", "is_port", "has_tribe")
    search_fields = ("code", "name_en", "name_ru")


@admin.register(Border)
class BorderAdmin(admin.ModelAdmin):
    list_display = ("campaign", "a", "b", "kind")
    list_filter = ("campaign", "kind")


@admin.register(TerrainTransition)
class TerrainTransitionAdmin(admin.ModelAdmin):
    list_display = ("campaign", "source", "target", "terrain")
    list_filter = ("campaign", "terrain")


@admin.register(UnitType)
class UnitTypeAdmin(admin.ModelAdmin):
    list_display = (
        "code",
        "name_en",
        "name_ru",
        "campaign",
        "unit_class",
        "mounted",
        "health",
        "missile",
        "arrows",
        "morale",
    )
    list_filter = ("campaign", "unit_class", "mounted", "missile")
    search_fields = ("code", "name_en", "name_ru")


class UnitInline(admin.TabularInline):
    model = Unit
    fields = ("name", "unit_type", "health_halves", "arrows")
    extra = 0
    show_change_link = True


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ("name", "faction", "commander", "province", "moved_turn", "must_retreat", "version")
    list_filter = ("campaign", "faction", "must_retreat")
    search_fields = ("name",)
    inlines = (UnitInline,)


@admin.register(Unit)
class UnitAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "faction",
        "unit_type",
        "army",
        "province",
        "in_fortress",
        "health_halves",
        "arrows",
        "created_turn",
    )
    list_filter = ("campaign", "faction", "unit_type", "in_fortress")
    search_fields = ("name",)
    list_select_related = ("faction", "unit_type", "unit_type__campaign", "army", "province")


class BattleSupportInline(admin.TabularInline):
    model = BattleSupport
    extra = 0


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "campaign",
        "turn",
        "province",
        "origin",
        "terrain",
        "attacker_faction",
        "defender_faction",
        "status",
        "winner",
    )
    list_filter = ("campaign", "status", "terrain")
    inlines = (BattleSupportInline,)


@admin.register(SupportPoints)
class SupportPointsAdmin(admin.ModelAdmin):
    list_display = ("province", "faction", "points")
    list_filter = ("faction",)


@admin.register(BattleSupport)
class BattleSupportAdmin(admin.ModelAdmin):
    list_display = ("battle", "army", "side", "from_adjacent")
    list_filter = ("side", "from_adjacent")


@admin.register(RetreatRecord)
class RetreatRecordAdmin(ReadOnlyAdmin):
    list_display = (
        "battle",
        "army_name",
        "faction",
        "side",
        "kind",
        "destination",
        "units_lost",
        "defaulted",
        "created_at",
    )
    list_filter = ("campaign", "kind", "side")


@admin.register(QuickBattleRecord)
class QuickBattleRecordAdmin(ReadOnlyAdmin):
    list_display = ("battle", "skill", "open_field", "siege", "storm", "created_at")
    list_filter = ("campaign", "skill")


@admin.register(BattleTime)
class BattleTimeAdmin(admin.ModelAdmin):
    list_display = ("battle", "at", "proposed_by")
    list_filter = ("battle__campaign",)


@admin.register(BattleTimeAcceptance)
class BattleTimeAcceptanceAdmin(admin.ModelAdmin):
    list_display = ("battle", "side", "time", "user")
    list_filter = ("battle__campaign",)
