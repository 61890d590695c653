"""Time zones: which ones a user may choose (how an instant is written for its reader: ``campaign.instants``)."""

from __future__ import annotations

import zoneinfo
from functools import lru_cache


@lru_cache(maxsize=1)
def zone_names() -> list[str]:
    """Every IANA zone this machine knows, sorted (the account page's list)."""
    return sorted(n for n in zoneinfo.available_timezones() if "/" in n or n == "UTC")


def zone_of(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone of that name, or None for an empty or unknown one."""
    if not name or name not in set(zone_names()):
        return None
    return zoneinfo.ZoneInfo(name)
