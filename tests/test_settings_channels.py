"""The Channels layer on Redis is scoped by REDIS_URL's database number (pub/sub itself ignores it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _layer(redis_url: str) -> dict[str, object]:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH"}}
    code = "import json; from django.conf import settings; print(json.dumps(settings.CHANNEL_LAYERS['default']))"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        check=False, cwd=ROOT, env={**base, "REDIS_URL": redis_url}, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_two_redis_databases_get_channel_names_that_cannot_meet() -> None:
    assert _layer("redis://127.0.0.1:6379/3") == {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": ["redis://127.0.0.1:6379/3"], "prefix": "limes3"},
    }
    assert _layer("redis://127.0.0.1:6379")["CONFIG"] == {"hosts": ["redis://127.0.0.1:6379"], "prefix": "limes0"}
