"""S4–S7, S9: army moves, captures and the start of battles."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.errors import Conflict, Forbidden, ServiceError
from campaign.models import Campaign, LogEntry
from campaign.services import economic_phase_end
from strategic.messages import (
    ALREADY_MOVED,
    BATTLE_PENDING_THERE,
    IMPASSABLE,
    IN_BATTLE,
    NOT_YOUR_TURN,
    STALE_VERSION,
    THIRD_POWER,
    TIME_UP,
)
from strategic.models import Army, Battle, Province
from strategic.selectors.map import battlefield_terrain, legal_destinations
from strategic.services import moves
from tests.factories import ArmyFactory, UnitFactory


@pytest.fixture
def east_turn(world: Any) -> Any:
    """The strategic phase of turn 1 has begun: East acts."""
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def test_s5_move_into_own_province(east_turn: Any) -> None:
    w = east_turn
    outcome = moves.army_move(actor=w.east_general, army=w.east_army, destination=w.moesia)
    army = Army.objects.get(pk=w.east_army.pk)
    assert (outcome.kind, army.province.code, army.moved_turn, army.version) == ("moved", "moesia", 1, 2)


def test_s5_move_is_logged(east_turn: Any) -> None:
    w = east_turn
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.moesia)
    entry = LogEntry.objects.filter(campaign=w.campaign).last()
    assert (entry.kind, entry.rule, entry.turn, entry.actor, entry.data) == (
        "army_moved",
        "S5",
        1,
        w.east_general,
        {"army": w.east_army.pk, "faction": w.east.pk, "from": "dacia", "to": "moesia", "border": "normal"},
    )


def test_s5_second_move_in_the_same_turn_is_refused(east_turn: Any) -> None:
    w = east_turn
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.moesia)
    with pytest.raises(Conflict) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dacia)
    assert (refused.value.message, refused.value.rule) == (str(ALREADY_MOVED), "S5")


def test_s5_move_to_a_province_that_is_not_adjacent_is_refused(east_turn: Any) -> None:
    w = east_turn
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.italia)
    assert (refused.value.status, refused.value.field, refused.value.rule) == (400, "destination", "S5")
    assert Army.objects.get(pk=w.east_army.pk).province == w.dacia


def test_s5_impassable_border_is_refused(east_turn: Any) -> None:
    w = east_turn
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.gaul)
    assert refused.value.message == str(IMPASSABLE)


def test_s5_the_refused_move_says_its_own_sentence_not_the_map_files(east_turn: Any) -> None:
    # The map file's sentences once shared these constants' names and replaced them (raw "%(entry)s: …").
    w = east_turn
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.gaul)
    assert refused.value.message == "This border is impassable (S5)."


def test_s5_a_strait_is_crossable_by_a_move(world: Any) -> None:
    w = world
    w.campaign.phase, w.campaign.current_faction = Campaign.Phase.STRATEGIC, w.armenia
    w.campaign.save()
    outcome = moves.army_move(actor=w.moderator, army=w.armenian_army, destination=w.italia)
    assert (outcome.kind, Province.objects.get(pk=w.italia.pk).controller) == ("captured", w.armenia)


def test_s4_moving_out_of_the_faction_turn_is_refused(east_turn: Any) -> None:
    w = east_turn
    with pytest.raises(Conflict) as refused:
        moves.army_move(actor=w.west_leader, army=w.west_army, destination=w.dacia)
    assert (refused.value.message, refused.value.rule) == (str(NOT_YOUR_TURN), "S4")


def test_s4_moving_in_the_economic_phase_is_refused(world: Any) -> None:
    with pytest.raises(Conflict):
        moves.army_move(actor=world.east_general, army=world.east_army, destination=world.moesia)


def test_s4_moving_after_the_deadline_is_refused(east_turn: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    w = east_turn
    Campaign.objects.filter(pk=w.campaign.pk).update(faction_deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(Conflict) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.moesia)
    assert refused.value.message == str(TIME_UP)


@pytest.mark.parametrize(
    ("who", "allowed"),
    [
        ("east_general", True),  # the army's own commander
        ("east_leader", True),  # its faction's leader
        ("moderator", True),
        ("west_leader", False),  # a player of another faction
        ("other_moderator", False),  # a moderator of another campaign
        ("outsider", False),
    ],
)
def test_s5_who_may_move_an_army(east_turn: Any, who: str, allowed: bool) -> None:
    w = east_turn
    if allowed:
        assert (
            moves.army_move(actor=getattr(w, who), army=w.east_army, destination=w.moesia).kind == "moved"
        )
    else:
        with pytest.raises(Forbidden):
            moves.army_move(actor=getattr(w, who), army=w.east_army, destination=w.moesia)


def test_s5_stale_expected_version_is_refused(east_turn: Any) -> None:
    w = east_turn
    with pytest.raises(Conflict) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.moesia, expected_version=7)
    assert (refused.value.message, refused.value.field) == (str(STALE_VERSION), "expected_version")


def test_s6_entering_an_enemy_province_without_units_captures_it(east_turn: Any) -> None:
    w = east_turn
    outcome = moves.army_move(actor=w.east_general, army=w.east_army, destination=w.pannonia)
    entry = LogEntry.objects.filter(campaign=w.campaign).last()
    assert (outcome.kind, Province.objects.get(pk=w.pannonia.pk).controller) == ("captured", w.east)
    assert (entry.kind, entry.rule, entry.data["before"]) == ("province_captured", "S6", w.west.pk)


def test_s6_a_garrison_counts_as_units(east_turn: Any) -> None:
    w = east_turn
    UnitFactory(faction=w.west, unit_type=w.infantry, province=w.pannonia, in_fortress=True)
    outcome = moves.army_move(actor=w.east_general, army=w.east_army, destination=w.pannonia)
    assert (outcome.kind, Province.objects.get(pk=w.pannonia.pk).controller) == ("battle", w.west)


def test_s7_entering_a_province_with_enemy_units_begins_a_battle(east_turn: Any) -> None:
    w = east_turn
    outcome = moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    battle = Battle.objects.get()
    assert outcome.kind == "battle" and outcome.battle == battle
    assert (
        battle.turn,
        battle.province,
        battle.origin,
        battle.terrain,
        battle.attacker_army,
        battle.attacker_faction,
        battle.defender_faction,
        battle.status,
    ) == (1, w.dalmatia, w.dacia, "field", w.east_army, w.east, w.west, "pending")
    assert Army.objects.get(pk=w.east_army.pk).province == w.dalmatia


def test_s7_battle_is_logged(east_turn: Any) -> None:
    w = east_turn
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    entry = LogEntry.objects.filter(campaign=w.campaign).last()
    assert (entry.kind, entry.rule, entry.data["defender"], entry.data["terrain"]) == (
        "battle_begun",
        "S7",
        w.west.pk,
        "field",
    )


def test_s7_a_third_power_bars_the_way(east_turn: Any) -> None:
    w = east_turn
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.thracia)
    assert (refused.value.status, refused.value.message, refused.value.rule) == (
        400,
        str(THIRD_POWER),
        "S7",
    )


def test_s7_an_army_standing_in_a_battle_cannot_move(east_turn: Any) -> None:
    w = east_turn
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    Army.objects.filter(pk=w.east_army.pk).update(moved_turn=None)
    with pytest.raises(Conflict) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dacia)
    assert refused.value.message == str(IN_BATTLE)


def test_s8_entering_a_province_with_a_pending_battle_is_refused(east_turn: Any) -> None:
    w = east_turn
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    second = ArmyFactory(faction=w.east, commander=w.narses, province=w.dacia)
    UnitFactory(faction=w.east, unit_type=w.infantry, army=second)
    with pytest.raises(Conflict) as refused:
        moves.army_move(actor=w.east_leader, army=second, destination=w.dalmatia)
    assert refused.value.message == str(BATTLE_PENDING_THERE)


def test_s9_terrain_is_the_entered_province_by_default(world: Any) -> None:
    assert battlefield_terrain(source=world.dacia, target=world.pannonia) == "desert"


def test_s9_the_transition_table_overrides_it(world: Any) -> None:
    assert battlefield_terrain(source=world.gaul, target=world.dalmatia) == "mountains"


def test_s9_a_battle_from_gaul_is_fought_in_the_mountains(world: Any) -> None:
    w = world
    w.campaign.phase, w.campaign.current_faction = Campaign.Phase.STRATEGIC, w.east
    w.campaign.save()
    raider = ArmyFactory(faction=w.east, commander=w.narses, province=w.gaul)
    UnitFactory(faction=w.east, unit_type=w.infantry, army=raider)
    outcome = moves.army_move(actor=w.moderator, army=raider, destination=w.dalmatia)
    assert outcome.battle is not None and outcome.battle.terrain == "mountains"


def test_legal_destinations_list_what_each_entry_does(east_turn: Any) -> None:
    w = east_turn
    found = [(d.province.code, d.kind, d.terrain, d.border) for d in legal_destinations(army=w.east_army)]
    assert found == [
        ("dalmatia", "battle", "field", "normal"),
        ("moesia", "move", "field", "normal"),
        ("pannonia", "capture", "desert", "normal"),
    ]
