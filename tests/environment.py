"""Which real services this run has: the switch that makes every skip a failure, and where Chromium is."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

REQUIRE_SERVICES = os.environ.get("LIMES_REQUIRE_SERVICES") == "1"
CHROMIUM = os.environ.get("LIMES_CHROMIUM", "/usr/bin/chromium")


def redis_reachable() -> bool:
    """Whether the Redis server of ``REDIS_URL`` answers."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return False
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=1):
            return True
    except OSError:
        return False
