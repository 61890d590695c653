"""``{% load zones %}``: an instant written in the reader's time zone with its UTC offset."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone

from notifications.zones import offset_text

register = template.Library()


@register.filter
def utc_offset(value: datetime | None) -> str:
    """``UTC+03:00`` for an instant shown in Moscow, ``UTC`` in London's winter or UTC itself."""
    if not isinstance(value, datetime):
        return ""
    return offset_text(timezone.localtime(value))
