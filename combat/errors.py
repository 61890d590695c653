"""Errors of the rules engine: one class per kind of failure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class CombatError(Exception):
    """Base of every error the engine raises on purpose."""


class InvalidAction(CombatError):
    """Input that is not understood: a missing or malformed field.

    ``field`` names the offending field (``"path[2]"``, ``"unit"``) so that a caller can
    point at it; the state is never changed. Like ``IllegalAction``, ``code`` names the message (stable;
    empty where no caller says it again, as in the scenario files' parsers) and ``params`` holds its values,
    so that a caller can say it in another language (``campaign.refusals``).
    """

    def __init__(self, field: str, message: str, *, code: str = "", params: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.code = code
        self.params = dict(params or {})


class IllegalAction(CombatError):
    """Input that is understood but that the rules forbid.

    ``rule`` is a rule id of RULES.md (``"T6"``, ``"T10.3"``, ``"R1.3"``); ``reason`` is a sentence
    a player understands, in English. ``code`` names the refusal itself (one per sentence, stable, since
    a rule id may stand for several) and ``params`` holds the values the sentence was built from (unit
    ids, cells, numbers, sides as their values, a nested refusal as ``code`` + ``params``), so that a
    caller can say it again in another language (``campaign.refusals``). The state is never changed.
    """

    def __init__(self, rule: str, reason: str, *, code: str = "", params: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason
        self.code = code
        self.params = dict(params or {})


class DiceExhausted(CombatError):
    """A die was needed but a fixed dice source had none left."""
