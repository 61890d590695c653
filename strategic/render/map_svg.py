"""The strategic map picture: the state read by ``strategic.render.map_data``, drawn as SVG.

Coordinates are those of the models (0..1000 × 0..700). A province with no outline is drawn as a circle
around its position. The PNG rendering of the same picture is in ``strategic.render.map_png``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from xml.sax.saxutils import escape

from django.utils.translation import gettext as _

from strategic.models import Battle, Border, Terrain
from strategic.render.map_data import CIRCLE_RADIUS, BorderLine, MapData, Outline, Point, ProvinceMark

WIDTH, HEIGHT = 1000, 700
SEA = "#b9d3dc"
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
