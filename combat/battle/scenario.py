"""The scenario runner (issue 2 §5): a scenario dict in, ``(exit code, result dict)`` out.

Exit 0: every action applied; 3: an action was refused (the result so far plus ``rejected``).
A malformed scenario raises ``InvalidAction`` naming the field (the CLI turns it into exit 2).
"""

from __future__ import annotations

import math
from typing import Any

from combat.battle.actions import Action
from combat.battle.draft import Draft, initial_contacts
from combat.battle.engine import apply
from combat.battle.events import Event
from combat.battle.geometry import default_facing, deployment_rows, edge_row, in_grid
from combat.battle.model import (
    BattleState,
    Cell,
    CellFeature,
    Facing,
    Phase,
    RangeTemplate,
    Settings,
    Side,
    Status,
    Terrain,
    UnitClass,
    UnitState,
    UnitType,
)
from combat.battle.serialize import action_from_dict, event_to_dict, is_int, key_name, to_plain
from combat.battle.turns import start_turn
from combat.dice import FixedDice
from combat.errors import DiceExhausted, IllegalAction, InvalidAction

TOP_LEVEL = (
    "terrain",
    "cells",
    "settings",
    "unit_types",
    "units",
    "reinforcements",
    "deployment",
    "dice",
    "actions",
    "comment",
)
SETTINGS = (
    "deployment_rows",
    "turn_seconds",
    "mutual_destruction_survivor_health",
    "range_template",
    "reinforcement_round",
)
TYPE_FIELDS = ("class", "mounted", "health", "damage", "missile", "arrows", "missile_damage")
MAX_LINES = 10_000
UNIT_FIELDS = ("id", "side", "type", "x", "y", "facing", "health", "arrows")


def run(data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Run a scenario: build the battle, apply its actions in order, report the result."""
    state, dice_values, actions, events = load(data)
    dice = FixedDice(list(dice_values))
    rejected: dict[str, Any] | None = None
    log: list[Event] = list(events)
    for index, action in enumerate(actions):
        try:
            outcome = apply(state, action, dice)
        except IllegalAction as error:
            rejected = {"index": index, "rule": error.rule, "reason": error.reason}
            break
        except InvalidAction as error:
            raise InvalidAction(f"actions[{index}].{error.field}", error.message, code=error.code,
                                params=error.params) from None
        except DiceExhausted:
            raise InvalidAction("dice", f"actions[{index}] needs a die but none is left") from None
        state = outcome.state
        log.extend(outcome.events)
    result = report(state, log)
    result["dice_used"] = dice.used
    if rejected is not None:
        result["rejected"] = rejected
        return 3, result
    return 0, result


def report(state: BattleState, events: list[Event]) -> dict[str, Any]:
    """The result JSON of a state and the events that led to it."""
    return {
        "units": [unit_result(state, unit) for unit in state.units.values()],
        "turn": {"round": state.round, "side": state.side.value, "phase": state.phase.value},
        "winner": None if state.winner is None else state.winner.value,
        "contacts": [
            {"units": [contact.a, contact.b], "initiator": contact.initiator}
            for contact in sorted(state.contacts.values(), key=lambda c: c.seq)
        ],
        "settings": to_plain(state.settings),
        "events": [event_to_dict(event) for event in events],
    }


def _number(halves: int) -> int | float:
    value = max(halves, 0) / 2
    return int(value) if value.is_integer() else value


def unit_result(state: BattleState, unit: UnitState) -> dict[str, Any]:
    """One unit as the result prints it (health and arrows in lines, below 0 shown as 0)."""
    return {
        "id": unit.id,
        "side": unit.side.value,
        "type": unit.type,
        "x": unit.x,
        "y": unit.y,
        "facing": unit.facing.value,
        "health": _number(unit.health),
        "arrows": unit.arrows,
        "routed": unit.status is Status.ROUTED,
        "withdrawn": unit.status is Status.WITHDRAWN,
        "in_reserve": unit.status in (Status.RESERVE, Status.UNDEPLOYED),
        "may_move": unit.on_field and not unit.restricted,
        "points": unit.points,
    }


def load(data: Any) -> tuple[BattleState, list[int], list[Action], list[Event]]:
    """Validate a scenario and build its starting state, dice, actions and opening events."""
    if not isinstance(data, dict):
        raise InvalidAction("scenario", "must be a JSON object")
    for key in data:
        if key not in TOP_LEVEL:
            raise InvalidAction(key_name(key), f"is not a scenario field; expected {', '.join(TOP_LEVEL)}")
    terrain = _enum(Terrain, _required(data, "terrain", "scenario"), "terrain")
    cells = _cells(data.get("cells", {}))
    settings = parse_settings(data.get("settings", {}))
    types_ = _unit_types(_required(data, "unit_types", "scenario"))
    deployment = data.get("deployment", False)
    if not isinstance(deployment, bool):
        raise InvalidAction("deployment", "must be true or false")
    units: dict[str, UnitState] = {}
    occupied: dict[Cell, str] = {}
    specs = _required(data, "units", "scenario")
    if not isinstance(specs, list):
        raise InvalidAction("units", "must be a list of units")
    for index, spec in enumerate(specs):
        unit = _unit(spec, f"units[{index}]", types_, cells, units, occupied, settings, deployment)
        units[unit.id] = unit
    reinforcements = data.get("reinforcements", [])
    if not isinstance(reinforcements, list):
        raise InvalidAction("reinforcements", "must be a list of units")
    for index, spec in enumerate(reinforcements):
        unit = _reinforcement(spec, f"reinforcements[{index}]", types_, units)
        units[unit.id] = unit
    dice = data.get("dice", [])
    if not isinstance(dice, list):
        raise InvalidAction("dice", "must be a list of die values 1..6")
    for index, value in enumerate(dice):
        if not is_int(value) or not 1 <= value <= 6:
            raise InvalidAction(f"dice[{index}]", "must be a die value 1..6")
    actions_data = _required(data, "actions", "scenario")
    if not isinstance(actions_data, list):
        raise InvalidAction("actions", "must be a list of actions")
    actions = [action_from_dict(item, f"actions[{index}]") for index, item in enumerate(actions_data)]
    state = BattleState(
        terrain=terrain,
        cells=cells,
        unit_types=types_,
        settings=settings,
        units=units,
        phase=Phase.DEPLOYMENT if deployment else Phase.MOVE,
    )
    if deployment:
        return state, dice, actions, []
    draft = Draft(initial_contacts(state))
    start_turn(draft)
    return draft.freeze(), dice, actions, draft.events


def _required(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise InvalidAction(key if where == "scenario" else f"{where}.{key}", "is missing")
    return data[key]


def _enum(kind: Any, value: Any, where: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise InvalidAction(where, f"{value!r} is not one of {allowed}") from None


def _halves(value: Any, where: str, *, positive: bool = True, whole: bool = False) -> int:
    """A number of lines as half-lines."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidAction(where, "must be a number")
    if abs(value) > MAX_LINES:
        raise InvalidAction(where, f"must be at most {MAX_LINES} lines")
    halves = value * 2
    if whole and value != int(value):
        raise InvalidAction(where, "must be a whole number of lines")
    if halves != int(halves):
        raise InvalidAction(where, "must be a whole or half number of lines")
    if (positive and value <= 0) or value < 0:
        raise InvalidAction(where, "must be greater than 0" if positive else "must not be negative")
    return int(halves)


def _cells(data: Any) -> dict[Cell, CellFeature]:
    if not isinstance(data, dict):
        raise InvalidAction("cells", "must be an object of feature → list of [x, y]")
    cells: dict[Cell, CellFeature] = {}
    for name, listed in data.items():
        feature = _enum(CellFeature, name, f"cells.{key_name(name)}")
        if not isinstance(listed, list):
            raise InvalidAction(f"cells.{name}", "must be a list of [x, y] cells")
        for index, value in enumerate(listed):
            where = f"cells.{name}[{index}]"
            if not isinstance(value, list) or len(value) != 2 or not all(is_int(v) for v in value):
                raise InvalidAction(where, "must be an [x, y] pair of integers")
            if not in_grid(value[0], value[1]):
                raise InvalidAction(where, f"({value[0]}, {value[1]}) is off the 18×21 grid")
            cell = (value[0], value[1])
            if cell in cells and cells[cell] is not feature:
                raise InvalidAction(where, f"({cell[0]}, {cell[1]}) is already a {cells[cell].value}")
            cells[cell] = feature
    return cells


def parse_settings(data: Any) -> Settings:
    """The campaign settings of a scenario; unknown names are refused."""
    if not isinstance(data, dict):
        raise InvalidAction("settings", "must be an object")
    values: dict[str, Any] = {}
    for key, value in data.items():
        where = f"settings.{key_name(key)}"
        if key not in SETTINGS:
            raise InvalidAction(where, f"is not a setting; expected one of {', '.join(SETTINGS)}")
        if key == "range_template":
            values[key] = _range_template(value, where)
        elif key == "mutual_destruction_survivor_health":
            values[key] = _halves(value, where) / 2
        else:
            low, high = {
                "deployment_rows": (1, 10),
                "turn_seconds": (1, 86400),
                "reinforcement_round": (1, 10000),
            }[key]
            if not is_int(value) or not low <= value <= high:
                raise InvalidAction(where, f"must be an integer from {low} to {high}")
            values[key] = value
    return Settings(**values)


def _range_template(value: Any, where: str) -> RangeTemplate:
    if not isinstance(value, dict):
        raise InvalidAction(where, 'must be {"forward": number, "lateral": number}')
    for key in value:
        if key not in ("forward", "lateral"):
            raise InvalidAction(f"{where}.{key_name(key)}", "is not a field; expected forward, lateral")
    axes = {}
    for key in ("forward", "lateral"):
        axis = value.get(key, getattr(RangeTemplate(), key))
        if isinstance(axis, bool) or not isinstance(axis, (int, float)) or not 0 < axis <= 30:
            raise InvalidAction(f"{where}.{key}", "must be a number of cells greater than 0 (at most 30)")
        axes[key] = float(axis)
    return RangeTemplate(**axes)


def _damage(value: Any, where: str) -> dict[UnitClass, int]:
    if not isinstance(value, dict):
        raise InvalidAction(where, "must be an object of class → damage")
    table = {}
    for key, amount in value.items():
        unit_class = _enum(UnitClass, key, f"{where}.{key_name(key)}")
        table[unit_class] = _halves(amount, f"{where}.{key_name(key)}", positive=False, whole=True)
    return table


def _unit_types(data: Any) -> dict[str, UnitType]:
    if not isinstance(data, dict) or not data:
        raise InvalidAction("unit_types", "must be an object of name → unit card")
    types_ = {}
    for name, card in data.items():
        where = f"unit_types.{key_name(name)}"
        if not isinstance(card, dict):
            raise InvalidAction(where, "must be an object")
        for key in card:
            if key not in TYPE_FIELDS:
                raise InvalidAction(
                    f"{where}.{key_name(key)}", f"is not a card field; expected {', '.join(TYPE_FIELDS)}"
                )
        unit_class = _enum(UnitClass, _required(card, "class", where), f"{where}.class")
        mounted = card.get("mounted", unit_class in (UnitClass.LC, UnitClass.HC))
        missile = card.get("missile", False)
        for key, flag in (("mounted", mounted), ("missile", missile)):
            if not isinstance(flag, bool):
                raise InvalidAction(f"{where}.{key}", "must be true or false")
        arrows = card.get("arrows", 0)
        if not is_int(arrows) or arrows < 0:
            raise InvalidAction(f"{where}.arrows", "must be a whole number, 0 or more")
        if arrows and not missile:
            raise InvalidAction(f"{where}.arrows", 'only a card with "missile": true has arrows')
        missile_damage = card.get("missile_damage")
        types_[name] = UnitType(
            name=name,
            unit_class=unit_class,
            mounted=mounted,
            health=_halves(_required(card, "health", where), f"{where}.health"),
            damage=_damage(_required(card, "damage", where), f"{where}.damage"),
            missile=missile,
            arrows=arrows,
            missile_damage=None
            if missile_damage is None
            else _damage(missile_damage, f"{where}.missile_damage"),
        )
    return types_


def _common(
    spec: Any, where: str, types_: dict[str, UnitType], units: dict[str, UnitState]
) -> dict[str, Any]:
    """Fields every unit spec shares: id, side, type, facing, health, arrows."""
    if not isinstance(spec, dict):
        raise InvalidAction(where, "must be an object")
    for key in spec:
        if key not in UNIT_FIELDS:
            raise InvalidAction(
                f"{where}.{key_name(key)}", f"is not a unit field; expected {', '.join(UNIT_FIELDS)}"
            )
    unit_id = _required(spec, "id", where)
    if not isinstance(unit_id, str) or not unit_id:
        raise InvalidAction(f"{where}.id", "must be a non-empty string")
    if unit_id in units:
        raise InvalidAction(f"{where}.id", f"{unit_id!r} is used by another unit")
    side = _enum(Side, _required(spec, "side", where), f"{where}.side")
    type_name = _required(spec, "type", where)
    if not isinstance(type_name, str) or type_name not in types_:
        raise InvalidAction(f"{where}.type", f"unknown unit type {type_name!r}")
    card = types_[type_name]
    facing = _enum(Facing, spec["facing"], f"{where}.facing") if "facing" in spec else default_facing(side)
    health = _halves(spec["health"], f"{where}.health") if "health" in spec else card.health
    arrows = spec.get("arrows", card.arrows)
    if not is_int(arrows) or arrows < 0:
        raise InvalidAction(f"{where}.arrows", "must be a whole number, 0 or more")
    if arrows and not card.missile:
        raise InvalidAction(f"{where}.arrows", f"a {type_name} does not shoot")
    return {
        "id": unit_id,
        "side": side,
        "type": type_name,
        "facing": facing,
        "health": health,
        "arrows": arrows,
    }


def _coordinate(spec: dict[str, Any], key: str, where: str, limit: int) -> int:
    value = spec[key]
    if not is_int(value):
        raise InvalidAction(f"{where}.{key}", "must be an integer")
    if not 0 <= value < limit:
        raise InvalidAction(f"{where}.{key}", f"{value} is off the 18×21 grid (0..{limit - 1})")
    return int(value)


def _unit(
    spec: Any,
    where: str,
    types_: dict[str, UnitType],
    cells: dict[Cell, CellFeature],
    units: dict[str, UnitState],
    occupied: dict[Cell, str],
    settings: Settings,
    deployment: bool,
) -> UnitState:
    common = _common(spec, where, types_, units)
    if deployment and "x" not in spec and "y" not in spec:
        return UnitState(**common, x=None, y=None, status=Status.UNDEPLOYED)
    for key in ("x", "y"):
        _required(spec, key, where)
    x = _coordinate(spec, "x", where, 18)
    y = _coordinate(spec, "y", where, 21)
    feature = cells.get((x, y))
    if feature is not None and feature.is_impassable:
        raise InvalidAction(where, f"({x}, {y}) is an impassable {feature.value}")
    if (x, y) in occupied:
        raise InvalidAction(where, f"({x}, {y}) already holds {occupied[(x, y)]}; one unit per cell (T1)")
    if deployment:
        rows = deployment_rows(common["side"], settings.deployment_rows)
        if y not in rows:
            raise InvalidAction(
                f"{where}.y", f"the {common['side'].value} deploys in rows {rows.start}..{rows.stop - 1}"
            )
    occupied[(x, y)] = common["id"]
    return UnitState(**common, x=x, y=y)


def _reinforcement(
    spec: Any, where: str, types_: dict[str, UnitType], units: dict[str, UnitState]
) -> UnitState:
    """A reinforcement (T9.6): ``x`` presets its column on the edge row; ``y``, if given, is that row."""
    common = _common(spec, where, types_, units)
    column = None
    if "x" in spec:
        column = _coordinate(spec, "x", where, 18)
    if "y" in spec:
        row = edge_row(common["side"])
        if spec["y"] != row:
            raise InvalidAction(
                f"{where}.y", f"a reinforcement of the {common['side'].value} arrives on row {row}"
            )
    return UnitState(**common, x=None, y=None, status=Status.RESERVE, reserve_x=column)
