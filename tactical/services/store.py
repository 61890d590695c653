"""Reading and writing a battle row in as few round trips as the database allows (the move path's floor).

On PostgreSQL one precompiled statement locks the row and brings the seats (T2) and the resend check, and
one statement writes the snapshot and its log row; elsewhere the ORM does the same in more steps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import DEFERRED, F, OuterRef, Subquery

from campaign.models import Commander
from tactical import errors
from tactical.messages import NO_BATTLE
from tactical.models import BattleEvent, BattleUnit, LiveBattle


def lock(battle_id: int, action_id: str = "") -> LiveBattle:
    """The battle row, locked until the commit (transaction.atomic is required around this).

    On PostgreSQL one precompiled statement also brings the seats (T2) and whether ``action_id`` was
    applied before (read again when the lock waited for another write): the move path's cost is mostly
    round trips and query building. The stored state is
    left out (``tactical.selectors.snapshots`` has it parsed at this version nearly always); reading ``battle.state``
    fetches it.
    """
    if connection.vendor == "postgresql":
        battle = _lock_postgresql(battle_id, action_id)
    else:
        rows = LiveBattle.objects.select_for_update().filter(pk=battle_id).defer("state")
        if action_id:
            prior = BattleEvent.objects.filter(battle=OuterRef("pk"), action_id=action_id).values("version")[:1]
            rows = rows.annotate(prior_version=Subquery(prior))
        battle = rows.first()
    if battle is None:
        raise errors.missing(NO_BATTLE)
    return battle


_LOADED = [field for field in LiveBattle._meta.concrete_fields if field.name != "state"]
_LOCK_SQL = f"""
SELECT {", ".join(f"b.{field.column}" for field in _LOADED)},
  (SELECT s.version FROM {LiveBattle._meta.db_table} s WHERE s.record_id = b.record_id) AS seen_version,
  (SELECT e.version FROM {BattleEvent._meta.db_table} e
    WHERE e.battle_id = b.record_id AND e.action_id = %s AND e.action_id <> '' LIMIT 1) AS prior_version,
  (SELECT json_agg(json_build_object('engine_id', u.engine_id, 'side', u.side,
                                     'commander_id', u.commander_id, 'user_id', c.user_id))
     FROM {BattleUnit._meta.db_table} u LEFT JOIN {Commander._meta.db_table} c ON c.id = u.commander_id
    WHERE u.battle_id = b.record_id) AS seat_rows
FROM {LiveBattle._meta.db_table} b WHERE b.record_id = %s FOR UPDATE OF b
"""


def _lock_postgresql(battle_id: int, action_id: str) -> LiveBattle | None:
    """``_LOCK_SQL`` through a plain cursor: ``raw()`` built its column mapping and converters per call,
    twice the Python time of the statement itself."""
    with _server_cursor() as cursor:
        cursor.execute(_LOCK_SQL, [action_id, battle_id])
        row = cursor.fetchone()
    if row is None:
        return None
    *loaded, seen_version, prior_version, seat_rows = row
    values = iter(loaded)
    battle = LiveBattle.from_db(connection.alias, None, [
        DEFERRED if converters is None else _converted(next(values), converters) for converters in _converters()
    ])
    battle.prior_version = prior_version
    battle.seat_rows = seat_rows or []
    if seen_version != battle.version:
        # The lock waited for a write that committed after this statement's snapshot was taken: the row
        # locked is the newest, but the subqueries read the snapshot, which lacks that write's log row (a
        # resend sent at once over several connections was applied again). Both are read anew, in
        # statements of their own: only a write that had to wait for another pays for it.
        battle.prior_version = (BattleEvent.objects.filter(battle_id=battle_id, action_id=action_id)
                                .values_list("version", flat=True).first()) if action_id else None
        battle.seat_rows = None  # seats() reads them
    return battle


def _converted(value: Any, converters: list[Any]) -> Any:
    for convert in converters:
        value = convert(value, None, connection)
    return value


@cache
def _converters() -> list[list[Any] | None]:
    """Each concrete field's converters from database values, in the model's order; None for the state."""
    return [None if field.name == "state" else field.get_db_converters(connection)
            for field in LiveBattle._meta.concrete_fields]


_STORED = ("version", "state", "rolls_used", "turn_key", "done", "deadline", "status", "ended_at", "map_seed")
_LOGGED = ("battle_id", "version", "kind", "actor_id", "commander_id", "action_id", "action", "events",
           "rolls_before", "dice", "created_at")
_JSON = {"state", "done", "action", "events", "dice"}
_STORE_SQL = f"""
WITH stored AS (
  UPDATE {LiveBattle._meta.db_table} SET {", ".join(f"{f} = %s" + ("::jsonb" if f in _JSON else "") for f in _STORED)}
  WHERE record_id = %s RETURNING record_id
)
INSERT INTO {BattleEvent._meta.db_table} ({", ".join(_LOGGED[1:])}, battle_id)
SELECT {", ".join("%s::{}" for _ in _LOGGED[1:])}, record_id FROM stored
RETURNING id
"""


@cache
def _store_sql() -> str:
    """``_STORE_SQL`` with each logged value cast to its column's type: the values are bound on the server,
    where an untyped parameter in a SELECT list has no type to take."""
    casts = [BattleEvent._meta.get_field(name).cast_db_type(connection) for name in _LOGGED[1:]]
    return _STORE_SQL.format(*casts)


def _server_cursor() -> Any:
    """A cursor that binds its parameters on the server and prepares its statement once per connection.

    psycopg's client-side quoting of the stored values (the state's JSON among them) cost more Python time
    than the rest of the statement, and planning the lock's and the store's statements each time cost the
    database more than running them (issue 4's move path). Only these two statements are prepared: Django
    leaves preparing off for poolers outside the process, so such a pooler must keep prepared statements
    (PgBouncer 1.21+ with max_prepared_statements); the in-process pool (DATABASE_POOL) keeps them as they are.
    """
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # Django turns psycopg's preparing off (None) unless OPTIONS sets a threshold, and then ``prepare=True``
        # is ignored too: a threshold that no other statement reaches prepares these two alone.
        raw.prepare_threshold = ONLY_WHEN_ASKED
    with connection.wrap_database_errors:
        return connection._prepare_cursor(_prepared_cursor_class()(raw))


ONLY_WHEN_ASKED = 2**31 - 1


@cache
def _prepared_cursor_class() -> Any:
    from django.db.backends.postgresql.base import ServerBindingCursor

    class Prepared(ServerBindingCursor):
        def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
            return super().execute(query, params, **{**options, "prepare": True})

    return Prepared


def store(battle: LiveBattle, row: BattleEvent) -> None:
    """Write the new snapshot and its log row; on PostgreSQL in one round trip (the move path's floor)."""
    if connection.vendor != "postgresql":
        battle.save(update_fields=list(_STORED))
        row.save(force_insert=True)
        return

    def value(obj: Any, name: str) -> Any:
        item = getattr(obj, name)
        return json.dumps(item, cls=DjangoJSONEncoder) if name in _JSON and item is not None else item

    params = [value(battle, f) for f in _STORED] + [battle.pk] + [value(row, f) for f in _LOGGED[1:]]
    with _server_cursor() as cursor:
        cursor.execute(_store_sql(), params)
        row.pk = cursor.fetchone()[0]
    row._state.adding = False


@dataclass(frozen=True)
class Seat:
    """Who commands a unit of the battle (T2): its side, its commander and that commander's player."""

    engine_id: str
    side: str
    commander_id: int | None
    user_id: int | None


def seats(battle: LiveBattle) -> dict[str, Seat]:
    """Who commands each unit, from the lock's statement when it brought them."""
    rows = getattr(battle, "seat_rows", None)
    if rows is None:
        rows = BattleUnit.objects.filter(battle=battle).values("engine_id", "side", "commander_id",
                                                                user_id=F("commander__user_id"))
    return {row["engine_id"]: Seat(**row) for row in rows}
