"""Rebuilding a battle from its append-only event log (M3): the log is the source of truth."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from combat.dice import FixedDice
from combat.engine import apply
from combat.model import BattleState, CellFeature
from combat.serialize import action_from_dict, state_from_dict
from tactical.models import BattleEvent, LiveBattle


class ReplayError(Exception):
    """The log does not reproduce a stored fact (a state, a die)."""


def _apply_logged(state: BattleState, action: dict[str, Any], dice: FixedDice) -> BattleState:
    if action["do"] == "batch":
        for step in action["actions"]:
            state = apply(state, action_from_dict(step), dice).state
        return state
    return apply(state, action_from_dict(action), dice).state


def state_rebuild(battle: LiveBattle, upto: int | None = None) -> BattleState:
    """The state at version ``upto`` (the latest by default), replayed from the log with its recorded dice."""
    rows = BattleEvent.objects.filter(battle=battle).order_by("version")
    if upto is not None:
        rows = rows.filter(version__lte=upto)
    state: BattleState | None = None
    expected = 1
    for row in rows:
        if row.version != expected:
            raise ReplayError(f"version {expected} is missing from the log")
        expected += 1
        action = row.action or {}
        if row.kind == BattleEvent.Kind.SETUP:
            state = state_from_dict(action["state"])
            continue
        if state is None:
            raise ReplayError("the log does not begin with the setup")
        if row.kind == BattleEvent.Kind.MAP:
            state = replace(state, cells={(x, y): CellFeature(f) for x, y, f in action["cells"]})
        elif row.kind != BattleEvent.Kind.DONE:
            dice = FixedDice(list(row.dice))
            state = _apply_logged(state, action, dice)
            if dice.used != len(row.dice):
                raise ReplayError(f"version {row.version} used {dice.used} dice; the log has {len(row.dice)}")
    if state is None:
        raise ReplayError("the battle has no log")
    return state
