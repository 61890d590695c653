"""A real ASGI server (daphne, HTTP and WebSockets) on the test database, and Chromium driven by Playwright.

The server runs in a child process, so the data a test makes must be committed (``transactional_db``) and
the test database must be one that another process can open: PostgreSQL, or SQLite in a file (an
in-memory SQLite test database is moved to a temporary file when these tests are collected).
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from daphne.testing import DaphneProcess
from django.conf import settings as django_settings
from django.db import connections
from django.test import Client

from tests.environment import CHROMIUM

HOST = "127.0.0.1"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

_db = django_settings.DATABASES["default"]
if _db["ENGINE"].endswith("sqlite3") and not (_db.get("TEST") or {}).get("NAME"):
    _db.setdefault("TEST", {})["NAME"] = str(Path(tempfile.gettempdir()) / f"limes_board_{os.getpid()}.sqlite3")


def _application() -> Any:
    from channels.routing import get_default_application
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    return ASGIStaticFilesHandler(get_default_application())


def _fresh_child() -> None:
    """In the forked server: drop what belonged to the parent's threads and event loops.

    Earlier tests of the same run (consumer tests) leave asgiref's executors pointing at threads that a
    forked child does not have, and the channel layer bound to their loops: a child that kept them would
    wait forever for its first database call.
    """
    import weakref
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import AsyncToSync, SyncToAsync
    from channels.layers import channel_layers

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    SyncToAsync.context_to_thread_executor = weakref.WeakKeyDictionary()
    AsyncToSync.context_to_thread_executor = weakref.WeakKeyDictionary()
    AsyncToSync.loop_thread_executors = {}
    channel_layers.backends = {}


class AsgiServer:
    """A daphne child process on the test database; it can be stopped and started again on its port."""

    def __init__(self) -> None:
        self.port = 0
        self.process: DaphneProcess | None = None

    @property
    def url(self) -> str:
        """The server's address."""
        return f"http://{HOST}:{self.port}"

    def start(self) -> None:
        """Fork the server (again on the same port after a stop)."""
        connections.close_all()  # the child must not share the parent's database sockets
        for connection in connections.all(initialized_only=True):
            if getattr(connection, "pool", None) is not None:  # DATABASE_POOL: nor the pool's
                connection.close_pool()
        # The child inherits these settings, already pointing at the test database (pytest-django).
        process = DaphneProcess(HOST, _application, setup=_fresh_child, port=self.port)
        process.daemon = True
        # Fork from a fresh thread: once Playwright runs, this thread has a running event loop, and a child
        # forked from it would believe it runs inside that loop (asgiref then refuses async_to_sync).
        forker = threading.Thread(target=process.start)
        forker.start()
        forker.join()
        if not process.ready.wait(timeout=30):
            process.terminate()
            raise RuntimeError("daphne did not start")
        self.process = process
        self.port = process.port.value

    def stop(self) -> None:
        """End the server: every socket drops."""
        if self.process is not None:
            self.process.terminate()
            self.process.join(timeout=10)
            self.process = None


@pytest.fixture
def asgi_server(transactional_db: Any, settings: Any) -> Iterator[AsgiServer]:
    """A daphne server (HTTP + WebSocket) on the test database."""
    # Turns are ended by the sockets' own deadline timers (tactical.consumers); no broker is needed.
    settings.TACTICAL_CLOCK_TASKS = False
    server = AsgiServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def live_url(asgi_server: AsgiServer) -> str:
    """The address of the server."""
    return asgi_server.url


@pytest.fixture
def open_page(asgi_server: AsgiServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """Open the board in a fresh browser context, logged in as ``user`` (None: an anonymous visitor).

    Debian's Chromium is started at the first call (never ``playwright install``), so that a test makes
    its data before Playwright's event loop runs in this thread.
    """
    from playwright.sync_api import sync_playwright

    started: dict[str, Any] = {}
    contexts: list[Any] = []

    def open_as(user: Any, path: str, *, language: str = "en", before: Callable[[Any], None] | None = None,
                **options: Any) -> Any:
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
        if before is not None:  # e.g. a route for the page's socket, which opens as the page loads
            before(page)
        page.goto(asgi_server.url + path)
        return page

    yield open_as
    for context in contexts:
        context.close()
    # A server restarted while Playwright ran holds copies of the driver's pipes: end it first, or the
    # driver never sees its input close and Playwright waits for it forever.
    asgi_server.stop()
    if started:
        started["browser"].close()
        started["playwright"].stop()
