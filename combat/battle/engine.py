"""``apply(state, action, dice) -> Outcome``: validate, adjudicate, execute (T1–T13).

Malformed input raises ``InvalidAction``; a well-formed action the rules forbid raises
``IllegalAction`` with the most specific rule id (T13). Either way the input state is unchanged:
all work happens on a ``Draft`` that is frozen into the new state only when the action succeeds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from combat.battle.actions import (
    Action,
    Concede,
    Deploy,
    EndBattle,
    EndInterceptions,
    EndTurn,
    Intercept,
    Move,
    PlaceReinforcement,
    Ready,
    Shoot,
    Turn,
    Withdraw,
)
from combat.battle.draft import Draft
from combat.battle.events import (
    ActionVoid,
    Deployed,
    Event,
    LeftMelee,
    Moved,
    SideReady,
    Turned,
    UnitWithdrew,
    lines,
)
from combat.battle.geometry import deployment_rows, edge_row, in_grid, turn_cost
from combat.battle.interception import declare
from combat.battle.melee import leaving_damage
from combat.battle.missile import check_volley, shoot
from combat.battle.model import BattleState, Cell, Phase, Side, Status, UnitState
from combat.battle.movement import CHARGE_CELLS, can_charge, check_path
from combat.battle.turns import close_window, end_turn, place, start_turn
from combat.dice import Dice
from combat.errors import IllegalAction, InvalidAction


@dataclass(frozen=True, slots=True)
class Outcome:
    """The state after an action and the events it caused, in order."""

    state: BattleState
    events: tuple[Event, ...]


def apply(state: BattleState, action: Action, dice: Dice) -> Outcome:
    """Apply one action to a state; the input state is never changed."""
    if state.phase is Phase.ENDED:
        raise IllegalAction("T11", "the battle is over; no further action is accepted", code="battle_over")
    _check_ids(state, action)
    draft = Draft(state)
    if state.phase is Phase.DEPLOYMENT:
        _deployment(draft, action, dice)
    elif state.phase is Phase.INTERCEPTION:
        _window(draft, action, dice)
    else:
        _act(draft, action, dice)
    return Outcome(draft.freeze(), tuple(draft.events))


def replay(state: BattleState, actions: Iterable[Action], dice: Dice) -> BattleState:
    """Apply actions in order (an event log's actions with its recorded dice) and return the state."""
    for action in actions:
        state = apply(state, action, dice).state
    return state


def _check_ids(state: BattleState, action: Action) -> None:
    """Malformed references: an unknown unit id, or an empty path where a step is needed."""
    for name in ("unit", "target"):
        value = getattr(action, name, None)
        if value is not None and value not in state.units:
            raise InvalidAction(name, f"there is no unit '{value}'", code="no_such_unit", params={"unit": value})
    path = getattr(action, "path", None)
    if path is not None and not path and not isinstance(action, Withdraw):
        raise InvalidAction("path", "must list at least one cell", code="path_empty")


def _deployment(draft: Draft, action: Action, dice: Dice) -> None:
    if isinstance(action, Deploy):
        _deploy(draft, action)
    elif isinstance(action, Ready):
        _ready(draft, action)
    elif isinstance(action, Concede):
        draft.end(action.side.other, "conceded")
    elif isinstance(action, EndBattle):
        draft.end(action.winner, "moderator")
    else:
        raise IllegalAction("T6", "the battle has not begun: the sides are still deploying", code="not_begun")


def _window(draft: Draft, action: Action, dice: Dice) -> None:
    """T10.1: B declares first; any other action of B closes the window and applies after step 4."""
    intercepting = draft.side
    if isinstance(action, Intercept):
        declare(draft, action.unit, action.target, action.path)
        return
    if isinstance(action, EndInterceptions):
        if action.side is not None and action.side is not intercepting:
            raise IllegalAction("T6", f"the interception window belongs to the {intercepting.value}",
                                 code="window_of_other_side", params={"side": intercepting.value})
        close_window(draft, dice)
        return
    if isinstance(action, Shoot) and draft.units[action.unit].side is not intercepting:
        _act(draft, action, dice)  # T9.3: the other side may shoot; the window stays open
        return
    if isinstance(action, EndBattle) or (isinstance(action, Concede) and action.side is not intercepting):
        _act(draft, action, dice)
        return
    if isinstance(action, (Deploy, Ready)):
        raise IllegalAction("T1", "deployment is over", code="deployment_over")
    close_window(draft, dice)
    if draft.phase is Phase.ENDED:
        draft.events.append(ActionVoid(action.do))
        return
    _act(draft, action, dice)


def _act(draft: Draft, action: Action, dice: Dice) -> None:
    if isinstance(action, Move):
        _move(draft, action)
    elif isinstance(action, Turn):
        _turn(draft, action)
    elif isinstance(action, Shoot):
        state = draft.freeze()
        check_volley(state, state.units[action.unit], state.units[action.target])
        shoot(draft, action.unit, action.target, interception=False)
        draft.check_end()
    elif isinstance(action, Withdraw):
        _withdraw(draft, action)
    elif isinstance(action, EndTurn):
        if action.side is not None and action.side is not draft.side:
            raise IllegalAction("T6", f"it is the {draft.side.value}'s turn", code="not_your_turn",
                                 params={"side": draft.side.value})
        end_turn(draft, dice)
    elif isinstance(action, Concede):
        draft.end(action.side.other, "conceded")
    elif isinstance(action, EndBattle):
        draft.end(action.winner, "moderator")
    elif isinstance(action, PlaceReinforcement):
        _place(draft, action)
    elif isinstance(action, (Intercept, EndInterceptions)):
        raise IllegalAction("T10", "no interception window is open", code="no_window")
    else:
        raise IllegalAction("T1", "deployment is over", code="deployment_over")


def _own_unit(draft: Draft, unit_id: str) -> UnitState:
    """The acting side's unit on the field that may still move (T6, T10.3)."""
    unit = draft.units[unit_id]
    if not unit.on_field:
        raise IllegalAction("T6", f"{unit_id} is not on the field", code="unit_not_on_field", params={"unit": unit_id})
    if unit.side is not draft.side:
        raise IllegalAction(
            "T6", f"{unit_id} belongs to the {unit.side.value}; it is the {draft.side.value}'s turn",
            code="unit_of_other_side", params={"unit": unit_id, "side": unit.side.value, "turn": draft.side.value},
        )
    if unit.restricted:
        raise IllegalAction("T10.3", f"{unit_id} intercepted and may neither move nor turn in this turn",
                             code="unit_restricted", params={"unit": unit_id})
    return unit


def _leave(draft: Draft, unit: UnitState) -> UnitState | None:
    """A bound unit steps out of contact: half damage at once (T8.2); None when it is routed."""
    damage, _ = leaving_damage(draft.freeze(), unit.id)
    health = unit.health - damage
    draft.events.append(
        LeftMelee(unit.id, tuple(draft.enemies_of(unit.id)), lines(damage), lines(max(health, 0)))
    )
    draft.put(unit.evolve(health=health))
    if health <= 0:
        draft.rout(unit.id, "leaving")
        draft.check_end()
        return None
    draft.drop_contacts(unit.id)
    left = draft.units[unit.id].evolve(left_melee=True, against=None)
    draft.put(left)
    return left


def _move(draft: Draft, action: Move) -> None:
    unit = _own_unit(draft, action.unit)
    state = draft.freeze()
    enemies = draft.enemies_of(unit.id)
    bound = [state.units[enemy].cell for enemy in enemies]
    checked = check_path(state, draft.occupied(), unit, action.path, unit.points, bound)
    if enemies:
        left = _leave(draft, unit)
        if left is None:
            return
        unit = left
    x, y = action.path[-1]
    moved = unit.evolve(
        x=x,
        y=y,
        points=unit.points - checked.cost,
        cells_moved=unit.cells_moved + len(action.path),
        against=None,
    )
    draft.put(moved)
    draft.events.append(Moved(unit.id, action.path, checked.cost, moved.points))
    if checked.contact:
        card = state.unit_type(unit)
        charge = can_charge(card, state.terrain) and moved.cells_moved >= CHARGE_CELLS
        draft.make_contacts(unit.id, charge)
    draft.check_end()


def _turn(draft: Draft, action: Turn) -> None:
    unit = _own_unit(draft, action.unit)
    cost = turn_cost(unit.facing, action.facing)
    if cost > unit.points:
        raise IllegalAction(
            "T4", f"turning {unit.id} to {action.facing.value} needs {cost} points; it has {unit.points}",
            code="turn_too_costly",
            params={"unit": unit.id, "facing": action.facing.value, "cost": cost, "points": unit.points},
        )
    turned = unit.evolve(facing=action.facing, points=unit.points - cost)
    draft.put(turned)
    draft.events.append(Turned(unit.id, action.facing, cost, turned.points))


def _withdraw(draft: Draft, action: Withdraw) -> None:
    unit = _own_unit(draft, action.unit)
    last: Cell = action.path[-1] if action.path else unit.cell
    row = edge_row(unit.side)
    if last[1] != row:
        raise IllegalAction("T11", f"{unit.id} can leave the field only from its own edge row (y = {row})",
                             code="withdraw_off_edge", params={"unit": unit.id, "row": row})
    state = draft.freeze()
    enemies = draft.enemies_of(unit.id)
    bound = [state.units[enemy].cell for enemy in enemies]
    checked = check_path(state, draft.occupied(), unit, action.path, unit.points, bound, extra_cost=1)
    if checked.contact:
        raise IllegalAction("T6", f"the move of {unit.id} ends on contact; it cannot step off the field",
                             code="withdraw_into_contact", params={"unit": unit.id})
    if enemies:
        left = _leave(draft, unit)
        if left is None:
            return
        unit = left
    draft.put(
        unit.evolve(
            x=last[0],
            y=last[1],
            status=Status.WITHDRAWN,
            points=unit.points - checked.cost - 1,
            cells_moved=unit.cells_moved + len(action.path),
            against=None,
        )
    )
    draft.drop_contacts(unit.id)
    draft.events.append(UnitWithdrew(unit.id, action.path, checked.cost + 1))
    draft.check_end()


def _place(draft: Draft, action: PlaceReinforcement) -> None:
    unit = draft.units[action.unit]
    settings = draft.base.settings
    if unit.status is not Status.RESERVE:
        raise IllegalAction("T9.6", f"{unit.id} is not a reinforcement waiting to arrive",
                             code="not_reinforcement", params={"unit": unit.id})
    if unit.side is not draft.side:
        raise IllegalAction(
            "T6", f"{unit.id} belongs to the {unit.side.value}; it is the {draft.side.value}'s turn",
            code="unit_of_other_side", params={"unit": unit.id, "side": unit.side.value, "turn": draft.side.value},
        )
    if draft.round < settings.reinforcement_round:
        raise IllegalAction("T9.6", f"reinforcements arrive in round {settings.reinforcement_round}",
                             code="reinforcement_too_early", params={"round": settings.reinforcement_round})
    cell = (action.x, edge_row(unit.side))
    _check_free(draft, cell, "T6")
    place(draft, unit, cell, action.facing or unit.facing)
    draft.check_end()


def _check_free(draft: Draft, cell: Cell, rule: str) -> None:
    if not in_grid(*cell):
        raise IllegalAction(rule, f"({cell[0]}, {cell[1]}) is off the field", code="cell_off_field",
                             params={"x": cell[0], "y": cell[1]})
    feature = draft.base.cells.get(cell)
    if feature is not None and feature.is_impassable:
        raise IllegalAction("T6", f"({cell[0]}, {cell[1]}) is an impassable {feature.value}", code="cell_impassable",
                             params={"x": cell[0], "y": cell[1], "feature": feature.value})
    holder = draft.occupied().get(cell)
    if holder is not None:
        raise IllegalAction("T6", f"({cell[0]}, {cell[1]}) is occupied by {holder}", code="cell_occupied",
                             params={"x": cell[0], "y": cell[1], "unit": holder})


def _deploy(draft: Draft, action: Deploy) -> None:
    unit = draft.units[action.unit]
    if unit.status not in (Status.FIELD, Status.UNDEPLOYED):
        raise IllegalAction(
            "T9.6",
            f"{unit.id} is a reinforcement; it arrives in round {draft.base.settings.reinforcement_round}",
            code="reinforcement_deploy", params={"unit": unit.id, "round": draft.base.settings.reinforcement_round},
        )
    if unit.side in draft.ready:
        raise IllegalAction("T1", f"the {unit.side.value} has already finished deploying", code="side_ready",
                             params={"side": unit.side.value})
    rows = deployment_rows(unit.side, draft.base.settings.deployment_rows)
    if not in_grid(action.x, action.y) or action.y not in rows:
        raise IllegalAction("T1", f"the {unit.side.value} deploys in rows y = {rows.start}..{rows.stop - 1}",
                             code="deploy_off_rows",
                             params={"side": unit.side.value, "first": rows.start, "last": rows.stop - 1})
    if not (unit.on_field and unit.cell == (action.x, action.y)):
        _check_free(draft, (action.x, action.y), "T1")
    draft.put(unit.evolve(x=action.x, y=action.y, facing=action.facing, status=Status.FIELD))
    draft.events.append(Deployed(unit.id, action.x, action.y, action.facing))


def _ready(draft: Draft, action: Ready) -> None:
    side = action.side
    if side in draft.ready:
        raise IllegalAction("T1", f"the {side.value} has already finished deploying", code="side_ready",
                             params={"side": side.value})
    waiting = [u.id for u in draft.units.values() if u.side is side and u.status is Status.UNDEPLOYED]
    if waiting:
        raise IllegalAction("T1", f"deploy every unit first: {', '.join(waiting)}", code="units_undeployed",
                             params={"units": waiting})
    draft.ready = draft.ready | {side}
    draft.events.append(SideReady(side))
    if len(draft.ready) == 2:
        draft.phase = Phase.MOVE
        draft.round = 1
        draft.side = Side.ATTACKER
        start_turn(draft)
