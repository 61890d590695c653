"""The moderator's corrections of a battle state (M1): move a unit, turn it, set its health or arrows.

Pure and checked: ``correct`` applies a list of changes in order to a copy of the state, or raises
``CorrectionError`` naming the offending field (``changes[1].x``) and the state is unchanged. A unit moved
keeps the contacts it still touches, loses the others (with their pairs), and makes new ones as the
initiator without a charge (T7); a unit set to 0 lines is routed (T3.1), which may end the battle (T11).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.battle.draft import Draft
from combat.battle.events import UnitRouted
from combat.battle.geometry import NEIGHBOURS, in_grid
from combat.battle.model import BattleState, Contact, Facing, Status, contact_key
from combat.battle.serialize import event_to_dict
from combat.errors import InvalidAction

FIELDS = ("unit", "x", "y", "facing", "health", "arrows")


class CorrectionError(InvalidAction):
    """A change that cannot be made; ``code`` names the refusal, ``params`` its values."""

    def __init__(self, field: str, code: str, message: str, **params: Any) -> None:
        super().__init__(field, message)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Change:
    """One unit's correction; None leaves a value as it is. Health in half-lines."""

    unit: str
    cell: tuple[int, int] | None = None
    facing: Facing | None = None
    health: int | None = None
    arrows: int | None = None


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def change_from_dict(data: Any, index: int) -> Change:
    """A change as sent: ``{"unit", "x", "y", "facing", "health" (lines), "arrows"}``."""
    where = f"changes[{index}]"
    if not isinstance(data, Mapping):
        raise CorrectionError(where, "not_object", "each change is an object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise CorrectionError(f"{where}.{unknown[0]}", "unknown_field", "unknown field")
    unit = data.get("unit")
    if not isinstance(unit, str) or not unit:
        raise CorrectionError(f"{where}.unit", "no_unit", "name a unit")
    x: Any = data.get("x")
    y: Any = data.get("y")
    cell: tuple[int, int] | None = None
    if x is not None or y is not None:
        for name, value in (("x", x), ("y", y)):
            if not _whole(value):
                raise CorrectionError(f"{where}.{name}", "bad_cell", "a cell is two whole numbers x and y")
        cell = (x, y)
    facing = data.get("facing")
    if facing is not None:
        if facing not in {f.value for f in Facing}:
            raise CorrectionError(f"{where}.facing", "bad_facing", "facing is N, E, S or W")
        facing = Facing(facing)
    health = data.get("health")
    if health is not None:
        if isinstance(health, bool) or not isinstance(health, (int, float)) or health * 2 != int(health * 2):
            raise CorrectionError(f"{where}.health", "bad_health", "health is counted in half lines")
        health = int(health * 2)
    arrows = data.get("arrows")
    if arrows is not None and not _whole(arrows):
        raise CorrectionError(f"{where}.arrows", "bad_arrows", "arrows are a whole number")
    if cell is None and facing is None and health is None and arrows is None:
        raise CorrectionError(where, "nothing", "the change changes nothing")
    return Change(unit, cell, facing, health, arrows)


def changes_from_list(data: Any) -> list[Change]:
    """Every change of a correction; at least one."""
    if not isinstance(data, list) or not data:
        raise CorrectionError("changes", "empty", "list at least one change")
    return [change_from_dict(item, index) for index, item in enumerate(data)]


def correct(state: BattleState, changes: list[Change]) -> tuple[BattleState, list[dict[str, Any]]]:
    """The state after the changes, and one event per change (before and after), plus any rout or end."""
    draft = Draft(state)
    events: list[dict[str, Any]] = []
    for index, change in enumerate(changes):
        where = f"changes[{index}]"
        unit = draft.units.get(change.unit)
        if unit is None:
            raise CorrectionError(f"{where}.unit", "no_unit", "there is no such unit", unit=change.unit)
        if not unit.on_field:
            raise CorrectionError(f"{where}.unit", "not_on_field", "the unit is not on the field", unit=unit.id)
        card = state.unit_type(unit)
        before = {"x": unit.x, "y": unit.y, "facing": unit.facing.value, "health": unit.health, "arrows": unit.arrows}
        if change.cell is not None and change.cell != unit.cell:
            _check_cell(draft, state, change.cell, f"{where}.x")
            draft.put(unit.evolve(x=change.cell[0], y=change.cell[1]))
            _recontact(draft, unit.id)
            unit = draft.units[unit.id]
        if change.facing is not None:
            unit = unit.evolve(facing=change.facing)
        if change.health is not None:
            if not 0 <= change.health <= card.health:
                raise CorrectionError(f"{where}.health", "health_range", "health out of range",
                                      maximum=card.health / 2)
            unit = unit.evolve(health=change.health)
        if change.arrows is not None:
            if not 0 <= change.arrows <= card.arrows:
                raise CorrectionError(f"{where}.arrows", "arrows_range", "arrows out of range", maximum=card.arrows)
            unit = unit.evolve(arrows=change.arrows)
        draft.put(unit)
        after = {"x": unit.x, "y": unit.y, "facing": unit.facing.value, "health": unit.health, "arrows": unit.arrows}
        changed = {k for k in before if before[k] != after[k]}
        if changed & {"x", "y"}:
            changed |= {"x", "y"}  # a cell is shown whole
        events.append({
            "type": "unit_corrected", "unit": unit.id,
            "before": {k: _shown(k, v) for k, v in before.items() if k in changed},
            "after": {k: _shown(k, v) for k, v in after.items() if k in changed},
        })
        if unit.health <= 0:
            draft.rout(unit.id, "moderator")
            draft.check_end()
    events += [event_to_dict(e) for e in draft.events if not isinstance(e, UnitRouted) or e.cause == "moderator"]
    return draft.freeze(), events


def _shown(name: str, value: Any) -> Any:
    """Health in lines, as the board shows it."""
    if name == "health":
        return value // 2 if value % 2 == 0 else value / 2
    return value


def _check_cell(draft: Draft, state: BattleState, cell: tuple[int, int], field: str) -> None:
    if not in_grid(*cell):
        raise CorrectionError(field, "off_grid", "the cell is off the field", x=cell[0], y=cell[1])
    feature = state.cells.get(cell)
    if feature is not None and feature.is_impassable:
        raise CorrectionError(field, "impassable", "the cell is impassable", x=cell[0], y=cell[1])
    holder = draft.occupied().get(cell)
    if holder is not None:
        raise CorrectionError(field, "occupied", "another unit stands there", x=cell[0], y=cell[1], unit=holder)


def _recontact(draft: Draft, unit_id: str) -> None:
    """Keep the contacts the moved unit still touches, drop the rest, make new ones as their initiator."""
    unit = draft.units[unit_id]
    near = {draft.occupied().get(cell) for cell in NEIGHBOURS[unit.cell]} - {None}
    enemies = {other for other in near if draft.units[other].side is not unit.side}  # type: ignore[index]
    for key in [key for key in draft.contacts if unit_id in key]:
        other = key[0] if key[1] == unit_id else key[1]
        if other not in enemies:
            del draft.contacts[key]
            draft.pairs = tuple(pair for pair in draft.pairs if pair != key)
            _forget(draft, other, unit_id)
    _forget(draft, unit_id, None, keep=enemies)
    for enemy in sorted(enemies):  # type: ignore[type-var]
        key = contact_key(unit_id, enemy)  # type: ignore[arg-type]
        if key not in draft.contacts:
            draft.contacts[key] = Contact(key[0], key[1], unit_id, draft.seq)
            draft.seq += 1


def _forget(draft: Draft, unit_id: str, enemy: str | None, keep: set[Any] | None = None) -> None:
    """The enemy a unit moved against (T7.1) is forgotten when their contact is gone."""
    unit = draft.units[unit_id]
    if unit.against is None or unit.status is not Status.FIELD:
        return
    if (enemy is not None and unit.against == enemy) or (keep is not None and unit.against not in keep):
        draft.put(unit.evolve(against=None))
