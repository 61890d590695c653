"""Sentences of the strategic log kinds and the names they use (registered with ``campaign.logtext``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from campaign.logtext import register_names, register_sentences
from campaign.models import Campaign
from strategic.models import Army, Battle, Border, Province, Terrain, Unit, UnitType


def _province_names(campaign: Campaign, codes: set[Any]) -> dict[Any, str]:
    return {p.code: p.name for p in Province.objects.filter(campaign=campaign, code__in=codes)}


def _army_names(campaign: Campaign, ids: set[Any]) -> dict[Any, str]:
    return dict(Army.objects.filter(campaign=campaign, pk__in=ids).values_list("pk", "name"))


def _unit_names(campaign: Campaign, ids: set[Any]) -> dict[Any, str]:
    return {u.pk: str(u) for u in Unit.objects.filter(campaign=campaign, pk__in=ids).select_related("unit_type")}


def _unit_type_names(campaign: Campaign, codes: set[Any]) -> dict[Any, str]:
    return {t.code: t.name for t in UnitType.objects.filter(campaign=campaign, code__in=codes)}


def _unit_assigned(data: dict[str, Any]) -> Any:
    if data.get("to_army") is None:
        return _("%(unit)s left %(from_army)s in %(province)s.")
    return _("%(unit)s joined %(to_army)s in %(province)s.")


SENTENCES: dict[str, Any] = {
    "unit_created": _("A new unit, %(unit)s, of %(faction)s appeared in %(province)s."),
    "unit_assigned": _unit_assigned,
    "army_created": _("Army %(name)s was formed in %(province)s under %(commander)s."),
    "army_split": _("%(name)s was split off %(army)s under %(commander)s."),
    "army_merged": _("%(name)s merged into %(into)s."),
    "army_commander_set": _("%(commander)s now commands %(army)s."),
    "army_moved": _("%(army)s of %(faction)s moved from %(from)s to %(to)s."),
    "province_captured": _("%(faction)s captured %(province)s."),
    "battle_begun": _("A battle begins in %(province)s: %(attacker_army)s of %(attacker)s, coming from "
                      "%(origin)s, attacks %(defender)s (terrain: %(terrain)s)."),
    "support_declared": _("%(army)s of %(faction)s declared support; side: %(side)s."),
    "battle_started": _("A battle is being fought on the tactical map."),
    "battle_resolved": _("A battle was decided; winner: %(winner)s."),
}
CHOICES = {
    "terrain": dict(Terrain.choices), "side": dict(Battle.Side.choices), "winner": dict(Battle.Side.choices),
    "border": dict(Border.Kind.choices),
}


def register() -> None:
    """Make the campaign log name provinces, armies, units and unit types and read strategic entries."""
    register_names("province", _province_names, keys=("province", "from", "to", "origin"))
    register_names("army", _army_names, keys=("army", "new_army", "into", "to_army", "from_army", "attacker_army"))
    register_names("unit", _unit_names, keys=("unit",))
    register_names("unit_type", _unit_type_names, keys=("unit_type",))
    register_sentences(SENTENCES, CHOICES)
