"""Actions over HTTP beside the lock-and-update baseline (issue 4's move path)."""

from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from typing import Any

from bench.tactical.common import PORT, pct, token, world_and_battles


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
