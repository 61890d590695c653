"""The clocks queue their Celery tasks by name (no task module imported by a service): every process that
starts Django has the tasks registered, the web server's too, not only a worker that imported them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_tasks_are_registered_when_django_starts() -> None:
    script = (
        "import django; django.setup(); from celery import current_app; "
        "print(sorted(n for n in current_app.tasks if not n.startswith('celery.')))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.stdout.strip() == str([
        "campaign.faction_turns_expire", "notifications.email_send", "notifications.turn_hour_left",
        "notifications.verification_send", "notifications.webhook_deliver", "strategic.battle_reminder",
        "strategic.retreat_deadline", "strategic.retreat_sweep",
        "tactical.battle_clock_sweep", "tactical.battle_turn_timeout",
    ]), result.stderr
