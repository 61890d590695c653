"""R6: support points after a battle."""

from __future__ import annotations

import pytest

from combat.errors import InvalidAction
from combat.politics import SupportChange, support_points


@pytest.mark.parametrize(
    ("army", "battle", "retreat", "events", "points"),
    [
        (7, 5, 0, 0, 3),  # the source's example: 5 Roman units lost, 3 points
        (2, 4, 2, 0, 1),  # the source's note: a 2-unit army "losing" 6 gives 1, not 3
        (6, 1, 1, 1, 2),  # battle, retreat and events all count
        (5, 0, 0, 0, 0),
        (5, 1, 0, 0, 1),  # half of 1, rounded up
    ],
)
def test_r6_support_points(army: int, battle: int, retreat: int, events: int, points: int) -> None:
    assert (
        support_points(army_units=army, lost_in_battle=battle, lost_in_retreat=retreat, lost_to_events=events)
        == points
    )


def test_r6_negative_losses_are_refused() -> None:
    with pytest.raises(InvalidAction) as error:
        SupportChange(army_units=3, lost_in_battle=-1, lost_in_retreat=0, lost_to_events=0)
    assert error.value.field == "lost_in_battle"
