"""Movement points (T4, T5), path checks (T6, T8.1) and reachable cells."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from combat.battle.geometry import NEIGHBOURS, in_grid, is_step
from combat.battle.model import BattleState, Cell, CellFeature, Side, Terrain, UnitState, UnitType
from combat.errors import IllegalAction

CHARGE_CELLS = 3  # T7.3 "more than 2 cells"
_TERRAIN_PENALTY: dict[Terrain, tuple[int, int]] = {  # (infantry, cavalry), T5
    Terrain.FIELD: (0, 0),
    Terrain.FOREST: (0, 1),
    Terrain.MOUNTAINS: (1, 2),
    Terrain.DESERT: (0, 1),
}


def speed(unit_type: UnitType, terrain: Terrain) -> int:
    """Movement points per turn (T4) after the terrain (T5)."""
    infantry, cavalry = _TERRAIN_PENALTY[terrain]
    return 6 - cavalry if unit_type.mounted else 3 - infantry


def can_charge(unit_type: UnitType, terrain: Terrain) -> bool:
    """Whether a unit of this type may ever charge on this terrain (T7.3, T5)."""
    return unit_type.mounted and terrain not in (Terrain.FOREST, Terrain.MOUNTAINS)


def step_cost(cells: Mapping[Cell, CellFeature], cell: Cell) -> int:
    """Points to enter a passable cell: 1, or 2 for a river (T5)."""
    return 2 if cells.get(cell) is CellFeature.RIVER else 1


def enemy_zone(state: BattleState, side: Side) -> set[Cell]:
    """Cells orthogonally adjacent to a unit of the other side: entering one ends a move (T6)."""
    zone: set[Cell] = set()
    for unit in state.units.values():
        if unit.on_field and unit.side is not side:
            zone.update(NEIGHBOURS[unit.cell])
    return zone


@dataclass(frozen=True, slots=True)
class PathCheck:
    """A path that passed T6: its cost and whether its last step made contact."""

    cost: int
    contact: bool


def check_path(
    state: BattleState,
    occupied: Mapping[Cell, str],
    unit: UnitState,
    path: Sequence[Cell],
    budget: int,
    bound_to: Sequence[Cell] = (),
    extra_cost: int = 0,
) -> PathCheck:
    """Check every step of a path (T6, T8.1, T4) or raise ``IllegalAction`` at the first bad one.

    ``bound_to``: cells of the enemies a bound unit is leaving; its first step must touch none.
    ``extra_cost``: points the action needs after the path (stepping off the field, T11).
    """
    zone = enemy_zone(state, unit.side)
    position = unit.cell
    cost = 0
    contact = False
    for index, cell in enumerate(path):
        where = f"step {index + 1} to ({cell[0]}, {cell[1]})"
        if contact:
            raise IllegalAction("T6", f"the move ends on contact; {where} goes on after it",
                                 code="path_past_contact", params={"step": index + 1, "x": cell[0], "y": cell[1]})
        if not is_step(position, cell):
            raise IllegalAction(
                "T6", f"{where} is not one orthogonal step from ({position[0]}, {position[1]})",
                code="path_not_step", params={"step": index + 1, "x": cell[0], "y": cell[1], "from_x": position[0], "from_y": position[1]},
            )
        if not in_grid(*cell):
            raise IllegalAction("T6", f"{where} leaves the field; only a withdrawal (T11) may do that",
                                 code="path_off_field", params={"step": index + 1, "x": cell[0], "y": cell[1]})
        feature = state.cells.get(cell)
        if feature is not None and feature.is_impassable:
            raise IllegalAction("T6", f"{where} enters an impassable {feature.value}",
                                 code="path_impassable", params={"step": index + 1, "x": cell[0], "y": cell[1], "feature": feature.value})
        holder = occupied.get(cell)
        if holder is not None and holder != unit.id:
            raise IllegalAction("T6", f"{where} enters a cell occupied by {holder}",
                                 code="path_occupied", params={"step": index + 1, "x": cell[0], "y": cell[1], "unit": holder})
        if index == 0 and bound_to and any(is_step(cell, enemy) for enemy in bound_to):
            raise IllegalAction(
                "T8.1", f"a unit in melee must step out of contact first; {where} stays in contact",
                code="path_stays_in_contact", params={"step": index + 1, "x": cell[0], "y": cell[1]},
            )
        cost += step_cost(state.cells, cell)
        if cost + extra_cost > budget:
            raise IllegalAction("T4", f"{where} needs {cost + extra_cost} points; {unit.id} has {budget}",
                                 code="path_too_costly",
                                 params={"step": index + 1, "x": cell[0], "y": cell[1], "cost": cost + extra_cost, "unit": unit.id, "points": budget})
        position = cell
        contact = cell in zone
    if extra_cost and cost + extra_cost > budget:
        raise IllegalAction(
            "T4", f"stepping off the field needs {cost + extra_cost} points; {unit.id} has {budget}",
            code="withdraw_too_costly", params={"cost": cost + extra_cost, "unit": unit.id, "points": budget},
        )
    return PathCheck(cost, contact)


def reachable(
    state: BattleState,
    unit: UnitState,
    budget: int,
    occupied: Mapping[Cell, str],
    bound_to: Sequence[Cell] = (),
) -> dict[Cell, int]:
    """Every cell a unit can end a move on within ``budget`` points, with its least cost.

    A cell next to an enemy ends the path there (T6); a bound unit's first step must leave every
    enemy it touches (T8.1). The unit's own cell is not listed.
    """
    best, _ = _search(state, unit, budget, occupied, bound_to)
    return best


@dataclass(frozen=True, slots=True)
class Route:
    """A cheapest legal path to a cell: its cost, the cells entered, and whether it ends on contact (T6)."""

    cost: int
    path: tuple[Cell, ...]
    contact: bool


def routes(
    state: BattleState,
    unit: UnitState,
    budget: int,
    occupied: Mapping[Cell, str],
    bound_to: Sequence[Cell] = (),
) -> dict[Cell, Route]:
    """Every cell of ``reachable`` with one cheapest legal path to it, in the order the search found them.

    Each path passes ``check_path`` with the same budget: the board offers these paths and the engine
    accepts them (one search for both).
    """
    best, previous = _search(state, unit, budget, occupied, bound_to)
    zone = enemy_zone(state, unit.side)
    found: dict[Cell, Route] = {}
    for end, cost in best.items():
        path = [end]
        while previous[path[-1]] != unit.cell:
            path.append(previous[path[-1]])
        found[end] = Route(cost, tuple(reversed(path)), end in zone)
    return found


def shortest_path(
    state: BattleState,
    unit: UnitState,
    end: Cell,
    budget: int,
    occupied: Mapping[Cell, str],
    bound_to: Sequence[Cell] = (),
) -> tuple[Cell, ...] | None:
    """A cheapest legal path to ``end`` within ``budget`` (the cells entered), or None."""
    best, previous = _search(state, unit, budget, occupied, bound_to)
    if end not in best:
        return None
    path = [end]
    while previous[path[-1]] != unit.cell:
        path.append(previous[path[-1]])
    return tuple(reversed(path))


def _search(
    state: BattleState,
    unit: UnitState,
    budget: int,
    occupied: Mapping[Cell, str],
    bound_to: Sequence[Cell],
) -> tuple[dict[Cell, int], dict[Cell, Cell]]:
    """Uniform-cost search with one bucket per cost (steps cost 1 or 2); cells next to an enemy end a
    path there and are not expanded (T6). A bucket is taken in (x, y) order, so that of two cheapest
    paths the same one is found every time."""
    zone = enemy_zone(state, unit.side)
    features = state.cells
    start = unit.cell
    best: dict[Cell, int] = {start: 0}
    previous: dict[Cell, Cell] = {}
    buckets: list[list[Cell]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    for cost in range(budget + 1):
        for cell in sorted(buckets[cost]):
            if best[cell] != cost or (cell in zone and cell != start):
                continue
            for nxt in NEIGHBOURS[cell]:
                if nxt in occupied:
                    continue
                feature = features.get(nxt) if features else None
                if feature is None:
                    total = cost + 1
                elif feature is CellFeature.RIVER:
                    total = cost + 2
                else:
                    continue
                if total > budget:
                    continue
                known = best.get(nxt)
                if known is not None and known <= total:
                    continue
                if cell == start and bound_to and any(is_step(nxt, enemy) for enemy in bound_to):
                    continue
                best[nxt] = total
                previous[nxt] = cell
                buckets[total].append(nxt)
    del best[start]
    return best, previous
