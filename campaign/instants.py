"""How an instant is written for its reader: the UTC offset of the zone it is shown in (every page, every mail)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def offset_text(value: datetime) -> str:
    """``UTC``, ``UTC+03:00`` or ``UTC-05:00``: the offset of the zone the instant is shown in."""
    offset = value.utcoffset()
    if not offset:
        return "UTC"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    minutes = abs(minutes)
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def moment(value: datetime) -> str:
    """The instant in the active time zone with its offset: ``2030-01-02 18:30 UTC+03:00``."""
    local = timezone.localtime(value)
    return f"{local:%Y-%m-%d %H:%M} {offset_text(local)}"
