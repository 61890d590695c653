"""The tactical board at one step of a battle as a PNG picture for forum posts (Pillow)."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from PIL import Image, ImageDraw

from combat.battle.model import BattleState, Facing, Status
from strategic.render.map_png import font

CELL = 30
MARGIN = 24
HEADER = 28
GRID_W, GRID_H = 18, 21
FEATURE_COLORS = {"river": "#7fb3e0", "swamp": "#8a9a5b", "gorge": "#6b5a4a", "wall": "#4a4a4a"}
TERRAIN_COLORS = {"field": "#e8e1c4", "forest": "#cfe0bd", "mountains": "#ddd6cc", "desert": "#f0dcaa"}
SIDE_COLORS = {"attacker": "#b22222", "defender": "#1f4e9a"}
# Where the facing mark sits inside a unit's square: the edge it faces.
FACING_TIP = {Facing.N: (0.5, 0.1), Facing.E: (0.9, 0.5), Facing.S: (0.5, 0.9), Facing.W: (0.1, 0.5)}


def _font(size: int) -> Any:
    # DejaVu, as the map's pictures: Pillow's own font has no Cyrillic nor "—", drawn as a missing glyph.
    return font(size)


def _cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    left = MARGIN + x * CELL
    top = MARGIN + HEADER + y * CELL
    return left, top, left + CELL, top + CELL


def board_png(state: BattleState, *, title: str, roster: dict[str, Any] | None = None) -> bytes:
    """Draw the grid, special cells, contacts and every unit on the field (colour of its faction)."""
    roster = roster or {}
    width = MARGIN * 2 + GRID_W * CELL
    height = MARGIN * 2 + HEADER + GRID_H * CELL
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 6), title, fill="black", font=_font(14))
    ground = TERRAIN_COLORS.get(state.terrain.value, "#eeeeee")
    for y in range(GRID_H):
        for x in range(GRID_W):
            feature = state.cells.get((x, y))
            fill = FEATURE_COLORS.get(feature.value, ground) if feature is not None else ground
            draw.rectangle(_cell_box(x, y), fill=fill, outline="#b0a890")
    small = _font(9)
    for x in range(GRID_W):
        draw.text((MARGIN + x * CELL + CELL // 3, MARGIN + HEADER - 12), str(x), fill="#555555", font=small)
    for y in range(GRID_H):
        draw.text((4, MARGIN + HEADER + y * CELL + CELL // 3), str(y), fill="#555555", font=small)
    units = state.units
    for a, b in state.contacts:
        ua, ub = units.get(a), units.get(b)
        if ua is None or ub is None or not (ua.on_field and ub.on_field):
            continue
        (ax, ay, _, _), (bx, by, _, _) = _cell_box(ua.x, ua.y), _cell_box(ub.x, ub.y)  # type: ignore[arg-type]
        draw.line((ax + CELL // 2, ay + CELL // 2, bx + CELL // 2, by + CELL // 2), fill="#000000", width=3)
    for unit in units.values():
        if unit.status is not Status.FIELD or unit.x is None or unit.y is None:
            continue
        left, top, right, bottom = _cell_box(unit.x, unit.y)
        faction = (roster.get(unit.id) or {}).get("faction") or {}
        color = faction.get("color") or SIDE_COLORS[unit.side.value]
        draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), fill=color, outline="black", width=2)
        tip_x, tip_y = FACING_TIP[unit.facing]
        cx, cy = left + tip_x * CELL, top + tip_y * CELL
        draw.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill="white", outline="black")
        health = max(unit.health, 0) / 2
        label = f"{health:g}"
        draw.text((left + 8, top + 9), label, fill="white", font=_font(11))
    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
