"""Battle maps (T5 Interpretation): terrain-specific features, a recorded seed, a route between the zones."""

from __future__ import annotations

import pytest

from combat.battle.model import GRID_HEIGHT, CellFeature, Terrain
from tactical.mapgen import generate, zones_connected

SEEDS = range(60)


@pytest.mark.parametrize("terrain", list(Terrain))
def test_every_map_leaves_a_route_between_the_deployment_zones(terrain: Terrain) -> None:
    assert all(zones_connected(generate(terrain, seed), 3) for seed in SEEDS)


@pytest.mark.parametrize("terrain", list(Terrain))
def test_no_impassable_cell_falls_in_the_deployment_rows(terrain: Terrain) -> None:
    for seed in SEEDS:
        cells = generate(terrain, seed)
        assert not [c for c, f in cells.items() if f.is_impassable and (c[1] < 3 or c[1] >= GRID_HEIGHT - 3)]


def test_the_same_seed_gives_the_same_map() -> None:
    assert generate(Terrain.MOUNTAINS, 1234) == generate(Terrain.MOUNTAINS, 1234)


@pytest.mark.parametrize(
    ("terrain", "features"),
    [
        (Terrain.FOREST, {CellFeature.SWAMP, CellFeature.RIVER}),  # forests: swamps and rivers
        (Terrain.MOUNTAINS, {CellFeature.GORGE, CellFeature.WALL}),  # mountains: gorges and walls
        (Terrain.FIELD, {CellFeature.RIVER}),  # open, rivers possible
        (Terrain.DESERT, {CellFeature.RIVER}),
    ],
)
def test_each_terrain_draws_its_own_features(terrain: Terrain, features: set[CellFeature]) -> None:
    drawn = {f for seed in SEEDS for f in generate(terrain, seed).values()}
    assert drawn == features


def test_fields_are_sometimes_open_and_sometimes_crossed_by_a_river() -> None:
    rivers = [bool(generate(Terrain.FIELD, seed)) for seed in SEEDS]
    assert True in rivers and False in rivers


def test_a_wall_across_the_whole_field_cuts_the_route() -> None:
    wall = {(x, 10): CellFeature.WALL for x in range(18)}
    assert zones_connected(wall, 3) is False
    assert zones_connected({**wall, (4, 10): CellFeature.RIVER}, 3) is True
