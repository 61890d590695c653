"""Builders of live battles for the tactical, moderation and browser tests, and the replay check (M3)."""

from __future__ import annotations

from typing import Any

from combat.battle.serialize import state_to_dict
from strategic.models import Battle
from tactical.models import LiveBattle
from tactical.selectors.replay import state_rebuild
from tactical.services import play as services


def battle_record(world: Any) -> Battle:
    """``build_world``'s pending battle record: the Danube army attacks Dalmatia from Dacia, on a field."""
    return Battle.objects.create(
        campaign=world.campaign, turn=1, province=world.dalmatia, origin=world.dacia, terrain="field",
        attacker_army=world.east_army, attacker_faction=world.east, defender_faction=world.west,
    )


def open_field_battle(world: Any, record: Battle) -> LiveBattle:
    """The live battle of ``record`` in deployment, on an open field: map seed 7, every generated cell cleared
    (version 1 the setup, version 2 the map edit when seed 7 made any cell)."""
    live = services.battle_setup(actor=world.moderator, record=record, map_seed=7)
    cells = [{"x": x, "y": y, "feature": None} for x, y, _ in live.state["cells"]]
    if cells:
        services.battle_map_edit(actor=world.moderator, battle_id=live.pk, cells=cells)
    live.refresh_from_db()
    return live


def units_of(battle: LiveBattle, side: str) -> list[str]:
    """Engine ids of a side's units, in order."""
    return [u["id"] for u in battle.state["units"] if u["side"] == side]


def act(battle: LiveBattle, user: Any, action: dict[str, Any], **kw: Any) -> services.ActionResult:
    """Apply an action through the one service."""
    return services.battle_action_apply(actor=user, battle_id=battle.pk, action=action, **kw)


def deploy_both(battle: LiveBattle, world: Any) -> LiveBattle:
    """Round 1, the attacker to act: East in row 18 at x = 8, 9 facing N; West in row 2 at x = 8, 9 facing S
    (four deploys, then both sides ready)."""
    for x, unit in zip((8, 9), units_of(battle, "attacker"), strict=True):
        act(battle, world.east_general, {"do": "deploy", "unit": unit, "x": x, "y": 18, "facing": "N"})
    for x, unit in zip((8, 9), units_of(battle, "defender"), strict=True):
        act(battle, world.west_leader, {"do": "deploy", "unit": unit, "x": x, "y": 2, "facing": "S"})
    act(battle, world.east_general, {"do": "ready", "side": "attacker"})
    act(battle, world.west_leader, {"do": "ready", "side": "defender"})
    battle.refresh_from_db()
    return battle


def march_into_contact(battle: LiveBattle, world: Any) -> None:
    """East's first unit walks from (8, 18) to (8, 3), into contact with West's unit at (8, 2), in round 5."""
    east = units_of(battle, "attacker")[0]
    paths = [[[8, 17], [8, 16], [8, 15]], [[8, 14], [8, 13], [8, 12]], [[8, 11], [8, 10], [8, 9]],
             [[8, 8], [8, 7], [8, 6]]]
    for path in paths:
        act(battle, world.east_general, {"do": "move", "unit": east, "path": path})
        act(battle, world.east_general, {"do": "end_turn"})
        act(battle, world.west_leader, {"do": "end_turn"})
    act(battle, world.east_general, {"do": "move", "unit": east, "path": [[8, 5], [8, 4], [8, 3]]})


def battles_not_replaying() -> list[int]:
    """The ids of the live battles whose state rebuilt from the event log is not the stored state (M3)."""
    return [
        battle.pk
        for battle in LiveBattle.objects.order_by("pk")
        if state_to_dict(state_rebuild(battle)) != battle.state
    ]
