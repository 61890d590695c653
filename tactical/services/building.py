"""The engine's starting state built from the strategic battle record (S7, S8, S9, T9.6) and the settings."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q

from campaign.models import Campaign, Commander
from combat.battle.geometry import default_facing
from combat.battle.model import (
    GRID_WIDTH,
    BattleState,
    Cell,
    CellFeature,
    Phase,
    RangeTemplate,
    Settings,
    Side,
    Status,
    Terrain,
    UnitClass,
    UnitState,
    UnitType,
)
from strategic.models import Battle, Unit
from strategic.models import UnitType as CardModel


@dataclass(frozen=True)
class Combatant:
    """A strategic unit entering the battle: its side, commander and whether it arrives late (T9.6)."""

    unit: Unit
    side: Side
    commander: Commander | None
    reinforcement: bool

    @property
    def engine_id(self) -> str:
        """The unit's id in the engine and on the board."""
        return engine_id(self.unit.pk)


def engine_id(unit_pk: int) -> str:
    """The engine id of a strategic unit."""
    return f"u{unit_pk}"


def engine_settings(campaign: Campaign) -> Settings:
    """The campaign settings of RULES.md T as the engine's ``Settings``."""
    return Settings(
        deployment_rows=int(campaign.setting("deployment_rows")),  # type: ignore[call-overload]
        turn_seconds=int(campaign.setting("turn_seconds")),  # type: ignore[call-overload]
        mutual_destruction_survivor_health=float(campaign.setting("mutual_destruction_survivor_health")),  # type: ignore[arg-type]
        range_template=RangeTemplate(
            forward=float(campaign.setting("range_forward")),  # type: ignore[arg-type]
            lateral=float(campaign.setting("range_lateral")),  # type: ignore[arg-type]
        ),
        reinforcement_round=int(campaign.setting("reinforcement_round")),  # type: ignore[call-overload]
    )


def _halves(value: Any) -> int:
    return int(Decimal(str(value)) * 2)


def _damage(table: Any) -> dict[UnitClass, int]:
    table = table or {}
    return {cls: _halves(table.get(cls.value, 0)) for cls in UnitClass}


def engine_card(card: CardModel) -> UnitType:
    """A unit card (T3) in half-lines."""
    return UnitType(
        name=card.name_en,
        unit_class=UnitClass(card.unit_class),
        mounted=card.mounted,
        health=_halves(card.health),
        damage=_damage(card.damage),
        missile=card.missile,
        arrows=card.arrows if card.missile else 0,
        missile_damage=_damage(card.missile_damage) if card.missile and card.missile_damage else None,
    )


def _commander_of(unit: Unit) -> Commander | None:
    if unit.army_id is not None:
        return unit.army.commander  # type: ignore[union-attr]
    return unit.faction.leader


def combatants(record: Battle) -> list[Combatant]:
    """Who fights (S7, S8): the attacking army and its supporters; the defender's units in the province."""
    result: list[Combatant] = []
    seen: set[int] = set()
    units = Unit.objects.select_related("army__commander", "faction__leader", "unit_type")

    def add(queryset: Any, side: Side, reinforcement: bool) -> None:
        for unit in queryset.order_by("id"):
            if unit.pk not in seen:
                seen.add(unit.pk)
                result.append(Combatant(unit, side, _commander_of(unit), reinforcement))

    if record.attacker_army_id is not None:  # the record keeps no army once it was destroyed
        add(units.filter(army_id=record.attacker_army_id), Side.ATTACKER, False)
    supports = list(record.supports.select_related("army").order_by("id"))
    for support in supports:
        if support.side == Battle.Side.ATTACKER and not support.from_adjacent:
            add(units.filter(army=support.army), Side.ATTACKER, False)
    in_province = Q(army__province=record.province) | Q(army__isnull=True, province=record.province)
    defenders = units.filter(in_province, faction=record.defender_faction)
    if defenders.filter(in_fortress=False).exists():
        defenders = defenders.filter(in_fortress=False)  # the garrison stays in the city unless it is all there is
    add(defenders, Side.DEFENDER, False)
    for support in supports:
        side = Side(support.side)
        if support.from_adjacent or side is Side.DEFENDER:
            add(units.filter(army=support.army), side, support.from_adjacent)
    return result


def initial_state(
    record: Battle, fighters: list[Combatant], cells: dict[Cell, CellFeature], settings: Settings
) -> BattleState:
    """Round 1, deployment phase: every unit undeployed, reinforcements in reserve on preset columns."""
    cards: dict[str, UnitType] = {}
    units: dict[str, UnitState] = {}
    reserves = {side: [f for f in fighters if f.side is side and f.reinforcement] for side in Side}
    for fighter in fighters:
        card = fighter.unit.unit_type
        cards[card.code] = engine_card(card)
        reserve_x = None
        if fighter.reinforcement:
            group = reserves[fighter.side]
            reserve_x = (group.index(fighter) * GRID_WIDTH) // len(group) + GRID_WIDTH // (2 * len(group))
        units[fighter.engine_id] = UnitState(
            id=fighter.engine_id,
            side=fighter.side,
            type=card.code,
            x=None,
            y=None,
            facing=default_facing(fighter.side),
            health=fighter.unit.health_halves,
            arrows=fighter.unit.arrows if card.missile else 0,
            status=Status.RESERVE if fighter.reinforcement else Status.UNDEPLOYED,
            reserve_x=reserve_x,
        )
    return BattleState(
        terrain=Terrain(record.terrain),
        cells=cells,
        unit_types=cards,
        settings=settings,
        units=units,
        phase=Phase.DEPLOYMENT,
    )


def roster_entry(fighter: Combatant) -> dict[str, Any]:
    """The static facts the board shows about a unit."""
    unit = fighter.unit
    faction = unit.faction
    commander = fighter.commander
    return {
        "name": unit.name or unit.unit_type.name_en,
        "faction": {"id": faction.pk, "name": faction.name_en, "name_ru": faction.name_ru, "color": faction.color},
        "commander": None if commander is None else {"id": commander.pk, "name": commander.name},
        "reinforcement": fighter.reinforcement,
        "max_health": float(unit.unit_type.health),
    }
