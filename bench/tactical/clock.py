"""The turn clock: many deadlines in one second, with and without a killed worker; the embedded mode."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import tempfile
import time
from datetime import UTC
from typing import Any

from bench.tactical.common import (
    BIN,
    PORT,
    django_setup,
    pct,
    serve,
    start,
    stop,
    wait_http,
    world_and_battles,
)

# The worker as docker-compose.yml runs it (see the comment there).
WORKER_OPTIONS = "--concurrency 4 --without-mingle --without-gossip"


def bench_clock(count: int, kill: bool, env: dict[str, str], logs: str, workers: int = 1) -> dict[str, Any]:
    """``workers`` worker processes; with ``kill`` the first one is SIGKILLed a second before the deadline."""
    from datetime import datetime, timedelta

    from tactical.models import BattleEvent, LiveBattle
    from tactical.services import clock

    _, battles = world_and_battles(count, turn_seconds=600)
    options = os.environ.get("TACTICAL_BENCH_WORKER", WORKER_OPTIONS).split()

    def worker(n: int, log: str) -> subprocess.Popen[bytes]:
        return start([str(BIN / "celery"), "-A", "config", "worker", "-n", f"bench{n}@%h", *options,
                      "--loglevel", "WARNING"], env, f"{logs}/{log}")

    running = [worker(n, f"worker{n}.log") for n in range(workers)]
    beat = start([str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING", "-s",
                  f"{logs}/beat-schedule"], env, f"{logs}/beat.log")
    time.sleep(8)  # the workers connect and the beat starts sending the sweep
    deadline = datetime.fromtimestamp(int(time.time()) + 6, tz=UTC)
    ids = [b.pk for b in battles]
    for b in battles:
        moment = deadline + timedelta(milliseconds=(b.pk * 37) % 1000)  # spread over the same second
        LiveBattle.objects.filter(pk=b.pk).update(deadline=moment)
        clock.schedule_timeout(b.pk, b.turn_key, moment)
    if kill:
        time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds() - 1))
        os.killpg(running[0].pid, signal.SIGKILL)
        running[0].wait()
        running[0] = worker(0, "worker0-restarted.log")
    time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 12)
    for process in running:
        stop(process)
    stop(beat)
    late, missed, doubled = [], 0, 0
    for b in battles:
        rows = list(BattleEvent.objects.filter(battle_id=b.pk, kind="timeout").order_by("version"))
        due = LiveBattle.objects.filter(pk=b.pk).values_list("state", flat=True).get()
        if not rows:
            missed += 1
            continue
        first = [r for r in rows if r.events[0]["round"] == 1 and r.events[0]["side"] == "attacker"]
        doubled += len(first) > 1
        scheduled = datetime.fromisoformat(first[0].events[0]["deadline"])
        late.append((first[0].created_at - scheduled).total_seconds())
        assert due is not None
    return {"battles": len(ids), "missed": missed, "doubled": doubled, "p50": pct(late, 50), "p99": pct(late, 99),
            "min": min(late) if late else None, "max": max(late) if late else None}


def bench_embedded(turns: int) -> dict[str, Any]:
    var = tempfile.mkdtemp(prefix="limes-embedded-")
    env = {"LIMES_VAR_DIR": var, "DATABASE_URL": "", "REDIS_URL": ""}
    django_setup(env)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    _, (battle,) = world_and_battles(1, turn_seconds=3)
    battle_id = battle.pk
    daphne = serve("daphne", env, var)
    worker = start([str(BIN / "celery"), "-A", "config", "worker", "--beat", "--pool", "solo", "--without-mingle",
                    "--without-gossip", "--loglevel", "WARNING", "--schedule", f"{var}/celerybeat-schedule"],
                   env, f"{var}/worker.log")
    try:
        wait_http(PORT)
        late = asyncio.run(_embedded_watch(battle_id, turns))
    finally:
        stop(daphne)
        stop(worker)
    return {"timeouts_seen": len(late), "p50": pct(late, 50), "max": max(late)}


async def _embedded_watch(battle_id: int, turns: int) -> list[float]:
    from datetime import datetime

    import websockets

    sockets = [await websockets.connect(f"ws://127.0.0.1:{PORT}/ws/battles/{battle_id}/",
                                        origin=f"http://127.0.0.1:{PORT}", max_size=2**22) for _ in range(3)]
    deadline = None
    for ws in sockets:
        deadline = json.loads(await ws.recv())["state"]["deadline"]
    late: list[float] = []
    seen = 0
    while seen <= turns:
        got = []
        for ws in sockets:
            message = json.loads(await asyncio.wait_for(ws.recv(), 15))
            got.append(time.time())
        assert message["kind"] == "timeout", message["kind"]
        due = datetime.fromisoformat(deadline).timestamp()
        if seen:  # the first deadline may have passed while daphne was starting
            late.append(max(got) - due)
        deadline = message["state"]["deadline"]
        seen += 1
    for ws in sockets:
        await ws.close()
    return late
