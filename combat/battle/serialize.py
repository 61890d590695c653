"""States, actions and events to and from plain JSON-able dicts, with an exact round trip.

Actions use the scenario format (``{"do": "move", "unit": "hi", "path": [[9, 7]]}``); events are
``{"type": "moved", ...}``; a state keeps health in half-lines (``health`` fields are ints) so that
rebuilding it is exact.
"""

from __future__ import annotations

import collections.abc
import json
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any, Union

from combat.battle.actions import ACTION_TYPES, Action
from combat.battle.events import EVENT_TYPES, Event
from combat.battle.model import (
    BattleState,
    CellFeature,
    Contact,
    Facing,
    Interception,
    Phase,
    Settings,
    Side,
    Terrain,
    UnitState,
    UnitType,
)
from combat.errors import InvalidAction


def to_plain(value: Any) -> Any:
    """A value as JSON-able data: enums by value, tuples as lists, whole floats as ints."""
    kind = type(value)
    # Exact types first (every state is written on each action): none of these can be an Enum.
    if kind is str or kind is int or kind is bool or value is None:
        return value
    names = _dataclass_fields(kind)
    if names is not None:
        return {name: to_plain(getattr(value, name)) for name in names}
    if kind is dict:
        return {str(to_plain(key)): to_plain(item) for key, item in value.items()}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, (tuple, list)):
        return [to_plain(item) for item in value]
    if isinstance(value, (frozenset, set)):
        return sorted(to_plain(item) for item in value)
    if isinstance(value, Mapping):
        return {str(to_plain(key)): to_plain(item) for key, item in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in fields(value)}
    raise TypeError(f"cannot serialize {type(value).__name__}")


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _dataclass_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type, None for any other type (``fields`` per call is slow)."""
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
    return _FIELD_NAMES[kind]


def from_plain(kind: Any, value: Any) -> Any:
    """The inverse of ``to_plain`` for a value of the annotated type ``kind``."""
    return _converter(kind)(value)


@cache
def _converter(kind: Any) -> Callable[[Any], Any]:
    """``from_plain`` for one annotated type, worked out once: reading type hints per value was most of the
    time of parsing a stored state (the clock ends many turns at once)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (Union, types.UnionType):
        (inner,) = [arg for arg in args if arg is not type(None)]
        convert = _converter(inner)
        return lambda value: None if value is None else convert(value)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _converter(args[0])
            return lambda value: tuple(item(v) for v in value)
        items = [_converter(arg) for arg in args]
        return lambda value: tuple(c(v) for c, v in zip(items, value, strict=True))
    if origin is frozenset:
        member = _converter(args[0])
        return lambda value: frozenset(member(v) for v in value)
    if origin in (dict, collections.abc.Mapping):
        key, entry = _converter(args[0]), _converter(args[1])
        return lambda value: {key(k): entry(v) for k, v in value.items()}
    if isinstance(kind, type) and issubclass(kind, Enum):
        enum: Callable[[Any], Any] = kind
        return enum
    if isinstance(kind, type) and is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        plan = [(f.name, _converter(hints[f.name])) for f in fields(kind)]
        build: Callable[..., Any] = kind
        return lambda value: build(**{name: c(value[name]) for name, c in plan if name in value})
    if kind is float:
        return float
    return lambda value: value


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as ``{"type": ..., fields...}``."""
    data: dict[str, Any] = {"type": event.type}
    data.update(to_plain(event))
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a dict of ``event_to_dict`` describes."""
    kind = EVENT_TYPES[data["type"]]
    fields_ = {key: value for key, value in data.items() if key != "type"}
    event: Event = from_plain(kind, fields_)
    return event


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action in the scenario format; optional fields left unset are omitted."""
    data: dict[str, Any] = {"do": action.do}
    for key, value in to_plain(action).items():
        if value is not None:
            data[key] = value
    return data


_ACTION_FIELDS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    # do → (field, kind, required)
    "move": (("unit", "id", True), ("path", "path", True)),
    "turn": (("unit", "id", True), ("facing", "facing", True)),
    "shoot": (("unit", "id", True), ("target", "id", True)),
    "withdraw": (("unit", "id", True), ("path", "path0", False)),
    "end_turn": (("side", "side", False),),
    "intercept": (("unit", "id", True), ("target", "id", True), ("path", "path", False)),
    "end_interceptions": (("side", "side", False),),
    "concede": (("side", "side", True),),
    "end_battle": (("winner", "side", True),),
    "deploy": (("unit", "id", True), ("x", "int", True), ("y", "int", True), ("facing", "facing", True)),
    "ready": (("side", "side", True),),
    "place": (("unit", "id", True), ("x", "int", True), ("facing", "facing", False)),
}


def action_from_dict(data: Any, where: str = "action") -> Action:
    """Parse an action in the scenario format; ``InvalidAction`` names the bad field."""
    if not isinstance(data, dict):
        raise InvalidAction(where, 'must be an object with a "do" field', code="action_not_object")
    do = data.get("do")
    if not isinstance(do, str) or do not in ACTION_TYPES:
        shown = json.dumps(do, ensure_ascii=False, default=str)
        expected = ", ".join(ACTION_TYPES)
        raise InvalidAction(f"{where}.do", f"unknown action {shown}; expected one of {expected}",
                            code="unknown_action", params={"action": shown, "expected": expected})
    spec = _ACTION_FIELDS[do]
    known = {"do", *(name for name, _, _ in spec)}
    for key in data:
        if key not in known:
            raise InvalidAction(f"{where}.{key_name(key)}", f"is not a field of {do}", code="not_a_field_of_action",
                                params={"action": do})
    values: dict[str, Any] = {}
    for name, kind, required in spec:
        if name not in data:
            if required:
                raise InvalidAction(f"{where}.{name}", "is missing", code="field_missing")
            if kind == "path0":
                values[name] = ()
            continue
        values[name] = parse_field(kind, data[name], f"{where}.{name}")
    action: Action = ACTION_TYPES[do](**values)
    return action


def parse_field(kind: str, value: Any, where: str) -> Any:
    """One action field: an id, a path, a facing, a side or an int."""
    if kind == "id":
        if not isinstance(value, str) or not value:
            raise InvalidAction(where, "must be a unit id (a non-empty string)", code="unit_id_not_string")
        return value
    if kind in ("path", "path0"):
        if not isinstance(value, list) or (kind == "path" and not value):
            if kind == "path":
                raise InvalidAction(where, "must be a list of [x, y] cells, at least one", code="path_not_cells")
            raise InvalidAction(where, "must be a list of [x, y] cells", code="path_not_list")
        return tuple(parse_cell(cell, f"{where}[{index}]") for index, cell in enumerate(value))
    if kind == "facing":
        try:
            return Facing(value)
        except ValueError:
            raise InvalidAction(where, "must be one of N, E, S, W", code="facing_not_compass") from None
    if kind == "side":
        try:
            return Side(value)
        except ValueError:
            raise InvalidAction(where, 'must be "attacker" or "defender"', code="side_not_a_side") from None
    if not is_int(value):
        raise InvalidAction(where, "must be an integer", code="not_an_integer")
    return value


def key_name(key: str) -> str:
    """A JSON object key as it appears in a field name: bare if it is an identifier, else quoted."""
    return key if key.isidentifier() else json.dumps(key, ensure_ascii=False)


def is_int(value: Any) -> bool:
    """Whether a JSON value is an integer (booleans are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def parse_cell(value: Any, where: str) -> tuple[int, int]:
    """An ``[x, y]`` pair of integers."""
    if not isinstance(value, list) or len(value) != 2 or not all(is_int(v) for v in value):
        raise InvalidAction(where, "must be an [x, y] pair of integers", code="cell_not_pair")
    return (value[0], value[1])


def state_to_dict(state: BattleState) -> dict[str, Any]:
    """A state as plain data (health and damage in half-lines)."""
    return {
        "terrain": state.terrain.value,
        "cells": [[x, y, feature.value] for (x, y), feature in state.cells.items()],
        "settings": to_plain(state.settings),
        "unit_types": {name: to_plain(card) for name, card in state.unit_types.items()},
        "units": [to_plain(unit) for unit in state.units.values()],
        "contacts": [to_plain(contact) for contact in state.contacts.values()],
        "round": state.round,
        "side": state.side.value,
        "phase": state.phase.value,
        "seq": state.seq,
        "pairs": to_plain(state.pairs),
        "interceptions": to_plain(state.interceptions),
        "engaged_at_start": sorted(state.engaged_at_start),
        "winner": to_plain(state.winner),
        "ready": sorted(side.value for side in state.ready),
    }


def state_from_dict(data: Mapping[str, Any]) -> BattleState:
    """The state ``state_to_dict`` wrote."""
    units = [from_plain(UnitState, unit) for unit in data["units"]]
    contacts = [from_plain(Contact, contact) for contact in data["contacts"]]
    return BattleState(
        terrain=Terrain(data["terrain"]),
        cells={(x, y): CellFeature(feature) for x, y, feature in data["cells"]},
        unit_types={name: from_plain(UnitType, card) for name, card in data["unit_types"].items()},
        settings=from_plain(Settings, data["settings"]),
        units={unit.id: unit for unit in units},
        contacts={contact.key: contact for contact in contacts},
        round=data["round"],
        side=Side(data["side"]),
        phase=Phase(data["phase"]),
        seq=data["seq"],
        pairs=tuple((a, b) for a, b in data["pairs"]),
        interceptions=tuple(from_plain(Interception, item) for item in data["interceptions"]),
        engaged_at_start=frozenset(data["engaged_at_start"]),
        winner=None if data["winner"] is None else Side(data["winner"]),
        ready=frozenset(Side(side) for side in data["ready"]),
    )
