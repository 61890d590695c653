"""The grid (T1), facings and turning (T6), own edges and the volley range template (T9.1)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from combat.battle.model import GRID_HEIGHT, GRID_WIDTH, Cell, Facing, RangeTemplate, Side, UnitState

DELTAS: dict[Facing, Cell] = {
    Facing.N: (0, -1),
    Facing.E: (1, 0),
    Facing.S: (0, 1),
    Facing.W: (-1, 0),
}
# T13: when one step touches several enemies, the first of N, E, S, W is the one moved against.
ORDER: tuple[Facing, ...] = (Facing.N, Facing.E, Facing.S, Facing.W)
_INDEX = {facing: index for index, facing in enumerate(ORDER)}


def in_grid(x: int, y: int) -> bool:
    """Whether (x, y) lies on the 18×21 grid."""
    return 0 <= x < GRID_WIDTH and 0 <= y < GRID_HEIGHT


def _build_neighbours() -> dict[Cell, tuple[Cell, ...]]:
    table: dict[Cell, tuple[Cell, ...]] = {}
    for x in range(GRID_WIDTH):
        for y in range(GRID_HEIGHT):
            table[(x, y)] = tuple((x + dx, y + dy) for dx, dy in DELTAS.values() if in_grid(x + dx, y + dy))
    return table


NEIGHBOURS: Mapping[Cell, tuple[Cell, ...]] = _build_neighbours()
"""The orthogonal neighbours of every cell on the grid, in N, E, S, W order."""


def is_step(one: Cell, two: Cell) -> bool:
    """Whether two cells are one orthogonal step apart."""
    return abs(one[0] - two[0]) + abs(one[1] - two[1]) == 1


def front_cell(unit: UnitState) -> Cell:
    """The cell a unit faces."""
    dx, dy = DELTAS[unit.facing]
    x, y = unit.cell
    return (x + dx, y + dy)


def turn_cost(current: Facing, wanted: Facing) -> int:
    """Points to turn (T6): 1 per 90 degrees, 2 for 180."""
    steps = (_INDEX[wanted] - _INDEX[current]) % 4
    return (0, 1, 2, 1)[steps]


def edge_row(side: Side) -> int:
    """A side's own edge row (T1, T11): y = 20 for the attacker, 0 for the defender."""
    return GRID_HEIGHT - 1 if side is Side.ATTACKER else 0


def deployment_rows(side: Side, rows: int) -> range:
    """The rows a side deploys in (T1, ``deployment_rows``)."""
    return range(GRID_HEIGHT - rows, GRID_HEIGHT) if side is Side.ATTACKER else range(rows)


def default_facing(side: Side) -> Facing:
    """The facing toward the enemy's edge."""
    return Facing.N if side is Side.ATTACKER else Facing.S


@lru_cache(maxsize=16)
def range_offsets(template: RangeTemplate) -> tuple[tuple[int, int], ...]:
    """The (forward, lateral) offsets in range (T9.1): (f/forward)² + (l/lateral)² ≤ 1, own cell out."""
    reach_f, reach_l = int(template.forward), int(template.lateral)
    offsets = []
    for f in range(-reach_f, reach_f + 1):
        for lateral in range(-reach_l, reach_l + 1):
            if (f, lateral) != (0, 0) and (f / template.forward) ** 2 + (
                lateral / template.lateral
            ) ** 2 <= 1:
                offsets.append((f, lateral))
    return tuple(offsets)


def in_range(shooter: UnitState, target: Cell, template: RangeTemplate) -> bool:
    """Whether a cell lies in a shooter's range template (T9.1)."""
    x, y = shooter.cell
    dx, dy = target[0] - x, target[1] - y
    forward, lateral = (dy, dx) if shooter.facing in (Facing.N, Facing.S) else (dx, dy)
    if (forward, lateral) == (0, 0):
        return False
    return (forward / template.forward) ** 2 + (lateral / template.lateral) ** 2 <= 1


def cells_in_range(shooter: UnitState, template: RangeTemplate) -> list[Cell]:
    """Every grid cell in a shooter's range (T9.1), sorted by (y, x)."""
    x, y = shooter.cell
    vertical = shooter.facing in (Facing.N, Facing.S)
    cells = []
    for forward, lateral in range_offsets(template):
        cx, cy = (x + lateral, y + forward) if vertical else (x + forward, y + lateral)
        if in_grid(cx, cy):
            cells.append((cx, cy))
    return sorted(cells, key=lambda cell: (cell[1], cell[0]))
