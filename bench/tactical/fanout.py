"""Fan-out: from the commit of an action to its receipt by the last of N WebSocket watchers."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from typing import Any

from bench.tactical.common import PORT, ROOT, SCRIPT, pct, world_and_battles

TAG = re.compile(rb'"(?:version|id)":(-?\d+)')


async def watch(battle_id: int, count: int) -> None:
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

    from tactical.protocol import push
    from tactical.services import journal
    from tactical.services import play as services

    world, (battle,) = world_and_battles(1, turn_seconds=600)
    marks: dict[int, float] = {}
    original = push.send_on_commit

    def marked(groups: list[str], message: dict[str, Any], state_json: str | None = None, **meta: Any) -> None:
        version = meta.get("version")
        transaction.on_commit(lambda: marks.__setitem__(version, time.time()))  # runs first: the commit
        original(groups, message, state_json, **meta)

    push.send_on_commit = marked
    journal.send_on_commit = marked  # type: ignore[attr-defined]  (the journal pushes every version)
    layer = get_channel_layer()
    results = {}
    unit = next(u["id"] for u in battle.state["units"] if u["side"] == "attacker")
    for size in sizes:
        # The watchers run in their own process, so that they neither wait for this one's GIL nor slow it.
        shares = [size // processes + (n < size % processes) for n in range(processes)]
        watchers = [subprocess.Popen([sys.executable, str(SCRIPT), "watch", "--battle", str(battle.pk), "--watchers",
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
