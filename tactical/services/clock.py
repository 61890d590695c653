"""The turn clock (T6.1): which turn a deadline belongs to, and the timer task scheduled for it.

Three things end an overdue turn, all through ``services.battle_turn_expire`` (idempotent): the timer
task below, any request that touches the battle after its deadline, and the periodic sweep
(``tasks.battle_clock_sweep``) that catches timers lost with a worker. Sockets also ask at the deadline
(``consumers``), which is what makes the embedded mode's in-process channel layer hear of timeouts.
"""

from __future__ import annotations

import logging
import os
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from celery import current_app
from django.conf import settings

from combat.battle.model import BattleState, Phase

log = logging.getLogger(__name__)


def turn_key_of(state: BattleState) -> str:
    """The identity of the side's turn a deadline belongs to ("<round>:<side>"); the window is B's turn."""
    if state.phase is Phase.DEPLOYMENT:
        return "deployment"
    if state.phase is Phase.ENDED:
        return "ended"
    return f"{state.round}:{state.side.value}"


def is_timed(state: BattleState) -> bool:
    """Whether the clock runs in this phase."""
    return state.phase in (Phase.MOVE, Phase.INTERCEPTION)


def schedule_timeout(battle_id: int, turn_key: str, deadline: datetime) -> None:
    """Queue the timer task for a deadline (called on commit); a lost task is caught by the sweep.

    The broker is written to from a background thread, so that the request that began the turn does not
    wait for it (unless tasks run eagerly, as some tests do).
    """
    if not getattr(settings, "TACTICAL_CLOCK_TASKS", True):
        return
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        _queue(battle_id, turn_key, deadline)
        return
    _executor().submit(_queue, battle_id, turn_key, deadline)


def _queue(battle_id: int, turn_key: str, deadline: datetime) -> None:
    task = current_app.tasks["tactical.battle_turn_timeout"]  # by name: the task module imports the services
    try:
        task.apply_async((battle_id, turn_key), eta=deadline)
    except Exception:  # the broker is down: the sweep and the sockets still end the turn
        log.exception("could not queue the timer of battle %s turn %s", battle_id, turn_key)


_pool: tuple[int, ThreadPoolExecutor] | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None or _pool[0] != os.getpid():  # a forked process needs its own thread
        _pool = (os.getpid(), ThreadPoolExecutor(max_workers=1, thread_name_prefix="tactical-clock"))
    return _pool[1]
