"""M3 with one deliberate exception: a whole campaign (or battle) can be purged by an administrator.

The append-only trigger of 0002 refused every DELETE, so deleting a campaign or a battle failed on
PostgreSQL: its log rows could not go. The trigger now lets a DELETE through only inside a transaction that
has set ``SET LOCAL limes.purge = 'on'``, which only ``moderation.services.purge`` does (for a superuser, for whole
campaigns or battles). A single entry, an UPDATE, or any DELETE outside a purge is still refused.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

PURGE_CHECK = """
  IF TG_OP = 'DELETE' AND coalesce(current_setting('limes.purge', true), '') = 'on' THEN
    RETURN OLD;  -- moderation.services.purge: a whole campaign or battle, deleted deliberately by an administrator
  END IF;
"""


def _function(purge: bool) -> str:
    from importlib import import_module

    function = import_module("moderation.migrations.0002_append_only_logs").FUNCTION
    return function.replace("BEGIN\n", "BEGIN\n" + PURGE_CHECK, 1) if purge else function


def _install(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_function(True), params=None)


def _remove(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(_function(False), params=None)


class Migration(migrations.Migration):
    dependencies = [("moderation", "0002_append_only_logs")]

    operations = [migrations.RunPython(_install, _remove)]
