"""The strategic map's state, read in a constant number of queries and turned into marks per province: what
``strategic.render.map_svg`` draws as SVG and ``strategic.render.map_png`` as PNG. What is drawn from the same rows
in the same language is kept, since the pages ask for the map far more often than it changes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db.models import Count, TextField
from django.db.models.functions import Cast
from django.utils.translation import get_language

from campaign.models import Campaign, Faction
from strategic.models import Army, Battle, Border, Province, Terrain, Unit

# The shapes' coordinates are those of the models (0..1000 × 0..700); a province with no outline is a circle of
# this radius around its position.
CIRCLE_RADIUS = 30
NEUTRAL_EDGE = "#6b6259"
Point = tuple[float, float]
Outline = tuple[Point, ...]


@dataclass
class ArmyMark:
    """An army counter: its faction colour and unit count."""

    id: int
    name: str
    commander: str
    faction: str
    colour: str
    units: int


@dataclass
class ProvinceMark:
    """A province as drawn: outline, fills, marks and the counters standing in it."""

    id: int
    code: str
    name: str
    terrain: str
    terrain_label: str
    x: int
    y: int
    outline: Outline
    controller: str
    controller_colour: str
    is_capital: bool
    has_fortress: bool
    is_port: bool
    has_tribe: bool
    armies: list[ArmyMark] = field(default_factory=list)
    loose: list[tuple[str, int]] = field(default_factory=list)
    battle: str = ""

    @property
    def is_circle(self) -> bool:
        """True when the province has no outline and is drawn as a circle."""
        return not self.outline


@dataclass
class BorderLine:
    """A border of the map drawn by kind: along the shared edge when there is one, else between centres."""

    kind: str
    segments: list[tuple[Point, Point]]


@dataclass
class MapData:
    """Everything the picture shows."""

    provinces: list[ProvinceMark]
    borders: list[BorderLine]
    title: str
    # The layers over the provinces, drawn once for this map (``map_svg``): they do not depend on the army shown.
    layers: list[str] = field(default_factory=list, compare=False, repr=False)
    # The units in each province by faction, in armies or not (``unit_counts_by_province`` of every province):
    # the turn page's legal moves read them here instead of counting the units again.
    unit_counts: dict[int, dict[int, int]] = field(default_factory=dict, compare=False, repr=False)


@lru_cache(maxsize=4096)
def _outline_of(shape_text: str | None) -> Outline:
    """The outline of a province's shape as read in its JSON text: parsed once per shape, since the map is read
    on every page and its outlines change only when a moderator edits the map."""
    return _outline(json.loads(shape_text)) if shape_text else ()


def _outline(shape: object) -> Outline:
    if not isinstance(shape, list) or len(shape) < 3:
        return ()
    points = tuple(
        (float(vertex[0]), float(vertex[1]))
        for vertex in shape
        if isinstance(vertex, (list, tuple)) and len(vertex) >= 2
    )
    return points if len(points) >= 3 else ()


def _key(p: Point) -> tuple[int, int]:
    return (round(p[0]), round(p[1]))


# Geometry depends only on the map (outlines do not change during play), so it is computed once per outline
# and kept, keyed by the outline itself: an edited map has new outlines and can never get stale geometry.
@lru_cache(maxsize=4096)
def _edges(outline: Outline) -> dict[frozenset[tuple[int, int]], tuple[Point, Point]]:
    edges = {}
    for i, p in enumerate(outline):
        q = outline[(i + 1) % len(outline)]
        if _key(p) != _key(q):
            edges[frozenset((_key(p), _key(q)))] = (p, q)
    return edges


def _connector(a: ProvinceMark, b: ProvinceMark) -> tuple[Point, Point]:
    # A short line between the two positions, stopping short of the labels at both ends.
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1.0
    inset = min(CIRCLE_RADIUS, length / 3)
    ux, uy = dx / length, dy / length
    return ((a.x + ux * inset, a.y + uy * inset), (b.x - ux * inset, b.y - uy * inset))


def _border_lines(marks: dict[int, ProvinceMark], borders: Iterable[tuple[int, int, str]]) -> list[BorderLine]:
    lines = []
    for a_id, b_id, kind in borders:
        a, b = marks.get(a_id), marks.get(b_id)
        if a is None or b is None or kind == Border.Kind.IMPASSABLE:
            continue
        edges_a, edges_b = _edges(a.outline), _edges(b.outline)
        shared = [edges_a[k] for k in edges_a.keys() & edges_b.keys()]
        if kind == Border.Kind.STRAIT or not shared:
            lines.append(BorderLine(kind=kind, segments=[_connector(a, b)]))
        elif kind == Border.Kind.ROUGH:
            lines.append(BorderLine(kind=kind, segments=shared))
    return lines


Pick = Callable[[str | None, str | None], str]


def _name_picker(language: str) -> Pick:
    """Chooses a bilingual name in the reader's language, the English one when there is no other."""
    ru = language.startswith("ru")

    def pick(en: str | None, ru_name: str | None) -> str:
        """The Russian name for a Russian reader when there is one, else the English one."""
        return (ru and ru_name) or en or ""

    return pick


# A row as read: the values of one province or army, in the order of its query.
Row = tuple[Any, ...]


@dataclass(frozen=True)
class MapRows:
    """What ``map_data`` reads, as plain tuples: the same rows in the same language draw the same map."""

    provinces: tuple[Row, ...]
    unit_groups: tuple[tuple[int | None, int | None, int, int], ...]
    colours: tuple[tuple[int, str], ...]
    armies: tuple[Row, ...]
    battles: tuple[tuple[int, int, str], ...]
    borders: tuple[tuple[int, int, str], ...]


def map_data(*, campaign: Campaign, battles: Iterable[Battle] | None = None) -> MapData:
    """Read the map's state: provinces, controllers, borders, armies, loose units and battles (5 queries, 6 with
    units outside armies).

    ``battles`` are the campaign's battles of this turn when the caller has read them already (one query
    fewer). Rows are read as plain values with the factions' names and colours joined in: model instances
    (an army with its commander) cost more than the drawing, and on a busy server every query counts.

    What is drawn from the rows is kept for the same rows in the same language (``_map_from``): the pages ask
    for the map far more often than it changes. The result is shared, so callers only read it.
    """
    rows = _map_rows(campaign=campaign, battles=battles)
    return _map_from(rows, get_language() or "en", campaign.name)


def _map_rows(*, campaign: Campaign, battles: Iterable[Battle] | None) -> MapRows:
    provinces = (
        Province.objects.filter(campaign=campaign)
        .order_by("code")
        .annotate(shape_text=Cast("shape", TextField()))
        .values_list(
            "id",
            "code",
            "name_en",
            "name_ru",
            "terrain",
            "x",
            "y",
            "shape_text",
            "capital_of_id",
            "has_fortress",
            "is_port",
            "has_tribe",
            "controller_id",
            "controller__name_en",
            "controller__name_ru",
            "controller__color",
        )
    )
    # One pass over the units gives both the size of every army and the units outside armies by province
    # and faction: cheaper than counting through a join on the armies. Neither the factions' colours nor an
    # order are asked of it. It counts rows, not ids, so that it is read from the ``unit_map_counts`` index
    # alone (the id is not in it).
    unit_groups = tuple(
        Unit.objects.filter(campaign=campaign)
        .values_list("army_id", "province_id", "faction_id")
        .annotate(n=Count("*"))
        .order_by()
    )
    colours: tuple[tuple[int, str], ...] = ()
    if any(army_id is None for army_id, *_ in unit_groups):
        colours = tuple(Faction.objects.filter(campaign=campaign).values_list("id", "color").order_by("id"))
    armies = (
        Army.objects.filter(campaign=campaign)
        .order_by("faction__turn_order", "name", "id")
        .values_list(
            "id",
            "name",
            "province_id",
            "commander__name",
            "faction__name_en",
            "faction__name_ru",
            "faction__color",
        )
    )
    if battles is None:
        battles = Battle.objects.filter(campaign=campaign, turn=campaign.turn).only("province_id", "status")
    borders = Border.objects.filter(campaign=campaign).values_list("a_id", "b_id", "kind").order_by("id")
    return MapRows(
        provinces=tuple((*p[:7], _outline_of(p[7]), *p[8:]) for p in provinces),
        unit_groups=unit_groups,
        colours=colours,
        armies=tuple(armies),
        battles=tuple(sorted(((b.pk, b.province_id, b.status) for b in battles), reverse=True)),
        borders=tuple(borders),
    )


@lru_cache(maxsize=64)
def _map_from(rows: MapRows, language: str, title: str) -> MapData:
    pick = _name_picker(language)
    marks = _province_marks(rows.provinces, pick)
    army_sizes = _unit_marks(rows, marks)
    _army_marks(rows.armies, marks, army_sizes, pick)
    _battle_marks(rows.battles, marks)
    return MapData(
        provinces=list(marks.values()),
        borders=_border_lines(marks, rows.borders),
        title=title,
        unit_counts=_unit_counts(rows),
    )


def _unit_counts(rows: MapRows) -> dict[int, dict[int, int]]:
    """The units in each province by faction: a unit stands in a province by its own row or by its army's, never
    both (``unit_in_army_or_province``)."""
    army_province = {army_id: province_id for army_id, _, province_id, *_ in rows.armies}
    counts: dict[int, dict[int, int]] = {}
    for army_id, province_id, faction_id, n in rows.unit_groups:
        where = army_province.get(army_id) if army_id is not None else province_id
        if where is not None:
            by_faction = counts.setdefault(where, {})
            by_faction[faction_id] = by_faction.get(faction_id, 0) + n
    return counts


def _province_marks(provinces: Iterable[Row], pick: Pick) -> dict[int, ProvinceMark]:
    """Every province with its controller's name and colour, by id, in code order."""
    terrain_labels = {t.value: str(t.label) for t in Terrain}
    marks: dict[int, ProvinceMark] = {}
    for (pk, code, name_en, name_ru, terrain, x, y, outline, capital_of, fortress, port, tribe, controller,
         controller_en, controller_ru, controller_colour) in provinces:
        marks[pk] = ProvinceMark(
            id=pk,
            code=code,
            name=pick(name_en, name_ru),
            terrain=terrain,
            terrain_label=terrain_labels[terrain],
            x=x,
            y=y,
            outline=outline,
            controller=pick(controller_en, controller_ru),
            controller_colour=controller_colour if controller else NEUTRAL_EDGE,
            is_capital=capital_of is not None,
            has_fortress=fortress,
            is_port=port,
            has_tribe=tribe,
        )
    return marks


def _unit_marks(rows: MapRows, marks: dict[int, ProvinceMark]) -> dict[int, int]:
    """The units outside armies marked on their provinces; returns the size of every army."""
    army_sizes: dict[int, int] = {}
    loose = []
    for army_id, province_id, faction_id, n in rows.unit_groups:
        if army_id is not None:
            army_sizes[army_id] = army_sizes.get(army_id, 0) + n
        elif province_id in marks:
            loose.append((province_id, faction_id, n))
    colours = dict(rows.colours)
    for province_id, faction_id, n in sorted(loose):
        marks[province_id].loose.append((colours[faction_id], n))
    return army_sizes


def _army_marks(
    armies: Iterable[Row], marks: dict[int, ProvinceMark], army_sizes: dict[int, int], pick: Pick
) -> None:
    """The army counters on their provinces, in the factions' turn order."""
    for army_id, name, province_id, commander, faction_en, faction_ru, colour in armies:
        mark = marks.get(province_id)
        if mark is not None:
            mark.armies.append(
                ArmyMark(
                    id=army_id,
                    name=name,
                    commander=commander,
                    faction=pick(faction_en, faction_ru),
                    colour=colour,
                    units=army_sizes.get(army_id, 0),
                )
            )


def _battle_marks(battles: Iterable[tuple[int, int, str]], marks: dict[int, ProvinceMark]) -> None:
    """Each province's battle of this turn, a pending or fought one over a resolved one (newest first)."""
    current = (Battle.Status.PENDING, Battle.Status.TACTICAL)
    for _pk, province_id, status in battles:
        mark = marks.get(province_id)
        if mark is not None and mark.battle not in current:
            mark.battle = status
