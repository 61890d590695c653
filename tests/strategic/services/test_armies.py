"""S2 and S4: new units, placing units into armies, splitting, merging, commanders, the roster lock."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.errors import Conflict, Forbidden, ServiceError
from campaign.models import Campaign, LogEntry
from campaign.services import economic_phase_end
from strategic.messages import (
    MOVED_NO_REORG,
    NEEDS_LEADER,
    NOT_ECONOMIC,
    NOT_SAME_PROVINCE,
    NOT_YOUR_TURN,
    ROSTER_LOCKED,
    SPLIT_ALL,
    UNITS_NOT_IN_ARMY,
    UNITS_NOT_THERE,
)
from strategic.models import Army, Unit
from strategic.services import armies as services
from strategic.services import moves
from tests.factories import UnitFactory


def _units(army: Army) -> list[int]:
    return sorted(Unit.objects.filter(army=army).values_list("pk", flat=True))


def test_s4_new_unit_appears_outside_any_army_in_the_capital(world: Any) -> None:
    unit = services.unit_create(
        actor=world.moderator, campaign=world.campaign, faction=world.east, unit_type=world.archers
    )
    assert (unit.army, unit.province, unit.health_halves, unit.arrows, unit.created_turn) == (
        None,
        world.dacia,
        6,
        4,
        1,
    )


def test_s4_new_unit_is_logged(world: Any) -> None:
    unit = services.unit_create(
        actor=world.moderator,
        campaign=world.campaign,
        faction=world.east,
        unit_type=world.archers,
        province=world.moesia,
        name="Sagittarii",
    )
    entry = LogEntry.objects.filter(campaign=world.campaign).last()
    assert (entry.kind, entry.rule, entry.data) == (
        "unit_created",
        "S4",
        {
            "unit": unit.pk,
            "faction": world.east.pk,
            "unit_type": "archers",
            "province": "moesia",
            "name": "Sagittarii",
        },
    )


def test_s4_new_units_only_in_the_economic_phase(world: Any) -> None:
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    with pytest.raises(Conflict) as refused:
        services.unit_create(
            actor=world.moderator, campaign=world.campaign, faction=world.east, unit_type=world.archers
        )
    assert (refused.value.message, refused.value.rule) == (str(NOT_ECONOMIC), "S4")


def test_s4_only_a_moderator_creates_units(world: Any) -> None:
    with pytest.raises(Forbidden):
        services.unit_create(
            actor=world.east_leader, campaign=world.campaign, faction=world.east, unit_type=world.archers
        )


def test_s2_leader_places_a_new_unit_into_an_army(world: Any) -> None:
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.dacia)
    services.unit_assign(actor=world.east_leader, unit=unit, army=world.east_army)
    unit.refresh_from_db()
    assert (unit.army, unit.province, len(_units(world.east_army))) == (world.east_army, None, 3)


def test_s2_a_unit_taken_out_of_its_army_stands_in_the_province(world: Any) -> None:
    unit = world.east_army.units.first()
    services.unit_assign(actor=world.east_leader, unit=unit, army=None)
    unit.refresh_from_db()
    assert (unit.army, unit.province) == (None, world.dacia)


def test_s2_a_unit_joins_only_an_army_of_its_province(world: Any) -> None:
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.moesia)
    with pytest.raises(ServiceError) as refused:
        services.unit_assign(actor=world.east_leader, unit=unit, army=world.east_army)
    assert (refused.value.field, refused.value.message) == ("army", str(NOT_SAME_PROVINCE))


def test_s2_a_unit_joins_only_an_army_of_its_faction(world: Any) -> None:
    unit = UnitFactory(faction=world.west, unit_type=world.infantry, province=world.dacia)
    with pytest.raises(ServiceError) as refused:
        services.unit_assign(actor=world.moderator, unit=unit, army=world.east_army)
    assert refused.value.field == "army"


def test_s2_a_general_cannot_reassign_units(world: Any) -> None:
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.dacia)
    with pytest.raises(Forbidden) as refused:
        services.unit_assign(actor=world.east_general, unit=unit, army=world.east_army)
    assert refused.value.message == str(NEEDS_LEADER)


def test_s2_roster_locked_refuses_assignment(world: Any) -> None:
    world.east.roster_locked = True
    world.east.save()
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.dacia)
    with pytest.raises(Conflict) as refused:
        services.unit_assign(actor=world.east_leader, unit=unit, army=world.east_army)
    assert (refused.value.message, refused.value.rule) == (str(ROSTER_LOCKED), "S2")


def test_s2_roster_locked_refuses_a_new_commander(world: Any) -> None:
    world.east.roster_locked = True
    world.east.save()
    with pytest.raises(Conflict):
        services.army_commander_set(actor=world.east_leader, army=world.east_army, commander=world.narses)


def test_s4_units_are_placed_only_in_the_faction_turn(world: Any) -> None:
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    unit = UnitFactory(faction=world.west, unit_type=world.infantry, province=world.dalmatia)
    with pytest.raises(Conflict) as refused:
        services.unit_assign(actor=world.west_leader, unit=unit, army=world.west_army)
    assert refused.value.message == str(NOT_YOUR_TURN)


def test_s4_an_army_that_moved_keeps_its_units(world: Any) -> None:
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    moves.army_move(actor=world.east_leader, army=world.east_army, destination=world.moesia)
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.moesia)
    with pytest.raises(Conflict) as refused:
        services.unit_assign(actor=world.east_leader, unit=unit, army=world.east_army)
    assert (refused.value.message, refused.value.rule) == (str(MOVED_NO_REORG), "S4")


def test_s2_army_create_from_loose_units(world: Any) -> None:
    units = [
        UnitFactory(faction=world.east, unit_type=world.infantry, province=world.moesia) for _ in range(2)
    ]
    army = services.army_create(
        actor=world.east_leader,
        faction=world.east,
        commander=world.narses,
        province=world.moesia,
        name="Moesian army",
        unit_ids=[u.pk for u in units],
    )
    assert (army.commander, army.province, army.name, _units(army)) == (
        world.narses,
        world.moesia,
        "Moesian army",
        sorted(u.pk for u in units),
    )


def test_s2_army_create_refuses_units_elsewhere(world: Any) -> None:
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.dacia)
    with pytest.raises(ServiceError) as refused:
        services.army_create(
            actor=world.east_leader,
            faction=world.east,
            commander=world.narses,
            province=world.moesia,
            name="Moesian army",
            unit_ids=[unit.pk],
        )
    assert (refused.value.field, refused.value.message) == ("unit_ids", str(UNITS_NOT_THERE))


def test_s2_army_create_refuses_a_commander_of_another_faction(world: Any) -> None:
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.moesia)
    with pytest.raises(ServiceError) as refused:
        services.army_create(
            actor=world.moderator,
            faction=world.east,
            commander=world.aetius,
            province=world.moesia,
            name="Moesian army",
            unit_ids=[unit.pk],
        )
    assert refused.value.field == "commander"


def test_s2_split_moves_units_into_a_new_army(world: Any) -> None:
    first, second = _units(world.east_army)
    new = services.army_split(
        actor=world.east_leader,
        army=world.east_army,
        unit_ids=[second],
        name="Vanguard",
        commander=world.narses,
    )
    assert (_units(world.east_army), _units(new), new.commander, new.province) == (
        [first],
        [second],
        world.narses,
        world.dacia,
    )


def test_s2_a_split_army_keeps_the_move_it_made(world: Any) -> None:
    Army.objects.filter(pk=world.east_army.pk).update(moved_turn=0)
    new = services.army_split(
        actor=world.east_leader, army=world.east_army, unit_ids=_units(world.east_army)[:1], name="Vanguard"
    )
    assert (new.moved_turn, new.commander) == (0, world.belisarius)


def test_s2_split_must_leave_a_unit(world: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.army_split(
            actor=world.east_leader, army=world.east_army, unit_ids=_units(world.east_army), name="Everyone"
        )
    assert (refused.value.field, refused.value.message) == ("unit_ids", str(SPLIT_ALL))


def test_s2_split_refuses_units_of_another_army(world: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.army_split(
            actor=world.moderator,
            army=world.east_army,
            unit_ids=_units(world.west_army)[:1],
            name="Turncoats",
        )
    assert refused.value.message == str(UNITS_NOT_IN_ARMY)


def test_s2_merge_moves_all_units_and_dissolves_the_army(world: Any) -> None:
    units = _units(world.east_army)
    vanguard = services.army_split(
        actor=world.east_leader, army=world.east_army, unit_ids=units[:1], name="Vanguard"
    )
    into = services.army_merge(actor=world.east_leader, army=vanguard, into=world.east_army)
    assert (_units(into), Army.objects.filter(pk=vanguard.pk).exists()) == (units, False)


def test_s2_merge_needs_the_same_province(world: Any) -> None:
    other = services.army_create(
        actor=world.moderator,
        faction=world.east,
        commander=world.narses,
        province=world.moesia,
        name="Moesians",
        unit_ids=[UnitFactory(faction=world.east, unit_type=world.infantry, province=world.moesia).pk],
    )
    with pytest.raises(ServiceError) as refused:
        services.army_merge(actor=world.east_leader, army=other, into=world.east_army)
    assert (refused.value.field, refused.value.message) == ("into", str(NOT_SAME_PROVINCE))


def test_s2_commander_set(world: Any) -> None:
    army = services.army_commander_set(actor=world.east_leader, army=world.east_army, commander=world.narses)
    entry = LogEntry.objects.filter(campaign=world.campaign).last()
    assert (army.commander, army.version) == (world.narses, 2)
    assert (entry.kind, entry.data) == (
        "army_commander_set",
        {"army": world.east_army.pk, "before": world.belisarius.pk, "commander": world.narses.pk},
    )


def test_r1_4_a_displaced_commander_cannot_take_command(world: Any) -> None:
    world.narses.displaced = True
    world.narses.save()
    with pytest.raises(ServiceError) as refused:
        services.army_commander_set(actor=world.east_leader, army=world.east_army, commander=world.narses)
    assert refused.value.rule == "R1.4"


def test_reorganisation_is_refused_in_a_finished_campaign(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(phase=Campaign.Phase.FINISHED)
    with pytest.raises(Conflict):
        services.army_commander_set(actor=world.moderator, army=world.east_army, commander=world.narses)
