"""Sentences of the strategic log kinds and the names they use (registered with ``campaign.logtext``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from campaign.logtext import codes_of, ids_of, register_names, register_sentences
from campaign.models import Campaign
from strategic.models import Army, Battle, Border, Province, Terrain, Unit, UnitType


def _province_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    return {p.code: p.name for p in Province.objects.filter(campaign=campaign, code__in=codes_of(values))}


def _army_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    return dict(Army.objects.filter(campaign=campaign, pk__in=ids_of(values)).values_list("pk", "name"))


def _unit_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    units = Unit.objects.filter(campaign=campaign, pk__in=ids_of(values)).select_related("unit_type")
    return {u.pk: str(u) for u in units}


def _unit_type_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    return {t.code: t.name for t in UnitType.objects.filter(campaign=campaign, code__in=codes_of(values))}


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
    "battle_begun": _(
        "A battle begins in %(province)s: %(attacker_army)s of %(attacker)s, coming from "
        "%(origin)s, attacks %(defender)s (terrain: %(terrain)s)."
    ),
    "support_declared": _("%(army)s of %(faction)s declared support; side: %(side)s."),
    "battle_started": _("A battle is being fought on the tactical map."),
    "battle_resolved": _("A battle was decided; winner: %(winner)s."),
    "map_imported": _("The map was imported."),
    "province_created": _("Province %(province)s was added to the map (%(terrain)s)."),
    "province_changed": _("Province %(province)s was changed."),
    "border_set": _("Border %(a)s – %(b)s: %(after)s."),
    "transition_set": _(
        "Province relief: moving from %(source)s into %(target)s, battles are fought on: %(after)s."
    ),
    "unit_type_created": _("Unit type %(unit_type)s was created."),
    "unit_type_changed": _("Unit type %(unit_type)s was changed."),
}
KIND_KEYS: dict[str, dict[str, str | None]] = {
    "border_set": {"a": "province", "b": "province", "before": None, "after": None},
    "transition_set": {"source": "province", "target": "province", "before": None, "after": None},
    "province_captured": {"before": "faction"},
    "army_commander_set": {"before": "commander"},
}
KIND_CHOICES = {
    "border_set": {"after": dict(Border.Kind.choices), "before": dict(Border.Kind.choices)},
    "transition_set": {"after": dict(Terrain.choices), "before": dict(Terrain.choices)},
}
CHOICES = {
    "terrain": dict(Terrain.choices),
    "side": dict(Battle.Side.choices),
    "winner": dict(Battle.Side.choices),
    "border": dict(Border.Kind.choices),
}


def register() -> None:
    """Make the campaign log name provinces, armies, units and unit types and read strategic entries."""
    register_names("province", _province_names, keys=("province", "from", "to", "origin"))
    register_names(
        "army", _army_names, keys=("army", "new_army", "into", "to_army", "from_army", "attacker_army")
    )
    register_names("unit", _unit_names, keys=("unit",))
    register_names("unit_type", _unit_type_names, keys=("unit_type",))
    register_sentences(SENTENCES, CHOICES, KIND_KEYS, KIND_CHOICES)
