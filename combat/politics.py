"""Political consequences of a battle (RULES.md R6): the winner's support points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from combat.errors import InvalidAction


@dataclass(frozen=True)
class SupportChange:
    """R6: how many support points the winner places for itself and/or removes from the loser."""

    army_units: int
    lost_in_battle: int
    lost_in_retreat: int
    lost_to_events: int

    def __post_init__(self) -> None:
        for name in ("army_units", "lost_in_battle", "lost_in_retreat", "lost_to_events"):
            if getattr(self, name) < 0:
                raise InvalidAction(name, "must not be negative")

    @property
    def units_lost(self) -> int:
        """Units the loser actually lost: never more than the army had."""
        return min(self.army_units, self.lost_in_battle + self.lost_in_retreat + self.lost_to_events)

    @property
    def points(self) -> int:
        """Half the units actually lost, rounded up."""
        return (self.units_lost + 1) // 2

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data for the campaign log."""
        return {
            "army_units": self.army_units,
            "lost_in_battle": self.lost_in_battle,
            "lost_in_retreat": self.lost_in_retreat,
            "lost_to_events": self.lost_to_events,
            "units_lost": self.units_lost,
            "support_points": self.points,
        }


def support_points(
    *, army_units: int, lost_in_battle: int, lost_in_retreat: int = 0, lost_to_events: int = 0
) -> int:
    """R6: ceil(units the loser actually lost / 2); losses beyond the army's size do not count.

    ``army_units`` is every unit the beaten army had at the start of the battle plus any swept up
    in the retreat (R2), since those too could be lost.

    >>> support_points(army_units=2, lost_in_battle=4, lost_in_retreat=2)
    1
    >>> support_points(army_units=7, lost_in_battle=5)
    3
    """
    return SupportChange(army_units, lost_in_battle, lost_in_retreat, lost_to_events).points
