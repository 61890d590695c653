"""Province outlines: Voronoi cells clipped to the 1000 × 700 map picture."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from strategic.geometry import MAP_HEIGHT, MAP_WIDTH, polygon_area, province_outlines, voronoi_cell

site = st.tuples(st.integers(0, MAP_WIDTH), st.integers(0, MAP_HEIGHT))


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    """Point in a convex polygon (or on its edge), whatever the orientation."""
    signs = set()
    for i in range(len(polygon)):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % len(polygon)]
        cross = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)
        if abs(cross) > 1e-6:
            signs.add(cross > 0)
    return len(signs) <= 1


@settings(max_examples=60, deadline=None)
@given(st.lists(site, min_size=1, max_size=25, unique=True))
def test_cells_tile_the_map(sites: list[tuple[int, int]]) -> None:
    total = sum(polygon_area(voronoi_cell(s, sites)) for s in sites)
    assert abs(total - MAP_WIDTH * MAP_HEIGHT) < 1e-3


@settings(max_examples=60, deadline=None)
@given(st.lists(site, min_size=1, max_size=25, unique=True))
def test_every_site_lies_in_its_own_cell(sites: list[tuple[int, int]]) -> None:
    assert all(_inside(s, voronoi_cell(s, sites)) for s in sites)


def test_a_single_province_fills_the_map() -> None:
    assert province_outlines({"italia": (400, 385)}) == {"italia": [[0, 0], [1000, 0], [1000, 700], [0, 700]]}


def test_two_provinces_split_at_the_midpoint() -> None:
    outlines = province_outlines({"west": (100, 350), "east": (500, 350)})
    assert outlines["west"] == [[0, 0], [300, 0], [300, 700], [0, 700]]


def test_a_sea_site_between_two_coasts_keeps_them_apart() -> None:
    outlines = province_outlines({"west": (100, 350), "east": (900, 350)}, sea=[(500, 350)])
    assert (max(x for x, _ in outlines["west"]), min(x for x, _ in outlines["east"])) == (300, 700)
