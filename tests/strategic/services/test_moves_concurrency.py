"""Two simultaneous submissions of the same order apply exactly once (row locks, S5)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from campaign.errors import Conflict
from campaign.models import LogEntry
from campaign.services import economic_phase_end
from strategic.messages import ALREADY_MOVED
from strategic.models import Army
from strategic.services import moves
from tests.factories import build_world
from tests.strategic.builders import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def english() -> Any:
    """The worker threads speak the default language; so must the messages compared with theirs."""
    with translation.override("en"):
        yield


def test_s5_the_same_move_submitted_twice_at_once_applies_once() -> None:
    w = build_world()
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    army = Army.objects.get(pk=w.east_army.pk)
    results = race(
        [
            lambda: moves.army_move(actor=w.east_general, army=army, destination=w.moesia),
            lambda: moves.army_move(actor=w.east_leader, army=army, destination=w.moesia),
        ]
    )
    kinds = sorted(type(r).__name__ for r in results)
    conflict = next(r for r in results if isinstance(r, Conflict))
    assert (kinds, conflict.message) == (["Conflict", "MoveOutcome"], str(ALREADY_MOVED))
    assert (Army.objects.get(pk=army.pk).version, LogEntry.objects.filter(kind="army_moved").count()) == (
        2,
        1,
    )


def test_s5_two_different_moves_of_one_army_at_once_apply_one() -> None:
    w = build_world()
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    army = Army.objects.get(pk=w.east_army.pk)
    results = race(
        [
            lambda: moves.army_move(
                actor=w.east_general, army=army, destination=w.moesia, expected_version=1
            ),
            lambda: moves.army_move(
                actor=w.east_leader, army=army, destination=w.pannonia, expected_version=1
            ),
        ]
    )
    winner = next(r for r in results if isinstance(r, moves.MoveOutcome))
    assert (sum(isinstance(r, Conflict) for r in results), Army.objects.get(pk=army.pk).province_id) == (
        1,
        winner.province.pk,
    )
