"""The unit cards (T3) as a player reads them: class, health, speed on each terrain, damage against each class,
volley, arrows and range, Morale (Q2), with the effective values for one battlefield's terrain (T4, T5, T7.3).

One selector for every page that shows a card (the rosters, the turn page, the moderator's card editor);
the rules come from the engine (``combat.battle.movement``), not re-derived here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language

from campaign.models import Campaign
from combat.battle.model import Terrain as EngineTerrain
from combat.battle.model import UnitClass as EngineClass
from combat.battle.model import UnitType as EngineCard
from combat.battle.movement import can_charge, speed
from strategic.models import Terrain, UnitClass, UnitType
from strategic.selectors.rosters import lines_text


@dataclass(frozen=True)
class TerrainValues:
    """What the terrain does to a card (T4, T5, T7.3)."""

    terrain: str
    label: str
    speed: int
    charge: bool
    current: bool = False


@dataclass(frozen=True)
class ClassDamage:
    """The card's damage against one class (T7.2), and its volley's (T9), in lines."""

    unit_class: str
    label: str
    melee: str
    volley: str | None


@dataclass(frozen=True)
class UnitCard:
    """One unit type's card, ready to draw."""

    code: str
    name: str
    unit_class: str
    class_label: str
    mounted: bool
    health: str
    damage: list[ClassDamage]
    shoots: bool
    arrows: int
    range_forward: float
    range_lateral: float
    morale: int
    terrains: list[TerrainValues]
    terrain: TerrainValues | None = None


def _halves(value: Any) -> int:
    return int(Decimal(str(value or 0)) * 2)


def _engine(unit_type: UnitType) -> EngineCard:
    return EngineCard(
        name=unit_type.code,
        unit_class=EngineClass(unit_type.unit_class),
        mounted=unit_type.mounted,
        health=_halves(unit_type.health),
        damage={},
    )


@lru_cache(maxsize=8)
def _labels(language: str) -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """The terrains and the unit classes with their names in ``language``: translated once, not on every card."""
    return (
        tuple((value, str(label)) for value, label in Terrain.choices),
        {value: str(label) for value, label in UnitClass.choices},
    )


def unit_card(unit_type: UnitType, *, campaign: Campaign, terrain: str | None = None) -> UnitCard:
    """The card of ``unit_type``; with ``terrain``, its values on that battlefield are marked (T5)."""
    engine = _engine(unit_type)
    terrain_labels, class_labels = _labels(get_language() or "en")
    terrains = [
        TerrainValues(
            terrain=value,
            label=label,
            speed=speed(engine, EngineTerrain(value)),
            charge=can_charge(engine, EngineTerrain(value)),
            current=value == terrain,
        )
        for value, label in terrain_labels
    ]
    volley = (unit_type.missile_damage or {}) if unit_type.missile else None
    return UnitCard(
        code=unit_type.code,
        name=unit_type.name,
        unit_class=unit_type.unit_class,
        class_label=class_labels[unit_type.unit_class],
        mounted=unit_type.mounted,
        health=lines_text(_halves(unit_type.health)),
        damage=[
            ClassDamage(
                unit_class=cls,
                label=label,
                melee=lines_text(_halves((unit_type.damage or {}).get(cls, 0))),
                volley=None if volley is None else lines_text(_halves(volley.get(cls, 0))),
            )
            for cls, label in class_labels.items()
        ],
        shoots=unit_type.missile,
        arrows=unit_type.arrows if unit_type.missile else 0,
        range_forward=float(campaign.setting("range_forward")),  # type: ignore[arg-type]
        range_lateral=float(campaign.setting("range_lateral")),  # type: ignore[arg-type]
        morale=unit_type.morale,
        terrains=terrains,
        terrain=next((t for t in terrains if t.current), None),
    )


def unit_cards(
    *, campaign: Campaign, terrain: str | None = None, codes: Iterable[str] | None = None
) -> list[UnitCard]:
    """Every unit type's card of ``campaign`` (or those of ``codes``), by code (1 query)."""
    types = UnitType.objects.filter(campaign=campaign).order_by("code")
    if codes is not None:
        types = types.filter(code__in=list(codes))
    return [unit_card(t, campaign=campaign, terrain=terrain) for t in types]
