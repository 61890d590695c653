"""Builders shared by the moderation tests (the live battles come from tests/tactical/builders.py)."""

from __future__ import annotations

from typing import Any

from tactical.models import LiveBattle
from tests.tactical.builders import act


def end(battle: LiveBattle, world: Any, winner: str = "attacker") -> LiveBattle:
    """The moderator ends the battle through the engine (the seed is revealed)."""
    act(battle, world.moderator, {"do": "end_battle", "winner": winner})
    battle.refresh_from_db()
    return battle
