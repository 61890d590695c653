"""A process of benchmark clients: many battle sockets on one event loop, as browsers' boards use them.

Started by bench/sockets_bench.py with a spec file; it opens the sockets at the spec's rate, prints one
``ready`` line with what the opening took, then follows commands from stdin: ``go`` (the drivers start
playing), ``stop`` (it prints what every socket received as one JSON line and exits).

Spectators only find each frame's type and version with a regular expression (the clients share the
server's two cores, so they must cost less than what they measure); the drivers, one per battle, read the
board state from the attacker's socket to play as the side whose turn it is.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
import uuid
from typing import Any

import websockets

TYPE = re.compile(rb'"type":"(\w+)"')
VERSION = re.compile(rb'"version":(\d+)')
PING_ID = re.compile(rb'"id":"(\w+)"')
FACINGS = ("N", "E", "S", "W")
DEADLINE_MARGIN = 0.6  # seconds: no action this close to the deadline (the turn may end on the way)


class Socket:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.ws: Any = None
        self.opened_at = 0.0
        self.welcomed_at = 0.0
        self.welcome_version = -1
        self.events: list[tuple[int, float]] = []
        self.error = ""
        self.closed = 0
        self.pings: dict[bytes, float] = {}
        self.rtts: list[float] = []
        self.on_frame: Any = None

    async def open(self, origin: str) -> None:
        self.opened_at = time.time()
        try:
            self.ws = await websockets.connect(self.spec["url"], origin=origin, compression=None, max_size=2**22,
                                               additional_headers={"Cookie": self.spec["cookie"]},
                                               open_timeout=60, ping_interval=None)
            first = await asyncio.wait_for(self.ws.recv(decode=False), 60)
        except Exception as error:  # noqa: BLE001 - counted and reported, never raised
            self.error = f"{type(error).__name__}: {error}"[:200]
            return
        self.welcomed_at = time.time()
        found = VERSION.search(first, 0, 200)
        self.welcome_version = int(found.group(1)) if found else 0
        if self.on_frame is not None:
            self.on_frame(first)

    async def open_and_read(self, origin: str, opened: asyncio.Future[None]) -> None:
        """Open, then read at once: a frame left unread while other sockets open would be timed late."""
        await self.open(origin)
        opened.set_result(None)
        if self.ws is not None and not self.error:
            await self.read()

    async def read(self) -> None:
        while True:
            try:
                data = await self.ws.recv(decode=False)
            except websockets.ConnectionClosed as closed:
                self.closed = closed.rcvd.code if closed.rcvd else -1
                return
            arrived = time.time()
            kind = TYPE.search(data, 0, 40)
            name = kind.group(1) if kind else b""
            if name == b"event":
                found = VERSION.search(data, 0, 120)
                if found:
                    self.events.append((int(found.group(1)), arrived))
            elif name == b"pong":
                found = PING_ID.search(data)
                sent = self.pings.pop(found.group(1), None) if found else None
                if sent is not None:
                    self.rtts.append((arrived - sent) * 1000)
            if self.on_frame is not None:
                self.on_frame(data)

    async def keep_alive(self, every: float) -> None:
        """Ping as the board does (static/tactical/socket.js: every 15 s), from a random start."""
        await asyncio.sleep(random.uniform(0, every))
        while True:
            ping_id = uuid.uuid4().hex[:8]
            self.pings[ping_id.encode()] = time.time()
            try:
                await self.ws.send(json.dumps({"type": "ping", "id": ping_id}))
            except websockets.ConnectionClosed:
                return
            await asyncio.sleep(every)


class Driver:
    """One battle's two commanders: every ``interval`` seconds one action by the side whose turn it is."""

    def __init__(self, attacker: Socket, defender: Socket) -> None:
        self.sockets = {"attacker": attacker, "defender": defender}
        self.state: dict[str, Any] | None = None
        self.sent: dict[str, float] = {}
        self.acks: list[tuple[str, float, float, int]] = []  # id, sent, acked, version
        self.refused: list[tuple[str, str]] = []  # id, code
        self.skipped = 0
        attacker.on_frame = self.attacker_frame
        defender.on_frame = self.defender_frame

    def attacker_frame(self, data: bytes) -> None:
        if b'"state"' in data:
            message = json.loads(data)
            self.state = message.get("state") or self.state
        self.answer(data)

    def defender_frame(self, data: bytes) -> None:
        self.answer(data)

    def answer(self, data: bytes) -> None:
        kind = TYPE.search(data, 0, 40)
        if kind is None or kind.group(1) not in (b"ack", b"error"):
            return
        message = json.loads(data)
        sent = self.sent.pop(message.get("id") or "", None)
        if sent is None:
            return
        if message["type"] == "ack":
            self.acks.append((message["id"], sent, time.time(), message["version"]))
        else:
            self.refused.append((message["id"], f'{message.get("code", "?")}: {message.get("rule")} {str(message.get("detail"))[:100]}'))

    def action(self) -> tuple[Socket, dict[str, Any]] | None:
        state = self.state
        if state is None or state.get("phase") == "ended" or state.get("paused") or state.get("awaiting_die"):
            return None
        deadline = state.get("deadline")
        if deadline:
            left = _epoch(deadline) - time.time()
            if left < DEADLINE_MARGIN:
                return None
        side = state["side"]
        units = [u for u in state["units"] if u["side"] == side and u["points"] > 0 and u["x"] is not None]
        if not units:
            return None
        unit = random.choice(units)
        at = FACINGS.index(unit["facing"]) if unit["facing"] in FACINGS else 0
        facing = FACINGS[(at + random.choice((1, -1))) % 4]  # a quarter turn costs one point (T4)
        return self.sockets[side], {"do": "turn", "unit": unit["id"], "facing": facing}

    async def play(self, interval: float, until: float) -> None:
        await asyncio.sleep(random.uniform(0, interval))
        while time.time() < until:
            chosen = self.action()
            if chosen is None:
                self.skipped += 1
            else:
                socket, action = chosen
                action_id = uuid.uuid4().hex
                self.sent[action_id] = time.time()
                try:
                    await socket.ws.send(json.dumps({"type": "action", "id": action_id, "action": action}))
                except websockets.ConnectionClosed:
                    return
            await asyncio.sleep(interval)


def _epoch(moment: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp()


async def main(spec_path: str) -> None:
    spec = json.loads(open(spec_path).read())
    sockets = [Socket(s) for s in spec["sockets"]]
    drivers: list[Driver] = []
    by_battle: dict[int, dict[str, Socket]] = {}
    for socket in sockets:
        by_battle.setdefault(socket.spec["battle"], {})[socket.spec["role"]] = socket
    if spec.get("drive"):
        drivers = [Driver(roles["attacker"], roles["defender"]) for roles in by_battle.values()
                   if "attacker" in roles and "defender" in roles]
    rate = spec.get("rate") or 0
    origin = spec["origin"]
    start = time.time()
    openings: list[asyncio.Future[None]] = []
    tasks = []
    for n, socket in enumerate(sockets):
        if rate:
            await asyncio.sleep(max(0.0, start + n / rate - time.time()))
        openings.append(asyncio.get_running_loop().create_future())
        tasks.append(asyncio.create_task(socket.open_and_read(origin, openings[-1])))
    await asyncio.gather(*openings)
    if spec.get("ping_every"):
        tasks += [asyncio.create_task(s.keep_alive(spec["ping_every"])) for s in sockets if s.ws is not None]
    print("ready " + json.dumps({"opened": sum(1 for s in sockets if not s.error), "failed": sum(1 for s in sockets if s.error),
                                 "seconds": time.time() - start}), flush=True)
    loop = asyncio.get_running_loop()
    while True:
        command = (await loop.run_in_executor(None, sys.stdin.readline)).split()
        if not command or command[0] == "stop":
            break
        if command[0] == "go":
            until = time.time() + float(command[1])
            tasks += [asyncio.create_task(d.play(spec["interval"], until)) for d in drivers]
            print("going", flush=True)
    result = {
        "sockets": [{"battle": s.spec["battle"], "role": s.spec["role"], "error": s.error, "closed": s.closed,
                     "opened_at": s.opened_at, "welcomed_at": s.welcomed_at, "welcome_version": s.welcome_version,
                     "rtts": s.rtts, "events": s.events} for s in sockets],
        "acks": [a for d in drivers for a in d.acks],
        "refused": [r for d in drivers for r in d.refused],
        "unanswered": sum(len(d.sent) for d in drivers),
        "skipped": sum(d.skipped for d in drivers),
    }
    print(json.dumps(result), flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(s.ws.close() for s in sockets if s.ws is not None), return_exceptions=True)


if __name__ == "__main__":
    import uvloop

    uvloop.run(main(sys.argv[1]))
