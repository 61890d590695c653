"""A real ASGI server (daphne, HTTP and WebSockets) on the test database, and Chromium driven by Playwright.

The server runs in a child process, so the data a test makes must be committed (``transactional_db``) and
the test database must be one that another process can open: PostgreSQL, or SQLite in a file (an
in-memory SQLite test database is moved to a temporary file when these tests are collected).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from daphne.testing import DaphneProcess
from django.conf import settings as django_settings
from django.db import connections
from django.test import Client

from tests.conftest import CHROMIUM

HOST = "127.0.0.1"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(os.environ.get("LIMES_SCREENSHOTS", Path(tempfile.gettempdir()) / "limes-board-shots"))

_db = django_settings.DATABASES["default"]
if _db["ENGINE"].endswith("sqlite3") and not (_db.get("TEST") or {}).get("NAME"):
    _db.setdefault("TEST", {})["NAME"] = str(Path(tempfile.gettempdir()) / f"limes_board_{os.getpid()}.sqlite3")


def _application() -> Any:
    from channels.routing import get_default_application
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    return ASGIStaticFilesHandler(get_default_application())


def _use_test_database() -> None:
    from django.conf import settings
    from django.db.backends.base.creation import TEST_DATABASE_PREFIX

    db = settings.DATABASES["default"]
    db["NAME"] = (db.get("TEST") or {}).get("NAME") or TEST_DATABASE_PREFIX + db["NAME"]
    for connection in connections.all():
        connection.close()


@pytest.fixture
def live_url(transactional_db: Any, settings: Any) -> Iterator[str]:
    """The address of a daphne server (HTTP + WebSocket) on the test database."""
    # Turns are ended by the sockets' own deadline timers (tactical.consumers); no broker is needed.
    settings.TACTICAL_CLOCK_TASKS = False
    connections.close_all()  # the child must not share the parent's database sockets
    server = DaphneProcess(HOST, _application, setup=_use_test_database)
    server.daemon = True
    server.start()
    if not server.ready.wait(timeout=30):
        server.terminate()
        raise RuntimeError("daphne did not start")
    yield f"http://{HOST}:{server.port.value}"
    server.terminate()
    server.join(timeout=10)


@pytest.fixture
def open_page(live_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """Open the board in a fresh browser context, logged in as ``user`` (None: an anonymous visitor).

    Debian's Chromium is started at the first call (never ``playwright install``), so that a test makes
    its data before Playwright's event loop runs in this thread.
    """
    from playwright.sync_api import sync_playwright

    started: dict[str, Any] = {}
    contexts: list[Any] = []

    def open_as(user: Any, path: str, *, language: str = "en", **options: Any) -> Any:
        if not started:
            # Playwright's sync API runs an event loop in this thread; the ORM calls below stay synchronous.
            monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
            started["playwright"] = sync_playwright().start()
            started["browser"] = started["playwright"].chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        options.setdefault("viewport", {"width": 1280, "height": 1000})
        context = started["browser"].new_context(locale=language, extra_http_headers={"Accept-Language": language},
                                                 **options)
        if user is not None:
            client = Client()
            client.force_login(user)
            context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME,
                                  "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                                  "domain": HOST, "path": "/"}])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(live_url + path)
        return page

    yield open_as
    for context in contexts:
        context.close()
    if started:
        started["browser"].close()
        started["playwright"].stop()


def shot(page: Any, name: str) -> Path:
    """Save a screenshot for a human to look at (``LIMES_SCREENSHOTS`` or a temporary folder)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
