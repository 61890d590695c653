"""Simultaneous move orders through the API's path (``army_move_order``): what one commits, the other sees
(the campaign's lock is taken before anything is read; S5, S7, S8)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from campaign.errors import Conflict
from campaign.models import LogEntry
from campaign.services import economic_phase_end
from strategic.messages import ALREADY_MOVED, BATTLE_PENDING_THERE
from strategic.models import Army, Battle
from strategic.services import moves
from tests.factories import ArmyFactory, UnitFactory, build_world
from tests.strategic.builders import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def english() -> Any:
    """The worker threads speak the default language; so must the messages compared with theirs."""
    with translation.override("en"):
        yield


def _order(actor: Any, army: Army, destination: Any) -> Any:
    return lambda: moves.army_move_order(
        actor=actor, campaign_slug="limes", army_id=army.pk, destination_id=destination.pk
    )


def test_s5_the_same_order_submitted_twice_at_once_applies_once() -> None:
    w = build_world()
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    results = race(
        [_order(w.east_general, w.east_army, w.moesia), _order(w.east_leader, w.east_army, w.moesia)]
    )
    conflict = next(r for r in results if isinstance(r, Conflict))
    assert (sorted(type(r).__name__ for r in results), conflict.message) == (
        ["Conflict", "MoveOutcome"],
        str(ALREADY_MOVED),
    )
    assert (
        Army.objects.get(pk=w.east_army.pk).version,
        LogEntry.objects.filter(kind="army_moved").count(),
    ) == (
        2,
        1,
    )


def test_s8_two_armies_ordered_into_one_enemy_province_at_once_begin_one_battle() -> None:
    w = build_world()
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    second = ArmyFactory(faction=w.east, commander=w.narses, province=w.dacia, name="Second army")
    UnitFactory(faction=w.east, unit_type=w.infantry, army=second)
    results = race(
        [_order(w.east_leader, w.east_army, w.dalmatia), _order(w.east_leader, second, w.dalmatia)]
    )
    outcome = next(r for r in results if isinstance(r, moves.MoveOutcome))
    refused = next(r for r in results if isinstance(r, Conflict))
    assert (outcome.kind, refused.message, refused.rule) == (
        "battle",
        str(BATTLE_PENDING_THERE),
        "S8",
    )
    assert Battle.objects.filter(province=w.dalmatia).count() == 1
