"""A map of any number of provinces in the map file's format: a grid, each province bordering its neighbours."""

from __future__ import annotations

import math
from typing import Any

TERRAINS = ("field", "forest", "mountains", "desert", "field")


def grid_map(count: int) -> dict[str, Any]:
    """``count`` provinces on a square-ish grid of a 1000×700 picture, borders between grid neighbours."""
    columns = math.ceil(math.sqrt(count * 10 / 7))
    rows = math.ceil(count / columns)
    step_x, step_y = 1000 // (columns + 1), 700 // (rows + 1)
    provinces, borders = [], []
    for n in range(count):
        row, column = divmod(n, columns)
        provinces.append({
            "code": f"p{n:03d}", "name_en": f"Province {n}", "name_ru": f"Провинция {n}",
            "terrain": TERRAINS[n % len(TERRAINS)], "x": step_x * (column + 1) + (row % 2) * step_x // 3,
            "y": step_y * (row + 1), "port": n % 7 == 0, "fortress": n % 5 == 0, "fortress_capacity": 3,
            "tribe": n % 11 == 0,
        })
        if column > 0:
            borders.append({"a": f"p{n - 1:03d}", "b": f"p{n:03d}", "kind": "normal"})
        if row > 0:
            borders.append({"a": f"p{n - columns:03d}", "b": f"p{n:03d}", "kind": "rough" if n % 6 else "normal"})
    return {"format": "limes-map", "version": 1, "width": 1000, "height": 700, "provinces": provinces,
            "borders": borders, "transitions": [], "sea": []}
