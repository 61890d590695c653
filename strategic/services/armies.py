"""Writes of the strategic stage: new units and armies, their reorganisation and commanders (S2).

Moves live in ``services.moves``, support and battle results in ``services.battles``, the moderator's map in
``services.map``.

Every service locks the campaign row first (then the rows it changes), so that a move, a reorganisation
and the end of a faction's turn never interleave; every change appends a campaign log entry (M3).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid
from campaign.messages import NEEDS_MODERATOR
from campaign.models import Campaign, Commander, Faction
from campaign.permissions import Actor
from campaign.services import log_append
from strategic.messages import (
    CAMPAIGN_FINISHED,
    CAPTURED,
    DISPLACED,
    IN_BATTLE,
    MERGE_ITSELF,
    MOVED_NO_REORG,
    NAME_REQUIRED,
    NEEDS_LEADER,
    NO_PROVINCE,
    NO_UNITS,
    NOT_ECONOMIC,
    NOT_SAME_PROVINCE,
    NOT_YOUR_TURN,
    OTHER_FACTION,
    ROSTER_LOCKED,
    SPLIT_ALL,
    UNITS_NOT_IN_ARMY,
    UNITS_NOT_THERE,
)
from strategic.models import Army, Province, Unit, UnitType
from strategic.selectors.map import (
    army_in_unresolved_battle,
)
from strategic.services.locks import lock_armies, lock_campaign, require_login, touch


def location_of(unit: Unit) -> Province:
    """The province where a unit stands."""
    return unit.army.province if unit.army_id is not None else unit.province  # type: ignore[return-value]


def _check_reorganise(
    *, actor: Actor, campaign: Campaign, faction: Faction, armies: Iterable[Army | None]
) -> None:
    """S2/S4: the leader (or a moderator) changes assignments, unless locked; in the strategic phase only
    in the faction's own turn and only with armies that have not moved yet; never with armies in battle."""
    require_login(actor)
    if not permissions.can_lead_faction(actor, faction):
        raise Forbidden(NEEDS_LEADER)
    if faction.roster_locked:
        raise Conflict(ROSTER_LOCKED, rule="S2")
    if campaign.phase == Campaign.Phase.FINISHED:
        raise Conflict(CAMPAIGN_FINISHED)
    if campaign.phase == Campaign.Phase.STRATEGIC and campaign.current_faction_id != faction.pk:
        raise Conflict(NOT_YOUR_TURN, rule="S4")
    for army in armies:
        if army is None:
            continue
        if army.moved_turn is not None and army.moved_turn >= campaign.turn:
            raise Conflict(MOVED_NO_REORG, rule="S4")
        if army_in_unresolved_battle(army=army) is not None:
            raise Conflict(IN_BATTLE, rule="S7")


def _check_commander(commander: Commander, faction: Faction, field: str = "commander") -> None:
    if commander.faction_id != faction.pk:
        raise Invalid(OTHER_FACTION, field=field, rule="S2")
    if commander.captured_by_id is not None:  # a captive is displaced too: say why he is out of command
        raise Invalid(CAPTURED, field=field, rule="Q5")
    if commander.displaced:
        raise Invalid(DISPLACED, field=field, rule="R1.4")


@transaction.atomic
def unit_create(
    *,
    actor: Actor,
    campaign: Campaign,
    faction: Faction,
    unit_type: UnitType,
    province: Province | None = None,
    name: str = "",
) -> Unit:
    """A new unit from the economic phase (S4): outside any army, in the province given or the capital."""
    require_login(actor)
    if not permissions.can_moderate(actor, campaign):
        raise Forbidden(NEEDS_MODERATOR)
    campaign = lock_campaign(campaign.pk)
    if campaign.phase != Campaign.Phase.ECONOMIC:
        raise Conflict(NOT_ECONOMIC, rule="S4")
    for value, field in ((faction, "faction"), (unit_type, "unit_type"), (province, "province")):
        if value is not None and value.campaign_id != campaign.pk:
            raise Invalid(OTHER_FACTION, field=field)
    if province is None:
        province = Province.objects.filter(capital_of=faction).first()
        if province is None:
            raise Invalid(NO_PROVINCE, field="province", rule="S4")
    unit = Unit.objects.create(
        campaign=campaign,
        faction=faction,
        unit_type=unit_type,
        name=name,
        province=province,
        health_halves=int(unit_type.health * 2),
        arrows=unit_type.arrows,
        created_turn=campaign.turn,
    )
    log_append(
        campaign=campaign,
        kind="unit_created",
        actor=actor,
        rule="S4",
        data={
            "unit": unit.pk,
            "faction": faction.pk,
            "unit_type": unit_type.code,
            "province": province.code,
            "name": name,
        },
    )
    return unit


@transaction.atomic
def unit_assign(*, actor: Actor, unit: Unit, army: Army | None) -> Unit:
    """S2: put a unit into an army of its province, or take it out of its army (it then stands loose)."""
    campaign = lock_campaign(unit.campaign_id)
    unit = (
        Unit.objects.select_for_update(of=("self",))
        .select_related("army__province", "province", "faction")
        .get(pk=unit.pk)
    )
    source = unit.army
    if army is not None and army.campaign_id != campaign.pk:
        raise Invalid(OTHER_FACTION, field="army")
    armies = lock_armies(*[a for a in (source, army) if a is not None])
    by_id = {a.pk: a for a in armies}
    source = by_id.get(source.pk) if source is not None else None
    army = by_id.get(army.pk) if army is not None else None
    _check_reorganise(actor=actor, campaign=campaign, faction=unit.faction, armies=(source, army))
    if army is not None and army.faction_id != unit.faction_id:
        raise Invalid(OTHER_FACTION, field="army", rule="S2")
    where = location_of(unit)
    if army is not None and army.province_id != where.pk:
        raise Invalid(NOT_SAME_PROVINCE, field="army", rule="S2")
    if (army.pk if army else None) == (source.pk if source else None):
        return unit
    unit.army = army
    unit.province = None if army is not None else where
    unit.in_fortress = False
    unit.save()
    for changed in (source, army):
        if changed is not None:
            touch(changed)
    log_append(
        campaign=campaign,
        kind="unit_assigned",
        actor=actor,
        rule="S2",
        data={
            "unit": unit.pk,
            "from_army": source.pk if source else None,
            "to_army": army.pk if army else None,
            "province": where.code,
        },
    )
    return unit


def _units_for(*, faction: Faction, province: Province, unit_ids: list[int]) -> list[Unit]:
    if not unit_ids:
        raise Invalid(NO_UNITS, field="unit_ids", rule="S2")
    units = list(
        Unit.objects.select_for_update(of=("self",))
        .select_related("army__province", "province")
        .filter(pk__in=set(unit_ids))
    )
    if len(units) != len(set(unit_ids)) or any(
        u.faction_id != faction.pk or location_of(u).pk != province.pk for u in units
    ):
        raise Invalid(UNITS_NOT_THERE, field="unit_ids", rule="S2")
    return units


@transaction.atomic
def army_create(
    *, actor: Actor, faction: Faction, commander: Commander, province: Province, name: str, unit_ids: list[int]
) -> Army:
    """S2: a new army under a commander, from units of the faction standing in the province."""
    campaign = lock_campaign(faction.campaign_id)
    _check_reorganise(actor=actor, campaign=campaign, faction=faction, armies=())
    if province.campaign_id != campaign.pk:
        raise Invalid(OTHER_FACTION, field="province")
    _check_commander(commander, faction)
    if not name.strip():
        raise Invalid(NAME_REQUIRED, field="name")
    units = _units_for(faction=faction, province=province, unit_ids=unit_ids)
    sources = lock_armies(*{u.army for u in units if u.army is not None})
    _check_reorganise(actor=actor, campaign=campaign, faction=faction, armies=sources)
    army = Army.objects.create(
        campaign=campaign, faction=faction, commander=commander, province=province, name=name
    )
    Unit.objects.filter(pk__in=[u.pk for u in units]).update(army=army, province=None, in_fortress=False)
    for source in sources:
        touch(source)
    log_append(
        campaign=campaign,
        kind="army_created",
        actor=actor,
        rule="S2",
        data={
            "army": army.pk,
            "name": name,
            "commander": commander.pk,
            "province": province.code,
            "units": sorted(u.pk for u in units),
        },
    )
    return army


@transaction.atomic
def army_split(
    *, actor: Actor, army: Army, unit_ids: list[int], name: str, commander: Commander | None = None
) -> Army:
    """S2: move some of an army's units into a new army in the same province (same commander by default)."""
    campaign = lock_campaign(army.campaign_id)
    (army,) = lock_armies(army)
    _check_reorganise(actor=actor, campaign=campaign, faction=army.faction, armies=(army,))
    commander = commander or army.commander
    _check_commander(commander, army.faction)
    if not name.strip():
        raise Invalid(NAME_REQUIRED, field="name")
    if not unit_ids:
        raise Invalid(NO_UNITS, field="unit_ids", rule="S2")
    own = set(army.units.values_list("pk", flat=True))
    wanted = set(unit_ids)
    if not wanted <= own:
        raise Invalid(UNITS_NOT_IN_ARMY, field="unit_ids", rule="S2")
    if wanted == own:
        raise Invalid(SPLIT_ALL, field="unit_ids", rule="S2")
    new = Army.objects.create(
        campaign=campaign,
        faction=army.faction,
        commander=commander,
        province=army.province,
        name=name,
        moved_turn=army.moved_turn,
        morale_penalty=army.morale_penalty,
    )
    Unit.objects.filter(pk__in=wanted).update(army=new)
    touch(army)
    log_append(
        campaign=campaign,
        kind="army_split",
        actor=actor,
        rule="S2",
        data={
            "army": army.pk,
            "new_army": new.pk,
            "name": name,
            "commander": commander.pk,
            "units": sorted(wanted),
        },
    )
    return new


@transaction.atomic
def army_merge(*, actor: Actor, army: Army, into: Army) -> Army:
    """S2: move all units of ``army`` into ``into`` (same faction, same province); ``army`` is dissolved."""
    campaign = lock_campaign(army.campaign_id)
    if into.campaign_id != campaign.pk:
        raise Invalid(OTHER_FACTION, field="into")
    if army.pk == into.pk:
        raise Invalid(MERGE_ITSELF, field="into", rule="S2")
    army, into = lock_armies(army, into)
    _check_reorganise(actor=actor, campaign=campaign, faction=army.faction, armies=(army, into))
    if into.faction_id != army.faction_id:
        raise Invalid(OTHER_FACTION, field="into", rule="S2")
    if into.province_id != army.province_id:
        raise Invalid(NOT_SAME_PROVINCE, field="into", rule="S2")
    units = sorted(army.units.values_list("pk", flat=True))
    Unit.objects.filter(pk__in=units).update(army=into)
    into.morale_penalty = min(into.morale_penalty, army.morale_penalty)
    touch(into)
    log_append(
        campaign=campaign,
        kind="army_merged",
        actor=actor,
        rule="S2",
        data={"army": army.pk, "name": army.name, "into": into.pk, "units": units},
    )
    army.delete()
    return into


@transaction.atomic
def army_commander_set(*, actor: Actor, army: Army, commander: Commander) -> Army:
    """S2: give the army another commander of its faction."""
    campaign = lock_campaign(army.campaign_id)
    (army,) = lock_armies(army)
    _check_reorganise(actor=actor, campaign=campaign, faction=army.faction, armies=(army,))
    _check_commander(commander, army.faction)
    before = army.commander_id
    army.commander = commander
    touch(army)
    log_append(
        campaign=campaign,
        kind="army_commander_set",
        actor=actor,
        rule="S2",
        data={"army": army.pk, "before": before, "commander": commander.pk},
    )
    return army


















