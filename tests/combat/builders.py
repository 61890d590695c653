"""Small builders shared by the engine tests."""

from __future__ import annotations

from typing import Any

from combat.battle.model import BattleState
from combat.battle.scenario import load

ONES = {"LI1": 1, "LI2": 1, "HI": 1, "LC": 1, "HC": 1}
TYPES: dict[str, Any] = {
    "infantry": {
        "class": "HI",
        "mounted": False,
        "health": 5,
        "damage": {"LI1": 3, "LI2": 3, "HI": 3, "LC": 2, "HC": 2},
    },
    "cavalry": {
        "class": "HC",
        "mounted": True,
        "health": 5,
        "damage": {"LI1": 3, "LI2": 3, "HI": 2, "LC": 3, "HC": 3},
    },
    "spearmen": {
        "class": "HI",
        "mounted": False,
        "health": 5,
        "damage": {"LI1": 2, "LI2": 2, "HI": 2, "LC": 4, "HC": 4},
    },
    "archers": {
        "class": "LI1",
        "mounted": False,
        "health": 3,
        "damage": ONES,
        "missile": True,
        "arrows": 4,
        "missile_damage": {"LI1": 2, "LI2": 2, "HI": 2, "LC": 1, "HC": 1},
    },
    "light": {"class": "LI2", "mounted": False, "health": 4, "damage": ONES},
}


def unit(
    uid: str, side: str, kind: str, x: int, y: int, facing: str | None = None, **extra: Any
) -> dict[str, Any]:
    """A unit spec in the scenario format."""
    spec: dict[str, Any] = {"id": uid, "side": side, "type": kind, "x": x, "y": y}
    spec["facing"] = facing or ("N" if side == "attacker" else "S")
    spec.update(extra)
    return spec


def scenario(units: list[dict[str, Any]], terrain: str = "field", **extra: Any) -> dict[str, Any]:
    """A scenario dict with the shared unit types."""
    data: dict[str, Any] = {"terrain": terrain, "unit_types": TYPES, "units": units, "actions": []}
    data.update(extra)
    return data


def battle(units: list[dict[str, Any]], terrain: str = "field", **extra: Any) -> BattleState:
    """The starting state of a scenario built from unit specs."""
    return load(scenario(units, terrain, **extra))[0]


T12_UNITS = [
    unit("hi", "attacker", "infantry", 9, 9, "N"),
    unit("hc", "attacker", "cavalry", 12, 9, "N"),
    unit("left", "defender", "spearmen", 8, 5, "S"),
    unit("right", "defender", "spearmen", 9, 5, "S"),
]
