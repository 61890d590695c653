"""Parsed engine states by (battle, version): a state at a version never changes, so parsing it once is enough.

The key holds the battle's random seed commitment too, so a database that reuses ids (a test rolled back)
never meets a stale entry.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from combat.battle.model import BattleState
from combat.battle.serialize import state_from_dict

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
    state = state_from_dict(battle.state)
    remember(battle.pk, battle.version, battle.seed_commitment, state)
    return state


def remember(battle_id: int, version: int, commitment: str, state: BattleState) -> None:
    """Keep a committed state (call it on commit, so that a rolled-back version is never kept)."""
    with _lock:
        _states[(battle_id, version, commitment)] = state
        while len(_states) > SIZE:
            _states.popitem(last=False)
