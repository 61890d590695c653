"""Values of the quick battle (RULES.md Q1–Q7): the frozen input, every roll, and the result."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from combat.errors import InvalidAction
from combat.retreat.model import health_json

# Q1: battles of fewer than this many men are contested with Tactics instead of Strategy.
TACTICS_BELOW_MEN = 200


class Skill(Enum):
    """The commanders' skill the contest is rolled against (Q1)."""

    STRATEGY = "strategy"
    TACTICS = "tactics"


class Table(Enum):
    """The outcome table (Q3–Q5)."""

    A = "A"
    B = "B"
    C = "C"


class UnitOutcome(Enum):
    """What happens to one unit (Q3–Q5, Q7)."""

    HOLDS = "holds"
    RETREAT = "retreat in good order"
    ROUT = "rout"
    SURRENDER = "surrender"
    THROWN_BACK = "thrown back"


@dataclass(frozen=True)
class Commander:
    """A commander with his effective Strategy and Tactics and whether he has Luck."""

    name: str
    strategy: int
    tactics: int
    luck: bool = False


@dataclass(frozen=True)
class QuickUnit:
    """A unit in a quick battle: id, Morale and current health in lines."""

    id: str
    morale: int
    health: float

    def __post_init__(self) -> None:
        if not self.id:
            raise InvalidAction("unit.id", "must be a non-empty string", code="unit_without_id")
        if self.health <= 0 or (self.health * 2) != int(self.health * 2):
            raise InvalidAction(f"unit {self.id}.health", "must be a positive multiple of 0.5", code="bad_health")


@dataclass(frozen=True)
class QuickSide:
    """One side: its commander, its units, a Morale modifier carried from the day before (Q7), and
    whether it has nowhere to retreat (the Q5 footnote)."""

    commander: Commander
    units: tuple[QuickUnit, ...]
    morale_modifier: int = 0
    nowhere_to_retreat: bool = False


@dataclass(frozen=True)
class QuickBattle:
    """A battle resolved by the quick contest (Q1–Q7)."""

    attacker: QuickSide
    defender: QuickSide
    men: int
    open_field: bool = False
    siege: bool = False
    storm: bool = False
    rout_health_loss: float = 0.5


@dataclass(frozen=True)
class Roll:
    """One 3d6 roll for the campaign log: who rolled, why, against what, the dice and the result.

    ``target`` is the modified skill or Morale; ``modifier`` is the part of it that is not the base value.
    """

    side: str
    roller: str
    purpose: str
    target: int
    dice: tuple[int, int, int]
    modifier: int = 0
    kept: bool = True

    @property
    def total(self) -> int:
        """The sum of the three dice."""
        return sum(self.dice)

    @property
    def margin(self) -> int:
        """Target minus roll: success by this much, or failure by its negative."""
        return self.target - self.total

    @property
    def success(self) -> bool:
        """A roll at most the target succeeds (Q1, Q2)."""
        return self.total <= self.target

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "side": self.side,
            "roller": self.roller,
            "purpose": self.purpose,
            "target": self.target,
            "modifier": self.modifier,
            "dice": list(self.dice),
            "total": self.total,
            "margin": self.margin,
            "success": self.success,
            "kept": self.kept,
        }


@dataclass(frozen=True)
class UnitResult:
    """The outcome for one unit and its health afterwards (Q7)."""

    side: str
    id: str
    outcome: UnitOutcome
    health_before: float
    health_after: float

    @property
    def removed(self) -> bool:
        """Captured (surrender) or left with no health (rout)."""
        return self.outcome is UnitOutcome.SURRENDER or self.health_after <= 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "side": self.side,
            "id": self.id,
            "outcome": self.outcome.value,
            "health_before": health_json(self.health_before),
            "health_after": health_json(self.health_after),
            "removed": self.removed,
        }


@dataclass(frozen=True)
class QuickResult:
    """The resolved quick battle: contest, table and band, every unit's fate and every roll."""

    skill: Skill
    attacker_margin: int
    defender_margin: int
    winner: str | None
    margin: int
    table: Table
    band: str
    result: str
    units: tuple[UnitResult, ...]
    next_day_morale: tuple[int, int]
    position_taken: bool
    commander_captured: bool
    rolls: tuple[Roll, ...]

    def outcome_of(self, unit_id: str) -> UnitOutcome:
        """The outcome of the unit with this id."""
        return next(u.outcome for u in self.units if u.id == unit_id)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data for the campaign log."""
        return {
            "skill": self.skill.value,
            "attacker_margin": self.attacker_margin,
            "defender_margin": self.defender_margin,
            "winner": self.winner,
            "margin": self.margin,
            "table": self.table.value,
            "band": self.band,
            "result": self.result,
            "position_taken": self.position_taken,
            "commander_captured": self.commander_captured,
            "next_day_morale": {"attacker": self.next_day_morale[0], "defender": self.next_day_morale[1]},
            "units": [u.to_dict() for u in self.units],
            "rolls": [r.to_dict() for r in self.rolls],
        }
