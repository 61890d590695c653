"""The army card's unit list, the split form's checkboxes, the choices of a select and a moderator's faction tabs,
built in Python (strategic/templatetags/limes.py)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from django.utils import translation

from strategic.selectors.rosters import UnitRow
from strategic.templatetags.limes import army_unit_items, faction_query_tabs, option_list, unit_checkboxes

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


def test_a_select_offers_each_army_by_id_with_its_name_escaped() -> None:
    armies = [SimpleNamespace(id=3, name="Army of <Thrace>"), SimpleNamespace(id=41, name='"Danube" & co')]
    assert option_list(armies) == (
        '<option value="3">Army of &lt;Thrace&gt;</option><option value="41">&quot;Danube&quot; &amp; co</option>')
    assert option_list([]) == ""


def test_a_moderators_faction_tabs_mark_the_faction_shown() -> None:
    factions = [SimpleNamespace(id=1, slug="east", name="Eastern <Rome>", color="#aa0000"),
                SimpleNamespace(id=2, slug="west", name="Western Rome", color='"red"')]
    swatch = ('<svg class="swatch" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true" focusable="false">'
              '<rect width="1" height="1" fill="{}"/></svg>')
    assert faction_query_tabs(factions, 2) == (
        f'<a href="?faction=east">{swatch.format("#aa0000")}Eastern &lt;Rome&gt;</a>'
        f'<a href="?faction=west" aria-current="page">{swatch.format("&quot;red&quot;")}Western Rome</a>')
