"""The pictures for forums: a long type name on the roster PNG stops before the health lines; the replay's
PNG draws its Russian header and its dash with a font that has them (not a missing-glyph box)."""

from __future__ import annotations

from moderation.render.board_png import _font
from strategic.render.map_png import font
from strategic.render.roster_png import LABEL_WIDTH, fit


def test_a_long_type_name_is_cut_with_an_ellipsis_before_the_health_lines() -> None:
    face = font(13)
    label = fit("Comitatenses palatini of the Eastern field army (Heavy spearmen of the guard)  HI", face, LABEL_WIDTH)
    assert label.endswith("…") and face.getlength(label) <= LABEL_WIDTH


def test_a_short_name_is_left_whole() -> None:
    assert fit("Legio I Italica  HI", font(13), LABEL_WIDTH) == "Legio I Italica  HI"


def test_the_replay_header_font_has_cyrillic_and_the_dash() -> None:
    face = _font(14)
    missing = face.getmask("\uffff").getbbox()  # what a missing glyph draws
    for text in ("—", "Д", "ход"):
        assert face.getmask(text).getbbox() != missing, text
    assert face.getname()[0].startswith("DejaVu")
