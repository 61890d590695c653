"""Reads of the retreat (R1–R5): which battle a beaten army retreats from, its deadline, and the engine's
``RetreatInput`` built from the database.

The engine names provinces by code, factions by slug and units by their id as a string.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from campaign.models import Campaign, Commander, Faction, Relation
from campaign.selectors import relations_map
from combat.retreat.model import ArmyUnit, BorderKind, Fortress, RetreatInput, RetreatOptions, Side
from combat.retreat.model import Border as EngineBorder
from combat.retreat.model import Province as EngineProvince
from combat.retreat.routes import retreat_options
from strategic.models import Army, Battle, BattleSupport, Border, Province, RetreatRecord, Unit


@dataclass(frozen=True)
class PendingRetreat:
    """A beaten army that must retreat: the battle it lost, its side, its deadline, the engine's view."""

    army: Army
    battle: Battle
    side: str
    deadline: datetime
    inp: RetreatInput
    options: RetreatOptions

    @property
    def is_overdue(self) -> bool:
        """The commander's time to choose is up (R1, ``retreat_hours``)."""
        return self.deadline <= timezone.now()


def unit_key(pk: int | str) -> str:
    """The engine's id of a unit: its primary key zero-padded, so that the engine's order by id (ties in R4,
    the order of Morale rolls in Q2) is the order the units were made in, whatever the database's numbers."""
    return f"{int(pk):012d}"


def plain_ids(data: Any) -> Any:
    """JSON from the engine with every unit id back as the plain primary key."""
    if isinstance(data, list):
        return [plain_ids(v) for v in data]
    if isinstance(data, dict):
        return {k: (int(v) if k == "id" and isinstance(v, str) and v.isdigit() else plain_ids(v))
                for k, v in data.items()}
    return data


def retreat_battle_of(*, army: Army) -> Battle | None:
    """The resolved battle the army lost most recently: as attacker, supporter, or standing in its province."""
    return (
        Battle.objects.filter(campaign_id=army.campaign_id, status=Battle.Status.RESOLVED)
        .filter(Q(attacker_army=army) | Q(supports__army=army) | Q(province_id=army.province_id))
        .exclude(retreats__army=army)
        .select_related("province", "origin", "attacker_faction", "defender_faction")
        .order_by("-resolved_at", "-id")
        .first()
    )


def retreat_side(*, army: Army, battle: Battle) -> str:
    """The side the army fought on: the attacking army, an attack supporter or the attacker's faction."""
    if army.pk == battle.attacker_army_id:
        return Battle.Side.ATTACKER
    declared = BattleSupport.objects.filter(battle=battle, army=army).values_list("side", flat=True).first()
    if declared is not None:
        return str(declared)
    return Battle.Side.ATTACKER if army.faction_id == battle.attacker_faction_id else Battle.Side.DEFENDER


def retreat_deadline(*, campaign: Campaign, battle: Battle) -> datetime:
    """R1: the battle's end plus the campaign's ``retreat_hours``."""
    hours = float(campaign.setting("retreat_hours"))  # type: ignore[arg-type]
    return (battle.resolved_at or battle.created_at) + timedelta(hours=hours)


def _engine_border(kind: str) -> BorderKind:
    return BorderKind(kind)


def retreat_input(*, army: Army, battle: Battle, side: str | None = None) -> RetreatInput:
    """The engine's input for the army's retreat from the battle, read in a fixed number of queries."""
    campaign = army.campaign
    factions = {f.pk: f.slug for f in Faction.objects.filter(campaign=campaign)}
    relations = relations_map(campaign=campaign)
    me = army.faction_id
    allies = frozenset(factions[f] for f in factions if f != me and relations.get((me, f)) == Relation.Kind.ALLIED)
    enemies = frozenset(factions[f] for f in factions if relations.get((me, f)) == Relation.Kind.WAR)
    provinces = list(Province.objects.filter(campaign=campaign))
    by_id = {p.pk: p for p in provinces}
    counts: dict[int, dict[str, int]] = {p.pk: {} for p in provinces}
    garrisons: dict[int, dict[int, int]] = {p.pk: {} for p in provinces}
    own: dict[int, list[ArmyUnit]] = {p.pk: [] for p in provinces}
    allied: dict[int, list[ArmyUnit]] = {p.pk: [] for p in provinces}
    sweep_allies = bool(campaign.setting("retreat_sweeps_allies"))
    army_units: list[ArmyUnit] = []
    rows = Unit.objects.filter(campaign=campaign).values_list(
        "pk", "faction_id", "army_id", "army__province_id", "province_id", "in_fortress", "health_halves"
    )
    for pk, faction_id, army_id, army_province, loose_province, in_fortress, halves in rows:
        if army_id == army.pk:
            army_units.append(ArmyUnit(unit_key(pk), halves / 2))
            continue
        where = army_province if army_id is not None else loose_province
        slug = factions[faction_id]
        counts[where][slug] = counts[where].get(slug, 0) + 1
        if in_fortress and army_id is None:
            garrisons[where][faction_id] = garrisons[where].get(faction_id, 0) + 1
        elif faction_id == me:
            own[where].append(ArmyUnit(unit_key(pk), halves / 2))
        elif sweep_allies and slug in allies:
            allied[where].append(ArmyUnit(unit_key(pk), halves / 2, slug))
    engine_provinces = {}
    for p in provinces:
        fortress = None
        if p.has_fortress and p.controller_id is not None:
            inside = garrisons[p.pk]
            fortress = Fortress(factions[p.controller_id], p.fortress_capacity, inside.get(p.controller_id, 0),
                                {factions[f]: n for f, n in sorted(inside.items()) if f != p.controller_id})
        engine_provinces[p.code] = EngineProvince(
            name=p.code, controller=factions.get(p.controller_id) if p.controller_id else None, port=p.is_port,
            fortress=fortress, tribe=p.has_tribe, units=counts[p.pk], own_units=tuple(own[p.pk]),
            allied_units=tuple(allied[p.pk]),
        )
    borders = tuple(
        EngineBorder(by_id[a].code, by_id[b].code, _engine_border(kind))
        for a, b, kind in Border.objects.filter(campaign=campaign).values_list("a_id", "b_id", "kind")
    )
    side = side or retreat_side(army=army, battle=battle)
    # Interpretation: an attacker that crossed a strait into the battle came by sea (R5).
    came_by_sea = any(
        b.kind is BorderKind.STRAIT and {b.a, b.b} == {battle.origin.code, battle.province.code} for b in borders
    )
    faction = army.faction
    return RetreatInput(
        faction=factions[me], side=Side(side), units=tuple(army_units), battle_province=battle.province.code,
        attacker_origin=battle.origin.code, provinces=engine_provinces, borders=borders, allies=allies,
        enemies=enemies, sea_movement=faction.naval_capacity > 0, naval_capacity=faction.naval_capacity,
        came_by_sea=came_by_sea and side == Battle.Side.ATTACKER, sweep_allies=sweep_allies,
    )


def pending_retreat(*, army: Army) -> PendingRetreat | None:
    """The retreat the army owes (S10), with its options; None when it owes none."""
    if not army.must_retreat:
        return None
    battle = retreat_battle_of(army=army)
    if battle is None:
        return None
    side = retreat_side(army=army, battle=battle)
    inp = retreat_input(army=army, battle=battle, side=side)
    return PendingRetreat(army, battle, side, retreat_deadline(campaign=army.campaign, battle=battle), inp,
                          retreat_options(inp))


def armies_to_retreat(*, campaign: Campaign | None = None) -> QuerySet[Army]:
    """Armies that lost a battle and have not retreated yet."""
    armies = Army.objects.filter(must_retreat=True).select_related("campaign", "faction", "commander", "province")
    return armies.filter(campaign=campaign) if campaign is not None else armies


def retreats_of(*, battle: Battle) -> QuerySet[RetreatRecord]:
    """The retreats applied after a battle."""
    return RetreatRecord.objects.filter(battle=battle).select_related("faction", "destination", "winner")


def recent_retreats(*, campaign: Campaign, limit: int = 20) -> list[RetreatRecord]:
    """The campaign's latest retreats, newest first."""
    return list(RetreatRecord.objects.filter(campaign=campaign).select_related(
        "faction", "destination", "winner", "battle__province")[:limit])


def captive_commanders(*, campaign: Campaign) -> list[Commander]:
    """The campaign's captured commanders (Q5), with their faction and captor."""
    return list(Commander.objects.filter(campaign=campaign, captured_by__isnull=False)
                .select_related("faction", "captured_by").order_by("faction__turn_order", "name"))
