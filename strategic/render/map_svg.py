"""The strategic map picture: the game state read in a constant number of queries, drawn as SVG.

Coordinates are those of the models (0..1000 × 0..700). A province with no outline is drawn as a circle
around its position. The PNG rendering of the same picture is in ``strategic.render.map_png``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape

from django.db.models import Count, TextField
from django.db.models.functions import Cast
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaign.models import Campaign, Faction
from strategic.models import Army, Battle, Border, Province, Terrain, Unit

WIDTH, HEIGHT = 1000, 700
CIRCLE_RADIUS = 30
SEA = "#b9d3dc"
NEUTRAL_EDGE = "#6b6259"
INK = "#2b2118"
TERRAIN_FILL = {
    Terrain.FIELD: "#e4e2a6",
    Terrain.FOREST: "#a9c98a",
    Terrain.MOUNTAINS: "#cdb89c",
    Terrain.DESERT: "#f1dba3",
}
TERRAIN_MARK = {
    Terrain.FIELD: "#b9b06a",
    Terrain.FOREST: "#4f7a3a",
    Terrain.MOUNTAINS: "#7d6248",
    Terrain.DESERT: "#c79b52",
}
DESTINATION_COLOUR = {"move": "#f2c230", "capture": "#e07b00", "battle": "#c0161d"}
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


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=4096)
def _path(points: Outline) -> str:
    return "M" + " L".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points) + " Z"


def star_points(cx: float, cy: float, outer: float, inner: float) -> list[Point]:
    """The ten corners of a five-pointed star, first point up."""
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    return points


def counter_positions(mark: ProvinceMark) -> list[Point]:
    """Top-left corners of the army counters, side by side under the name."""
    n = len(mark.armies)
    width = n * 26 + (n - 1) * 4
    return [(mark.x - width / 2 + i * 30, mark.y + 9) for i in range(n)]


def _patterns() -> str:
    mark = TERRAIN_MARK
    return (
        '<pattern id="t-field" width="14" height="14" patternUnits="userSpaceOnUse">'
        f'<rect width="14" height="14" fill="{TERRAIN_FILL[Terrain.FIELD]}"/>'
        f'<path d="M3 10 l2 -4 M9 4 l2 -3" stroke="{mark[Terrain.FIELD]}" stroke-width="1"/></pattern>'
        '<pattern id="t-forest" width="16" height="16" patternUnits="userSpaceOnUse">'
        f'<rect width="16" height="16" fill="{TERRAIN_FILL[Terrain.FOREST]}"/>'
        f'<circle cx="4" cy="5" r="2.6" fill="{mark[Terrain.FOREST]}"/>'
        f'<circle cx="12" cy="12" r="2.6" fill="{mark[Terrain.FOREST]}"/></pattern>'
        '<pattern id="t-mountains" width="20" height="16" patternUnits="userSpaceOnUse">'
        f'<rect width="20" height="16" fill="{TERRAIN_FILL[Terrain.MOUNTAINS]}"/>'
        f'<path d="M2 12 l5 -8 l5 8 M11 6 l3 -4 l3 4" fill="none" stroke="{mark[Terrain.MOUNTAINS]}" '
        'stroke-width="1.4"/></pattern>'
        '<pattern id="t-desert" width="12" height="12" patternUnits="userSpaceOnUse">'
        f'<rect width="12" height="12" fill="{TERRAIN_FILL[Terrain.DESERT]}"/>'
        f'<circle cx="3" cy="3" r="1" fill="{mark[Terrain.DESERT]}"/>'
        f'<circle cx="9" cy="8" r="1" fill="{mark[Terrain.DESERT]}"/></pattern>'
        '<pattern id="sea" width="40" height="20" patternUnits="userSpaceOnUse">'
        f'<rect width="40" height="20" fill="{SEA}"/>'
        '<path d="M4 12 q5 -4 10 0 t10 0" fill="none" stroke="#9dbfcb" stroke-width="1"/></pattern>'
    )


def _province_svg(m: ProvinceMark, destination: str | None, is_origin: bool) -> str:
    classes = ["province", f"terrain-{m.terrain}"]
    if destination:
        classes += ["dest", f"dest-{destination}"]
    if is_origin:
        classes.append("origin")
    title = m.name + " — " + m.terrain_label + (" — " + m.controller if m.controller else "")
    if destination:
        title += " — " + {"move": _("move"), "capture": _("capture"), "battle": _("battle")}.get(
            destination, ""
        )
    if m.is_circle:
        shape = f'<circle cx="{m.x}" cy="{m.y}" r="{CIRCLE_RADIUS}"'
    else:
        shape = f'<path d="{_path(m.outline)}"'
    fill = f'fill="url(#t-{m.terrain})"'
    tint = (
        shape + f' fill="{m.controller_colour}" fill-opacity="{0.22 if m.controller else 0}" stroke="none"/>'
    )
    edge = shape + f' fill="none" stroke="{m.controller_colour}" stroke-width="3" stroke-linejoin="round"/>'
    parts = [
        (
            f'<g class="{" ".join(classes)}" data-province="{m.id}" data-code="{escape(m.code)}" '
            f'id="province-{escape(m.code)}"><title>{escape(title)}</title>'
        ),
        shape + f" {fill}/>",
        tint,
        edge,
    ]
    if destination or is_origin:
        colour = DESTINATION_COLOUR.get(destination or "", "#1b4f9c")
        parts.append(
            shape + f' class="highlight" fill="{colour}" fill-opacity="0.35" stroke="{colour}" '
            'stroke-width="5" stroke-dasharray="10 5"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _marks_svg(m: ProvinceMark) -> str:
    out = []
    left = m.x - 8 - len(m.name) * 3.6
    if m.is_capital:
        points = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in star_points(left - 6, m.y - 10, 8, 3.4))
        out.append(
            f'<polygon class="capital" points="{points}" fill="#d4a017" stroke="{INK}" stroke-width="1">'
            f"<title>{escape(_('capital'))}</title></polygon>"
        )
    icons = []
    if m.has_fortress:
        icons.append(
            f'<g class="fortress"><title>{escape(_("fortress city"))}</title>'
            '<path d="M-6 6 V-4 h3 v2 h2 v-2 h2 v2 h2 v-2 h3 V6 Z" fill="#8a8178" stroke="#2b2118"/></g>'
        )
    if m.is_port:
        icons.append(
            f'<g class="port"><title>{escape(_("port"))}</title>'
            '<path d="M0 -6 V6 M-5 1 q5 8 10 0 M-3 -3 h6" fill="none" stroke="#1f4e79" stroke-width="1.8"/>'
            '<circle cx="0" cy="-6" r="1.8" fill="none" stroke="#1f4e79" stroke-width="1.4"/></g>'
        )
    if m.has_tribe:
        icons.append(
            f'<g class="tribe"><title>{escape(_("tribe"))}</title>'
            '<path d="M-6 6 L0 -6 L6 6 Z M0 -6 V6" fill="#b5651d" stroke="#2b2118"/></g>'
        )
    for i, icon in enumerate(icons):
        out.append(
            f'<g transform="translate({_fmt(m.x - (len(icons) - 1) * 8 + i * 16)},{m.y - 26})">{icon}</g>'
        )
    if m.battle:
        colour = "#c0161d" if m.battle != Battle.Status.RESOLVED else "#6b6259"
        out.append(
            f'<g class="battle battle-{m.battle}" transform="translate({m.x + 30},{m.y - 22})">'
            f"<title>{escape(_('battle'))}</title>"
            f'<circle r="10" fill="#fff8e7" stroke="{colour}" stroke-width="2"/>'
            f'<path d="M-5 -5 L5 5 M5 -5 L-5 5" stroke="{colour}" stroke-width="2.6"/></g>'
        )
    return "".join(out)


def _label_svg(m: ProvinceMark) -> str:
    return f'<text class="label" x="{m.x}" y="{m.y}" text-anchor="middle">{escape(m.name)}</text>'


def _counters_svg(m: ProvinceMark) -> str:
    out = []
    for (x, y), army in zip(counter_positions(m), m.armies):
        title = f"{army.name} — {army.commander} — {army.faction}"
        out.append(
            f'<g class="army" data-army="{army.id}"><title>{escape(title)}</title>'
            f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="26" height="18" rx="2" fill="{army.colour}" '
            f'stroke="{INK}" stroke-width="1.5"/>'
            f'<text x="{_fmt(x + 13)}" y="{_fmt(y + 13.5)}" text-anchor="middle" class="count">'
            f"{army.units}</text></g>"
        )
    for i, (colour, n) in enumerate(m.loose):
        cx, cy = m.x + 40 + i * 16, m.y + 18
        out.append(
            f'<g class="loose"><title>{escape(_("units outside armies"))}: {n}</title>'
            f'<circle cx="{cx}" cy="{cy}" r="7" fill="{colour}" stroke="{INK}" stroke-dasharray="2 1.5"/>'
            f'<text x="{cx}" y="{cy + 3.5}" text-anchor="middle" class="loose-count">{n}</text></g>'
        )
    return "".join(out)


def _borders_svg(borders: list[BorderLine]) -> str:
    style = {
        Border.Kind.NORMAL: 'stroke="#5b4a3a" stroke-width="1.5" stroke-opacity="0.7"',
        Border.Kind.ROUGH: 'stroke="#5b3a1a" stroke-width="3" stroke-dasharray="9 5"',
        Border.Kind.STRAIT: (
            'stroke="#1f6fb2" stroke-width="3" stroke-dasharray="1.5 5" stroke-linecap="round"'
        ),
    }
    out = []
    for line in borders:
        for (x1, y1), (x2, y2) in line.segments:
            out.append(
                f'<line class="border border-{line.kind}" x1="{_fmt(x1)}" y1="{_fmt(y1)}" '
                f'x2="{_fmt(x2)}" y2="{_fmt(y2)}" {style[line.kind]}/>'
            )
    return "".join(out)


# The map's own style sheet, written into the SVG file (``standalone``). A page that draws the map inline
# takes the same rules from static/css/limes.css instead: its Content-Security-Policy (style-src 'self')
# refuses a <style> element in the page.
MAP_STYLE = (
    ".label{font:bold 13px 'DejaVu Serif',Georgia,serif;fill:#2b2118;paint-order:stroke;"
    "stroke:#fffaf0;stroke-width:3px;pointer-events:none}"
    ".count{font:bold 12px sans-serif;fill:#fff;paint-order:stroke;stroke:#000;stroke-width:2px}"
    ".loose-count{font:bold 9px sans-serif;fill:#fff}.dest{cursor:pointer}"
    ".borders,.marks,.labels{pointer-events:none}"
    ".dest:hover .highlight{fill-opacity:.6}"
)


def map_svg(
    data: MapData,
    *,
    destinations: dict[int, str] | None = None,
    origin: int | None = None,
    standalone: bool = False,
) -> str:
    """The map as an SVG document; ``destinations`` (province id → kind) are highlighted and clickable.

    ``standalone``: a file of its own, carrying its style sheet (``MAP_STYLE``); otherwise the picture is
    drawn inside a page, whose style sheet has the same rules.
    """
    destinations = destinations or {}
    provinces = "".join(_province_svg(m, destinations.get(m.id), m.id == origin) for m in data.provinces)
    if not data.layers:
        data.layers.append(
            f'<g class="borders">{_borders_svg(data.borders)}</g>'
            f'<g class="marks">{"".join(_marks_svg(m) for m in data.provinces)}</g>'
            f'<g class="labels">{"".join(_label_svg(m) for m in data.provinces)}</g>'
            f'<g class="counters">{"".join(_counters_svg(m) for m in data.provinces)}</g>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" class="limes-map" role="img" aria-label="{escape(data.title)}">'
        f"<defs>{_patterns()}</defs>"
        + (f"<style>{MAP_STYLE}</style>" if standalone else "")
        + f'<rect width="{WIDTH}" height="{HEIGHT}" fill="url(#sea)"/>'
        f'<g class="provinces">{provinces}</g>'
        + data.layers[0]
        + "</svg>"
    )


def legend_items() -> list[tuple[str, str]]:
    """(css class, label) pairs for the legend under the map."""
    return [
        ("terrain-field", str(Terrain.FIELD.label)),
        ("terrain-forest", str(Terrain.FOREST.label)),
        ("terrain-mountains", str(Terrain.MOUNTAINS.label)),
        ("terrain-desert", str(Terrain.DESERT.label)),
        ("border-rough", str(Border.Kind.ROUGH.label)),
        ("border-strait", str(Border.Kind.STRAIT.label)),
        ("capital", _("capital")),
        ("fortress", _("fortress city")),
        ("port", _("port")),
        ("tribe", _("tribe")),
        ("battle", _("battle")),
        ("army", _("army (number of units)")),
        ("loose", _("units outside armies")),  # the dashed circle of the map (S2)
    ]
