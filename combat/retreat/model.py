"""Values of the strategic retreat (RULES.md R1–R5): the frozen input, the options and the result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from combat.errors import InvalidAction

# R1.3: a retreat may not enter more than four provinces.
MAX_PROVINCES_ENTERED = 4


def health_json(health: float) -> float | int:
    """Health for JSON: a whole number of lines as an integer, a half line as a decimal."""
    return int(health) if health == int(health) else health


class BorderKind(Enum):
    """What a border between two provinces allows (S5, R1.3)."""

    NORMAL = "normal"
    ROUGH = "rough"
    STRAIT = "strait"
    IMPASSABLE = "impassable"


class Side(Enum):
    """Which side of the battle the retreating army fought on."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True)
class ArmyUnit:
    """One unit: its id and current health in lines (halves allowed).

    ``faction`` is empty for a unit of the retreating faction and names the ally for an allied unit swept
    up on the route (R2): it stays that faction's unit.
    """

    id: str
    health: float
    faction: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            raise InvalidAction("unit.id", "must be a non-empty string", code="unit_without_id")
        if self.health <= 0 or (self.health * 2) != int(self.health * 2):
            raise InvalidAction(f"unit {self.id}.health", "must be a positive multiple of 0.5", code="bad_health")

    def to_dict(self) -> dict[str, Any]:
        """The unit as JSON-ready data (``faction`` only for an allied unit)."""
        data: dict[str, Any] = {"id": self.id, "health": health_json(self.health)}
        if self.faction:
            data["faction"] = self.faction
        return data


@dataclass(frozen=True)
class Fortress:
    """A fortress city (R3): who holds it, how many units it takes, how many are inside.

    ``garrison`` counts the holder's units inside; ``allied_garrison`` the units of other factions inside
    (by faction), such as defenders of an ally that retreated into the city (R3). Both fill the city and
    neither is in the field.
    """

    holder: str
    capacity: int = 3
    garrison: int = 0
    allied_garrison: Mapping[str, int] = field(default_factory=dict)

    @property
    def room(self) -> int:
        """Units that can still go into the city."""
        return max(0, self.capacity - self.garrison - sum(self.allied_garrison.values()))

    def inside(self, faction: str) -> int:
        """A faction's units inside the city."""
        return self.garrison if faction == self.holder else self.allied_garrison.get(faction, 0)


@dataclass(frozen=True)
class Province:
    """A province as the retreat sees it.

    ``units`` counts every unit present by faction, garrisons included (the retreating army itself
    excluded). ``own_units`` lists, with ids and health, the retreating faction's units in the field
    here (not its garrison), and ``allied_units`` its allies' field units, each with its ``faction``;
    they are needed only where a chosen route sweeps them up (R2).
    """

    name: str
    controller: str | None = None
    port: bool = False
    fortress: Fortress | None = None
    tribe: bool = False
    units: Mapping[str, int] = field(default_factory=dict)
    own_units: tuple[ArmyUnit, ...] = ()
    allied_units: tuple[ArmyUnit, ...] = ()

    def count(self, factions: frozenset[str]) -> int:
        """Units present here that belong to any of ``factions``."""
        return sum(n for faction, n in self.units.items() if faction in factions)


@dataclass(frozen=True)
class Border:
    """A border between two provinces and its kind."""

    a: str
    b: str
    kind: BorderKind = BorderKind.NORMAL


@dataclass(frozen=True)
class RetreatInput:
    """Everything R1–R5 need, frozen: the map, the relations, the battle and the beaten army."""

    faction: str
    side: Side
    units: tuple[ArmyUnit, ...]
    battle_province: str
    attacker_origin: str
    provinces: Mapping[str, Province]
    borders: tuple[Border, ...]
    allies: frozenset[str] = frozenset()
    enemies: frozenset[str] = frozenset()
    sallied: bool = False
    sea_movement: bool = False
    naval_capacity: int = 0
    came_by_sea: bool = False
    # R2: friendly units met on the route are swept up; the campaign may limit that to the faction's own.
    sweep_allies: bool = True

    @property
    def friendly(self) -> frozenset[str]:
        """The retreating faction and its allies (S1)."""
        return self.allies | {self.faction}

    def is_third_power(self, faction: str) -> bool:
        """A faction neither friendly nor at war with the retreating one (S1)."""
        return faction not in self.friendly and faction not in self.enemies


@dataclass(frozen=True)
class RetreatChoice:
    """The retreating commander's choice; empty fields mean "not chosen"."""

    route: tuple[str, ...] = ()
    sea_port: str | None = None
    fortress_units: tuple[str, ...] = ()
    sea_units: tuple[str, ...] = ()
    lost_units: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sweep:
    """R2: friendly units picked up in a province on the route; ``allied`` of the ``count`` are allies'."""

    province: str
    count: int
    allied: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"province": self.province, "count": self.count, "allied": self.allied}


# R4: why a province of the route costs units, by code, in English; "enemy_units" has params {"count": n}.
PENALTY_TEXTS = {
    "enemy_control": "enemy control",
    "enemy_fortress_city": "enemy fortress city",
    "tribe": "tribe",
    "enemy_units": "{count} enemy units",
}


@dataclass(frozen=True)
class PenaltyReason:
    """One reason a province of the route costs units (R4): a stable ``code`` (one of ``PENALTY_TEXTS``)
    and the values of its sentence (``params``), so that a caller can say it in another language
    (``campaign.refusals.penalty_reason``), as with ``Blocked``; ``text`` is the English."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The reason in English: "enemy control", "1 enemy unit", "2 enemy units"."""
        if self.params.get("count") == 1:
            return "1 enemy unit"
        return PENALTY_TEXTS[self.code].format(**self.params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"code": self.code, "params": dict(self.params), "text": self.text}


@dataclass(frozen=True)
class Penalty:
    """R4: the extra losses one province of the route costs, and why."""

    province: str
    reasons: tuple[PenaltyReason, ...]
    units: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"province": self.province, "reasons": [r.to_dict() for r in self.reasons], "units": self.units}


@dataclass(frozen=True)
class RouteOption:
    """One legal land route (R1), with what it sweeps up (R2) and what it costs (R4)."""

    path: tuple[str, ...]
    swept: tuple[Sweep, ...]
    penalties: tuple[Penalty, ...]
    army_size: int

    @property
    def destination(self) -> str:
        """The province the route ends in."""
        return self.path[-1]

    @property
    def penalty(self) -> int:
        """Extra units the route costs (R4)."""
        return sum(p.units for p in self.penalties)

    @property
    def losses(self) -> int:
        """Units actually lost: the penalty, at most the whole army."""
        return min(self.penalty, self.army_size)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "path": list(self.path),
            "destination": self.destination,
            "swept": [s.to_dict() for s in self.swept],
            "army_size_after_sweep": self.army_size,
            "penalties": [p.to_dict() for p in self.penalties],
            "penalty": self.penalty,
            "survivors": self.army_size - self.losses,
        }


@dataclass(frozen=True)
class FortressOption:
    """R3: going into the friendly fortress city of the battle's province."""

    province: str
    room: int
    required: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"province": self.province, "room": self.room, "required": self.required}


@dataclass(frozen=True)
class SeaOption:
    """R5: the friendly ports the army may sail to and how many units can go (None: all)."""

    ports: tuple[str, ...]
    capacity: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"ports": list(self.ports), "capacity": self.capacity}


@dataclass(frozen=True)
class Blocked:
    """Why no land route is open: the rule, a stable ``code`` and the values of its sentence (``params``),
    so that a caller can say it in another language (``campaign.refusals``), as with ``IllegalAction``."""

    rule: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"rule": self.rule, "code": self.code, "params": dict(self.params)}


@dataclass(frozen=True)
class RetreatOptions:
    """Where the beaten army may go: land routes, fortress, sea; or why it is destroyed (R1.4)."""

    army_size: int
    nearest_distance: int | None
    destinations: tuple[str, ...]
    routes: tuple[RouteOption, ...]
    fortress: FortressOption | None
    sea: SeaOption | None
    land_blocked_reason: str | None
    land_blocked: Blocked | None = None  # the reason above as rule, code and params

    @property
    def is_destroyed(self) -> bool:
        """No land route, no fortress and no sea: R1.4."""
        return not self.routes and self.fortress is None and self.sea is None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "army_size": self.army_size,
            "nearest_distance": self.nearest_distance,
            "destinations": list(self.destinations),
            "routes": [r.to_dict() for r in self.routes],
            "fortress": self.fortress.to_dict() if self.fortress else None,
            "sea": self.sea.to_dict() if self.sea else None,
            "land_blocked_reason": self.land_blocked_reason,
            "land_blocked": self.land_blocked.to_dict() if self.land_blocked else None,
            "destroyed": self.is_destroyed,
        }


@dataclass(frozen=True)
class RetreatResult:
    """The executed retreat: where each part went and the army that remains."""

    kind: str
    destination: str | None
    path: tuple[str, ...]
    fortress_units: tuple[ArmyUnit, ...]
    army: tuple[ArmyUnit, ...]
    swept_units: tuple[ArmyUnit, ...]
    lost_units: tuple[ArmyUnit, ...]
    destroyed_units: tuple[ArmyUnit, ...]
    penalty: int
    reason: str | None = None

    @property
    def units_lost(self) -> int:
        """Units the retreat cost (penalties, left behind, destroyed), for R6."""
        return len(self.lost_units) + len(self.destroyed_units)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "kind": self.kind,
            "destination": self.destination,
            "path": list(self.path),
            "fortress_units": [u.to_dict() for u in self.fortress_units],
            "army": [u.to_dict() for u in self.army],
            "swept_units": [u.to_dict() for u in self.swept_units],
            "penalty": self.penalty,
            "lost_units": [u.to_dict() for u in self.lost_units],
            "destroyed_units": [u.to_dict() for u in self.destroyed_units],
            "units_lost": self.units_lost,
            "reason": self.reason,
        }
