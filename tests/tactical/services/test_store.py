"""The move path's two statements (tactical/services/store.py) on PostgreSQL."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from tactical.models import BattleEvent, LiveBattle
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


@pytest.mark.django_db(transaction=True)
def test_a_resend_that_waited_on_the_lock_gets_the_stored_answer(world: Any, live: LiveBattle) -> None:
    """The lock's statement reads the resend check in its snapshot, taken before the first send committed:
    the resend that waited for it was applied again (and refused, or failed on the unique id) before."""
    move = {"do": "move", "unit": units_of(live, "attacker")[0], "path": [[8, 17]]}
    applied = threading.Event()
    answers: dict[str, Any] = {}

    def first() -> None:
        try:
            with transaction.atomic():  # holds the battle's lock until the resend waits for it
                answers["first"] = act(live, world.east_general, move, action_id="r1")
                applied.set()
                time.sleep(0.5)
        finally:
            connection.close()

    thread = threading.Thread(target=first)
    thread.start()
    assert applied.wait(10)
    answers["resend"] = act(live, world.east_general, move, action_id="r1")
    thread.join()
    assert (answers["resend"].version, answers["resend"].replayed) == (answers["first"].version, True)
    assert BattleEvent.objects.filter(battle=live, action_id="r1").count() == 1
