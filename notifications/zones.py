"""Time zones: which ones a user may choose, and one way to write an instant with its UTC offset."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from functools import lru_cache

from django.utils import timezone

from campaign.instants import offset_text


@lru_cache(maxsize=1)
def zone_names() -> list[str]:
    """Every IANA zone this machine knows, sorted (the account page's list)."""
    return sorted(n for n in zoneinfo.available_timezones() if "/" in n or n == "UTC")


def zone_of(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone of that name, or None for an empty or unknown one."""
    if not name or name not in set(zone_names()):
        return None
    return zoneinfo.ZoneInfo(name)


def moment(value: datetime) -> str:
    """The instant in the active time zone with its offset: ``2030-01-02 18:30 UTC+03:00``."""
    local = timezone.localtime(value)
    return f"{local:%Y-%m-%d %H:%M} {offset_text(local)}"
