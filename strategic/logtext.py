"""Sentences of the strategic log kinds and the names they use, registered with ``campaign.logtext`` by
``StrategicConfig.ready()``: the map, armies, orders and battles, then what follows a battle (retreats R1–R6,
quick battles Q1–Q7, captives Q5), so the log reads every entry on any page, command or task."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from campaign.logtext import codes_of, ids_of, register_names, register_sentences
from campaign.models import Campaign
from strategic.models import Army, Battle, Border, Province, RetreatRecord, Terrain, Unit, UnitType


def _province_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    provinces = Province.objects.filter(campaign=campaign, code__in=codes_of(values)).only("code", "name_en", "name_ru")
    return {p.code: p.name for p in provinces}


def _army_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    return dict(Army.objects.filter(campaign=campaign, pk__in=ids_of(values)).values_list("pk", "name"))


def _unit_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    units = (
        Unit.objects.filter(campaign=campaign, pk__in=ids_of(values))
        .select_related("unit_type")
        .only("name", "unit_type__name_en", "unit_type__name_ru")
    )
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
    "battle_times_proposed": _("Times were proposed for the battle in %(province)s."),
    "battle_scheduled": _("The battle in %(province)s was scheduled."),
    "battle_schedule_cleared": _("The schedule of the battle in %(province)s was cleared."),
    "battle_started_anyway": _("The battle in %(province)s was started without the absent %(side)s."),
    "battle_resolved": _("A battle was decided; winner: %(winner)s."),
    "map_imported": _("The map was imported."),
    "province_created": _("Province %(province)s was added to the map (%(terrain)s)."),
    "province_changed": _("Province %(province)s was changed."),
    "unit_corrected": _("The moderator corrected %(unit)s."),
    "province_deleted": _("Province %(code)s was taken off the map."),
    "campaign_copied": _("The map, unit cards and factions of %(source)s were copied into the campaign."),
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
    "unit_corrected": {"before": None, "after": None},
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


# -- after a battle ------------------------------------------------------------------------------------


def _swept_allied_sentence(data: dict[str, Any]) -> Any:
    """R2: what became of allied units swept up by a retreat (they stay their faction's)."""
    if data.get("units"):
        if data.get("allied_name"):
            return gettext_lazy("%(allied_name)s of %(faction)s, swept up by %(name)s, went with it to %(to)s "
                                "under its own commander: %(units)s.")
        return gettext_lazy("Units of %(faction)s swept up by %(name)s went with it to %(to)s: %(units)s.")
    if data.get("allied_name"):
        return gettext_lazy("%(allied_name)s of %(faction)s, swept up by %(name)s, lost every unit on the way.")
    return gettext_lazy("The units of %(faction)s swept up by %(name)s were lost on the way.")


def _captured_sentence(data: dict[str, Any]) -> Any:
    """Q5: a commander captured, and who took his armies."""
    if not data.get("armies"):
        return gettext_lazy("%(commander)s of %(faction)s was captured by %(by)s in %(province)s.")
    if data.get("successor"):
        return gettext_lazy("%(commander)s of %(faction)s was captured by %(by)s in %(province)s; %(successor)s "
                            "takes command of %(armies)s.")
    return gettext_lazy("%(commander)s of %(faction)s was captured by %(by)s in %(province)s; no free commander "
                        "of his faction can take %(armies)s: one must be appointed.")


LOG_SENTENCES: dict[str, Any] = {
    "retreat_applied": gettext_lazy("%(name)s retreated from %(province)s (%(kind)s): %(path)s."),
    "retreat_swept": gettext_lazy("%(name)s swept up units on its way: %(units)s."),
    "retreat_penalty": gettext_lazy("%(name)s lost %(penalty)s units on its retreat: %(units)s."),
    "army_destroyed": gettext_lazy("%(name)s of %(faction)s was destroyed; %(commander)s is displaced to "
                                   "%(capital)s."),
    "army_dissolved": gettext_lazy("%(name)s was swept into %(into)s."),
    "retreat_swept_allied": _swept_allied_sentence,
    "commander_captured": _captured_sentence,
    "commander_released": gettext_lazy("%(commander)s of %(faction)s, held by %(by)s, was released."),
    "support_points": gettext_lazy("Support points in %(province)s: +%(added)s for %(faction)s."),
    "support_points_changed": gettext_lazy("Support in %(province)s: %(faction)s adds %(added)s, %(loser)s "
                                           "loses %(removed)s."),
    "quick_battle_begun": gettext_lazy("A quick battle in %(province)s; the seed's hash is %(commitment)s."),
    "quick_battle_roll": lambda data: (
        gettext_lazy("%(unit)s rolled %(dice)s = %(total)s against %(target)s (%(purpose)s).") if data.get("unit")
        else gettext_lazy("%(roller)s rolled %(dice)s = %(total)s against %(target)s (%(purpose)s).")),
    "quick_battle_units_lost": gettext_lazy("Units lost in the quick battle: %(units)s."),
    "quick_battle_thrown_back": gettext_lazy("%(army)s is thrown back to %(to)s."),
    "quick_battle_resolved": gettext_lazy("The quick battle in %(province)s: %(result)s by %(margin)s "
                                          "(table %(table)s); winner: %(winner)s; seed %(seed)s."),
}
LOG_KIND_KEYS: dict[str, dict[str, str | None]] = {
    "retreat_swept": {"units": "unit"},
    "retreat_swept_allied": {"units": "unit", "lost": "unit", "allied_army": "army"},
    "commander_captured": {"by": "faction", "successor": "commander", "armies": "army"},
    "commander_released": {"by": "faction"},
    "retreat_applied": {"path": "province", "kind": None},
    "support_points_changed": {"loser": "faction"},
    "support_points": {"loser": "faction"},
    "army_destroyed": {"capital": "province"},
}
ROLL_PURPOSES = {
    "contest (strategy)": gettext_lazy("contest of Strategy"),
    "contest (tactics)": gettext_lazy("contest of Tactics"),
    "contest, Luck reroll": gettext_lazy("contest, Luck reroll"),
    "Morale: hold, retreat or rout": gettext_lazy("Morale: hold, retreat or rout"),
    "Morale: retreat in good order or rout": gettext_lazy("Morale: retreat in good order or rout"),
    "Morale: the army holds if half make it": gettext_lazy("Morale: the army holds if half make it"),
    "Morale again: nowhere to retreat": gettext_lazy("Morale again: nowhere to retreat"),
}
RESULTS = {
    "no clear winner": gettext_lazy("no clear winner"),
    "minor victory": gettext_lazy("minor victory"),
    "major victory": gettext_lazy("major victory"),
    "great victory": gettext_lazy("great victory"),
    "overwhelming victory": gettext_lazy("overwhelming victory"),
}
LOG_KIND_CHOICES = {
    "retreat_applied": {"kind": dict(RetreatRecord.Kind.choices)},
    "quick_battle_roll": {"purpose": ROLL_PURPOSES},
    "quick_battle_resolved": {"result": RESULTS},
}


def register() -> None:
    """Make the campaign log name provinces, armies, units and unit types and read every strategic entry."""
    register_names("province", _province_names, keys=("province", "from", "to", "origin"))
    register_names(
        "army", _army_names, keys=("army", "new_army", "into", "to_army", "from_army", "attacker_army")
    )
    register_names("unit", _unit_names, keys=("unit",))
    register_names("unit_type", _unit_type_names, keys=("unit_type",))
    register_sentences(SENTENCES, CHOICES, KIND_KEYS, KIND_CHOICES)
    register_sentences(LOG_SENTENCES, kind_keys=LOG_KIND_KEYS, kind_choices=LOG_KIND_CHOICES)
