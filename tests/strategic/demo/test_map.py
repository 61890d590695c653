"""The demo map's data agrees with its picture: land borders are where the drawn outlines meet."""

from __future__ import annotations

import json
from itertools import combinations

from strategic.demo.loader import demo_map
from strategic.geometry import province_outlines


def _touching(outline_a: list[list[int]], outline_b: list[list[int]]) -> bool:
    # Cells that share an edge share its two end points (within rounding).
    near = {(x + dx, y + dy) for x, y in outline_a for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return sum((x, y) in near for x, y in outline_b) >= 2


def _outlines() -> dict[str, list[list[int]]]:
    data = demo_map()
    return province_outlines({p["code"]: (p["x"], p["y"]) for p in data["provinces"]}, data["sea"])


def test_every_land_border_is_drawn_as_touching_outlines() -> None:
    outlines = _outlines()
    apart = [
        (b["a"], b["b"])
        for b in demo_map()["borders"]
        if b["kind"] != "strait" and not _touching(outlines[b["a"]], outlines[b["b"]])
    ]
    assert apart == []


def test_outlines_that_touch_have_a_border() -> None:
    outlines = _outlines()
    borders = {frozenset((b["a"], b["b"])) for b in demo_map()["borders"]}
    missing = [
        (a, b)
        for a, b in combinations(sorted(outlines), 2)
        if _touching(outlines[a], outlines[b]) and frozenset((a, b)) not in borders
    ]
    assert missing == []


def test_the_file_is_utf8_json_in_the_import_format() -> None:
    data = demo_map()
    assert (data["format"], data["version"], len(data["provinces"]), len(data["borders"])) == (
        "limes-map",
        1,
        34,
        56,
    )
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
