"""Template filters of the strategic pages."""

from __future__ import annotations

from decimal import Decimal

from django import template

from strategic.roster import lines_text

register = template.Library()


@register.filter
def lines(halves: int) -> str:
    """Half lines as lines: 9 → "4.5" (T3.1)."""
    return lines_text(int(halves))


@register.filter
def card_lines(health: Decimal) -> str:
    """A unit type's health in lines: Decimal("5.0") → "5"."""
    return lines_text(int(health * 2))
