"""A faction's colour drawn on a page: a small SVG square (or band) filled with it.

The colour goes into an SVG ``fill`` presentation attribute, which the Content-Security-Policy does not
restrict, rather than into a ``style`` attribute, which ``style-src 'self'`` blocks.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

FALLBACK = "#888888"


def swatch_svg(colour: str | None, css_class: str = "swatch") -> SafeString:
    """The SVG of a colour swatch; ``css_class`` sizes it (``swatch``, ``swatch big``, ``band``)."""
    return mark_safe(  # both values are escaped
        f'<svg class="{escape(css_class)}" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true" '
        f'focusable="false"><rect width="1" height="1" fill="{escape(colour or FALLBACK)}"/></svg>'
    )


@register.simple_tag
def swatch(colour: str | None, css_class: str = "swatch") -> SafeString:
    """``{% swatch faction.color %}``: a square of the colour; ``{% swatch c "swatch big" %}`` a larger one."""
    return swatch_svg(colour, css_class)
