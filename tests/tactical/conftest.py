"""Fixtures of the live battle tests, and the check that every battle a test made replays from its log (M3)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from combat.battle.serialize import state_to_dict
from strategic.models import Battle
from tactical.models import LiveBattle
from tactical.selectors.replay import state_rebuild
from tactical.services import play as services
from tests.factories import build_world


@pytest.fixture(autouse=True)
def _no_timer_tasks(settings: Any) -> None:
    """Timer tasks are tested on their own; elsewhere nothing is queued to the broker. Fast passwords."""
    settings.TACTICAL_CLOCK_TASKS = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _log_rebuilds_every_battle(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test, every battle's state rebuilt from its event log equals the stored state (M3)."""
    names = request.fixturenames
    if "transactional_db" in names:
        request.getfixturevalue("transactional_db")  # set up first, so torn down after this check
    elif "db" in names:
        request.getfixturevalue("db")
    else:
        yield
        return
    yield
    for battle in LiveBattle.objects.all():
        assert state_to_dict(state_rebuild(battle)) == battle.state, f"battle {battle.pk} does not replay"


@pytest.fixture
def world(db: Any) -> Any:
    """The campaign of ``build_world``: East (Belisarius, 2 units) attacks West (Aetius, 2 units) in Dalmatia."""
    return build_world()


@pytest.fixture
def record(world: Any) -> Battle:
    """The pending battle record: the Danube army attacks Dalmatia from Dacia, on a field."""
    return Battle.objects.create(
        campaign=world.campaign, turn=1, province=world.dalmatia, origin=world.dacia, terrain="field",
        attacker_army=world.east_army, attacker_faction=world.east, defender_faction=world.west,
    )


@pytest.fixture
def battle(world: Any, record: Battle) -> LiveBattle:
    """The live battle in deployment, on an open field (every generated cell cleared)."""
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


@pytest.fixture
def live(world: Any, battle: LiveBattle) -> LiveBattle:
    """Round 1, the attacker to act (``deploy_both``)."""
    return deploy_both(battle, world)


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
