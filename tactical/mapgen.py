"""Battle maps generated from the battlefield's terrain with a recorded seed (T5 Interpretation).

Forest: swamps and rivers; mountains: gorges and walls (a maze more than a field); field and desert:
open, a river possible. Impassable cells never fall in the deployment rows, and every map leaves a
passable route between the two deployment zones (checked by a breadth-first search).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping

from combat.battle.geometry import NEIGHBOURS
from combat.battle.model import GRID_HEIGHT, GRID_WIDTH, Cell, CellFeature, Terrain

MAX_ATTEMPTS = 40


def zones_connected(cells: Mapping[Cell, CellFeature], rows: int) -> bool:
    """Whether a passable path joins the defender's rows (top) to the attacker's rows (bottom)."""
    start = [(x, y) for x in range(GRID_WIDTH) for y in range(rows) if _passable(cells, (x, y))]
    seen = set(start)
    queue = deque(start)
    goal = GRID_HEIGHT - rows
    while queue:
        cell = queue.popleft()
        if cell[1] >= goal:
            return True
        for nxt in NEIGHBOURS[cell]:
            if nxt not in seen and _passable(cells, nxt):
                seen.add(nxt)
                queue.append(nxt)
    return False


def _passable(cells: Mapping[Cell, CellFeature], cell: Cell) -> bool:
    feature = cells.get(cell)
    return feature is None or not feature.is_impassable


def generate(terrain: Terrain, seed: int, rows: int = 3) -> dict[Cell, CellFeature]:
    """The map of a battle: the same terrain, seed and deployment rows always give the same cells."""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{seed}:{attempt}")
        cells = _draw(terrain, rng, rows)
        if zones_connected(cells, rows):
            return cells
    # Unreachable in practice (obstacles cover a minority of the middle rows); kept so that a
    # map always exists: an open field with the last attempt's rivers.
    return {cell: feature for cell, feature in cells.items() if feature is CellFeature.RIVER}


def _draw(terrain: Terrain, rng: random.Random, rows: int) -> dict[Cell, CellFeature]:
    cells: dict[Cell, CellFeature] = {}
    top, bottom = rows, GRID_HEIGHT - rows - 1  # the rows obstacles may use
    if bottom < top:
        return cells
    if terrain is Terrain.FOREST:
        for _ in range(rng.randint(1, 2)):
            _river(cells, rng, top, bottom)
        for _ in range(rng.randint(4, 7)):
            _blob(cells, rng, CellFeature.SWAMP, rng.randint(3, 8), top, bottom)
    elif terrain is Terrain.MOUNTAINS:
        for _ in range(rng.randint(3, 5)):
            _walk(cells, rng, CellFeature.GORGE, rng.randint(4, 9), top, bottom)
        for _ in range(rng.randint(4, 7)):
            _wall(cells, rng, rng.randint(3, 7), top, bottom)
    else:
        chance = 0.5 if terrain is Terrain.FIELD else 0.25
        if rng.random() < chance:
            _river(cells, rng, top, bottom)
    return cells


def _river(cells: dict[Cell, CellFeature], rng: random.Random, top: int, bottom: int) -> None:
    """A river meandering across the field from the west edge to the east edge."""
    y = rng.randint(top, bottom)
    for x in range(GRID_WIDTH):
        cells[(x, y)] = CellFeature.RIVER
        if x < GRID_WIDTH - 1 and rng.random() < 0.35:
            step = rng.choice((-1, 1))
            if top <= y + step <= bottom:
                y += step
                cells[(x, y)] = CellFeature.RIVER


def _blob(cells: dict[Cell, CellFeature], rng: random.Random, feature: CellFeature, size: int, top: int, bottom: int) -> None:
    """A compact patch of ``size`` cells grown from a random seed cell."""
    start = (rng.randrange(GRID_WIDTH), rng.randint(top, bottom))
    patch = [start]
    while len(patch) < size:
        base = rng.choice(patch)
        options = [c for c in NEIGHBOURS[base] if top <= c[1] <= bottom and c not in patch]
        if not options:
            break
        patch.append(rng.choice(options))
    for cell in patch:
        cells[cell] = feature


def _walk(cells: dict[Cell, CellFeature], rng: random.Random, feature: CellFeature, length: int, top: int, bottom: int) -> None:
    """A winding line of ``length`` cells (a gorge)."""
    x, y = rng.randrange(GRID_WIDTH), rng.randint(top, bottom)
    for _ in range(length):
        cells[(x, y)] = feature
        options = [c for c in NEIGHBOURS[(x, y)] if top <= c[1] <= bottom]
        x, y = rng.choice(options)


def _wall(cells: dict[Cell, CellFeature], rng: random.Random, length: int, top: int, bottom: int) -> None:
    """A straight rock wall, mostly across the field."""
    horizontal = rng.random() < 0.7
    x, y = rng.randrange(GRID_WIDTH), rng.randint(top, bottom)
    dx, dy = (1, 0) if horizontal else (0, 1)
    for _ in range(length):
        if 0 <= x < GRID_WIDTH and top <= y <= bottom:
            cells[(x, y)] = CellFeature.WALL
        x, y = x + dx, y + dy
