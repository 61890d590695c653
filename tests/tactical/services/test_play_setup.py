"""Setting a battle up from its strategic record (S7–S9, T9.6, M2)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from campaign.errors import Forbidden
from strategic.models import Battle, BattleSupport
from tactical.models import BattleUnit, LiveBattle
from tactical.services import play as services
from tests.factories import ArmyFactory, UnitFactory
from tests.tactical.builders import units_of


def test_setup_takes_the_attacking_army_and_the_defenders_in_the_province(world: Any, battle: LiveBattle) -> None:
    rows = {(r.engine_id, r.side, r.commander.name) for r in BattleUnit.objects.filter(battle=battle)}
    east = [f"u{u.pk}" for u in world.east_army.units.order_by("id")]
    west = [f"u{u.pk}" for u in world.west_army.units.order_by("id")]
    assert rows == {(east[0], "attacker", "Belisarius"), (east[1], "attacker", "Belisarius"),
                    (west[0], "defender", "Aetius"), (west[1], "defender", "Aetius")}


def test_setup_starts_in_deployment_at_version_1(world: Any, record: Battle) -> None:
    live = services.battle_setup(actor=world.moderator, record=record, map_seed=7)
    assert (live.status, live.version, live.state["phase"], live.deadline) == ("deployment", 1, "deployment", None)


def test_setup_publishes_the_sha256_of_a_secret_seed(battle: LiveBattle) -> None:
    assert len(bytes(battle.seed)) == 32
    assert battle.seed_commitment == hashlib.sha256(bytes(battle.seed)).hexdigest()


def test_setup_moves_the_record_to_the_tactical_map(record: Battle, battle: LiveBattle) -> None:
    record.refresh_from_db()
    assert record.status == Battle.Status.TACTICAL


def test_setup_maps_campaign_settings_to_the_engine(world: Any, record: Battle) -> None:
    world.campaign.settings = {**world.campaign.settings, "turn_seconds": 25, "deployment_rows": 2,
                               "range_forward": 4.5, "reinforcement_round": 3}
    world.campaign.save()
    live = services.battle_setup(actor=world.moderator, record=record, map_seed=1)
    settings = live.state["settings"]
    assert (settings["turn_seconds"], settings["deployment_rows"], settings["range_template"]["forward"],
            settings["reinforcement_round"]) == (25, 2, 4.5, 3)


def test_setup_is_for_moderators_only(world: Any, record: Battle) -> None:
    with pytest.raises(Forbidden):
        services.battle_setup(actor=world.east_general, record=record)


def test_supporters_from_an_adjacent_province_arrive_as_reserves(world: Any, record: Battle) -> None:
    BattleSupport.objects.create(battle=record, army=world.armenian_army, side="attacker", from_adjacent=True)
    live = services.battle_setup(actor=world.moderator, record=record, map_seed=1)
    unit = world.armenian_army.units.get()
    state_unit = next(u for u in live.state["units"] if u["id"] == f"u{unit.pk}")
    assert (state_unit["side"], state_unit["status"], state_unit["reserve_x"]) == ("attacker", "reserve", 9)


def test_same_province_supporters_deploy_with_the_attacker(world: Any, record: Battle) -> None:
    helper = ArmyFactory(faction=world.armenia, commander=world.arsaces, province=world.dalmatia, name="Helpers")
    unit = UnitFactory(faction=world.armenia, unit_type=world.infantry, army=helper)
    BattleSupport.objects.create(battle=record, army=helper, side="attacker", from_adjacent=False)
    live = services.battle_setup(actor=world.moderator, record=record, map_seed=1)
    assert f"u{unit.pk}" in units_of(live, "attacker")
    assert next(u for u in live.state["units"] if u["id"] == f"u{unit.pk}")["status"] == "undeployed"


def test_a_record_without_an_attacking_army_takes_only_its_supporters(world: Any, record: Battle) -> None:
    helper = ArmyFactory(faction=world.armenia, commander=world.arsaces, province=world.dalmatia, name="Helpers")
    unit = UnitFactory(faction=world.armenia, unit_type=world.infantry, army=helper)
    BattleSupport.objects.create(battle=record, army=helper, side="attacker", from_adjacent=False)
    Battle.objects.filter(pk=record.pk).update(attacker_army=None)
    record.refresh_from_db()
    live = services.battle_setup(actor=world.moderator, record=record, map_seed=1)
    assert units_of(live, "attacker") == [f"u{unit.pk}"]
