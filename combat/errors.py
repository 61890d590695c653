"""Errors of the rules engine: one class per kind of failure."""

from __future__ import annotations


class CombatError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidAction(CombatError):
    """Input that is not understood: a missing or malformed field.

    ``field`` names the offending field (``"path[2]"``, ``"unit"``) so that a caller can
    point at it; the state is never changed.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class IllegalAction(CombatError):
    """Input that is understood but that the rules forbid.

    ``rule`` is a rule id of RULES.md (``"T6"``, ``"T10.3"``, ``"R1.3"``); ``reason`` is a sentence
    a player understands. The state is never changed.
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class DiceExhausted(CombatError):
    """A die was needed but a fixed dice source had none left."""
