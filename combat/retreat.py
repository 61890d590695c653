"""Retreat on the strategic map (RULES.md R1–R5): the legal options, then applying a choice.

``retreat_options(inp)`` lists what the beaten army may do; ``apply_retreat(inp, choice)`` checks a
choice against those options (``IllegalAction`` naming the rule) and returns the army that remains.
The values are in ``combat.retreat_model``.
"""

from __future__ import annotations

from combat.retreat_apply import apply_retreat
from combat.retreat_routes import retreat_options, validate_input

__all__ = ["apply_retreat", "retreat_options", "validate_input"]
