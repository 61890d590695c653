"""Benchmarks of live battles against real services: PostgreSQL, Redis, the ASGI server and a Celery worker.

    python bench/tactical_bench.py all          # http, fanout, clock, clock-kill (PostgreSQL + Redis)
    python bench/tactical_bench.py embedded     # the embedded mode: SQLite, in-memory layer, file broker

* http: actions over HTTP (the whole move path: lock, deadline, T2 check, engine, store, log, push)
  beside a baseline endpoint that only locks and updates one row, in alternating slices so that both
  meet the same load of a shared machine; throughput, p50/p99 and their ratio.
* fanout: commit → receipt by the last of N watchers (``--sizes``, default 10, 100, 500), beside a bare
  group_send; the watchers run in a process of their own (``watch``); every message must reach all N.
* clock: 200 battles whose deadlines fall in the same second: lateness of the timeout, missed, doubled;
  clock-kill: the same with a worker SIGKILLed a second before the deadline (and started again);
  ``--workers 2`` runs two workers as docker-compose.yml does and kills one.

The bench uses its own database ``<DATABASE_URL's name>_tactical_bench`` (dropped and made again) and
flushes REDIS_URL's db: run it with a database name and a Redis db of your own.
* embedded: timeouts reach sockets within 1 s with scripts/run's processes (daphne + worker --beat).

The ASGI server (``--server daphne|uvicorn``, default: docker-compose.yml's; http and fanout) serves
``bench.tactical_bench:application``: the project plus the bench-only baseline endpoint, which never exists
in the project's own URLs. Settings are the embedded mode's on PostgreSQL and Redis, with production's
connection pool (``DATABASE_POOL``, default 20; ``DATABASE_POOL=0`` measures a connection per request).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
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


# -- the ASGI application the server serves ----------------------------------------------------------

_app: Any = None


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The project's ASGI app with ``/bench/baseline/<battle>/`` added (bench processes only)."""
    global _app
    if _app is None:
        _app = _build_app()
    await _app(scope, receive, send)


def _build_app() -> Any:
    import types

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    from config.asgi import application as project

    use_layer(settings)
    from django.db import transaction
    from django.urls import include, path
    from rest_framework.permissions import IsAuthenticated
    from rest_framework.response import Response
    from rest_framework.views import APIView

    from tactical.models import LiveBattle

    class Baseline(APIView):
        """Lock one row and update it: the floor under any write that locks a battle."""

        permission_classes = (IsAuthenticated,)

        def post(self, request: Any, pk: int) -> Response:
            with transaction.atomic():
                row = LiveBattle.objects.select_for_update(of=("self",)).only("pk", "turn_key").get(pk=pk)
                LiveBattle.objects.filter(pk=row.pk).update(turn_key=row.turn_key)
            return Response({"ok": True})

    module = types.ModuleType("tactical_bench_urls")
    module.urlpatterns = [  # type: ignore[attr-defined]
        path("bench/baseline/<int:pk>/", Baseline.as_view()),
        path("", include("config.urls")),
    ]
    sys.modules["tactical_bench_urls"] = module
    settings.ROOT_URLCONF = "tactical_bench_urls"
    return project


# -- helpers -----------------------------------------------------------------------------------------


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
# give them, serving this module's application on PORT.
SERVERS = {
    "daphne": ["daphne", "-b", "127.0.0.1", "-p", "{port}"],
    "uvicorn": ["uvicorn", "--host", "127.0.0.1", "--port", "{port}", "--lifespan", "off", "--no-access-log",
                "--ws-per-message-deflate", "false", "--log-level", "warning"],
}


def serve(server: str, env: dict[str, str], logs: str) -> subprocess.Popen[bytes]:
    program, *options = SERVERS[server]
    command = [str(BIN / program), *(o.format(port=PORT) for o in options), "bench.tactical_bench:application"]
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

    from strategic.models import Battle, Unit
    from tactical import services
    from tests.factories import ArmyFactory, ProvinceFactory, UnitFactory, build_world

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


# -- http ---------------------------------------------------------------------------------------------


class Player:
    """Plays one battle over HTTP as fast as it can: three 1-cell steps per unit, then end_turn.

    ``play`` runs for a slice of time and may be called again: the game goes on where it stopped.
    """

    def __init__(self, battle: Any, tokens: dict[str, str], baseline: bool) -> None:
        self.battle, self.tokens, self.baseline = battle, tokens, baseline
        self.conns = {side: http.client.HTTPConnection("127.0.0.1", PORT, timeout=30) for side in tokens}
        self.latencies: list[float] = []
        self.errors = 0
        self.plan = self._requests()

    def _requests(self) -> Any:
        """(side, url, body) for ever."""
        if self.baseline:
            while True:
                yield "attacker", f"/bench/baseline/{self.battle.pk}/", {}
        url = f"/api/tactical/battles/{self.battle.pk}/actions/"
        units = {side: [u["id"] for u in self.battle.state["units"] if u["side"] == side] for side in self.tokens}
        # Forward, back, forward in one turn and back, forward, back in the next: the armies never meet, so
        # the battle goes on for as long as the run (a contact would end it and make the moves cheap refusals).
        step = {"attacker": ([0, -1], [0, 1], [0, -1]), "defender": ([0, 1], [0, -1], [0, 1])}
        pos = {u["id"]: [u["x"], u["y"]] for u in self.battle.state["units"]}
        side, n, turns = "attacker", 0, 0
        while True:
            sign = 1 if turns % 4 < 2 else -1
            turns += 1
            for unit in units[side]:
                for dx, dy in step[side]:
                    pos[unit] = [pos[unit][0] + dx * sign, pos[unit][1] + dy * sign]
                    n += 1
                    yield side, url, {"id": f"b{self.battle.pk}-{n}",
                                      "action": {"do": "move", "unit": unit, "path": [pos[unit]]}}
            n += 1
            yield side, url, {"id": f"b{self.battle.pk}-{n}", "action": {"do": "end_turn"}}
            side = "defender" if side == "attacker" else "attacker"

    def play(self, seconds: float) -> None:
        # The server closes a keep-alive connection idle for longer than a few seconds (uvicorn: 5 s), as the
        # other kind's slice may leave it: each slice opens its connections again.
        for conn in self.conns.values():
            conn.close()
        end = time.time() + seconds
        while time.time() < end:
            side, url, body = next(self.plan)
            self._post(self.conns[side], self.tokens[side], url, body)

    def _post(self, conn: http.client.HTTPConnection, key: str, url: str, body: dict[str, Any]) -> None:
        started = time.perf_counter()
        conn.request("POST", url, json.dumps(body), {"Content-Type": "application/json",
                                                   "Authorization": f"Token {key}"})
        answer = conn.getresponse()
        body = answer.read()
        self.latencies.append((time.perf_counter() - started) * 1000)
        if answer.status != 200:
            self.errors += 1
            if self.errors <= 2:
                print(answer.status, body[:300], file=sys.stderr)


def bench_http(seconds: float, clients: int, slices: int = 5) -> dict[str, Any]:
    """Baseline and actions in alternating slices (``slices`` of each), so that both meet the same load of a
    shared machine; each figure is over all its slices."""
    world, battles = world_and_battles(clients, turn_seconds=600)
    tokens = {"attacker": token(world.east_general), "defender": token(world.west_leader)}
    kinds = {"baseline: lock + update one row": True, "action (move / end_turn)": False}
    players = {name: [Player(b, tokens, baseline) for b in battles] for name, baseline in kinds.items()}
    walls = dict.fromkeys(kinds, 0.0)
    for _ in range(slices):
        for name in kinds:
            threads = [threading.Thread(target=p.play, args=(seconds / slices,)) for p in players[name]]
            began = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            walls[name] += time.perf_counter() - began
    results = {}
    for name in kinds:
        lat = [x for p in players[name] for x in p.latencies]
        results[name] = {"requests": len(lat), "per_s": len(lat) / walls[name], "p50": pct(lat, 50),
                         "p99": pct(lat, 99), "errors": sum(p.errors for p in players[name])}
    base, moves = (results[name]["per_s"] for name in kinds)
    results["action / baseline"] = moves / base
    return results


# -- fan-out ---------------------------------------------------------------------------------------------


TAG = re.compile(rb'"(?:version|id)":(-?\d+)')


async def _watch(battle_id: int, count: int) -> None:
    """The watchers' process: ``count`` sockets on one event loop; prints "ready", then on a line from stdin
    the arrival times by tag (an event's version, or the negative id of a bare ``group_send``) as JSON.

    Only the head of each message is read for its tag: the watchers must cost less than the server they
    measure (they share its 2 cores), so nothing is parsed as JSON.
    """
    import websockets

    inbox: dict[int, list[float]] = {}
    sockets = []
    for _ in range(count):
        ws = await websockets.connect(f"ws://127.0.0.1:{PORT}/ws/battles/{battle_id}/", compression=None,
                                      origin=f"http://127.0.0.1:{PORT}", max_size=2**22)  # type: ignore[arg-type]
        await ws.recv(decode=False)  # welcome
        sockets.append(ws)

    async def reader(ws: Any) -> None:
        while True:
            try:
                data = await ws.recv(decode=False)
            except websockets.ConnectionClosed:
                return
            arrived = time.time()
            found = TAG.search(data, 0, 120)
            if found:
                inbox.setdefault(int(found.group(1)), []).append(arrived)

    tasks = [asyncio.create_task(reader(ws)) for ws in sockets]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    print(json.dumps(inbox), flush=True)
    for task in tasks:
        task.cancel()
    for ws in sockets:
        await ws.close()


def bench_fanout(sizes: list[int], rounds: int, processes: int = 1) -> dict[str, Any]:
    """``processes``: the watcher processes the N sockets are shared among."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.db import transaction

    from tactical import push, services

    world, (battle,) = world_and_battles(1, turn_seconds=600)
    marks: dict[int, float] = {}
    original = push.send_on_commit

    def marked(groups: list[str], message: dict[str, Any], state_json: str | None = None, **meta: Any) -> None:
        version = meta.get("version")
        transaction.on_commit(lambda: marks.__setitem__(version, time.time()))  # runs first: the commit
        original(groups, message, state_json, **meta)

    push.send_on_commit = marked
    services.send_on_commit = marked  # type: ignore[attr-defined]
    layer = get_channel_layer()
    results = {}
    unit = next(u["id"] for u in battle.state["units"] if u["side"] == "attacker")
    for size in sizes:
        # The watchers run in their own process, so that they neither wait for this one's GIL nor slow it.
        shares = [size // processes + (n < size % processes) for n in range(processes)]
        watchers = [subprocess.Popen([sys.executable, __file__, "watch", "--battle", str(battle.pk), "--watchers",
                                      str(share)], cwd=ROOT, env={**os.environ, "TACTICAL_BENCH_PORT": str(PORT)},
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                    for share in shares if share]
        for process in watchers:
            assert process.stdout is not None
            if process.stdout.readline().strip() != "ready":
                raise RuntimeError("the watchers did not connect")
        time.sleep(1)
        marks.clear()
        facing = ["E", "N"]
        for i in range(rounds):
            services.battle_action_apply(actor=world.east_general, battle_id=battle.pk,
                                         action={"do": "turn", "unit": unit, "facing": facing[i % 2]})
            if i % 2 == 1:  # turning twice a turn spends 2 of 3 points: end the turns to refill
                services.battle_action_apply(actor=world.east_general, battle_id=battle.pk,
                                             action={"do": "end_turn"})
                services.battle_action_apply(actor=world.west_leader, battle_id=battle.pk,
                                             action={"do": "end_turn"})
            time.sleep(0.4)  # latency, not throughput: each fan-out drains before the next
        text = push.dumps({"type": "order", "order": {"id": 0, "text": "x" * 6000}})
        for i in range(rounds):
            sent = time.time()
            async_to_sync(layer.group_send)(push.battle_group(battle.pk),
                                            {"type": "battle.message", "text": text.replace('"id":0', f'"id":{-1 - i}')})
            marks[-1 - i] = sent
            time.sleep(0.4)
        time.sleep(2)
        inbox: dict[int, list[float]] = {}
        for process in watchers:
            assert process.stdout is not None and process.stdin is not None
            process.stdin.write("stop\n")
            process.stdin.flush()
            for tag, times in json.loads(process.stdout.readline()).items():
                inbox.setdefault(int(tag), []).extend(times)
            process.wait(30)
        pushed, bare, lost = [], [], 0
        for tag, sent in marks.items():
            times = inbox.get(tag, [])
            lost += size - len(times)
            if len(times) == size:
                (bare if tag < 0 else pushed).append((max(times) - sent) * 1000)
        results[size] = {"messages": len(marks), "lost": lost, "pushed": len(pushed), "bare": len(bare),
                         "p50": pct(pushed, 50), "p90": pct(pushed, 90), "p99": pct(pushed, 99),
                         "bare_p50": pct(bare, 50), "bare_p99": pct(bare, 99)}
    return results


# -- clock ---------------------------------------------------------------------------------------------


# The worker as docker-compose.yml runs it (see the comment there).
WORKER_OPTIONS = "--concurrency 4 --without-mingle --without-gossip"


def bench_clock(count: int, kill: bool, env: dict[str, str], logs: str, workers: int = 1) -> dict[str, Any]:
    """``workers`` worker processes; with ``kill`` the first one is SIGKILLed a second before the deadline."""
    from datetime import datetime, timedelta

    from tactical import clock
    from tactical.models import BattleEvent, LiveBattle

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


# -- embedded --------------------------------------------------------------------------------------------


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


# -- main ------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["all", "http", "fanout", "clock", "clock-kill", "embedded", "watch"])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--layer", choices=["configured", "pubsub"], default="configured")
    parser.add_argument("--server", choices=sorted(SERVERS), default="uvicorn",
                        help="http, fanout: the ASGI server (default: docker-compose.yml's)")
    parser.add_argument("--workers", type=int, default=1, help="clock: Celery worker processes (the first is killed)")
    parser.add_argument("--rounds", type=int, default=50, help="fanout: pushed events and bare sends per N")
    parser.add_argument("--watcher-processes", type=int, default=1, help="fanout: processes the watchers share")
    parser.add_argument("--sizes", default="10,100,500", help="fanout: the numbers of watchers")
    parser.add_argument("--battle", type=int, help=argparse.SUPPRESS)  # watch: the fanout's watcher process
    parser.add_argument("--watchers", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.what == "watch":
        asyncio.run(_watch(args.battle, args.watchers))
        return
    if args.layer == "pubsub":
        os.environ["TACTICAL_BENCH_LAYER"] = "pubsub"
    if args.what == "embedded":
        print(json.dumps({"embedded": bench_embedded(5)}, indent=1))
        return
    env = dict(SERVICES)
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", BENCH_DB], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", BENCH_DB], check=True)
    subprocess.run(["redis-cli", "-n", SERVICES["REDIS_URL"].rsplit("/", 1)[1], "flushdb"], check=True,
                   capture_output=True)
    django_setup(env)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    logs = tempfile.mkdtemp(prefix="limes-bench-")
    results: dict[str, Any] = {}
    server = None
    if args.what in ("all", "http", "fanout"):
        server = serve(args.server, env, logs)
        wait_http(PORT)
    try:
        if args.what in ("all", "http"):
            results["http"] = bench_http(args.seconds, args.clients)
        if args.what in ("all", "fanout"):
            results["fanout"] = bench_fanout([int(n) for n in args.sizes.split(",")], args.rounds, args.watcher_processes)
        if args.what in ("all", "clock"):
            results["clock"] = bench_clock(args.battles, False, env, logs, args.workers)
        if args.what in ("all", "clock-kill"):
            results["clock-kill"] = bench_clock(args.battles, True, env, logs, args.workers)
    finally:
        if server is not None:
            stop(server)
    if server is not None:
        results["server"] = args.server
    print(json.dumps(results, indent=1, default=str))
    print(f"logs: {logs}", file=sys.stderr)


if __name__ == "__main__":
    main()
