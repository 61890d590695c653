"""M3: the campaign log and every battle's event log are append-only, enforced by the database.

On PostgreSQL a trigger refuses every DELETE and every UPDATE of ``campaign_logentry`` and
``tactical_battleevent``. The one change let through is the database's own ``SET NULL`` when a referenced
user or commander is deleted (the entry stays, its other columns unchanged); anything else raises.
TRUNCATE (a test database being emptied) is not a row change and is not affected.

On SQLite nothing is installed: its test flush deletes rows one by one, which a trigger would refuse.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION limes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  column_name text;
BEGIN
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - TG_ARGV) = (to_jsonb(OLD) - TG_ARGV) THEN
    -- Only nullable references may change, and only to NULL (ON DELETE SET NULL of a user or commander).
    FOREACH column_name IN ARRAY TG_ARGV LOOP
      IF to_jsonb(NEW) -> column_name <> 'null'::jsonb
         AND to_jsonb(NEW) -> column_name <> to_jsonb(OLD) -> column_name THEN
        RAISE EXCEPTION 'M3: % is append-only: an entry cannot be changed', TG_TABLE_NAME
          USING ERRCODE = 'integrity_constraint_violation';
      END IF;
    END LOOP;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'M3: % is append-only: an entry cannot be %', TG_TABLE_NAME,
    CASE TG_OP WHEN 'DELETE' THEN 'deleted' ELSE 'changed' END
    USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
"""

# (table, the nullable references the database itself may set to NULL)
TABLES = (
    ("campaign_logentry", ("actor_id",)),
    ("tactical_battleevent", ("actor_id", "commander_id")),
)


def _install(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION, params=None)
    for table, nullable in TABLES:
        args = ", ".join(f"'{name}'" for name in nullable)
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION limes_append_only({args})"
        )


def _remove(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, _nullable in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS limes_append_only()")


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_disputes_and_rulings"),
        ("campaign", "0001_initial"),
        ("tactical", "0001_initial"),
    ]

    operations = [migrations.RunPython(_install, _remove)]
