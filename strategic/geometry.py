"""Province outlines: Voronoi cells of the province positions, clipped to the map picture.

The map picture is ``MAP_WIDTH`` × ``MAP_HEIGHT``. Each province's cell is the set of points nearer to its
position than to any other site; extra "sea" sites, which are not provinces, take the water between coasts
so that a coast looks like a coast instead of running on to the next province across the sea.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MAP_WIDTH = 1000
MAP_HEIGHT = 700

Point = tuple[float, float]


def _clip(polygon: list[Point], site: Point, other: Point) -> list[Point]:
    """Keep the part of a convex ``polygon`` nearer to ``site`` than to ``other`` (Sutherland–Hodgman)."""
    # A point p is kept when (p - m) · (other - site) <= 0, m being the midpoint of the two sites.
    nx, ny = other[0] - site[0], other[1] - site[1]
    mx, my = (site[0] + other[0]) / 2, (site[1] + other[1]) / 2

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny

    result: list[Point] = []
    count = len(polygon)
    for i in range(count):
        current, following = polygon[i], polygon[(i + 1) % count]
        s_current, s_following = side(current), side(following)
        if s_current <= 0:
            result.append(current)
        if (s_current < 0 < s_following) or (s_following < 0 < s_current):
            t = s_current / (s_current - s_following)
            result.append(
                (current[0] + t * (following[0] - current[0]), current[1] + t * (following[1] - current[1]))
            )
    return result


def voronoi_cell(
    site: Point, others: Sequence[Point], width: float = MAP_WIDTH, height: float = MAP_HEIGHT
) -> list[Point]:
    """The Voronoi cell of ``site`` among ``others``, clipped to the rectangle 0..width × 0..height."""
    polygon: list[Point] = [
        (0.0, 0.0),
        (float(width), 0.0),
        (float(width), float(height)),
        (0.0, float(height)),
    ]
    # Nearer sites cut more: clipping by them first keeps the polygon small for the rest.
    for other in sorted(others, key=lambda o: (o[0] - site[0]) ** 2 + (o[1] - site[1]) ** 2):
        if other == site:
            continue
        polygon = _clip(polygon, site, other)
        if not polygon:
            break
    return polygon


def _rounded(polygon: list[Point], digits: int | None = None) -> list[list[float]]:
    """Whole map units (halves rounded up), with the repeats that rounding makes removed; a cell too thin for
    whole units (two provinces a unit apart at the map's edge) keeps hundredths instead of collapsing."""
    outline: list[list[float]] = []
    for x, y in polygon:
        point = [math.floor(x + 0.5), math.floor(y + 0.5)] if digits is None else [round(x, digits), round(y, digits)]
        if not outline or outline[-1] != point:
            outline.append(point)
    if len(outline) > 1 and outline[0] == outline[-1]:
        outline.pop()
    if digits is None and len(polygon) >= 3 and (len(outline) < 3 or polygon_area(outline) == 0):
        return _rounded(polygon, 2)
    return outline


def province_outlines(
    positions: dict[str, Point],
    sea: Sequence[Point] = (),
    width: float = MAP_WIDTH,
    height: float = MAP_HEIGHT,
) -> dict[str, list[list[float]]]:
    """The outline of every province, by code: its Voronoi cell among all provinces and sea sites."""
    sites = [(float(x), float(y)) for x, y in positions.values()] + [(float(p[0]), float(p[1])) for p in sea]
    return {
        code: _rounded(voronoi_cell((float(x), float(y)), sites, width, height))
        for code, (x, y) in positions.items()
    }


def polygon_area(outline: Sequence[Sequence[float]]) -> float:
    """The area enclosed by an outline (shoelace formula), whatever its orientation."""
    total = 0.0
    for i in range(len(outline)):
        x1, y1 = outline[i]
        x2, y2 = outline[(i + 1) % len(outline)]
        total += x1 * y2 - x2 * y1
    return abs(total) / 2
