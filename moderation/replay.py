"""Replays (M3): a battle rebuilt from its event log by the engine, one step per logged version."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from combat.dice import FixedDice
from combat.engine import apply
from combat.model import BattleState, CellFeature
from combat.serialize import action_from_dict, state_from_dict
from tactical.models import BattleEvent, LiveBattle


class ReplayBroken(Exception):
    """The log cannot be replayed (a version missing, a die missing or left over)."""


@dataclass(frozen=True)
class Step:
    """The board after one logged version, and what made it."""

    version: int
    kind: str
    created_at: datetime
    actor: str
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    dice: list[int]
    state: BattleState


def _after(state: BattleState | None, row: BattleEvent) -> BattleState:
    action = row.action or {}
    if row.kind == BattleEvent.Kind.SETUP:
        return state_from_dict(action["state"])
    if state is None:
        raise ReplayBroken("the log does not begin with the setup")
    if row.kind == BattleEvent.Kind.MAP:
        return replace(state, cells={(x, y): CellFeature(f) for x, y, f in action["cells"]})
    if row.kind == BattleEvent.Kind.DONE:
        return state  # a commander's "done" or "ready" changes the version, not the board
    dice = FixedDice(list(row.dice))
    steps = action["actions"] if action.get("do") == "batch" else [action]
    for step in steps:
        state = apply(state, action_from_dict(step), dice).state
    if dice.used != len(row.dice):
        raise ReplayBroken(f"version {row.version} used {dice.used} dice; the log has {len(row.dice)}")
    return state


def replay_steps(*, battle: LiveBattle) -> list[Step]:
    """Every version of the battle, in order, with the board the engine rebuilds after it."""
    steps: list[Step] = []
    state: BattleState | None = None
    for expected, row in enumerate(
        BattleEvent.objects.filter(battle=battle).select_related("actor").order_by("version"), start=1
    ):
        if row.version != expected:
            raise ReplayBroken(f"version {expected} is missing from the log")
        state = _after(state, row)
        steps.append(
            Step(
                version=row.version,
                kind=row.kind,
                created_at=row.created_at,
                actor=row.actor.get_username() if row.actor else "",
                action=row.action,
                events=list(row.events),
                dice=list(row.dice),
                state=state,
            )
        )
    return steps


def turns_of(steps: list[Step]) -> list[tuple[str, list[Step]]]:
    """The steps grouped by the side's turn they happened in: "deployment", then "<round>:<side>"."""
    groups: list[tuple[str, list[Step]]] = []
    previous: BattleState | None = None
    for step in steps:
        basis = previous or step.state
        key = "deployment" if basis.phase.value == "deployment" else f"{basis.round}:{basis.side.value}"
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append(step)
        previous = step.state
    return groups
