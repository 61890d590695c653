"""The server log: an ordinary refusal is one line, a real fault keeps its traceback."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from config.logfilters import QuietRefusals
from tests.factories import build_world


@pytest.fixture
def server_log() -> Iterator[io.StringIO]:
    """What the console handler of ``LOGGING`` writes, read back."""
    handler = next(h for h in logging.getLogger().handlers
                   if any(isinstance(f, QuietRefusals) for f in h.filters))
    stream = io.StringIO()
    old = handler.setStream(stream)  # type: ignore[attr-defined]
    yield stream
    handler.setStream(old)  # type: ignore[attr-defined]


def test_an_ordinary_403_writes_one_line_and_no_traceback(db: Any, server_log: io.StringIO) -> None:
    world = build_world()
    client = Client()
    client.force_login(world.west_leader)
    assert client.get("/c/limes/console/").status_code == 403
    lines = [line for line in server_log.getvalue().splitlines() if not line.startswith("AXES")]  # the login
    assert lines == ["Forbidden (Permission denied): /c/limes/console/"]


def test_a_404_writes_one_line(db: Any, server_log: io.StringIO) -> None:
    build_world()
    assert Client().get("/c/limes/battles/999999/replay/").status_code == 404
    assert server_log.getvalue() == "Not Found: /c/limes/battles/999999/replay/\n"


def test_a_fault_keeps_its_traceback() -> None:
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error", None,
                               (ValueError, ValueError("boom"), None))
    assert QuietRefusals().filter(record) and record.exc_info is not None


def test_the_site_has_an_icon_where_browsers_look(db: Any) -> None:
    response = Client().get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in Client().get(
        "/accounts/login/").content.decode()
