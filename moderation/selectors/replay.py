"""Replays (M3): a battle rebuilt from its event log by the engine, one step per logged version.

A replay that got through version ``c`` without an error keeps the board after ``c`` as a checkpoint when ``c``
is a multiple of the block size asked for, keyed like ``tactical.selectors.snapshots`` by the battle, the
version and the dice seed's commitment. Logged rows can never be changed or deleted one by one (the
append-only triggers of moderation/migrations/0002 and 0004), so the versions up to a checkpoint stay as
checked as they were: a block of steps is then replayed, and checked, from the checkpoint before it alone.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
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


class _Earlier(Exception):
    """A block takes back a version before the checkpoint it starts from: only a replay from the start has it."""


CHECKPOINTS = 4096
_checkpoints: OrderedDict[tuple[int, int, str], BattleState] = OrderedDict()
_lock = threading.Lock()


def _checkpoint(battle: LiveBattle, version: int) -> BattleState | None:
    key = (battle.pk, version, battle.seed_commitment)
    with _lock:
        state = _checkpoints.get(key)
        if state is not None:
            _checkpoints.move_to_end(key)
        return state


def _keep(battle: LiveBattle, version: int, state: BattleState) -> None:
    with _lock:
        _checkpoints[(battle.pk, version, battle.seed_commitment)] = state
        while len(_checkpoints) > CHECKPOINTS:
            _checkpoints.popitem(last=False)


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


def replay_steps(*, battle: LiveBattle, upto: int | None = None, every: int = 0) -> list[Step]:
    """Every version of the battle, in order, with the board the engine rebuilds after it; only those up to
    version ``upto`` when it is given (a later version cannot change an earlier board). With ``every``, the
    board after each multiple of it is kept as a checkpoint for ``replay_block``."""
    return _replay(battle, _rows(battle, 0, upto), None, {}, 1, every)


def replay_block(*, battle: LiveBattle, first: int, end: int, every: int) -> tuple[BattleState | None, list[Step]]:
    """The board before version ``first`` (None before the first) and the steps ``first``..``end``, exactly as
    a replay from the start gives them, replayed from the checkpoint after ``first - 1`` when one was kept
    (``first - 1`` a multiple of ``every``); otherwise from the start, keeping the checkpoints on the way."""
    before = _checkpoint(battle, first - 1) if first > 1 else None
    if before is not None:
        try:
            rows = _rows(battle, first - 1, end)
            return before, _replay(battle, rows, before, {first - 1: before}, first, every, from_checkpoint=True)
        except _Earlier:
            pass
    history: dict[int, BattleState] = {}
    if first > 1:
        # The versions before the block only give boards: their rows are read without what only a step shows.
        lean = BattleEvent.objects.filter(battle=battle, version__lt=first).order_by("version")
        _replay(battle, lean.only("version", "kind", "action", "dice"), None, history, 1, every, details=False)
        before = history.get(first - 1)
        if before is None:
            return None, []
    return before, _replay(battle, _rows(battle, first - 1, end), before, history, first, every)


def _rows(battle: LiveBattle, after: int, upto: int | None) -> Iterable[BattleEvent]:
    rows = BattleEvent.objects.filter(battle=battle).select_related("actor").order_by("version")
    if after:
        rows = rows.filter(version__gt=after)
    if upto is not None:
        rows = rows.filter(version__lte=upto)
    return rows


def _replay(
    battle: LiveBattle,
    rows: Iterable[BattleEvent],
    state: BattleState | None,
    history: dict[int, BattleState],
    expected: int,
    every: int,
    *,
    from_checkpoint: bool = False,
    details: bool = True,
) -> list[Step]:
    """The steps of ``rows`` replayed from ``state``, the board after version ``expected - 1``; ``history``
    gains the board after each (none listed without ``details``)."""
    steps: list[Step] = []
    for row in rows:
        if row.version != expected:
            raise ReplayBroken(_("version %(version)s is missing from the log") % {"version": expected})
        expected += 1
        if from_checkpoint and row.kind == BattleEvent.Kind.UNDO and int(row.action["undoes"]) - 1 not in history:
            raise _Earlier
        try:
            state = state_after(state, row, history)
        except ReplayError as error:
            raise ReplayBroken(str(error)) from None
        history[row.version] = state
        if every and row.version % every == 0:
            _keep(battle, row.version, state)
        if details:
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


def turns_of(steps: list[Step], before: BattleState | None = None) -> list[tuple[str, list[Step]]]:
    """The steps grouped by the side's turn they happened in: "deployment", then "<round>:<side>", and
    "<round>:<side>:window" for a side's interception window, which belongs to the round of the turn it
    follows (T14.2). ``before`` is the board before the first step when the steps do not start the log."""
    groups: list[tuple[str, list[Step]]] = []
    previous: BattleState | None = before
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
