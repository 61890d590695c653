"""Refusals of a live battle in the player's language: the engine's refusal, or its message for an action it
did not understand, said from the catalogue (``campaign.refusals``) with the units' names from the battle's
roster instead of their engine ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.refusals import sentence as catalogue_sentence
from combat.errors import IllegalAction, InvalidAction


def roster_names(roster: Mapping[str, Any] | None) -> dict[str, str]:
    """Engine unit id → the name players see (a roster entry is a mapping with ``name``, or the name)."""
    names = {}
    for unit, entry in (roster or {}).items():
        name = entry.get("name") if isinstance(entry, Mapping) else entry
        if name:
            names[unit] = str(name)
    return names


def sentence(error: IllegalAction | InvalidAction, roster: Mapping[str, Any] | None = None) -> str:
    """The engine's refusal (or malformed-action message, without its field) in the active language, with the
    units' names from ``roster`` (id → entry)."""
    return catalogue_sentence(error, roster_names(roster))
