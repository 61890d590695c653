"""Replays (M3): a battle rebuilt from its event log by the engine, one step per logged version."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _

from combat.battle.model import BattleState
from tactical.models import BattleEvent, LiveBattle
from tactical.selectors.replay import ReplayError, state_after


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


def replay_steps(*, battle: LiveBattle, upto: int | None = None) -> list[Step]:
    """Every version of the battle, in order, with the board the engine rebuilds after it; only those up to
    version ``upto`` when it is given (a later version cannot change an earlier board)."""
    steps: list[Step] = []
    state: BattleState | None = None
    history: dict[int, BattleState] = {}
    rows = BattleEvent.objects.filter(battle=battle).select_related("actor").order_by("version")
    if upto is not None:
        rows = rows.filter(version__lte=upto)
    for expected, row in enumerate(rows, start=1):
        if row.version != expected:
            raise ReplayBroken(_("version %(version)s is missing from the log") % {"version": expected})
        try:
            state = state_after(state, row, history)
        except ReplayError as error:
            raise ReplayBroken(str(error)) from None
        history[row.version] = state
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


def last_version(*, battle: LiveBattle) -> int:
    """The battle's last logged version (0 for an empty log)."""
    return BattleEvent.objects.filter(battle=battle).aggregate(last=Max("version"))["last"] or 0


def turns_of(steps: list[Step]) -> list[tuple[str, list[Step]]]:
    """The steps grouped by the side's turn they happened in: "deployment", then "<round>:<side>", and
    "<round>:<side>:window" for a side's interception window, which belongs to the round of the turn it
    follows (T14.2)."""
    groups: list[tuple[str, list[Step]]] = []
    previous: BattleState | None = None
    for step in steps:
        basis = previous or step.state
        if basis.phase.value == "deployment":
            key = "deployment"
        elif basis.phase.value == "interception":
            key = f"{basis.round}:{basis.side.value}:window"
        else:
            key = f"{basis.round}:{basis.side.value}"
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append(step)
        previous = step.state
    return groups
