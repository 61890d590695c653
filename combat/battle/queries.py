"""Read-only questions the board and the server ask of a state (issue 2 §4)."""

from __future__ import annotations

from dataclasses import dataclass

from combat.battle.actions import Move
from combat.battle.draft import occupancy
from combat.battle.engine import apply
from combat.battle.geometry import cells_in_range as _cells_in_range
from combat.battle.geometry import edge_row
from combat.battle.interception import InterceptionOption
from combat.battle.interception import legal_interceptions as _legal_interceptions
from combat.battle.melee import blow, compute
from combat.battle.model import BattleState, Cell, Phase, Side, UnitState
from combat.battle.movement import Route, reachable, routes, shortest_path, speed
from combat.dice import FixedDice
from combat.errors import CombatError


def reachable_cells(state: BattleState, unit_id: str) -> dict[Cell, int]:
    """Cells the unit can end a move on with its points left, with the least cost (T4–T6, T8.1).

    Empty when the unit may not move now: not on the field, not its side's move phase, or
    restricted by T10.3.
    """
    unit = state.units[unit_id]
    if not _may_move(state, unit):
        return {}
    return reachable(state, unit, unit.points, occupancy(state), _bound_cells(state, unit_id))


def move_routes(state: BattleState, unit_id: str) -> dict[Cell, Route]:
    """The cells of ``reachable_cells``, each with a cheapest path that ``Move`` accepts."""
    unit = state.units[unit_id]
    if not _may_move(state, unit):
        return {}
    return routes(state, unit, unit.points, occupancy(state), _bound_cells(state, unit_id))


def withdrawal_routes(state: BattleState, unit_id: str) -> dict[Cell, Route]:
    """The cells of its own edge row a unit can step off the field from now, each with a path that
    ``Withdraw`` accepts; the cost includes the point for stepping off (T11).

    A unit standing on its edge row withdraws with an empty path, bound or not (T8.2 then applies);
    a path may not end on contact (T6).
    """
    unit = state.units[unit_id]
    if not _may_move(state, unit) or unit.points < 1:
        return {}
    row = edge_row(unit.side)
    found: dict[Cell, Route] = {}
    if unit.cell[1] == row:
        found[unit.cell] = Route(1, (), False)
    paths = routes(state, unit, unit.points - 1, occupancy(state), _bound_cells(state, unit_id))
    for cell, route in paths.items():
        if cell[1] == row and not route.contact:
            found[cell] = Route(route.cost + 1, route.path, False)
    return found


def interception_routes(state: BattleState, unit_id: str) -> dict[Cell, Route]:
    """Cells the unit can reach at its full speed, as an interceptor does (T10), each with a cheapest path."""
    unit = state.units[unit_id]
    if not unit.on_field:
        return {}
    budget = speed(state.unit_type(unit), state.terrain)
    return routes(state, unit, budget, occupancy(state), _bound_cells(state, unit_id))


def _may_move(state: BattleState, unit: UnitState) -> bool:
    """Whether the unit may move or withdraw now: on the field, in its side's move phase, not restricted."""
    return state.phase is Phase.MOVE and unit.side is state.side and unit.on_field and not unit.restricted


def path_to(
    state: BattleState, unit_id: str, cell: Cell, *, full_speed: bool = False
) -> tuple[Cell, ...] | None:
    """A cheapest legal path for the unit to ``cell`` (its points left, or its full speed for an
    interception), or None when the cell cannot be reached."""
    unit = state.units[unit_id]
    if not unit.on_field:
        return None
    budget = speed(state.unit_type(unit), state.terrain) if full_speed else unit.points
    return shortest_path(state, unit, cell, budget, occupancy(state), _bound_cells(state, unit_id))


def _bound_cells(state: BattleState, unit_id: str) -> list[Cell]:
    return [
        state.units[key[0] if key[1] == unit_id else key[1]].cell for key in state.contacts if unit_id in key
    ]


def cells_in_range(state: BattleState, unit_id: str) -> list[Cell]:
    """The cells a unit's volley could reach from where it stands and faces (T9.1)."""
    unit = state.units[unit_id]
    if not unit.on_field:
        return []
    return _cells_in_range(unit, state.settings.range_template)


def legal_interceptions(state: BattleState, side: Side | None = None) -> list[InterceptionOption]:
    """The interceptions ``side`` (default: the side whose window is open) may declare now (T10)."""
    if side is None:
        if state.phase is not Phase.INTERCEPTION:
            return []
        side = state.side
    return _legal_interceptions(state, side)


@dataclass(frozen=True, slots=True)
class UnitPreview:
    """What a unit would deal and take if melee were resolved now, in lines."""

    unit: str
    target: str | None
    deals: float
    takes: float
    health: float
    routed: bool
    needs_die: bool


def preview(state: BattleState) -> dict[str, UnitPreview]:
    """Every unit in contact: damage dealt and taken if the turn ended now (T7, before any die)."""
    outcome = compute(state)
    dice_units = {unit_id for key in outcome.dice_pairs for unit_id in key}
    targets = {blow.unit: blow.target for blow in outcome.blows}
    return {
        unit_id: UnitPreview(
            unit=unit_id,
            target=targets.get(unit_id),
            deals=outcome.dealt[unit_id] / 2,
            takes=taken / 2,
            health=max(outcome.health[unit_id], 0) / 2,
            routed=outcome.health[unit_id] <= 0 and unit_id not in dice_units,
            needs_die=unit_id in dice_units,
        )
        for unit_id, taken in outcome.taken.items()
    }


def needs_die(state: BattleState) -> bool:
    """Whether resolving melee now would need a die (T7.6)."""
    return bool(compute(state).dice_pairs)


@dataclass(frozen=True, slots=True)
class StrikePreview:
    """What a unit would deal to one enemy it makes contact with by a move, in half-lines (T7.2)."""

    target: str
    damage: int
    flank: bool
    charge: bool


def strikes_after_move(state: BattleState, unit_id: str, path: tuple[Cell, ...]) -> list[StrikePreview]:
    """The blows the unit would strike after moving along ``path``: card damage against each enemy it then
    touches, + 1 flank (T7.4), + 1 charge (T7.3, never in forest or mountains), judged by the engine's own
    move and melee; empty when the move is refused or makes no contact."""
    try:
        after = apply(state, Move(unit_id, path), FixedDice([])).state
    except CombatError:
        return []
    unit = after.units[unit_id]
    found = []
    for key, contact in after.contacts.items():
        if unit_id not in key or contact.initiator != unit_id:
            continue
        target = after.units[key[0] if key[1] == unit_id else key[1]]
        struck = blow(after, unit, target, contact)
        found.append(StrikePreview(target.id, struck.damage, struck.flank, struck.charge))
    return sorted(found, key=lambda s: s.target)
