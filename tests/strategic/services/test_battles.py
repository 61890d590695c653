"""S8 support and S10 battle results."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.errors import Conflict, Forbidden, ServiceError
from campaign.models import LogEntry
from campaign.services import economic_phase_end, faction_turn_pass
from strategic.messages import BATTLE_STARTED, NOT_FRIENDLY_SIDE, TOO_FAR
from strategic.models import Army, Battle, Province, Unit
from strategic.services import moves
from strategic.services.battles import (
    UnitChange,
    battle_result_apply,
    battle_support_declare,
    battle_tactical_start,
)
from tests.factories import ArmyFactory, UnitFactory


@pytest.fixture
def battle(world: Any) -> Battle:
    """East's Danube army has entered Dalmatia from Dacia: a pending battle against West."""
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    outcome = moves.army_move(actor=world.east_general, army=world.east_army, destination=world.dalmatia)
    assert outcome.battle is not None
    return outcome.battle


def _east_army_in(world: Any, province: Province, name: str = "Second army") -> Army:
    army = ArmyFactory(faction=world.east, commander=world.narses, province=province, name=name)
    UnitFactory(faction=world.east, unit_type=world.infantry, army=army)
    return army


def test_s8_an_army_in_the_province_supports_the_attack_and_loses_its_move(
    world: Any, battle: Battle
) -> None:
    second = _east_army_in(world, world.dalmatia)
    support = battle_support_declare(
        actor=world.east_leader, battle=battle, army=second, side="attacker"
    )
    assert (support.side, support.from_adjacent, Army.objects.get(pk=second.pk).moved_turn) == (
        "attacker",
        False,
        1,
    )


def test_s8_a_supporter_whose_faction_has_acted_loses_next_turn_move(world: Any, battle: Battle) -> None:
    faction_turn_pass(actor=world.east_leader, faction=world.east)
    second = _east_army_in(world, world.dalmatia)
    battle_support_declare(actor=world.moderator, battle=battle, army=second, side="attacker")
    assert Army.objects.get(pk=second.pk).moved_turn == 2


def test_s8_an_allied_army_next_door_supports_as_reinforcement(world: Any, battle: Battle) -> None:
    ally = ArmyFactory(faction=world.armenia, commander=world.arsaces, province=world.dacia)
    UnitFactory(faction=world.armenia, unit_type=world.infantry, army=ally)
    support = battle_support_declare(
        actor=world.moderator, battle=battle, army=ally, side="attacker"
    )
    assert (support.from_adjacent, Army.objects.get(pk=ally.pk).moved_turn) == (True, None)


def test_s8_support_is_logged(world: Any, battle: Battle) -> None:
    second = _east_army_in(world, world.dacia)
    battle_support_declare(actor=world.east_leader, battle=battle, army=second, side="attacker")
    entry = LogEntry.objects.filter(campaign=world.campaign).last()
    assert (entry.kind, entry.rule, entry.data) == (
        "support_declared",
        "S8",
        {
            "battle": battle.pk,
            "army": second.pk,
            "faction": world.east.pk,
            "side": "attacker",
            "from_adjacent": True,
            "moved_turn": None,
        },
    )


def test_s8_a_defending_army_next_door_supports_the_defence(world: Any, battle: Battle) -> None:
    gauls = ArmyFactory(faction=world.west, commander=world.aetius, province=world.gaul)
    UnitFactory(faction=world.west, unit_type=world.infantry, army=gauls)
    support = battle_support_declare(
        actor=world.west_leader, battle=battle, army=gauls, side="defender"
    )
    assert (support.side, support.from_adjacent) == ("defender", True)


def test_s8_an_enemy_cannot_support(world: Any, battle: Battle) -> None:
    gauls = ArmyFactory(faction=world.west, commander=world.aetius, province=world.gaul)
    with pytest.raises(ServiceError) as refused:
        battle_support_declare(actor=world.moderator, battle=battle, army=gauls, side="attacker")
    assert (refused.value.field, refused.value.message) == ("army", str(NOT_FRIENDLY_SIDE))


def test_s8_a_neutral_cannot_support(world: Any, battle: Battle) -> None:
    with pytest.raises(ServiceError):
        battle_support_declare(
            actor=world.moderator, battle=battle, army=world.goth_army, side="defender"
        )


def test_s8_an_army_far_away_cannot_support(world: Any, battle: Battle) -> None:
    far = _east_army_in(world, world.armenia_province)
    with pytest.raises(ServiceError) as refused:
        battle_support_declare(actor=world.moderator, battle=battle, army=far, side="attacker")
    assert refused.value.message == str(TOO_FAR)


def test_s8_support_only_before_the_battle_starts(world: Any, battle: Battle) -> None:
    battle_tactical_start(actor=world.moderator, battle=battle)
    second = _east_army_in(world, world.dacia)
    with pytest.raises(Conflict) as refused:
        battle_support_declare(actor=world.east_leader, battle=battle, army=second, side="attacker")
    assert (refused.value.message, refused.value.rule) == (str(BATTLE_STARTED), "S8")


def test_s8_support_is_declared_once(world: Any, battle: Battle) -> None:
    second = _east_army_in(world, world.dacia)
    battle_support_declare(actor=world.east_leader, battle=battle, army=second, side="attacker")
    with pytest.raises(Conflict):
        battle_support_declare(actor=world.east_leader, battle=battle, army=second, side="attacker")


def test_s8_only_the_army_commander_leader_or_moderator_declares(world: Any, battle: Battle) -> None:
    second = _east_army_in(world, world.dacia)
    with pytest.raises(Forbidden):
        battle_support_declare(actor=world.west_leader, battle=battle, army=second, side="attacker")


def _all_units(army: Army) -> list[Unit]:
    return list(Unit.objects.filter(army=army).order_by("pk"))


def test_s10_attacker_wins_and_captures_when_no_enemy_remains(world: Any, battle: Battle) -> None:
    east = _all_units(world.east_army)
    west = _all_units(world.west_army)
    changes = [UnitChange(east[0].pk, 3, 0), UnitChange(east[1].pk, 10, 0)] + [
        UnitChange(u.pk, 0, routed=True) for u in west
    ]
    battle_result_apply(
        battle=battle, winner="attacker", unit_changes=changes, actor=world.moderator
    )
    battle.refresh_from_db()
    assert (battle.status, battle.winner) == ("resolved", "attacker")
    assert list(
        Unit.objects.filter(army=world.east_army).order_by("pk").values_list("health_halves", flat=True)
    ) == [3, 10]
    assert (
        Unit.objects.filter(faction=world.west, army=world.west_army).count(),
        Province.objects.get(pk=world.dalmatia.pk).controller,
    ) == (0, world.east)


def test_s10_capture_waits_while_enemy_units_remain(world: Any, battle: Battle) -> None:
    west = _all_units(world.west_army)
    battle_result_apply(
        battle=battle, winner="attacker", unit_changes=[UnitChange(west[0].pk, 0, routed=True)]
    )
    assert Province.objects.get(pk=world.dalmatia.pk).controller == world.west
    assert Army.objects.get(pk=world.west_army.pk).must_retreat is True


def test_s10_defender_wins_and_the_attacker_must_retreat(world: Any, battle: Battle) -> None:
    east = _all_units(world.east_army)
    battle_result_apply(
        battle=battle, winner="defender", unit_changes=[UnitChange(east[0].pk, 4, 0)]
    )
    assert (
        Army.objects.get(pk=world.east_army.pk).must_retreat,
        Army.objects.get(pk=world.west_army.pk).must_retreat,
        Province.objects.get(pk=world.dalmatia.pk).controller,
    ) == (True, False, world.west)


def test_s10_result_is_logged(world: Any, battle: Battle) -> None:
    west = _all_units(world.west_army)
    battle_result_apply(
        battle=battle, winner="attacker", unit_changes=[UnitChange(west[0].pk, 0, routed=True)], reason="T11"
    )
    entry = LogEntry.objects.filter(campaign=world.campaign, kind="battle_resolved").get()
    assert (
        entry.rule,
        entry.reason,
        entry.data["winner"],
        entry.data["routed"],
        entry.data["must_retreat"],
    ) == (
        "S10",
        "T11",
        "attacker",
        [{"unit": west[0].pk, "faction": world.west.pk, "army": world.west_army.pk}],
        [world.west_army.pk],
    )


def test_s10_a_battle_is_resolved_once(world: Any, battle: Battle) -> None:
    battle_result_apply(battle=battle, winner="defender", unit_changes=[])
    with pytest.raises(Conflict):
        battle_result_apply(battle=battle, winner="attacker", unit_changes=[])


def test_s10_units_outside_the_battle_are_refused(world: Any, battle: Battle) -> None:
    with pytest.raises(ServiceError) as refused:
        battle_result_apply(
            battle=battle,
            winner="attacker",
            unit_changes=[UnitChange(world.goth_army.units.get().pk, 0, routed=True)],
        )
    assert refused.value.field == "unit_changes"
    assert Battle.objects.get(pk=battle.pk).status == "pending"


def test_s10_a_routed_attacker_army_survives_as_an_empty_record(world: Any, battle: Battle) -> None:
    east = _all_units(world.east_army)
    battle_result_apply(
        battle=battle, winner="defender", unit_changes=[UnitChange(u.pk, 0, routed=True) for u in east]
    )
    assert (
        Army.objects.get(pk=world.east_army.pk).must_retreat,
        Unit.objects.filter(army=world.east_army).count(),
    ) == (False, 0)
