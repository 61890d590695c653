"""The board state JSON every watcher receives (docs/tactical-protocol.md §2) and a unit's options (§5)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from campaign.errors import refusal_of
from combat.battle.actions import Move
from combat.battle.draft import occupancy
from combat.battle.engine import apply
from combat.battle.events import ContactMade, Moved
from combat.battle.geometry import cells_in_range, deployment_rows, in_range, turn_cost
from combat.battle.model import (
    GRID_HEIGHT,
    GRID_WIDTH,
    BattleState,
    Cell,
    Facing,
    Phase,
    Side,
    Status,
    Terrain,
    UnitState,
    UnitType,
)
from combat.battle.movement import Route, can_charge, speed
from combat.battle.queries import (
    interception_routes,
    legal_interceptions,
    move_routes,
    strikes_after_move,
    withdrawal_routes,
)
from combat.battle.queries import preview as melee_preview
from combat.dice import FixedDice
from combat.errors import CombatError, IllegalAction, InvalidAction
from tactical.refusals import sentence
from tactical.selectors.snapshots import state_of

if TYPE_CHECKING:
    from tactical.models import LiveBattle


def iso(moment: datetime | None) -> str | None:
    """An aware datetime as ISO 8601 UTC with milliseconds."""
    if moment is None:
        return None
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def lines(halves: int) -> float | int:
    """Half-lines as lines: an int when whole (engine_semantics)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def board_state(battle: LiveBattle, state: BattleState | None = None, now: datetime | None = None) -> dict[str, Any]:
    """The viewer-independent board of a live battle at its current version."""
    state = state or state_of(battle)
    now = now or timezone.now()
    engaged = {unit_id for key in state.contacts for unit_id in key}
    return {
        **_turn(battle, state, now),
        **_field(battle, state),
        "unit_types": {code: _card(card, state.terrain) for code, card in state.unit_types.items()},
        "units": [_unit(battle, state, unit, engaged) for unit in state.units.values()],
        **_fighting(battle, state),
    }


_shared: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
_shared_lock = threading.Lock()
SHARED_SIZE = 256


def board_state_shared(battle: LiveBattle, now: datetime) -> dict[str, Any]:
    """``board_state`` built once per battle row as it stands, for the many sockets that welcome it at once.

    Everything in it but ``server_time`` follows from the row's fields in the key.
    """
    key = (battle.pk, battle.version, battle.seed_commitment, battle.status, battle.turn_key, battle.deadline,
           battle.paused_left, battle.pending is None)
    with _shared_lock:
        board = _shared.get(key)
        if board is not None:
            _shared.move_to_end(key)
    if board is None:
        board = board_state(battle, now=now)
        with _shared_lock:
            _shared[key] = board
            while len(_shared) > SHARED_SIZE:
                _shared.popitem(last=False)
    return {**board, "server_time": iso(now)}


def _turn(battle: LiveBattle, state: BattleState, now: datetime) -> dict[str, Any]:
    """Whose turn it is and its clock, with the moderator's hold (a paused clock, a T7.6 die awaited)."""
    ended = state.phase is Phase.ENDED
    return {
        "battle": battle.pk,
        "version": battle.version,
        "status": battle.status,
        "phase": state.phase.value,
        "round": state.round,
        "side": state.side.value,
        "winner": None if state.winner is None else state.winner.value,
        "deadline": iso(battle.deadline),
        "paused": battle.paused_left is not None and not ended,
        "seconds_left": battle.paused_left if not ended else None,
        "awaiting_die": battle.pending is not None and not ended,
        "server_time": iso(now),
        "turn_seconds": state.settings.turn_seconds,
    }


def _field(battle: LiveBattle, state: BattleState) -> dict[str, Any]:
    """The grid: terrain, cells, the map's seed, the deployment rows and when reinforcements come (T1, T5, T9.6)."""
    rows = state.settings.deployment_rows
    return {
        "terrain": state.terrain.value,
        "width": GRID_WIDTH,
        "height": GRID_HEIGHT,
        "cells": [
            {"x": x, "y": y, "feature": feature.value}
            for (x, y), feature in sorted(state.cells.items(), key=lambda item: (item[0][1], item[0][0]))
        ],
        "map_seed": battle.map_seed,
        "deployment_rows": {side.value: list(deployment_rows(side, rows)) for side in Side},
        "reinforcement_round": state.settings.reinforcement_round,
    }


def _card(card: UnitType, terrain: Terrain) -> dict[str, Any]:
    """A unit type's card in lines, with its speed on this battlefield (T3, T4)."""
    return {
        "name": card.name,
        "class": card.unit_class.value,
        "mounted": card.mounted,
        "health": lines(card.health),
        "damage": {cls.value: lines(value) for cls, value in card.damage.items()},
        "missile": card.missile,
        "arrows": card.arrows,
        "missile_damage": None
        if card.missile_damage is None
        else {cls.value: lines(value) for cls, value in card.missile_damage.items()},
        "speed": speed(card, terrain),
        "charge": can_charge(card, terrain),
    }


def _unit(battle: LiveBattle, state: BattleState, unit: UnitState, engaged: set[str]) -> dict[str, Any]:
    """One unit as every watcher sees it: who it is, where, how it stands."""
    card = state.unit_type(unit)
    facts = battle.roster.get(unit.id, {})
    placed = unit.status is not Status.UNDEPLOYED and unit.status is not Status.RESERVE
    return {
        "id": unit.id,
        "name": facts.get("name", unit.id),
        "type": unit.type,
        "class": card.unit_class.value,
        "mounted": card.mounted,
        "side": unit.side.value,
        "faction": facts.get("faction"),
        "commander": facts.get("commander"),
        "status": unit.status.value,
        "x": unit.x if placed else None,
        "y": unit.y if placed else None,
        "facing": unit.facing.value,
        "health": lines(max(unit.health, 0)),
        "max_health": lines(card.health),
        "arrows": unit.arrows,
        "max_arrows": card.arrows,
        "points": unit.points,
        "speed": speed(card, state.terrain),
        "may_move": unit.on_field and not unit.restricted,
        "shot": unit.shot,
        "restricted": unit.restricted,
        "in_contact": unit.id in engaged,
        "reinforcement": bool(facts.get("reinforcement", False)),
    }


def _fighting(battle: LiveBattle, state: BattleState) -> dict[str, Any]:
    """Contacts, the last pairs, the open window's interceptions, the melee forecast, who is ready or done, and
    the dice (the seed shown once the battle is over, M2)."""
    ended = state.phase is Phase.ENDED
    return {
        "contacts": [{"a": c.a, "b": c.b, "initiator": c.initiator} for c in state.contacts.values()],
        "pairs": [list(pair) for pair in state.pairs],
        "interceptions": [{"unit": i.unit, "target": i.target, "volley": i.volley} for i in state.interceptions]
        if state.phase is Phase.INTERCEPTION
        else [],
        "melee": _melee(state),
        "ready": sorted(side.value for side in state.ready),
        "done": list(battle.done),
        "dice": {
            "commitment": battle.seed_commitment,
            "rolls_used": battle.rolls_used,
            "seed": bytes(battle.seed).hex() if ended else None,
        },
    }


def _melee(state: BattleState) -> list[dict[str, Any]]:
    """What each unit in contact would deal and take if the turn ended now (T7; before any T7.6 die)."""
    if not state.contacts or state.phase in (Phase.DEPLOYMENT, Phase.ENDED):
        return []
    return [
        {"unit": p.unit, "target": p.target, "deals": p.deals, "takes": p.takes, "health": p.health,
         "routed": p.routed, "needs_die": p.needs_die}
        for p in melee_preview(state).values()
    ]


def unit_options(battle: LiveBattle, unit_id: str, state: BattleState | None = None) -> dict[str, Any]:
    """What a unit can do now: reachable cells with paths, withdrawal, range, targets, interceptions.

    Every cell and path comes from the engine's own queries (``combat.battle.queries``), so the board
    offers exactly the moves the engine accepts.
    """
    state = state or state_of(battle)
    unit = state.units[unit_id]
    result: dict[str, Any] = {
        "unit": unit_id, "version": battle.version, "points": unit.points,
        "reachable": [], "withdraw": [], "range": [], "targets": [], "interceptions": [],
        "turn_costs": {f.value: turn_cost(unit.facing, f) for f in Facing}, "deploy": [],
    }
    if state.phase is Phase.DEPLOYMENT:
        result["deploy"] = _deploy_cells(state, unit)
        return result
    if not unit.on_field:
        return result
    if state.unit_type(unit).missile:
        result["range"], result["targets"] = _volley_options(state, unit)
    if state.phase is Phase.INTERCEPTION:
        result["interceptions"] = _interception_options(state, unit)
        return result
    result["reachable"] = _reachable(state, unit)
    result["withdraw"] = _withdrawals(state, unit)
    return result


def _deploy_cells(state: BattleState, unit: UnitState) -> list[list[int]]:
    """Free passable cells of the side's deployment rows, while the side is not ready (T1)."""
    if unit.status not in (Status.UNDEPLOYED, Status.FIELD) or unit.side in state.ready:
        return []
    occupied = occupancy(state)
    cells = []
    for y in deployment_rows(unit.side, state.settings.deployment_rows):
        for x in range(GRID_WIDTH):
            feature = state.cells.get((x, y))
            if (feature is None or not feature.is_impassable) and occupied.get((x, y), unit.id) == unit.id:
                cells.append([x, y])
    return cells


def _volley_options(state: BattleState, unit: UnitState) -> tuple[list[list[int]], list[str]]:
    """A missile unit's range template where it stands, and the enemies it may shoot now (T9)."""
    cells = [list(cell) for cell in cells_in_range(unit, state.settings.range_template)]
    if unit.arrows <= 0 or unit.shot or any(unit.id in key for key in state.contacts):
        return cells, []
    targets = [
        other.id for other in state.units.values()
        if other.on_field and other.side is not unit.side
        and in_range(unit, other.cell, state.settings.range_template)
    ]
    return cells, targets


def _interception_options(state: BattleState, unit: UnitState) -> list[dict[str, Any]]:
    """The unit's legal interceptions in the open window: by volley, or by a path to each end (T10)."""
    if unit.side is not state.side:
        return []
    options: list[dict[str, Any]] = []
    full: dict[Cell, Route] | None = None
    for option in legal_interceptions(state, unit.side):
        if option.unit != unit.id:
            continue
        if option.volley:
            options.append({"target": option.target, "volley": True, "path": None})
            continue
        full = full if full is not None else interception_routes(state, unit.id)
        for cell, _cost in option.cells:
            options.append({"target": option.target, "volley": False, "path": _cells(full[cell].path)})
    return options


def _reachable(state: BattleState, unit: UnitState) -> list[dict[str, Any]]:
    """Move ends with their cost and path, row by row (T4–T6, T8.1)."""
    found = move_routes(state, unit.id)
    return [
        {"x": cell[0], "y": cell[1], "cost": route.cost, "path": _cells(route.path), "contact": route.contact,
         "strikes": _strikes(state, unit.id, route.path) if route.contact else []}
        for cell, route in sorted(found.items(), key=lambda item: (item[0][1], item[0][0]))
    ]


def _strikes(state: BattleState, unit_id: str, path: tuple[Cell, ...]) -> list[dict[str, Any]]:
    """What the unit would deal on arriving, in lines, with its flank and charge (T7.2–T7.4)."""
    return [
        {"target": s.target, "damage": lines(s.damage), "flank": s.flank, "charge": s.charge}
        for s in strikes_after_move(state, unit_id, path)
    ]


def _withdrawals(state: BattleState, unit: UnitState) -> list[dict[str, Any]]:
    """Cells of the own edge row to step off from, each with its cost (+1 to step off) and path (T11)."""
    return [
        {"x": cell[0], "y": cell[1], "cost": route.cost, "path": _cells(route.path)}
        for cell, route in withdrawal_routes(state, unit.id).items()
    ]


def _cells(path: tuple[Cell, ...]) -> list[list[int]]:
    return [list(cell) for cell in path]


def move_preview(state: BattleState, unit_id: str, path: tuple[Cell, ...],
                 roster: dict[str, Any] | None = None) -> dict[str, Any]:
    """A dry run of a move: legal or the rule refusing it (in the active language), its cost and contacts."""
    try:
        outcome = apply(state, Move(unit_id, path), FixedDice([]))
    except IllegalAction as error:
        return {"legal": False, "rule": error.rule, "detail": sentence(error, roster),
                "refusal": refusal_of(error)}
    except InvalidAction as error:
        return {"legal": False, "rule": None, "detail": sentence(error, roster)}
    except CombatError as error:
        return {"legal": False, "rule": None, "detail": str(error)}
    moved = next((e for e in outcome.events if isinstance(e, Moved)), None)
    contacts = [e for e in outcome.events if isinstance(e, ContactMade) and e.unit == unit_id]
    return {
        "legal": True,
        "cost": moved.cost if moved else 0,
        "points_left": moved.points_left if moved else 0,
        "contacts": [e.enemy for e in contacts],
        "charge": any(e.charge for e in contacts),
    }
