"""Fixtures of the moderation tests: the shared world, an observer, a live battle and one that rolled a die."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Membership
from strategic.models import Battle
from tactical.models import LiveBattle
from tactical.services import moderation as moderator_services
from tests.factories import UserFactory, build_world, member
from tests.tactical.builders import (
    act,
    battle_record,
    deploy_both,
    march_into_contact,
    open_field_battle,
    units_of,
)


@pytest.fixture(autouse=True)
def _fast(settings: Any) -> None:
    """No timer task reaches a broker; fast password hashing."""
    settings.TACTICAL_CLOCK_TASKS = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: Any) -> Any:
    """``build_world`` plus an observer of the campaign."""
    w = build_world()
    w.observer = member(w.campaign, Membership.Role.OBSERVER, user=UserFactory(username="observer"))
    return w


@pytest.fixture
def record(world: Any) -> Battle:
    """East's Danube army attacks Dalmatia from Dacia, on a field."""
    return battle_record(world)


@pytest.fixture
def live(world: Any, record: Battle) -> LiveBattle:
    """Round 1 on an open field (map seed 7 has no special cell): version 1 the setup, 2–3 East deploys in row
    18 at x = 8, 9 facing N, 4–5 West in row 2 at x = 8, 9 facing S, 6–7 both sides ready."""
    return deploy_both(open_field_battle(world, record), world)


@pytest.fixture
def in_contact(world: Any, live: LiveBattle) -> LiveBattle:
    """Round 5: East's first unit has marched into contact with West's at (8, 2) and East ended its turn;
    West's second unit could intercept, so the window is open (T10)."""
    march_into_contact(live, world)
    act(live, world.east_general, {"do": "end_turn"})
    return live


@pytest.fixture
def fought(world: Any, in_contact: LiveBattle) -> LiveBattle:
    """No interception; two resolutions (3 against 3) leave East's first unit and West's first unit both at 0
    or less: the battle waits for the moderator's die in version 23, and the moderator rolls it in version 24
    (T7.6, M2)."""
    act(in_contact, world.west_leader, {"do": "end_interceptions"})
    act(in_contact, world.west_leader, {"do": "end_turn"})
    moderator_services.battle_die_roll(actor=world.moderator, battle_id=in_contact.pk, reason="Both units fell")
    in_contact.refresh_from_db()
    return in_contact


@pytest.fixture
def intercepted(world: Any, in_contact: LiveBattle) -> LiveBattle:
    """West's second unit intercepts East's first unit, stepping from (9, 2) to (9, 3), in version 22 (T10)."""
    interceptor, target = units_of(in_contact, "defender")[1], units_of(in_contact, "attacker")[0]
    act(
        in_contact,
        world.west_leader,
        {"do": "intercept", "unit": interceptor, "target": target, "path": [[9, 3]]},
    )
    in_contact.refresh_from_db()
    return in_contact
