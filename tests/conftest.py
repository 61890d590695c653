"""Test-wide wiring: which real services are here, and the rule that CI turns every skip into a failure.

Tests that need PostgreSQL, Redis or Chromium are marked (``postgres``, ``redis``, ``browser``). On a
machine without the service they skip with a message saying why; when ``LIMES_REQUIRE_SERVICES=1`` (set by
``.ci/run``) every skip, whatever its cause, is reported as a failure instead.
"""

from __future__ import annotations

import shutil
from collections.abc import Generator, Iterator
from typing import Any
from unittest import mock

import pytest

from tests.environment import CHROMIUM, REQUIRE_SERVICES, redis_reachable


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from django.db import connection

    is_postgres = connection.vendor == "postgresql"
    has_redis = redis_reachable()
    has_chromium = shutil.which(CHROMIUM) is not None
    for item in items:
        if "postgres" in item.keywords and not is_postgres:
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://..."))
        if "redis" in item.keywords and not has_redis:
            item.add_marker(pytest.mark.skip(reason="needs Redis: set REDIS_URL=redis://... to a running server"))
        if "browser" in item.keywords and not has_chromium:
            item.add_marker(pytest.mark.skip(reason=f"needs Chromium at {CHROMIUM}: apt-get install chromium"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_SERVICES and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped while LIMES_REQUIRE_SERVICES=1 (CI must run every test): {reason}"


@pytest.fixture(autouse=True)
def _default_language() -> Generator[None, None, None]:
    """A request that switched the thread to Russian must not leave it so for the next test."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


REPLAYED = pytest.StashKey[int]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "log_tampered: the test changes a battle's event log behind the services' back on purpose, so the"
        " check that every battle replays from its log is not made after it",
    )
    config.stash[REPLAYED] = 0


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    checked = config.stash.get(REPLAYED, 0)
    terminalreporter.write_line(f"replay check (M3): {checked} tests left live battles, each one rebuilt")


@pytest.fixture(autouse=True)
def _log_rebuilds_every_battle(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test that used the database, every live battle's state rebuilt from its event log equals the
    stored state (M3): whichever directory the test is in, and whatever made the battle (a service, a
    moderator's correction or undo, a browser through the server)."""
    names = request.fixturenames
    if request.node.get_closest_marker("log_tampered") is not None:
        yield
        return
    if "transactional_db" in names:
        request.getfixturevalue("transactional_db")  # set up first, so torn down after this check
    elif "db" in names:
        request.getfixturevalue("db")
    elif request.node.get_closest_marker("django_db") is None:
        yield
        return
    # (a ``django_db`` mark alone: pytest-django's own autouse fixture set the database up before this one)
    yield
    from tactical.models import LiveBattle
    from tests.tactical.builders import battles_not_replaying

    if LiveBattle.objects.exists():
        request.config.stash[REPLAYED] += 1
    assert battles_not_replaying() == [], "these battles do not replay from their event log"


@pytest.fixture(scope="session", autouse=True)
def _flush_with_the_log_triggers_off() -> Generator[None, None, None]:
    """M3: the logs refuse every TRUNCATE (moderation migration 0004), and Django empties the database after a
    transactional test with one TRUNCATE of every table. That flush runs with the triggers off instead: a
    database superuser's setting, for its own transaction only."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    sql_flush = DatabaseOperations.sql_flush

    def flush_past_triggers(self: Any, *args: Any, **kwargs: Any) -> list[str]:
        statements = sql_flush(self, *args, **kwargs)
        return ["SET LOCAL session_replication_role = replica", *statements] if statements else statements

    with mock.patch.object(DatabaseOperations, "sql_flush", flush_past_triggers):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Generator[None, None, None]:
    """Before the test database is dropped, end the PostgreSQL sessions that other threads of this run left
    open (sync_to_async workers of the consumer and browser tests keep theirs), so the drop does not fail."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
