"""The T13 sequence: a side's turn ends, the window opens or melee is resolved, the next turn starts."""

from __future__ import annotations

from combat.battle.draft import Draft
from combat.battle.events import ReinforcementPlaced, TurnEnded, TurnStarted, WindowClosed, WindowOpened
from combat.battle.geometry import edge_row
from combat.battle.interception import engaged, legal_interceptions
from combat.battle.melee import resolve
from combat.battle.model import GRID_WIDTH, Cell, Facing, Phase, Side, Status, UnitState
from combat.battle.movement import speed
from combat.dice import Dice


def end_turn(draft: Draft, dice: Dice) -> None:
    """A's turn ends (T13 step 2): open B's window (step 3) or resolve melee at once (step 4)."""
    ending = draft.side
    draft.events.append(TurnEnded(ending, draft.round))
    draft.side = ending.other
    options = legal_interceptions(draft.freeze(), draft.side)
    if options:
        draft.phase = Phase.INTERCEPTION
        interceptors = tuple(dict.fromkeys(option.unit for option in options))
        draft.events.append(WindowOpened(draft.side, interceptors))
        return
    _resolve_and_start(draft, dice)


def close_window(draft: Draft, dice: Dice) -> None:
    """The window closes (T10.1): melee is resolved (step 4), then B's step 2 begins."""
    draft.events.append(WindowClosed(draft.side))
    draft.phase = Phase.MOVE
    _resolve_and_start(draft, dice)


def _resolve_and_start(draft: Draft, dice: Dice) -> None:
    draft.phase = Phase.MOVE
    resolve(draft, dice)
    if draft.check_end():
        return
    if draft.side is Side.ATTACKER:
        draft.round += 1  # the next round begins once the attacker's window has closed
    start_turn(draft)


def start_turn(draft: Draft) -> None:
    """Steps 1–2 for the side to act: due reinforcements arrive, points reset, volleys renew."""
    side = draft.side
    state = draft.freeze()
    draft.engaged_at_start = engaged(state)
    for unit in state.units.values():
        acting = unit.side is side and unit.on_field
        points = speed(state.unit_type(unit), state.terrain) if acting else unit.points
        if (
            unit.shot
            or points != unit.points
            or (acting and unit.cells_moved)
            or (unit.side is not side and unit.restricted)
        ):
            draft.put(
                unit.evolve(
                    shot=False,
                    # T10.3 lasts for the rest of the interceptor's own turn
                    restricted=unit.restricted and unit.side is side,
                    points=points,
                    cells_moved=0 if acting else unit.cells_moved,
                )
            )
    if draft.round == state.settings.reinforcement_round:
        for unit in list(draft.units.values()):
            if unit.side is side and unit.status is Status.RESERVE and unit.reserve_x is not None:
                cell = _free_edge_cell(draft, side, unit.reserve_x)
                if cell is not None:
                    place(draft, unit, cell, unit.facing)
    draft.events.append(TurnStarted(side, draft.round))


def _free_edge_cell(draft: Draft, side: Side, x: int) -> Cell | None:
    """The free passable cell of the edge row nearest column x (ties: the smaller x)."""
    y = edge_row(side)
    occupied = draft.occupied()
    cells = draft.base.cells
    for distance in range(GRID_WIDTH):
        for column in (x - distance, x + distance):
            cell = (column, y)
            feature = cells.get(cell)
            if (
                0 <= column < GRID_WIDTH
                and cell not in occupied
                and (feature is None or not feature.is_impassable)
            ):
                return cell
    return None


def place(draft: Draft, unit: UnitState, cell: Cell, facing: Facing) -> None:
    """A reinforcement arrives (T9.6): full points; it initiates any contact its cell makes."""
    state = draft.base
    placed = unit.evolve(
        x=cell[0],
        y=cell[1],
        facing=facing,
        status=Status.FIELD,
        points=speed(state.unit_type(unit), state.terrain),
        cells_moved=0,
    )
    draft.put(placed)
    draft.events.append(ReinforcementPlaced(unit.id, cell[0], cell[1], placed.facing))
    draft.make_contacts(unit.id, charge=False)
