"""The army card's unit list and the split form's checkboxes, built in Python (strategic/templatetags/limes.py)."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from django.utils import translation

from strategic.templatetags.limes import army_unit_items, unit_checkboxes


class _Unit(SimpleNamespace):
    def __str__(self) -> str:
        return self.label


def _units() -> list[_Unit]:
    spear = SimpleNamespace(name="Spearmen", health=Decimal("5.0"))
    return [_Unit(pk=7, label='<b>"Leo"</b>', unit_type=spear, health_halves=9),
            _Unit(pk=8, label="Legio II", unit_type=spear, health_halves=10)]


def test_the_unit_list_names_type_and_health_in_lines_every_name_escaped() -> None:
    assert army_unit_items(_units()) == (
        '<li>&lt;b&gt;&quot;Leo&quot;&lt;/b&gt; <small class="muted">Spearmen · 4½/5</small></li>'
        '<li>Legio II <small class="muted">Spearmen · 5/5</small></li>')


def test_an_army_without_units_says_so_in_the_pages_language() -> None:
    with translation.override("ru"):
        assert army_unit_items([]) == '<li class="muted">нет отрядов</li>'


def test_the_split_checkboxes_carry_each_units_id_unchecked() -> None:
    assert unit_checkboxes(_units()) == (
        '<label class="check"><input type="checkbox" name="units" value="7"> &lt;b&gt;&quot;Leo&quot;&lt;/b&gt;</label>'
        '<label class="check"><input type="checkbox" name="units" value="8"> Legio II</label>')
