"""The strategic map as a PNG picture (Pillow), for forum posts: the same drawing as the SVG."""

from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from strategic.models import Battle, Border, Terrain
from strategic.render.map_data import CIRCLE_RADIUS, MapData, Point, ProvinceMark
from strategic.render.map_svg import (
    HEIGHT,
    INK,
    SEA,
    TERRAIN_FILL,
    TERRAIN_MARK,
    WIDTH,
    counter_positions,
    star_points,
)

FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
)
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=8)
def font(size: int) -> Font:
    """A bold serif font with Cyrillic (DejaVu), else Pillow's own."""
    for path in FONT_FILES:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def rgb(colour: str) -> tuple[int, int, int]:
    """#rrggbb as an RGB triple (grey when malformed)."""
    colour = colour.lstrip("#")
    if len(colour) != 6:
        return (136, 136, 136)
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))


def _outline(m: ProvinceMark) -> list[Point]:
    if m.outline:
        return list(m.outline)
    return [
        (
            m.x + CIRCLE_RADIUS * math.cos(a / 24 * 2 * math.pi),
            m.y + CIRCLE_RADIUS * math.sin(a / 24 * 2 * math.pi),
        )
        for a in range(24)
    ]


@lru_cache(maxsize=4)
def _texture(terrain: str) -> Image.Image:
    """A full-size tile of the terrain's pattern."""
    tile = Image.new("RGB", (WIDTH, HEIGHT), TERRAIN_FILL.get(terrain, "#dddddd"))
    draw = ImageDraw.Draw(tile)
    mark = TERRAIN_MARK.get(terrain, "#999999")
    for y in range(0, HEIGHT, 16):
        for x in range(0, WIDTH, 16):
            if terrain == Terrain.FOREST:
                draw.ellipse((x + 1, y + 2, x + 7, y + 8), fill=mark)
                draw.ellipse((x + 9, y + 9, x + 15, y + 15), fill=mark)
            elif terrain == Terrain.MOUNTAINS:
                draw.line([(x + 2, y + 12), (x + 7, y + 4), (x + 12, y + 12)], fill=mark, width=1)
            elif terrain == Terrain.DESERT:
                draw.point([(x + 3, y + 3), (x + 10, y + 9)], fill=mark)
            else:
                draw.line([(x + 3, y + 10), (x + 5, y + 6)], fill=mark, width=1)
    return tile


def _dashed(
    draw: ImageDraw.ImageDraw, a: Point, b: Point, *, fill: str, width: int, dash: float, gap: float
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        if dash <= 2:
            draw.ellipse(
                (
                    a[0] + ux * pos - width / 2,
                    a[1] + uy * pos - width / 2,
                    a[0] + ux * pos + width / 2,
                    a[1] + uy * pos + width / 2,
                ),
                fill=fill,
            )
        else:
            draw.line(
                [(a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * end, a[1] + uy * end)],
                fill=fill,
                width=width,
            )
        pos = end + gap


def _provinces(image: Image.Image, data: MapData) -> None:
    for m in data.provinces:
        points = _outline(m)
        mask = Image.new("L", image.size, 0)
        ImageDraw.Draw(mask).polygon(points, fill=255)
        image.paste(_texture(m.terrain), (0, 0), mask)
        if m.controller:
            tint = Image.new("RGB", image.size, rgb(m.controller_colour))
            image.paste(tint, (0, 0), mask.point(lambda v: v * 56 // 255))
    draw = ImageDraw.Draw(image)
    for m in data.provinces:
        points = _outline(m)
        draw.line([*points, points[0]], fill=rgb(m.controller_colour), width=3, joint="curve")


def _borders(draw: ImageDraw.ImageDraw, data: MapData) -> None:
    for line in data.borders:
        for a, b in line.segments:
            if line.kind == Border.Kind.ROUGH:
                _dashed(draw, a, b, fill="#5b3a1a", width=3, dash=9, gap=5)
            elif line.kind == Border.Kind.STRAIT:
                _dashed(draw, a, b, fill="#1f6fb2", width=4, dash=1, gap=6)
            else:
                draw.line([a, b], fill="#7a6a5a", width=2)


def _marks(draw: ImageDraw.ImageDraw, m: ProvinceMark) -> None:
    label_font = font(13)
    text_width = draw.textlength(m.name, font=label_font)
    if m.is_capital:
        draw.polygon(star_points(m.x - text_width / 2 - 12, m.y - 5, 8, 3.4), fill="#d4a017", outline=INK)
    icons = [
        kind for kind, on in (("fortress", m.has_fortress), ("port", m.is_port), ("tribe", m.has_tribe)) if on
    ]
    for i, kind in enumerate(icons):
        cx, cy = m.x - (len(icons) - 1) * 8 + i * 16, m.y - 26
        if kind == "fortress":
            draw.polygon(
                [
                    (cx - 6, cy + 6),
                    (cx - 6, cy - 4),
                    (cx - 3, cy - 4),
                    (cx - 3, cy - 2),
                    (cx - 1, cy - 2),
                    (cx - 1, cy - 4),
                    (cx + 1, cy - 4),
                    (cx + 1, cy - 2),
                    (cx + 3, cy - 2),
                    (cx + 3, cy - 4),
                    (cx + 6, cy - 4),
                    (cx + 6, cy + 6),
                ],
                fill="#8a8178",
                outline=INK,
            )
        elif kind == "port":
            draw.line([(cx, cy - 5), (cx, cy + 6)], fill="#1f4e79", width=2)
            draw.line([(cx - 3, cy - 3), (cx + 3, cy - 3)], fill="#1f4e79", width=2)
            draw.arc((cx - 5, cy - 3, cx + 5, cy + 7), 20, 160, fill="#1f4e79", width=2)
        else:
            draw.polygon([(cx - 6, cy + 6), (cx, cy - 6), (cx + 6, cy + 6)], fill="#b5651d", outline=INK)
    if m.battle:
        colour = "#c0161d" if m.battle != Battle.Status.RESOLVED else "#6b6259"
        bx, by = m.x + 30, m.y - 22
        draw.ellipse((bx - 10, by - 10, bx + 10, by + 10), fill="#fff8e7", outline=colour, width=2)
        draw.line([(bx - 5, by - 5), (bx + 5, by + 5)], fill=colour, width=3)
        draw.line([(bx + 5, by - 5), (bx - 5, by + 5)], fill=colour, width=3)


def _label(draw: ImageDraw.ImageDraw, m: ProvinceMark) -> None:
    draw.text(
        (m.x, m.y - 5), m.name, font=font(13), fill=INK, anchor="mm", stroke_width=2, stroke_fill="#fffaf0"
    )


def _counters(draw: ImageDraw.ImageDraw, m: ProvinceMark) -> None:
    count_font = font(11)
    for (x, y), army in zip(counter_positions(m), m.armies):
        draw.rectangle((x, y, x + 26, y + 18), fill=rgb(army.colour), outline=INK, width=2)
        draw.text(
            (x + 13, y + 9),
            str(army.units),
            font=count_font,
            fill="white",
            anchor="mm",
            stroke_width=2,
            stroke_fill="black",
        )
    for i, (colour, n) in enumerate(m.loose):
        cx, cy = m.x + 40 + i * 16, m.y + 18
        draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=rgb(colour), outline=INK)
        draw.text((cx, cy), str(n), font=font(9), fill="white", anchor="mm")


def map_png(data: MapData) -> bytes:
    """The map as PNG bytes, ``WIDTH`` × ``HEIGHT`` pixels."""
    image = Image.new("RGB", (WIDTH, HEIGHT), SEA)
    _provinces(image, data)
    draw = ImageDraw.Draw(image)
    _borders(draw, data)
    for m in data.provinces:
        _marks(draw, m)
    for m in data.provinces:
        _label(draw, m)
    for m in data.provinces:
        _counters(draw, m)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
