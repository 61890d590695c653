"""Benchmark of the tactical engine: ``python bench/combat_bench.py``.

Measures reachable cells (cavalry, open field and mountains), one end-of-turn resolution with 30
units a side all in contact, and every ``apply`` of a scripted 20-round battle; a trivial
``dataclasses.replace`` of a state is measured in the same run as a baseline.
Targets (issue 2): reachable ≤ 0.3 ms, 60-unit resolution ≤ 3 ms, median apply ≤ 1 ms.
"""

from __future__ import annotations

import dataclasses
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from combat.battle.actions import Action, EndInterceptions, EndTurn, Intercept, Move, Shoot
from combat.battle.engine import apply
from combat.battle.geometry import in_range
from combat.battle.model import BattleState, Phase
from combat.battle.queries import legal_interceptions, path_to, reachable_cells
from combat.battle.scenario import load
from combat.dice import SeededDice
from combat.errors import IllegalAction

ALL = ("LI1", "LI2", "HI", "LC", "HC")
TYPES: dict[str, Any] = {
    "infantry": {"class": "HI", "health": 30, "damage": dict.fromkeys(ALL, 1)},
    "cavalry": {"class": "HC", "health": 30, "damage": dict.fromkeys(ALL, 1)},
    "archers": {"class": "LI1", "health": 30, "damage": dict.fromkeys(ALL, 1), "missile": True, "arrows": 40},
}


def state_of(
    units: list[dict[str, Any]], terrain: str = "field", cells: dict[str, Any] | None = None
) -> BattleState:
    data = {"terrain": terrain, "cells": cells or {}, "unit_types": TYPES, "units": units, "actions": []}
    return load(data)[0]


def spec(uid: str, side: str, kind: str, x: int, y: int) -> dict[str, Any]:
    return {
        "id": uid,
        "side": side,
        "type": kind,
        "x": x,
        "y": y,
        "facing": "N" if side == "attacker" else "S",
    }


def timed(function: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of each call."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        function()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return samples


def summary(name: str, samples: list[float], target: float | None) -> str:
    ordered = sorted(samples)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    goal = f"{target:>7.3f}" if target is not None else "      -"
    return (
        f"{name:<44} {len(samples):>6} {statistics.median(samples):>9.4f} {pick(0.90):>9.4f} "
        f"{pick(0.99):>9.4f} {goal}"
    )


def reachable_states() -> tuple[BattleState, BattleState]:
    field = state_of([spec("c", "attacker", "cavalry", 8, 10), spec("d", "defender", "infantry", 0, 0)])
    walls = [[x, y] for x in range(2, 16, 3) for y in range(4, 17, 2) if (x + y) % 4]
    gorges = [[x + 1, y] for x in range(2, 16, 4) for y in range(5, 16, 3)]
    mountains = state_of(
        [spec("c", "attacker", "cavalry", 8, 10), spec("d", "defender", "infantry", 0, 0)],
        "mountains",
        {
            "wall": [c for c in walls if c != [8, 10]],
            "gorge": [c for c in gorges if c not in walls and c != [8, 10]],
        },
    )
    return field, mountains


def melee_state() -> BattleState:
    """30 units a side in four interlocking rows: every unit touches at least one enemy."""
    units = []
    for x in range(15):
        units.append(spec(f"a{x}", "attacker", "infantry", x, 11))
        units.append(spec(f"b{x}", "attacker", "cavalry", x, 13))
        units.append(spec(f"d{x}", "defender", "infantry", x, 10))
        units.append(spec(f"e{x}", "defender", "infantry", x, 12))
    return state_of(units)


def nearest_enemy_cell(state: BattleState, unit_id: str) -> tuple[int, int] | None:
    unit = state.units[unit_id]
    cells = reachable_cells(state, unit_id)
    enemies = [u.cell for u in state.units.values() if u.on_field and u.side is not unit.side]
    if not cells or not enemies:
        return None
    return min(cells, key=lambda c: (min(abs(c[0] - e[0]) + abs(c[1] - e[1]) for e in enemies), cells[c]))


def scripted_battle(rounds: int = 20) -> tuple[BattleState, list[Action], list[int]]:
    """Six units a side that close in, shoot, fight and intercept for ``rounds`` rounds."""
    units = []
    for index, kind in enumerate(["infantry", "cavalry", "archers", "infantry", "cavalry", "archers"]):
        units.append(spec(f"a{index}", "attacker", kind, 3 + 2 * index, 18))
        units.append(spec(f"d{index}", "defender", kind, 3 + 2 * index, 2))
    start = state_of(units)
    state, actions = start, []
    dice = SeededDice(b"bench")
    while state.round <= rounds and state.phase is not Phase.ENDED:
        step: Action
        if state.phase is Phase.INTERCEPTION:
            options = legal_interceptions(state)
            step = EndInterceptions()
            if options and not state.interceptions:
                option = options[0]
                path = (
                    None
                    if option.volley
                    else path_to(state, option.unit, option.cells[0][0], full_speed=True)
                )
                step = Intercept(option.unit, option.target, path)
            state = apply(state, step, dice).state
            actions.append(step)
            continue
        for unit in list(state.units.values()):
            current = state.units[unit.id]
            if current.side is not state.side or not current.on_field:
                continue
            card = state.unit_type(current)
            targets = [u for u in state.units.values() if u.on_field and u.side is not current.side]
            if card.missile and not current.shot and current.arrows:
                target = next(
                    (t for t in targets if in_range(current, t.cell, state.settings.range_template)), None
                )
                if target is not None:
                    try:
                        state = apply(state, Shoot(current.id, target.id), dice).state
                        actions.append(Shoot(current.id, target.id))
                        continue
                    except IllegalAction:
                        pass
            if any(current.id in key for key in state.contacts):
                continue
            goal = nearest_enemy_cell(state, current.id)
            path = path_to(state, current.id, goal) if goal else None
            if path:
                state = apply(state, Move(current.id, path), dice).state
                actions.append(Move(current.id, path))
        state = apply(state, EndTurn(), dice).state
        actions.append(EndTurn())
    return start, actions, dice.rolls


def main() -> None:
    field, mountains = reachable_states()
    melee = melee_state()
    start, actions, rolls = scripted_battle()
    baseline = timed(lambda: dataclasses.replace(melee, round=melee.round), 5000)
    reach_field = timed(lambda: reachable_cells(field, "c"), 3000)
    reach_mountains = timed(lambda: reachable_cells(mountains, "c"), 3000)
    resolution = timed(lambda: apply(melee, EndTurn(), SeededDice(b"x")), 300)
    applies: list[float] = []
    for _ in range(5):
        state, dice = start, SeededDice(b"bench")
        for action in actions:
            begin = time.perf_counter_ns()
            state = apply(state, action, dice).state
            applies.append((time.perf_counter_ns() - begin) / 1e6)
    print(
        f"python {platform.python_version()} on {platform.machine()}, {len(actions)} scripted actions, "
        f"{len(melee.contacts)} contacts in the 60-unit melee, battle ended in round {state.round} "
        f"({state.phase.value}), {len(rolls)} dice"
    )
    print(f"{'measure (ms)':<44} {'calls':>6} {'median':>9} {'p90':>9} {'p99':>9} {'target':>7}")
    print(summary("baseline: dataclasses.replace(state)", baseline, None))
    print(
        summary(
            f"reachable, cavalry, open field ({len(reachable_cells(field, 'c'))} cells)", reach_field, 0.3
        )
    )
    print(
        summary(
            f"reachable, cavalry, mountains ({len(reachable_cells(mountains, 'c'))} cells)",
            reach_mountains,
            0.3,
        )
    )
    print(summary("end_turn resolution, 30 v 30 in contact", resolution, 3.0))
    print(summary("apply, scripted 20-round battle", applies, 1.0))


if __name__ == "__main__":
    main()
