"""The interception window (T10): eligibility, legal interceptions, declaring one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from combat.battle.draft import Draft, occupancy
from combat.battle.events import InterceptionDeclared
from combat.battle.geometry import NEIGHBOURS, in_range
from combat.battle.missile import check_volley, shoot
from combat.battle.model import BattleState, Cell, Interception, Side, UnitState
from combat.battle.movement import CHARGE_CELLS, can_charge, check_path, reachable, speed
from combat.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a unit may not intercept or be intercepted: the sentence, and its code and values for callers."""

    text: str
    code: str
    params: dict[str, str]

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class InterceptionOption:
    """A legal interception: by volley, or by a path to one of ``cells`` (cell → least cost)."""

    unit: str
    target: str
    volley: bool
    cells: tuple[tuple[Cell, int], ...] = ()


def engaged(state: BattleState) -> frozenset[str]:
    """Units in contact with an enemy now."""
    return frozenset(unit_id for key in state.contacts for unit_id in key)


def target_problem(state: BattleState, target: UnitState, side: Side) -> Problem | None:
    """Why ``target`` may not be intercepted by ``side`` now (T10.3 condition 3), or None."""
    if target.side is side or not target.on_field:
        return Problem(f"{target.id} is not an enemy unit on the field", "target_not_enemy_on_field",
                       {"target": target.id})
    if target.id in state.engaged_at_start:
        return Problem(f"{target.id} was already in melee when its side's turn began", "target_engaged_at_start",
                       {"target": target.id})
    if target.id not in engaged(state):
        return Problem(f"{target.id} is not in melee", "target_not_in_melee", {"target": target.id})
    return None


def interceptor_problem(state: BattleState, unit: UnitState) -> Problem | None:
    """Why ``unit`` may not intercept now (T10 condition 2, T10.3), or None."""
    if not unit.on_field:
        return Problem(f"{unit.id} is not on the field", "unit_not_on_field", {"unit": unit.id})
    if unit.restricted:
        return Problem(f"{unit.id} intercepted and may not intercept again in this turn", "intercepted_already",
                       {"unit": unit.id})
    if unit.id in engaged(state):
        return Problem(f"{unit.id} is in melee", "unit_in_melee", {"unit": unit.id})
    return None


def legal_interceptions(state: BattleState, side: Side) -> list[InterceptionOption]:
    """Every legal interception ``side`` could declare now (T10)."""
    in_contact = engaged(state)
    targets = [
        unit
        for unit in state.units.values()
        if unit.side is not side
        and unit.on_field
        and unit.id in in_contact
        and unit.id not in state.engaged_at_start
    ]
    if not targets:
        return []
    occupied = occupancy(state)
    options: list[InterceptionOption] = []
    template = state.settings.range_template
    for unit in state.units.values():
        if unit.side is not side or interceptor_problem(state, unit) is not None:
            continue
        card = state.unit_type(unit)
        cells = reachable(state, unit, speed(card, state.terrain), occupied)
        for target in targets:
            ends = tuple((cell, cells[cell]) for cell in NEIGHBOURS[target.cell] if cell in cells)
            if ends:
                options.append(InterceptionOption(unit.id, target.id, False, ends))
            if card.missile and unit.arrows > 0 and not unit.shot and in_range(unit, target.cell, template):
                options.append(InterceptionOption(unit.id, target.id, True))
    return options


def declare(draft: Draft, unit_id: str, target_id: str, path: Sequence[Cell] | None) -> None:
    """Declare one interception in the open window, or raise ``IllegalAction`` (T10)."""
    state = draft.freeze()
    unit, target = state.units[unit_id], state.units[target_id]
    if unit.side is not state.side:
        raise IllegalAction("T6", f"{unit_id} belongs to the {unit.side.value}, not to the side intercepting",
                             code="interceptor_of_other_side", params={"unit": unit_id, "side": unit.side.value})
    problem = interceptor_problem(state, unit) or target_problem(state, target, unit.side)
    if problem is not None:
        raise IllegalAction("T10", f"{unit_id} cannot intercept {target_id}: {problem}", code="cannot_intercept",
                             params={"unit": unit_id, "target": target_id,
                                     "because": {"code": problem.code, "params": problem.params}})
    if path is None:
        try:
            check_volley(state, unit, target)
        except IllegalAction as error:
            raise IllegalAction(
                "T10", f"{unit_id} cannot intercept {target_id} by volley: {error.reason}",
                code="cannot_intercept_by_volley",
                params={"unit": unit_id, "target": target_id, "because": {"code": error.code, "params": error.params}},
            ) from None
        draft.interceptions = (*draft.interceptions, Interception(unit_id, target_id, True))
        draft.events.append(InterceptionDeclared(unit_id, target_id, True, (), 0))
        draft.put(draft.units[unit_id].evolve(restricted=True))
        shoot(draft, unit_id, target_id, interception=True)
        draft.check_end()
        return
    card = state.unit_type(unit)
    full = speed(card, state.terrain)
    try:
        checked = check_path(state, draft.occupied(), unit, path, full)
    except IllegalAction as error:
        raise IllegalAction("T10", f"{unit_id} cannot reach {target_id}: {error.reason}", code="cannot_reach",
                             params={"unit": unit_id, "target": target_id,
                                     "because": {"code": error.code, "params": error.params}}) from None
    if not path or not checked.contact or not any(cell == path[-1] for cell in NEIGHBOURS[target.cell]):
        raise IllegalAction("T10", f"{unit_id}'s path does not end in contact with {target_id}",
                             code="interception_short", params={"unit": unit_id, "target": target_id})
    x, y = path[-1]
    charge = can_charge(card, state.terrain) and len(path) >= CHARGE_CELLS
    draft.put(unit.evolve(x=x, y=y, cells_moved=len(path), restricted=True))
    draft.interceptions = (*draft.interceptions, Interception(unit_id, target_id, False))
    draft.events.append(InterceptionDeclared(unit_id, target_id, False, tuple(path), checked.cost))
    draft.make_contacts(unit_id, charge, preferred=target_id)
