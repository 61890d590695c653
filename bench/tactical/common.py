"""What the tactical benchmarks share: the bench's services, its processes, a world of live battles."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = ROOT / ".venv" / "bin"
PORT = int(os.environ.get("TACTICAL_BENCH_PORT", "18794"))
# The bench's own database (dropped and created again by each run) and Redis db (flushed): by default
# ``<DATABASE_URL's name>_tactical_bench`` and REDIS_URL when those are set, else the names below.
_db = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/limes"
BENCH_DB = _db.rsplit("/", 1)[1] + "_tactical_bench"
SERVICES = {
    "DATABASE_URL": f"{_db.rsplit('/', 1)[0]}/{BENCH_DB}",
    "REDIS_URL": os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/4",
    # Production's connection pool in the server (the workers drop it: config/celery.py); 0: none.
    "DATABASE_POOL": os.environ.get("DATABASE_POOL") or "20",
}
SCRIPT = ROOT / "bench" / "tactical_bench.py"


def use_layer(settings: Any) -> None:
    """``TACTICAL_BENCH_LAYER=pubsub``: measure with channels_redis' pub/sub layer instead of the configured one."""
    if os.environ.get("TACTICAL_BENCH_LAYER") == "pubsub" and os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                               "CONFIG": {"hosts": [os.environ["REDIS_URL"]]}}}


def pct(values: list[float], q: float) -> float | None:
    """The q-th percentile (nearest rank); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def summary(values: list[float]) -> dict[str, Any]:
    """Count, p50, p90, p99 and the largest, in ms rounded to 0.1."""
    def r(v: float | None) -> float | None:
        return None if v is None else round(v, 1)
    return {"n": len(values), "p50": r(pct(values, 50)), "p90": r(pct(values, 90)), "p99": r(pct(values, 99)),
            "max": r(max(values) if values else None)}


def production_env(database: str, redis: str) -> dict[str, str]:
    """docker-compose.yml's settings for the server, on plain HTTP at 127.0.0.1."""
    return {"LIMES_PRODUCTION": "1", "SECRET_KEY": "bench-only-" + "x" * 40, "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database, "REDIS_URL": redis, "SECURE_SSL_REDIRECT": "0", "SECURE_HSTS_SECONDS": "0",
            "DATABASE_POOL": os.environ.get("DATABASE_POOL") or "20", "LOG_LEVEL": "WARNING"}


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    use_layer(settings)


def start(args: list[str], env: dict[str, str], log: str) -> subprocess.Popen[bytes]:
    out = open(log, "ab")  # noqa: SIM115 - the child process keeps it
    return subprocess.Popen(args, cwd=ROOT, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# The ASGI servers the bench can run, with the options docker-compose.yml (uvicorn) and scripts/run (daphne)
# give them, serving the bench's application (bench/tactical/app.py) on PORT.
SERVERS = {
    "daphne": ["daphne", "-b", "127.0.0.1", "-p", "{port}"],
    "uvicorn": ["uvicorn", "--host", "127.0.0.1", "--port", "{port}", "--lifespan", "off", "--no-access-log",
                "--ws-per-message-deflate", "false", "--log-level", "warning"],
}


def serve(server: str, env: dict[str, str], logs: str) -> subprocess.Popen[bytes]:
    program, *options = SERVERS[server]
    command = [str(BIN / program), *(o.format(port=PORT) for o in options), "bench.tactical.app:application"]
    return start(command, env, f"{logs}/{server}.log")


def wait_http(port: int, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/schema/")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("the ASGI server did not start")


def world_and_battles(count: int, turn_seconds: int = 40, units: int = 2) -> tuple[Any, list[Any]]:
    """A fresh campaign and ``count`` live battles in round 1 (attacker to act), on open fields.

    The bench's database is emptied first: ``all`` builds one world per measurement.
    """
    from django.core.management import call_command
    from django.db import connection, transaction

    from strategic.models import Battle, Unit
    from tactical.services import play as services
    from tests.factories import ArmyFactory, ProvinceFactory, UnitFactory, build_world

    with transaction.atomic(), connection.cursor() as cursor:
        # M3: the logs refuse TRUNCATE; the bench's own database is emptied with the triggers off.
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        call_command("flush", interactive=False, verbosity=0)
    world = build_world()
    world.campaign.settings = {**world.campaign.settings, "turn_seconds": turn_seconds}
    world.campaign.save()
    battles = []
    for n in range(count):
        target = ProvinceFactory(campaign=world.campaign, code=f"field-{n}", controller=world.west)
        east = ArmyFactory(faction=world.east, commander=world.belisarius, province=world.dacia, name=f"E{n}")
        west = ArmyFactory(faction=world.west, commander=world.aetius, province=target, name=f"W{n}")
        for _ in range(units):
            UnitFactory(faction=world.east, unit_type=world.infantry, army=east)
            UnitFactory(faction=world.west, unit_type=world.infantry, army=west)
        record = Battle.objects.create(campaign=world.campaign, turn=1, province=target, origin=world.dacia,
                                       terrain="field", attacker_army=east, attacker_faction=world.east,
                                       defender_faction=world.west)
        live = services.battle_setup(actor=world.moderator, record=record, map_seed=n)
        if live.state["cells"]:
            services.battle_map_edit(actor=world.moderator, battle_id=live.pk,
                                     cells=[{"x": x, "y": y, "feature": None} for x, y, _ in live.state["cells"]])
        services.battle_start(actor=world.moderator, battle_id=live.pk)
        live.refresh_from_db()
        battles.append(live)
    assert Unit.objects.count() > 0
    return world, battles


def token(user: Any) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key
