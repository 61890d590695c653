"""The army card's unit list and the split form's checkboxes, built in Python (strategic/templatetags/limes.py)."""

from __future__ import annotations

from dataclasses import replace

from django.utils import translation

from strategic.selectors.rosters import UnitRow
from strategic.templatetags.limes import army_unit_items, unit_checkboxes

LEO = UnitRow(id=7, name='<b>"Leo"</b>', type_name="Spearmen", unit_class="HI", health_halves=9,
              max_health_halves=10, arrows=0, max_arrows=0, shoots=False)


def _units() -> list[UnitRow]:
    return [LEO, replace(LEO, id=8, name="Legio II", health_halves=10), replace(LEO, id=12, name="")]


def test_an_army_card_lists_each_unit_with_its_type_and_health_escaped() -> None:
    assert army_unit_items(_units()) == (
        '<li>&lt;b&gt;&quot;Leo&quot;&lt;/b&gt; <small class="muted">Spearmen · 4½/5</small></li>'
        '<li>Legio II <small class="muted">Spearmen · 5/5</small></li>'
        '<li>Spearmen #12 <small class="muted">Spearmen · 4½/5</small></li>')


def test_an_army_without_units_says_so_in_the_pages_language() -> None:
    with translation.override("ru"):
        assert army_unit_items([]) == '<li class="muted">нет отрядов</li>'


def test_the_split_checkboxes_carry_each_units_id_unchecked() -> None:
    assert unit_checkboxes(_units()) == (
        '<label class="check"><input type="checkbox" name="units" value="7"> &lt;b&gt;&quot;Leo&quot;&lt;/b&gt;</label>'
        '<label class="check"><input type="checkbox" name="units" value="8"> Legio II</label>'
        '<label class="check"><input type="checkbox" name="units" value="12"> Spearmen #12</label>')
