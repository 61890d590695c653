"""Production settings: ``manage.py check --deploy`` passes with them, and a missing secret stops the start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION_ENV = {
    "LIMES_PRODUCTION": "1",
    # 50 random-looking characters: Django's deploy check refuses short or "django-insecure-" keys.
    "SECRET_KEY": "q8T3vZ0pL1mN6xR4kW9sB2yH7jD5fG0aC3eU8iO1tY6rE4wQ2z",
    "ALLOWED_HOSTS": "limes.example.org",
    "DATABASE_URL": "postgres://limes:secret@db.example.org:5432/limes",
    "REDIS_URL": "redis://redis.example.org:6379/0",
}


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # Only the variables given here: a developer's own SECRET_KEY or DEBUG must not leak into the check.
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        check=False,
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_check_deploy_passes_with_production_settings() -> None:
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr + result.stdout
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNING" not in result.stderr


def test_production_without_secret_key_fails_naming_it() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = _manage("check", "--deploy", env=env)
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set when LIMES_PRODUCTION=1" in result.stderr


def test_production_without_allowed_hosts_fails_naming_it() -> None:
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "ALLOWED_HOSTS"}
    result = _manage("check", "--deploy", env=env)
    assert result.returncode != 0
    assert "ImproperlyConfigured: ALLOWED_HOSTS must be set when LIMES_PRODUCTION=1" in result.stderr


def _database(env: dict[str, str]) -> dict[str, Any]:
    """The default database's settings as a process with ``env`` sees them."""
    code = "import json; from django.conf import settings; print(json.dumps(settings.DATABASES['default']))"
    result = _manage("shell", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_production_lends_connections_from_a_pool_not_persistent_ones() -> None:
    # Under ASGI a persistent connection is never reused by the next request (a thread per request).
    database = _database(PRODUCTION_ENV)
    assert database["CONN_MAX_AGE"] == 0
    assert database["CONN_HEALTH_CHECKS"] is True
    assert database["OPTIONS"] == {"pool": {"min_size": 2, "max_size": 20}}


def test_database_pool_sets_the_size_and_zero_turns_it_off() -> None:
    sized = _database({**PRODUCTION_ENV, "DATABASE_POOL": "8"})
    assert sized["OPTIONS"] == {"pool": {"min_size": 2, "max_size": 8}}
    off = _database({**PRODUCTION_ENV, "DATABASE_POOL": "0"})
    assert (off["OPTIONS"], off["CONN_MAX_AGE"]) == ({}, 0)
    with_options = _database({**PRODUCTION_ENV, "DATABASE_URL": PRODUCTION_ENV["DATABASE_URL"] + "?sslmode=require"})
    assert with_options["OPTIONS"] == {"sslmode": "require", "pool": {"min_size": 2, "max_size": 20}}


def test_database_pool_not_a_number_fails_naming_it() -> None:
    result = _manage("check", env={**PRODUCTION_ENV, "DATABASE_POOL": "many"})
    assert result.returncode != 0
    assert "ImproperlyConfigured: DATABASE_POOL must be a whole number of connections (0: no pool)" in result.stderr
