"""Template filters and tags of the strategic pages."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from html import escape as escape_text
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaign.templatetags.swatches import swatch_svg
from strategic.render.map_data import ArmyMark
from strategic.selectors.rosters import FULL, HALF, UnitRow, lines_text
from strategic.selectors.unit_cards import UnitCard

register = template.Library()

# The tags below build long lists from plain strings: they escape with the standard library's ``html.escape``,
# which Django's ``escape`` calls too, without its check for lazy strings and its wrapper on every value.
_CELL = {FULL: '<i class="cell full"></i>', HALF: '<i class="cell half"></i>'}
_EMPTY_CELL = '<i class="cell empty"></i>'


@register.filter
def lines(halves: int) -> str:
    """Half lines as lines: 9 → "4.5" (T3.1)."""
    return lines_text(int(halves))


@register.filter
def card_lines(health: Decimal) -> str:
    """A unit type's health in lines: Decimal("5.0") → "5"."""
    return lines_text(int(health * 2))


def _unit_tr(u: UnitRow, show_province: bool, in_fortress: str) -> str:
    # Built in Python, every value escaped: a big army's table through the template engine cost a
    # variable lookup per cell.
    bar = u.health_bar
    out = [
        f'<tr id="unit-{u.id}">\n<td class="unit-cell"><span class="unit-label">{escape_text(u.label)}</span>',
        f' <small class="muted">{escape_text(u.type_name)}</small>' if u.name else "",
        f' <span class="class-badge">{escape_text(u.unit_class)}</span></td>\n',
        f'<td class="health"><span class="cells" role="img" aria-label="{bar}">',
        "".join(_CELL.get(c, _EMPTY_CELL) for c in bar),
        f'</span> <span class="num">{u.health_text}</span></td>\n',
    ]
    if u.shoots:
        arrows = u.arrows_bar
        out += [
            f'<td class="arrows"><span class="cells arrows-cells" role="img" aria-label="{arrows}">',
            "".join(_CELL.get(c, _EMPTY_CELL) for c in arrows),
            f'</span> <span class="num">{u.arrows}/{u.max_arrows}</span></td>\n',
        ]
    else:
        out.append('<td class="arrows"><span class="muted">—</span></td>\n')
    if show_province:
        out.append(f"<td>{escape_text(u.province)}")
        if u.in_fortress:
            out.append(f' <span class="tag">{in_fortress}</span>')
        out.append("</td>\n")
    out.append("</tr>")
    return "".join(out)


@register.simple_tag
def army_unit_items(units: Iterable[UnitRow]) -> SafeString:
    """An army card's units as list items: name, type, health of its card (T3.1); built as ``units_table`` is,
    for the turn page lists every unit of the faction in its army's card."""
    items = [
        f'<li>{escape_text(u.numbered_label)} <small class="muted">{escape_text(u.type_name)} · {escape_text(u.health_text)}</small></li>'
        for u in units
    ]
    return mark_safe("".join(items) or f'<li class="muted">{escape(_("no units"))}</li>')  # every value is escaped


@register.simple_tag
def unit_checkboxes(units: Iterable[UnitRow]) -> SafeString:
    """A checkbox per unit (``name="units"``), unchecked, labelled with the unit's name."""
    return mark_safe("".join(  # every value is escaped
        f'<label class="check"><input type="checkbox" name="units" value="{int(u.id)}"> {escape_text(u.numbered_label)}'
        "</label>"
        for u in units))


@register.simple_tag
def units_table(units: Iterable[UnitRow], show_province: bool = False) -> SafeString:
    """The table of a roster's units: name, class, health and arrows drawn as cells (T3.1), province."""
    units = list(units)
    if not units:
        return mark_safe(f'<p class="muted">{escape(_("no units"))}</p>')
    heads = [_("Unit"), _("Health"), _("Arrows")] + ([_("Province")] if show_province else [])
    in_fortress = escape(_("in the fortress city"))
    return mark_safe(  # every value above is escaped
        '<div class="table-wrap"><table class="table units">\n<thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in heads)
        + "</tr></thead>\n<tbody>"
        + "".join(_unit_tr(u, show_province, in_fortress) for u in units)
        + "</tbody></table></div>"
    )


@register.simple_tag
def army_chips(armies: Iterable[ArmyMark]) -> SafeString:
    """The armies standing in a province, each a chip in its faction's colour with its unit count."""
    chips = [
        f'<span class="army-chip" title="{escape_text(a.faction)}">{swatch_svg(a.colour)}'
        f"{escape_text(a.name)} ({a.units})</span> "
        for a in armies
    ]
    return mark_safe("".join(chips) or "—")  # every value is escaped



@register.simple_tag
def faction_query_tabs(factions: Iterable[Any], current_id: int) -> SafeString:
    """A link per faction to this page with ``?faction=<slug>``, the current one marked: a moderator's choice of
    whose page to see. Built in Python, every value escaped: with 60 factions the template engine's lookups
    cost more than the rest of the page's head."""
    current = ' aria-current="page"'
    return mark_safe("".join(  # every value is escaped
        f'<a href="?faction={escape_text(f.slug)}"{current if f.id == current_id else ""}>'
        f"{swatch_svg(f.color)}{escape_text(f.name)}</a>"
        for f in factions))


@dataclass(frozen=True)
class _Cards:
    """Unit cards as a key: equal when they print the same (``repr``), whatever objects hold them."""

    key: str
    cards: Sequence[UnitCard] = field(compare=False)


@lru_cache(maxsize=64)
def _unit_cards_html(cards: _Cards, language: str, open_: bool) -> str:
    return render_to_string("strategic/_unit_cards.html", {"unit_cards": cards.cards, "open": open_})


@register.simple_tag
def unit_cards_panel(cards: Sequence[UnitCard], open_: bool = False) -> SafeString:
    """The panel of the campaign's unit cards (``strategic/_unit_cards.html``), kept for the same cards in the
    same language: a dozen cards of tables cost a tenth of a page that shows them, and they change only when a
    moderator edits a unit type. The key is every value the panel prints, so an edited card draws anew."""
    return mark_safe(_unit_cards_html(_Cards(repr(list(cards)), cards), get_language() or "en", bool(open_)))


@register.simple_tag
def option_list(items: Iterable[Any]) -> SafeString:
    """An ``<option>`` per item (an army, a commander) with its id as the value and its name as the text."""
    return mark_safe("".join(  # every value is escaped
        f'<option value="{int(item.id)}">{escape_text(str(item.name))}</option>' for item in items))
