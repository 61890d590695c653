"""Errors after a battle whose cause is the rules engine: a retreat or quick battle it refused (409) or
input it did not understand (400). Their answers carry ``refusal`` beside the sentence, as the live battle's
do (docs/tactical-protocol.md §4): the engine's stable ``code`` and the ``params`` the sentence was built
from (provinces by code, units by their plain ids), and for malformed input the engine's ``field``, so that
a client can word it itself (docs/strategic-api.md, "After a battle")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.errors import Conflict, ServiceError
from combat.errors import IllegalAction, InvalidAction

UNIT_PARAMS = ("unit",)


def _plain(value: Any) -> Any:
    """A unit's engine id (its zero-padded primary key, ``retreat_selectors.unit_key``) as the plain id."""
    return int(value) if isinstance(value, str) and value.isdigit() else value


def refusal_of(error: IllegalAction | InvalidAction) -> dict[str, Any]:
    """The engine's code and params as the API shows them; ``field`` too for malformed input."""
    params = {key: _plain(value) if key in UNIT_PARAMS else value for key, value in error.params.items()}
    body: dict[str, Any] = {"code": error.code, "params": params}
    if isinstance(error, InvalidAction):
        body["field"] = error.field
    return body


class _WithRefusal:
    refusal: Mapping[str, Any]

    def as_dict(self) -> dict[str, object]:
        body: dict[str, object] = super().as_dict()  # type: ignore[misc]
        body["refusal"] = dict(self.refusal)
        return body


class EngineRefused(_WithRefusal, Conflict):
    """409: the engine forbids it; ``rule`` is the engine's rule id."""

    def __init__(self, message: str, error: IllegalAction) -> None:
        super().__init__(message, rule=error.rule)
        self.refusal = refusal_of(error)


class EngineMalformed(_WithRefusal, ServiceError):
    """400: the engine does not understand the input; ``field`` names the request's field."""

    def __init__(self, message: str, error: InvalidAction, *, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.refusal = refusal_of(error)
