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
``bench.tactical.app:application``: the project plus the bench-only baseline endpoint, which never exists
in the project's own URLs. Settings are the embedded mode's on PostgreSQL and Redis, with production's
connection pool (``DATABASE_POOL``, default 20; ``DATABASE_POOL=0`` measures a connection per request).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the project's root

from bench.tactical.clock import bench_clock, bench_embedded
from bench.tactical.common import BENCH_DB, PORT, SERVERS, SERVICES, django_setup, serve, stop, wait_http
from bench.tactical.fanout import bench_fanout, watch
from bench.tactical.moves import bench_http


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
        asyncio.run(watch(args.battle, args.watchers))
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
