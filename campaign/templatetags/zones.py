"""``{% load zones %}``: an instant written in the reader's time zone with its UTC offset."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime

from campaign.instants import moment, offset_text

register = template.Library()


@register.filter
def utc_offset(value: datetime | None) -> str:
    """``UTC+03:00`` for an instant shown in Moscow, ``UTC`` in London's winter or UTC itself."""
    if not isinstance(value, datetime):
        return ""
    return offset_text(timezone.localtime(value))


@register.simple_tag
def local_time(value: datetime | None) -> SafeString:
    """``{% local_time battle.scheduled_at %}``: ``<time datetime="…">2026-12-03 09:30 UTC+03:00</time>`` in the
    reader's time zone; marked ``js-local`` for the browser to rewrite in its own zone when the reader has not
    chosen one (UTC). A tag rather than an included template: a log lists dozens of instants."""
    iso, text = "", " "  # no instant: an empty element, as the template it replaces wrote one
    if isinstance(value, datetime):
        iso, text = dateformat.format(template_localtime(value), "c"), moment(value)
    js_local = mark_safe(' class="js-local"') if timezone.get_current_timezone_name() == "UTC" else ""
    return format_html('<time{} datetime="{}">{}</time>', js_local, iso, text)
