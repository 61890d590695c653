"""Socket capacity: how many battle sockets one web process holds, how fast a storm of them is let in, and how
pushes reach every socket of 200 live battles on one and on two web processes (issue 13, benchmarks 1-4).

Run it from the repository root against PostgreSQL and Redis (the bench drops and creates its own database,
``<DATABASE_URL's name>_sockets_bench``, and flushes its Redis db):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/limes REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/sockets_bench.py all
    .venv/bin/python bench/sockets_bench.py idle --sizes 500,1000,2000 --hold 30
    .venv/bin/python bench/sockets_bench.py storm --sockets 1000 --within 10
    .venv/bin/python bench/sockets_bench.py mixed --battles 200 --seconds 45
    .venv/bin/python bench/sockets_bench.py two --battles 200 --seconds 45

The server is uvicorn as docker-compose.yml runs it, with the production settings (``LIMES_PRODUCTION=1``:
the Redis pub/sub channel layer, PostgreSQL through the connection pool) serving ``bench/sockets/app.py``
(the project's application, marking each version's commit). The clients run in separate processes
(``bench/sockets/clients.py``) and authenticate with session cookies, as browsers do. Parts:

- ``idle``: 500, 1,000, 2,000 sockets that ping every 15 s as the board does; the server process's CPU (% of
  one core, over ``--hold`` seconds) and its RSS growth per socket. Baseline: the same sockets held by a bare
  ASGI WebSocket app (``bench/sockets/bare.py``) on the same server.
- ``storm``: ``--sockets`` sockets opened evenly within ``--within`` seconds: failures, and the time from the
  start of the handshake to the first state frame (the welcome). Baseline: the bare app.
- ``mixed``: ``--battles`` live battles, each with 2 commanders and 8 spectators, each battle one action every
  ``--interval`` seconds sent over the commander's socket, turns of ``--turn-seconds`` timing out on the real
  clock (a Celery worker and beat run as in production): commit → the last socket of that battle p50/p99, lost
  and out-of-order frames, actions refused. Baseline: ping → pong on the same sockets during the load.
- ``two``: the mixed load on one web process and then on two sharing the Redis and the database, each battle's
  sockets alternating between them (the attacker's commander on one, the defender's on the other).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.tactical.common import BIN, production_env, start, stop, summary, wait_http  # noqa: E402

PORT = int(os.environ.get("SOCKETS_BENCH_PORT", "18830"))
CLIENT_PROCESSES = 2
SPECTATOR_USERS = 50
_db = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/limes"
BENCH_DB = _db.rsplit("/", 1)[1] + "_sockets_bench"
REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/6"
ENV = production_env(f"{_db.rsplit('/', 1)[0]}/{BENCH_DB}", REDIS)
UVICORN = ["--host", "127.0.0.1", "--lifespan", "off", "--no-access-log", "--ws-per-message-deflate", "false",
           "--log-level", "warning"]
TICK = os.sysconf("SC_CLK_TCK")


# -- processes and what they cost -----------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def redis_pid() -> int:
    out = subprocess.run(["redis-cli", "-u", REDIS, "info", "server"], capture_output=True, text=True).stdout
    return int(next(line.split(":")[1] for line in out.splitlines() if line.startswith("process_id:")))


class Server:
    """uvicorn serving ``app`` on ``port`` with the production settings."""

    def __init__(self, app: str, port: int, logs: str, marks: str = "") -> None:
        env = {**ENV, **({"SOCKETS_BENCH_MARKS": marks} if marks else {})}
        self.port = port
        self.process = start([str(BIN / "uvicorn"), *UVICORN, "--port", str(port), app], env,
                             f"{logs}/server-{port}.log")
        wait_http(port)
        time.sleep(0.5)
        profile = os.environ.get("SOCKETS_BENCH_PROFILE")  # "<path>:<seconds>": py-spy's collapsed stacks
        if profile and app.startswith("bench.sockets.app"):
            path, seconds = profile.rsplit(":", 1)
            subprocess.Popen([str(BIN / "py-spy"), "record", "--format", "raw", "--rate", "100", "--nonblocking",
                              "--duration", seconds, "-o", f"{path}-{port}.txt", "--pid", str(self.pid)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        stop(self.process)


class Clients:
    """``CLIENT_PROCESSES`` processes of bench/sockets/clients.py sharing ``sockets`` round-robin by battle."""

    def __init__(self, sockets: list[dict[str, Any]], logs: str, rate: float = 0, ping_every: float = 15,
                 interval: float = 0, drive: bool = False) -> None:
        battles = sorted({s["battle"] for s in sockets})
        shares: list[list[dict[str, Any]]] = [[] for _ in range(CLIENT_PROCESSES)]
        if len(battles) >= CLIENT_PROCESSES:
            place = {b: n % CLIENT_PROCESSES for n, b in enumerate(battles)}
            for s in sockets:
                shares[place[s["battle"]]].append(s)
        else:
            for n, s in enumerate(sockets):
                shares[n % CLIENT_PROCESSES].append(s)
        self.processes = []
        for n, share in enumerate(shares):
            spec = f"{logs}/clients-{n}-{time.time_ns()}.json"
            Path(spec).write_text(json.dumps({"sockets": share, "rate": rate / CLIENT_PROCESSES, "ping_every": ping_every,
                                              "interval": interval, "drive": drive,
                                              "origin": "http://127.0.0.1"}))
            self.processes.append(subprocess.Popen(
                [sys.executable, str(ROOT / "bench" / "sockets" / "clients.py"), spec], cwd=ROOT,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=open(f"{logs}/clients-{n}.log", "a"),
                text=True))

    def ready(self) -> dict[str, Any]:
        opened = failed = 0
        seconds = 0.0
        for process in self.processes:
            assert process.stdout is not None
            line = process.stdout.readline()
            if not line.startswith("ready "):
                raise RuntimeError(f"a client process did not start: {line!r}")
            said = json.loads(line[6:])
            opened, failed, seconds = opened + said["opened"], failed + said["failed"], max(seconds, said["seconds"])
        return {"opened": opened, "failed": failed, "seconds": round(seconds, 2)}

    def say(self, line: str) -> None:
        for process in self.processes:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(line + "\n")
            process.stdin.flush()
        for process in self.processes:
            assert process.stdout is not None
            process.stdout.readline()

    def stop(self) -> dict[str, Any]:
        merged: dict[str, Any] = {"sockets": [], "acks": [], "refused": [], "unanswered": 0, "skipped": 0}
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.write("stop\n")
            process.stdin.flush()
        for process in self.processes:
            assert process.stdout is not None
            result = json.loads(process.stdout.readline())
            for key in ("sockets", "acks", "refused"):
                merged[key] += result[key]
            merged["unanswered"] += result["unanswered"]
            merged["skipped"] += result["skipped"]
            process.wait(60)
        return merged

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.processes)


# -- the world ------------------------------------------------------------------------------------

def fresh_database() -> None:
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", BENCH_DB], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", BENCH_DB], check=True)
    subprocess.run(["redis-cli", "-u", REDIS, "flushdb"], check=True, capture_output=True)
    os.environ.update(ENV)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def world(battles: int, turn_seconds: int) -> dict[str, Any]:
    """``battles`` live battles of a public campaign that admits spectators, and the cookies of who plays and
    who watches them."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from bench.tactical.common import world_and_battles

    made, lives = world_and_battles(battles, turn_seconds=turn_seconds)
    campaign = made.campaign
    campaign.is_public = True
    campaign.settings = {**campaign.settings, "spectators_allowed": True}
    campaign.save()

    def cookie(user: Any) -> str:
        client = Client()
        client.force_login(user)
        return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    users = get_user_model().objects
    spectators = [cookie(users.create_user(username=f"spectator{n}", password="x" * 12))
                  for n in range(SPECTATOR_USERS)]
    return {"battles": [b.pk for b in lives], "attacker": cookie(made.east_general),
            "defender": cookie(made.west_leader), "spectators": spectators}


def battle_sockets(made: dict[str, Any], ports: list[int], spectators: int, commanders: bool = True) -> list[dict[str, Any]]:
    """Each battle's sockets (its two commanders, then its spectators), alternating among ``ports``."""
    sockets = []
    n = 0
    for battle in made["battles"]:
        roles = (["attacker", "defender"] if commanders else []) + ["spectator"] * spectators
        for role in roles:
            cookie = made[role] if role != "spectator" else made["spectators"][n % SPECTATOR_USERS]
            port = ports[len(sockets) % len(ports)]
            sockets.append({"url": f"ws://127.0.0.1:{port}/ws/battles/{battle}/", "cookie": cookie,
                            "battle": battle, "role": role})
            n += 1
    return sockets


def bare_sockets(count: int) -> list[dict[str, Any]]:
    return [{"url": f"ws://127.0.0.1:{PORT}/", "cookie": "", "battle": n % 100, "role": "spectator"}
            for n in range(count)]


# -- 1. idle sockets ------------------------------------------------------------------------------

def bench_idle(sizes: list[int], hold: float, logs: str) -> dict[str, Any]:
    made = world(20, turn_seconds=3600)
    results: dict[str, Any] = {}
    for size in sizes:
        for name, app in (("bare", "bench.sockets.bare:application"), ("project", "bench.sockets.app:application")):
            server = Server(app, PORT, logs)
            try:
                sockets = bare_sockets(size) if name == "bare" else \
                    battle_sockets(made, [PORT], spectators=size // len(made["battles"]), commanders=False)
                rss_before = rss_kb(server.pid)
                clients = Clients(sockets, logs, rate=200, ping_every=15)
                opened = clients.ready()
                time.sleep(5)
                cpu_before, clients_before, started = cpu_seconds(server.pid), clients.cpu(), time.time()
                time.sleep(hold)
                elapsed = time.time() - started
                cpu = (cpu_seconds(server.pid) - cpu_before) / elapsed * 100
                client_cpu = (clients.cpu() - clients_before) / elapsed * 100
                rss_after = rss_kb(server.pid)
                got = clients.stop()
                rtts = [rtt for s in got["sockets"] for rtt in s["rtts"]]
                results[f"{name} {size}"] = {
                    **opened, "closed_early": sum(1 for s in got["sockets"] if s["closed"]),
                    "server_cpu_pct_of_core": round(cpu, 1), "clients_cpu_pct": round(client_cpu, 1),
                    "rss_before_mb": round(rss_before / 1024, 1), "rss_after_mb": round(rss_after / 1024, 1),
                    "rss_kb_per_socket": round((rss_after - rss_before) / max(1, opened["opened"]), 1),
                    "ping_pong_ms": summary(rtts)}
            finally:
                server.stop()
            print(f"idle {name} {size}: {json.dumps(results[f'{name} {size}'])}", file=sys.stderr, flush=True)
    return results


# -- 2. connect storm -----------------------------------------------------------------------------

def bench_storm(count: int, within: float, logs: str) -> dict[str, Any]:
    made = world(count // 10, turn_seconds=3600)
    results: dict[str, Any] = {}
    for name, app in (("bare", "bench.sockets.bare:application"), ("project", "bench.sockets.app:application")):
        server = Server(app, PORT, logs)
        try:
            sockets = bare_sockets(count) if name == "bare" else battle_sockets(made, [PORT], spectators=8)
            cpu_before = cpu_seconds(server.pid)
            clients = Clients(sockets, logs, rate=count / within, ping_every=0)
            opened = clients.ready()
            cpu = cpu_seconds(server.pid) - cpu_before
            got = clients.stop()
            handshakes = [(s["welcomed_at"] - s["opened_at"]) * 1000 for s in got["sockets"] if not s["error"]]
            errors = sorted({s["error"] for s in got["sockets"] if s["error"]})[:5]
            results[name] = {**opened, "welcome_ms": summary(handshakes), "server_cpu_seconds": round(cpu, 2),
                             "errors": errors}
        finally:
            server.stop()
        print(f"storm {name}: {json.dumps(results[name])}", file=sys.stderr, flush=True)
    return results


# -- 3. and 4. mixed load on one and two web processes --------------------------------------------

class Sampler(threading.Thread):
    """The database's connections, sampled every second while the load runs."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.connections: list[int] = []
        self.running = True

    def run(self) -> None:
        while self.running:
            out = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
                                  f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{BENCH_DB}'"],
                                 capture_output=True, text=True).stdout.strip()
            if out.isdigit():
                self.connections.append(int(out))
            time.sleep(1)


def bench_mixed(battles: int, seconds: float, interval: float, turn_seconds: int, processes: int, logs: str,
                made: dict[str, Any] | None = None) -> dict[str, Any]:
    made = made or world(battles, turn_seconds=turn_seconds)
    marks = f"{logs}/marks-{processes}-{time.time_ns()}"
    ports = [PORT + n for n in range(processes)]
    servers = [Server("bench.sockets.app:application", port, logs, marks=f"{marks}-{port}") for port in ports]
    worker = start([str(BIN / "celery"), "-A", "config", "worker", "-n", f"sockets{processes}@%h", "--concurrency", "4",
                    "--without-mingle", "--without-gossip", "--loglevel", "WARNING"], ENV, f"{logs}/worker.log")
    beat = start([str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING", "-s",
                  f"{logs}/beat-schedule-{processes}"], ENV, f"{logs}/beat.log")
    try:
        clients = Clients(battle_sockets(made, ports, spectators=8), logs, rate=200, ping_every=15,
                          interval=interval, drive=True)
        opened = clients.ready()
        time.sleep(3)
        sampler = Sampler()
        sampler.start()
        redis = redis_pid()
        before = ([cpu_seconds(s.pid) for s in servers], cpu_seconds(redis), clients.cpu(), time.time())
        clients.say(f"go {seconds}")
        time.sleep(seconds)
        after = ([cpu_seconds(s.pid) for s in servers], cpu_seconds(redis), clients.cpu(), time.time())
        cutoff = time.time() - 2  # what was committed before this must have reached every socket by the stop
        time.sleep(3)
        got = clients.stop()
        sampler.running = False
    finally:
        for process in (worker, beat):
            stop(process)
        for server in servers:
            server.stop()
    elapsed = after[3] - before[3]
    committed: dict[tuple[int, int], float] = {}
    for port in ports:
        path = Path(f"{marks}-{port}")
        for line in path.read_text().splitlines() if path.exists() else []:
            battle, version, moment = line.split()
            committed[(int(battle), int(version))] = float(moment)
    # Timeouts may be committed by the worker (not marked): their arrival is still checked for loss and order.
    expected_by_battle: dict[int, set[int]] = {}
    received_by_battle: dict[int, list[dict[int, float]]] = {}
    lost = out_of_order = 0
    for socket in got["sockets"]:
        if socket["error"]:
            continue
        versions = [v for v, _ in socket["events"]]
        out_of_order += sum(1 for a, b in zip(versions, versions[1:]) if b <= a)
        received_by_battle.setdefault(socket["battle"], []).append(
            {v: t for v, t in socket["events"]} | {-1: socket["welcome_version"]})
    last_seen: dict[int, int] = {}
    for socket in got["sockets"]:
        for version, moment in socket["events"]:
            if moment <= cutoff:
                last_seen[socket["battle"]] = max(last_seen.get(socket["battle"], 0), version)
    for battle, inboxes in received_by_battle.items():
        top = max([v for (b, v), at in committed.items() if b == battle and at <= cutoff] + [last_seen.get(battle, 0)])
        expected_by_battle[battle] = set(range(1, top + 1))
        for inbox in inboxes:
            lost += sum(1 for v in expected_by_battle[battle] if v > inbox[-1] and v not in inbox)
    to_last, to_each, late = [], [], []
    for (battle, version), moment in committed.items():
        if moment > cutoff or battle not in received_by_battle:
            continue
        inboxes = [i for i in received_by_battle[battle] if version > i[-1]]
        arrivals = [i[version] for i in inboxes if version in i]
        if inboxes and len(arrivals) == len(inboxes):
            to_last.append((max(arrivals) - moment) * 1000)
            to_each += [(a - moment) * 1000 for a in arrivals]
            late += [(round((a - moment) * 1000), battle, version, n, inboxes[n][-1]) for n, a in enumerate(arrivals)
                     if a - moment > 1]
    refused: dict[str, int] = {}
    for _, reason in got["refused"]:
        refused[reason] = refused.get(reason, 0) + 1
    rtts = [rtt for s in got["sockets"] for rtt in s["rtts"]]
    return {
        "processes": processes, **opened, "seconds": round(elapsed, 1),
        "actions_acked": len(got["acks"]), "actions_per_second": round(len(got["acks"]) / elapsed, 1),
        "actions_refused": refused, "actions_unanswered": got["unanswered"], "driver_skips": got["skipped"],
        "versions_committed": len(committed),
        "commit_to_last_socket_ms": summary(to_last), "commit_to_each_socket_ms": summary(to_each),
        "late_over_1s": {"frames": len(late), "worst": sorted(late, reverse=True)[:5]},
        "lost_frames": lost, "out_of_order_frames": out_of_order,
        "closed_early": sum(1 for s in got["sockets"] if s["closed"]),
        "action_send_to_ack_ms": summary([(acked - sent) * 1000 for _, sent, acked, _ in got["acks"]]),
        "baseline_ping_pong_ms": summary(rtts),
        "server_cpu_pct_of_core": [round((a - b) / elapsed * 100, 1) for a, b in zip(after[0], before[0])],
        "redis_cpu_pct_of_core": round((after[1] - before[1]) / elapsed * 100, 1),
        "clients_cpu_pct": round((after[2] - before[2]) / elapsed * 100, 1),
        "db_connections_max": max(sampler.connections, default=None),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["all", "idle", "storm", "mixed", "two"])
    parser.add_argument("--sizes", default="500,1000,2000", help="idle: the numbers of sockets")
    parser.add_argument("--hold", type=float, default=30, help="idle: seconds the CPU is measured over")
    parser.add_argument("--sockets", type=int, default=1000, help="storm: sockets opened")
    parser.add_argument("--within", type=float, default=10, help="storm: seconds they are opened within")
    parser.add_argument("--battles", type=int, default=200, help="mixed, two: live battles")
    parser.add_argument("--seconds", type=float, default=45, help="mixed, two: seconds of play")
    parser.add_argument("--interval", type=float, default=2, help="mixed, two: seconds between a battle's actions")
    parser.add_argument("--turn-seconds", type=int, default=8, help="mixed, two: a side's turn, timing out")
    args = parser.parse_args()
    logs = tempfile.mkdtemp(prefix="limes-sockets-")
    load = Path("/proc/loadavg").read_text().split()[:3]
    fresh_database()
    results: dict[str, Any] = {"machine": f"{platform.machine()}, {os.cpu_count()} cores", "load_at_start": load}
    if args.what in ("all", "idle"):
        results["idle"] = bench_idle([int(n) for n in args.sizes.split(",")], args.hold, logs)
    if args.what in ("all", "storm"):
        results["storm"] = bench_storm(args.sockets, args.within, logs)
    if args.what in ("all", "mixed"):
        results["mixed"] = bench_mixed(args.battles, args.seconds, args.interval, args.turn_seconds, 1, logs)
    if args.what in ("all", "two"):
        made = world(args.battles, turn_seconds=args.turn_seconds)
        results["two"] = {
            "one process": bench_mixed(args.battles, args.seconds, args.interval, args.turn_seconds, 1, logs, made),
            "two processes": bench_mixed(args.battles, args.seconds, args.interval, args.turn_seconds, 2, logs, made),
        }
    results["load_at_end"] = Path("/proc/loadavg").read_text().split()[:3]
    print(json.dumps(results, indent=1))
    print(f"logs: {logs}", file=sys.stderr)


if __name__ == "__main__":
    main()
