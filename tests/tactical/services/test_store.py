"""The move path's two statements (tactical/services/store.py) on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from tactical.models import LiveBattle
from tests.tactical.builders import act, deploy_both, units_of

pytestmark = pytest.mark.postgres


def _prepared() -> set[str]:
    """The statements prepared on this connection (psycopg prepares one per query and parameter types: a null
    deadline before round 1 is another type than a time)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return {row[0] for row in cursor.fetchall()}


def test_the_lock_and_the_store_are_prepared_and_nothing_else(
        world: Any, battle: LiveBattle) -> None:
    deploy_both(battle, world)
    unit = units_of(battle, "attacker")[0]
    for facing in ("E", "N"):
        act(battle, world.east_general, {"do": "turn", "unit": unit, "facing": facing})
    # Django turns psycopg's preparing off; without the store's threshold neither would be (and both
    # would be planned again by every action).
    assert {" ".join(statement.split()[:4]) for statement in _prepared()} == {
        "SELECT b.record_id, b.campaign_id, b.status,", "WITH stored AS ("}
