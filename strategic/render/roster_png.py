"""The public roster as a PNG picture for forum posts: the same rows as the page, health drawn as lines."""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import gettext as _
from PIL import Image, ImageDraw

from strategic.render.map_png import font, rgb
from strategic.selectors.rosters import FactionRoster, UnitRow, captive_name

WIDTH = 800
PARCHMENT = (250, 244, 226)
INK = (43, 33, 24)
MUTED = (109, 95, 79)
PURPLE = (74, 25, 66)
ROW = 24
CELL_W, CELL_H, CELL_GAP = 10, 16, 3


def _height(rosters: list[FactionRoster]) -> int:
    # The same steps as the drawing below.
    y = 24 + ROW // 2
    for f in rosters:
        y += ROW + 4 + (ROW if f.leader else 0)
        y += sum(ROW * (1 + max(1, len(a.units))) for a in f.armies)
        y += ROW * (1 + len(f.loose_units)) if f.loose_units else 0
        y += ROW // 2
    return y + 16


def _cells(draw: ImageDraw.ImageDraw, x: int, y: int, cells: list[str], colour: tuple[int, int, int]) -> int:
    for kind in cells:
        box = (x, y, x + CELL_W, y + CELL_H)
        draw.rectangle(box, fill="white", outline=colour)
        if kind == "full":
            draw.rectangle(box, fill=colour)
        elif kind == "half":
            draw.rectangle((x, y, x + CELL_W // 2, y + CELL_H), fill=colour)
            draw.rectangle(box, outline=colour)
        x += CELL_W + CELL_GAP
    return x


LABEL_WIDTH = 420 - 40 - 12  # from the label's start to the health lines, less a gap


def fit(text: str, face: Any, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels: a long type name ran into the health lines."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _unit(draw: ImageDraw.ImageDraw, y: int, u: UnitRow) -> None:
    label_font = font(13)
    label = fit(u.label + (f" ({u.type_name})" if u.name else "") + f"  {u.unit_class}", label_font, LABEL_WIDTH)
    draw.text((40, y + 3), label, font=label_font, fill=INK)
    x = _cells(draw, 420, y + 3, u.health_cells, PURPLE)
    draw.text((x + 6, y + 3), u.health_text, font=label_font, fill=MUTED)
    if u.shoots:
        x = _cells(draw, 610, y + 3, u.arrows_cells, (184, 134, 11))
        draw.text((x + 6, y + 3), f"{u.arrows}/{u.max_arrows}", font=label_font, fill=MUTED)
    elif u.province:
        draw.text((610, y + 3), u.province, font=label_font, fill=MUTED)


def roster_png(rosters: list[FactionRoster], *, title: str) -> bytes:
    """The rosters as PNG bytes, ``WIDTH`` pixels wide and as tall as the rows need."""
    image = Image.new("RGB", (WIDTH, _height(rosters)), PARCHMENT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 6), fill=(201, 162, 39))
    draw.text((16, 12), title, font=font(15), fill=PURPLE)
    y = 24 + ROW // 2
    for f in rosters:
        colour = rgb(f.color)
        draw.rectangle((16, y + 2, 30, y + 16), fill=colour, outline=INK)
        draw.text((40, y), f.name, font=font(17), fill=PURPLE)
        y += ROW + 4
        if f.leader:
            draw.text(
                (40, y),
                _("Leader: %(name)s") % {"name": captive_name(f.leader, f.leader_captor)},
                font=font(13),
                fill=INK,
            )
            y += ROW
        for a in f.armies:
            head = f"{a.name} — " + _("commander %(commander)s, %(province)s") % {
                "commander": captive_name(a.commander, a.commander_captor),
                "province": a.province,
            }
            draw.text((24, y), head, font=font(14), fill=INK)
            y += ROW
            for u in a.units:
                _unit(draw, y, u)
                y += ROW
            if not a.units:
                draw.text((40, y), _("no units"), font=font(13), fill=MUTED)
                y += ROW
        if f.loose_units:
            draw.text((24, y), _("Outside armies"), font=font(14), fill=INK)
            y += ROW
            for u in f.loose_units:
                _unit(draw, y, u)
                y += ROW
        y += ROW // 2
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
