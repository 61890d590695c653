"""Rebuilding a battle from its append-only event log (M3): the log is the source of truth.

Every kind of row is understood here (``state_after``), and ``moderation.selectors.replay`` steps through the same
function: the clock's pause, resume and added time and the wait for the moderator's die change the version,
not the board; a correction is replayed by ``combat.battle.corrections``; taking back an action restores the board
of the version before it; the moderator's die applies the action that waited for it with the logged dice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _

from combat.battle.corrections import changes_from_list, correct
from combat.battle.engine import apply
from combat.battle.model import BattleState, CellFeature
from combat.battle.serialize import action_from_dict, state_from_dict
from combat.dice import FixedDice
from tactical.models import BattleEvent, LiveBattle

Kind = BattleEvent.Kind
UNCHANGED = frozenset({Kind.DONE, Kind.CLOCK, Kind.AWAIT_DIE, Kind.OPEN})


class ReplayError(Exception):
    """The log does not reproduce a stored fact (a state, a die); said in the active language (a page shows it)."""


def _apply_logged(state: BattleState, action: dict[str, Any], dice: FixedDice) -> BattleState:
    if action["do"] == "batch":
        for step in action["actions"]:
            state = apply(state, action_from_dict(step), dice).state
        return state
    return apply(state, action_from_dict(action), dice).state


def state_after(state: BattleState | None, row: BattleEvent, history: dict[int, BattleState]) -> BattleState:
    """The board after one logged row; ``history`` holds the boards of the versions before it."""
    action = row.action or {}
    if row.kind == Kind.SETUP:
        return state_from_dict(action["state"])
    if state is None:
        raise ReplayError(_("the log does not begin with the setup"))
    if row.kind == Kind.MAP:
        return replace(state, cells={(x, y): CellFeature(f) for x, y, f in action["cells"]})
    if row.kind in UNCHANGED:
        return state
    if row.kind == Kind.CORRECTION:
        return correct(state, changes_from_list(action["changes"]))[0]
    if row.kind == Kind.UNDO:
        before = history.get(int(action["undoes"]) - 1)
        if before is None:
            raise ReplayError(_("version %(version)s takes back a version the log does not have")
                              % {"version": row.version})
        return before
    if row.kind == Kind.DIE_ROLL:
        action = action["action"]
    dice = FixedDice(list(row.dice))
    state = _apply_logged(state, action, dice)
    if dice.used != len(row.dice):
        raise ReplayError(_("version %(version)s used %(used)s dice; the log has %(logged)s")
                          % {"version": row.version, "used": dice.used, "logged": len(row.dice)})
    return state


def state_rebuild(battle: LiveBattle, upto: int | None = None) -> BattleState:
    """The state at version ``upto`` (the latest by default), replayed from the log with its recorded dice."""
    rows = BattleEvent.objects.filter(battle=battle).order_by("version")
    if upto is not None:
        rows = rows.filter(version__lte=upto)
    state: BattleState | None = None
    history: dict[int, BattleState] = {}
    expected = 1
    for row in rows:
        if row.version != expected:
            raise ReplayError(_("version %(version)s is missing from the log") % {"version": expected})
        expected += 1
        state = state_after(state, row, history)
        history[row.version] = state
    if state is None:
        raise ReplayError(_("the battle has no log"))
    return state
