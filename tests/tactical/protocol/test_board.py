"""A unit's options on the board (docs/tactical-protocol.md §5) against the engine: the board offers exactly
the move, withdrawal and interception ends that ``apply`` accepts, each with a path it accepts at its cost.

The engine's acceptance is found by brute force: every simple orthogonal path from the unit, each applied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from combat.battle.actions import Action, EndTurn, Intercept, Move, Withdraw
from combat.battle.draft import occupancy
from combat.battle.engine import apply
from combat.battle.events import Moved, UnitWithdrew
from combat.battle.geometry import NEIGHBOURS
from combat.battle.model import BattleState, Cell, Phase
from combat.battle.movement import check_path, speed
from combat.dice import FixedDice
from combat.errors import IllegalAction
from tactical.protocol.board import unit_options
from tests.combat.builders import battle, unit


@dataclass(frozen=True)
class _Battle:
    """The little of a ``LiveBattle`` that ``unit_options`` reads besides the state."""

    version: int = 1


def _after(state: BattleState, *actions: Action) -> BattleState:
    for action in actions:
        state = apply(state, action, FixedDice([1] * 20)).state
    return state


def _accepts(state: BattleState, action: Action) -> bool:
    try:
        apply(state, action, FixedDice([1] * 20))
    except IllegalAction:
        return False
    return True


def _simple_paths(
    start: Cell, longest: int, extends: Callable[[tuple[Cell, ...]], bool]
) -> Iterator[tuple[Cell, ...]]:
    """Every path without a repeated cell of at most ``longest`` steps whose every prefix ``extends`` admits.

    A path with a loop is never needed: cutting the loop out leaves a cheaper path to the same end."""
    stack: list[tuple[Cell, ...]] = [()]
    while stack:
        path = stack.pop()
        yield path
        if len(path) == longest:
            continue
        here = path[-1] if path else start
        for cell in NEIGHBOURS[here]:
            longer = (*path, cell)
            if cell != start and cell not in path and extends(longer):
                stack.append(longer)


def _moves_accepted(state: BattleState, unit_id: str) -> dict[Cell, int]:
    """End cell → least cost over every path ``Move`` accepts."""
    unit = state.units[unit_id]
    ends: dict[Cell, int] = {}
    for path in _simple_paths(unit.cell, unit.points, lambda p: _accepts(state, Move(unit_id, p))):
        if path:
            events = apply(state, Move(unit_id, path), FixedDice([1] * 20)).events
            cost = next(e.cost for e in events if isinstance(e, Moved))
            ends[path[-1]] = min(cost, ends.get(path[-1], cost))
    return ends


def _withdrawals_accepted(state: BattleState, unit_id: str) -> set[Cell]:
    """Cells stepped off from by any path ``Withdraw`` accepts (its prefixes are moves the engine accepts)."""
    unit = state.units[unit_id]
    paths = _simple_paths(unit.cell, unit.points, lambda p: _accepts(state, Move(unit_id, p)))
    return {path[-1] if path else unit.cell for path in paths if _accepts(state, Withdraw(unit_id, path))}


def _interceptions_accepted(state: BattleState, unit_id: str) -> set[tuple[str, Cell | None]]:
    """(target, end cell) of every interception ``Intercept`` accepts; None for a volley."""
    unit = state.units[unit_id]
    full = speed(state.unit_type(unit), state.terrain)
    occupied = occupancy(state)

    def checks(path: tuple[Cell, ...]) -> bool:
        try:
            check_path(state, occupied, unit, path, full)
        except IllegalAction:
            return False
        return True

    enemies = [u.id for u in state.units.values() if u.side is not unit.side]
    found: set[tuple[str, Cell | None]] = set()
    for target in enemies:
        if _accepts(state, Intercept(unit_id, target)):
            found.add((target, None))
    for path in _simple_paths(unit.cell, full, checks):
        for target in enemies:
            if path and _accepts(state, Intercept(unit_id, target, path)):
                found.add((target, path[-1]))
    return found


def _open_field() -> BattleState:
    # Cavalry by a river and a wall, an enemy to run into and a friend in the way.
    return battle(
        [unit("c", "attacker", "cavalry", 6, 12), unit("f", "attacker", "infantry", 7, 12),
         unit("d", "defender", "infantry", 6, 8)],
        cells={"river": [[5, 12], [5, 11]], "wall": [[6, 13], [7, 11]]},
    )


def _bound() -> BattleState:
    # ``a`` is in melee with ``d`` (T8.1: its first step must leave the contact) with a second enemy near.
    return _after(
        battle([unit("a", "attacker", "infantry", 9, 10), unit("d", "defender", "infantry", 9, 6),
                unit("e", "defender", "light", 11, 12)]),
        EndTurn(), Move("d", ((9, 7), (9, 8), (9, 9))), EndTurn(),
    )


def _bound_on_the_edge() -> BattleState:
    # The board used to leave out the withdrawal in place of a bound unit on its edge row, which the engine
    # accepts (T11, paying T8.2).
    return _after(
        battle([unit("a", "attacker", "infantry", 5, 20), unit("far", "attacker", "light", 15, 20),
                unit("d", "defender", "infantry", 5, 16)]),
        EndTurn(), Move("d", ((5, 17), (5, 18), (5, 19))), EndTurn(),
    )


def _near_the_defenders_edge() -> BattleState:
    # A defender two rows from its edge, a river on the edge row, the attacker's cavalry close by.
    return _after(
        battle([unit("d", "defender", "cavalry", 8, 2), unit("a", "attacker", "infantry", 11, 1)],
               cells={"river": [[8, 0], [7, 1]]}),
        EndTurn(),
    )


def _interception_window() -> BattleState:
    # The attacker's infantry engages ``d``; in the window after that turn ``i`` may intercept ``a`` (T10).
    return _after(
        battle([unit("a", "attacker", "infantry", 9, 10), unit("d", "defender", "infantry", 9, 7),
                unit("i", "defender", "cavalry", 13, 6)]),
        Move("a", ((9, 9), (9, 8))), EndTurn(),
    )


STATES: dict[str, Callable[[], BattleState]] = {
    "open_field": _open_field,
    "bound": _bound,
    "bound_on_the_edge": _bound_on_the_edge,
    "near_the_defenders_edge": _near_the_defenders_edge,
}


def _options(state: BattleState, unit_id: str) -> dict[str, Any]:
    return unit_options(_Battle(), unit_id, state)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "unit_id"), [
    ("open_field", "c"),  # river, wall, a friend's cell, contact ends
    ("open_field", "f"),
    ("bound", "a"),  # T8.1
    ("near_the_defenders_edge", "d"),
])
def test_the_board_offers_exactly_the_moves_the_engine_accepts(name: str, unit_id: str) -> None:
    state = STATES[name]()
    offered = {(r["x"], r["y"]): r["cost"] for r in _options(state, unit_id)["reachable"]}
    assert offered == _moves_accepted(state, unit_id)
    assert offered  # not an empty agreement


@pytest.mark.parametrize(("name", "unit_id"), [
    ("open_field", "c"),
    ("open_field", "f"),
    ("bound", "a"),
    ("bound_on_the_edge", "a"),  # in place, bound: the cell the board used to leave out
    ("near_the_defenders_edge", "d"),
])
def test_the_board_offers_exactly_the_withdrawals_the_engine_accepts(name: str, unit_id: str) -> None:
    state = STATES[name]()
    offered = {(w["x"], w["y"]) for w in _options(state, unit_id)["withdraw"]}
    assert offered == _withdrawals_accepted(state, unit_id)


def test_a_bound_unit_on_its_edge_row_is_offered_to_withdraw_where_it_stands() -> None:
    withdraw = _options(_bound_on_the_edge(), "a")["withdraw"]
    assert withdraw[0] == {"x": 5, "y": 20, "cost": 1, "path": []}


@pytest.mark.parametrize(("name", "unit_id"), [
    ("open_field", "c"),
    ("bound", "a"),
    ("bound_on_the_edge", "a"),
    ("near_the_defenders_edge", "d"),
])
def test_every_offered_path_is_accepted_at_its_cost(name: str, unit_id: str) -> None:
    state = STATES[name]()
    options = _options(state, unit_id)
    for move in options["reachable"]:
        events = apply(state, Move(unit_id, tuple(map(tuple, move["path"]))), FixedDice([1] * 20)).events
        assert next(e.cost for e in events if isinstance(e, Moved)) == move["cost"]
    for withdrawal in options["withdraw"]:
        path = tuple(map(tuple, withdrawal["path"]))
        events = apply(state, Withdraw(unit_id, path), FixedDice([1] * 20)).events
        assert next(e.cost for e in events if isinstance(e, UnitWithdrew)) == withdrawal["cost"]


def test_the_board_offers_exactly_the_interceptions_the_engine_accepts() -> None:
    state = _interception_window()
    assert state.phase is Phase.INTERCEPTION
    offered = {(i["target"], None if i["volley"] else tuple(i["path"][-1]))
               for i in _options(state, "i")["interceptions"]}
    assert offered == _interceptions_accepted(state, "i")
    assert offered
