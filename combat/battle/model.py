"""The battle's data: enums, unit cards, units, contacts, settings and the whole state (T1–T13).

Health, damage and survivor health are kept in half-lines (T3.1) as ints; the scenario and the
result speak in lines. Every value is frozen; ``BattleState`` mappings are never mutated once built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

GRID_WIDTH = 18
GRID_HEIGHT = 21

Cell = tuple[int, int]
ContactKey = tuple[str, str]


class Side(Enum):
    """The two sides of a battle; the attacker moves first (T6)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


class Facing(Enum):
    """The four facings (T6); N is toward y = 0."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"


class UnitClass(Enum):
    """The five classes a card deals damage against (T3)."""

    LI1 = "LI1"
    LI2 = "LI2"
    HI = "HI"
    LC = "LC"
    HC = "HC"


class Terrain(Enum):
    """The battlefield's terrain type (T5)."""

    FIELD = "field"
    FOREST = "forest"
    MOUNTAINS = "mountains"
    DESERT = "desert"


class CellFeature(Enum):
    """A feature of one cell (T5): swamp, gorge and wall are impassable; a river costs 1 more."""

    SWAMP = "swamp"
    GORGE = "gorge"
    WALL = "wall"
    RIVER = "river"

    @property
    def is_impassable(self) -> bool:
        """Whether no unit may enter the cell."""
        return self is not CellFeature.RIVER


class Phase(Enum):
    """Where the battle is in the T13 sequence."""

    DEPLOYMENT = "deployment"
    MOVE = "move"
    INTERCEPTION = "interception"
    ENDED = "ended"


class Status(Enum):
    """Whether a unit stands on the field or why it does not."""

    FIELD = "field"
    ROUTED = "routed"
    WITHDRAWN = "withdrawn"
    RESERVE = "reserve"  # a reinforcement not yet placed (T9.6)
    UNDEPLOYED = "undeployed"  # not yet placed in the deployment phase


@dataclass(frozen=True, slots=True)
class UnitType:
    """A unit card (T3): health and damage in half-lines."""

    name: str
    unit_class: UnitClass
    mounted: bool
    health: int
    damage: Mapping[UnitClass, int]
    missile: bool = False
    arrows: int = 0
    missile_damage: Mapping[UnitClass, int] | None = None


@dataclass(frozen=True, slots=True)
class RangeTemplate:
    """The volley range ellipse (T9.1): semi-axes in cells along and across the facing."""

    forward: float = 6.5
    lateral: float = 5.5


@dataclass(frozen=True, slots=True)
class Settings:
    """The campaign settings of RULES.md T that change the tactical rules, with their defaults."""

    deployment_rows: int = 3
    turn_seconds: int = 40
    mutual_destruction_survivor_health: float = 1.0
    range_template: RangeTemplate = field(default_factory=RangeTemplate)
    reinforcement_round: int = 6

    @property
    def survivor_halves(self) -> int:
        """``mutual_destruction_survivor_health`` in half-lines."""
        return round(self.mutual_destruction_survivor_health * 2)


@dataclass(frozen=True, slots=True)
class UnitState:
    """One unit and what the rules remember about it."""

    id: str
    side: Side
    type: str
    x: int | None
    y: int | None
    facing: Facing
    health: int
    arrows: int
    status: Status = Status.FIELD
    points: int = 0
    cells_moved: int = 0
    shot: bool = False  # a volley in the current side's turn (T9.3)
    restricted: bool = False  # an interceptor for the rest of its side's turn (T10.3)
    left_melee: bool = False  # left contact in this turn: deals nothing in its resolution (T8.2)
    against: str | None = None  # the enemy it moved against (T7.1)
    reserve_x: int | None = None  # a reinforcement's preset column on its edge row (T9.6)

    def evolve(self, **changes: Any) -> UnitState:
        """A copy with some fields changed: ``dataclasses.replace`` at a fraction of its cost."""
        if not changes.keys() <= _UNIT_FIELDS:
            raise TypeError(f"UnitState has no field {sorted(changes.keys() - _UNIT_FIELDS)}")
        get = changes.get
        return UnitState(
            self.id,
            self.side,
            self.type,
            get("x", self.x),
            get("y", self.y),
            get("facing", self.facing),
            get("health", self.health),
            get("arrows", self.arrows),
            get("status", self.status),
            get("points", self.points),
            get("cells_moved", self.cells_moved),
            get("shot", self.shot),
            get("restricted", self.restricted),
            get("left_melee", self.left_melee),
            get("against", self.against),
            get("reserve_x", self.reserve_x),
        )

    @property
    def on_field(self) -> bool:
        """Whether the unit stands on the field."""
        return self.status is Status.FIELD

    @property
    def cell(self) -> Cell:
        """The unit's cell; only meaningful while it has a position."""
        assert self.x is not None and self.y is not None
        return (self.x, self.y)


_UNIT_FIELDS = frozenset(f.name for f in fields(UnitState))


@dataclass(frozen=True, slots=True)
class Contact:
    """Two enemy units orthogonally adjacent (T7); ``a`` < ``b``; ``seq`` orders formation."""

    a: str
    b: str
    initiator: str | None
    seq: int
    charge: bool = False  # a charge not yet resolved (T7.3)

    @property
    def key(self) -> ContactKey:
        """The contact's key in ``BattleState.contacts``."""
        return (self.a, self.b)

    def other(self, unit_id: str) -> str:
        """The unit on the other side of the contact."""
        return self.b if unit_id == self.a else self.a


def contact_key(one: str, two: str) -> ContactKey:
    """The key of the contact between two units."""
    return (one, two) if one < two else (two, one)


@dataclass(frozen=True, slots=True)
class Interception:
    """An interception declared in the open window (T10), in declared order."""

    unit: str
    target: str
    volley: bool


@dataclass(frozen=True, slots=True)
class BattleState:
    """The whole battle; every mapping is treated as immutable."""

    terrain: Terrain
    cells: Mapping[Cell, CellFeature]
    unit_types: Mapping[str, UnitType]
    settings: Settings
    units: Mapping[str, UnitState]
    contacts: Mapping[ContactKey, Contact] = field(default_factory=dict)
    round: int = 1
    side: Side = Side.ATTACKER
    phase: Phase = Phase.MOVE
    seq: int = 0  # the next contact's formation number
    pairs: tuple[ContactKey, ...] = ()  # the pairs of the previous resolution, in order (T7.1)
    interceptions: tuple[Interception, ...] = ()
    engaged_at_start: frozenset[str] = frozenset()  # units in contact when the turn began (T10)
    winner: Side | None = None
    ready: frozenset[Side] = frozenset()

    def unit_type(self, unit: UnitState) -> UnitType:
        """The card of a unit."""
        return self.unit_types[unit.type]
