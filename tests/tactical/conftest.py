"""Fixtures of the live battle tests (tests/conftest.py checks that every battle replays from its log)."""

from __future__ import annotations

from typing import Any

import pytest

from strategic.models import Battle
from tactical.models import LiveBattle
from tests.factories import build_world
from tests.tactical.builders import battle_record, deploy_both, open_field_battle


@pytest.fixture(autouse=True)
def _no_timer_tasks(settings: Any) -> None:
    """Timer tasks are tested on their own; elsewhere nothing is queued to the broker. Fast passwords."""
    settings.TACTICAL_CLOCK_TASKS = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: Any) -> Any:
    """The campaign of ``build_world``: East (Belisarius, 2 units) attacks West (Aetius, 2 units) in Dalmatia."""
    return build_world()


@pytest.fixture
def record(world: Any) -> Battle:
    """The pending battle record: the Danube army attacks Dalmatia from Dacia, on a field."""
    return battle_record(world)


@pytest.fixture
def battle(world: Any, record: Battle) -> LiveBattle:
    """The live battle in deployment, on an open field (every generated cell cleared)."""
    return open_field_battle(world, record)


@pytest.fixture
def live(world: Any, battle: LiveBattle) -> LiveBattle:
    """Round 1, the attacker to act (``deploy_both``)."""
    return deploy_both(battle, world)
