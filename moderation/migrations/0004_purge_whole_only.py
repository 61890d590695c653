"""M3 closed: no TRUNCATE of the logs, and the purge lets through only a whole campaign or battle.

0002 and 0003 left two holes: TRUNCATE (with or without CASCADE) emptied a log, since it is not a row
change; and ``SET LOCAL limes.purge = 'on'`` let any single entry be deleted. On PostgreSQL now:

* ``<table>_no_truncate``: BEFORE TRUNCATE, always refused, also when the TRUNCATE cascades from a
  referenced table.
* ``<table>_append_only`` (the row trigger of 0002, its function replaced): a DELETE passes only when
  ``limes.purge`` names the entry's own scope: ``campaign:<id>`` of the entry's campaign, or for a battle
  event also ``battle:<id>`` of its battle. ``moderation.services.purge`` sets it to the campaign or battle
  it deletes. Any other value (``on`` included) or an UPDATE is refused as before.
* ``<table>_purged_whole``: a constraint trigger deferred to the commit, for each deleted entry: its
  campaign (a log entry) or its strategic battle (a battle event) must no longer exist. So a single entry
  deleted with the setting on fails at commit; only the deletion of the parent itself, which the foreign
  keys make take every one of its entries along, gets through.

Emptying a test database, which Django does with one TRUNCATE of every table, is done with the triggers
off (``session_replication_role = replica``, a database superuser's setting: tests/conftest.py).

On SQLite nothing is installed, as in 0002.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.db import migrations

REFUSE = "USING ERRCODE = 'integrity_constraint_violation'"

# Which values of limes.purge cover an entry (a row of the table, as JSON); NULL where none does.
SCOPE = """
CREATE OR REPLACE FUNCTION limes_purge_scope(log_table text, entry jsonb) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT CASE log_table
    WHEN 'campaign_logentry' THEN ARRAY['campaign:' || (entry ->> 'campaign_id')]
    WHEN 'tactical_battleevent' THEN ARRAY[
      'battle:' || (entry ->> 'battle_id'),
      'campaign:' || (SELECT campaign_id FROM tactical_livebattle
                      WHERE record_id = (entry ->> 'battle_id')::bigint)]
  END
$$;
"""

ROW = f"""
CREATE OR REPLACE FUNCTION limes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  column_name text;
  purge text := coalesce(current_setting('limes.purge', true), '');
BEGIN
  IF TG_OP = 'DELETE' AND purge <> '' THEN
    IF coalesce(purge = ANY (limes_purge_scope(TG_TABLE_NAME, to_jsonb(OLD))), false) THEN
      RETURN OLD;  -- moderation.services.purge; limes_purged_whole checks at commit that the parent went too
    END IF;
    RAISE EXCEPTION
      'M3: % is append-only: an entry cannot be deleted (limes.purge = ''%'' is not its campaign or battle)',
      TG_TABLE_NAME, purge {REFUSE};
  END IF;
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - TG_ARGV) = (to_jsonb(OLD) - TG_ARGV) THEN
    -- Only nullable references may change, and only to NULL (ON DELETE SET NULL of a user or commander).
    FOREACH column_name IN ARRAY TG_ARGV LOOP
      IF to_jsonb(NEW) -> column_name <> 'null'::jsonb
         AND to_jsonb(NEW) -> column_name <> to_jsonb(OLD) -> column_name THEN
        RAISE EXCEPTION 'M3: % is append-only: an entry cannot be changed', TG_TABLE_NAME {REFUSE};
      END IF;
    END LOOP;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'M3: % is append-only: an entry cannot be %', TG_TABLE_NAME,
    CASE TG_OP WHEN 'DELETE' THEN 'deleted' ELSE 'changed' END {REFUSE};
END;
$$;
"""

# TG_ARGV: the parent table, the entry's column naming the parent's id, and the parent's name in the error.
WHOLE = f"""
CREATE OR REPLACE FUNCTION limes_purged_whole() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent_left boolean;
BEGIN
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE id = $1)', TG_ARGV[0])
    INTO parent_left USING (to_jsonb(OLD) ->> TG_ARGV[1])::bigint;
  IF parent_left THEN
    RAISE EXCEPTION 'M3: % is append-only: an entry cannot be deleted unless its whole % is purged with it',
      TG_TABLE_NAME, TG_ARGV[2] {REFUSE};
  END IF;
  RETURN NULL;
END;
$$;
"""

NO_TRUNCATE = f"""
CREATE OR REPLACE FUNCTION limes_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'M3: % is append-only: it cannot be truncated', TG_TABLE_NAME {REFUSE};
END;
$$;
"""

# (table, its parent table, the column naming the parent, the parent's name in the error)
TABLES = (
    ("campaign_logentry", "campaign_campaign", "campaign_id", "campaign"),
    ("tactical_battleevent", "strategic_battle", "battle_id", "battle"),
)


def _install(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for function in (SCOPE, ROW, WHOLE, NO_TRUNCATE):
        schema_editor.execute(function, params=None)
    for table, parent, column, name in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION limes_no_truncate()"
        )
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_purged_whole ON {table}")
        schema_editor.execute(
            f"CREATE CONSTRAINT TRIGGER {table}_purged_whole AFTER DELETE ON {table} "
            "DEFERRABLE INITIALLY DEFERRED "
            f"FOR EACH ROW EXECUTE FUNCTION limes_purged_whole('{parent}', '{column}', '{name}')"
        )


def _remove(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, *_rest in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_purged_whole ON {table}")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS limes_purged_whole()")
    schema_editor.execute("DROP FUNCTION IF EXISTS limes_no_truncate()")
    purge_setting = import_module("moderation.migrations.0003_purge_setting")
    schema_editor.execute(purge_setting._function(True), params=None)
    schema_editor.execute("DROP FUNCTION IF EXISTS limes_purge_scope(text, jsonb)")


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0003_purge_setting"),
        ("strategic", "0001_initial"),
    ]

    operations = [migrations.RunPython(_install, _remove)]
