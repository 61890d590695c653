"""Parsed engine states by (battle, version): a state at a version never changes, so parsing it once is enough.

The key holds the battle's random seed commitment too, so a database that reuses ids (a test rolled back)
never meets a stale entry.
"""

from __future__ import annotations

import collections.abc
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any, Union

from combat.model import (
    BattleState,
    CellFeature,
    Contact,
    Interception,
    Phase,
    Settings,
    Side,
    Terrain,
    UnitState,
    UnitType,
)

if TYPE_CHECKING:
    from tactical.models import LiveBattle

SIZE = 512
_states: OrderedDict[tuple[int, int, str], BattleState] = OrderedDict()
_lock = threading.Lock()


def state_of(battle: LiveBattle) -> BattleState:
    """The engine state stored on the battle row at its version."""
    key = (battle.pk, battle.version, battle.seed_commitment)
    with _lock:
        state = _states.get(key)
        if state is not None:
            _states.move_to_end(key)
            return state
    state = parse_state(battle.state)
    remember(battle.pk, battle.version, battle.seed_commitment, state)
    return state


def remember(battle_id: int, version: int, commitment: str, state: BattleState) -> None:
    """Keep a committed state (call it on commit, so that a rolled-back version is never kept)."""
    with _lock:
        _states[(battle_id, version, commitment)] = state
        while len(_states) > SIZE:
            _states.popitem(last=False)


@cache
def _converter(kind: Any) -> Callable[[Any], Any]:
    """``combat.serialize.from_plain`` for one annotated type, compiled once (it reads type hints per call)."""
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
        item = _converter(args[0])
        return lambda value: frozenset(item(v) for v in value)
    if origin in (dict, collections.abc.Mapping):
        key, item = _converter(args[0]), _converter(args[1])
        return lambda value: {key(k): item(v) for k, v in value.items()}
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind
    if isinstance(kind, type) and is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        plan = [(f.name, _converter(hints[f.name])) for f in fields(kind)]
        return lambda value: kind(**{name: c(value[name]) for name, c in plan if name in value})
    if kind is float:
        return float
    return lambda value: value


def parse_state(data: Mapping[str, Any]) -> BattleState:
    """``combat.serialize.state_from_dict``, several times faster (the clock ends many turns at once)."""
    unit, contact, card = _converter(UnitState), _converter(Contact), _converter(UnitType)
    units = [unit(u) for u in data["units"]]
    contacts = [contact(c) for c in data["contacts"]]
    return BattleState(
        terrain=Terrain(data["terrain"]),
        cells={(x, y): CellFeature(feature) for x, y, feature in data["cells"]},
        unit_types={name: card(c) for name, c in data["unit_types"].items()},
        settings=_converter(Settings)(data["settings"]),
        units={u.id: u for u in units},
        contacts={c.key: c for c in contacts},
        round=data["round"],
        side=Side(data["side"]),
        phase=Phase(data["phase"]),
        seq=data["seq"],
        pairs=tuple((a, b) for a, b in data["pairs"]),
        interceptions=tuple(_converter(Interception)(i) for i in data["interceptions"]),
        engaged_at_start=frozenset(data["engaged_at_start"]),
        winner=None if data["winner"] is None else Side(data["winner"]),
        ready=frozenset(Side(side) for side in data["ready"]),
    )
