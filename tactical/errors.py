"""Errors of live battles: the campaign errors (400/403/404/409) with the protocol's ``code`` (§4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.errors import Conflict, Forbidden, NotFound, ServiceError
from combat.errors import IllegalAction, InvalidAction
from tactical.refusals import refusal_of, sentence


class Coded:
    """Adds the protocol's ``code`` and optional ``version``/``state`` to the body of an error."""

    code = "error"
    extra: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = super().as_dict()  # type: ignore[misc]
        body["status"] = self.status  # type: ignore[attr-defined]
        body["code"] = self.code
        body.update(getattr(self, "extra", {}) or {})
        return body


class Invalid(Coded, ServiceError):
    """Malformed input (400 ``invalid``)."""

    code = "invalid"

    @classmethod
    def malformed(cls, error: InvalidAction, *, roster: Mapping[str, Any] | None = None) -> Invalid:
        """The engine's malformed-input error in the active language, on the field it names.

        Like a refusal of the rules, the body carries ``refusal``: the engine's code and params.
        """
        invalid = cls(sentence(error, roster), field=error.field)
        if error.code:
            invalid.extra = {"refusal": refusal_of(error)}
        return invalid


class Denied(Coded, Forbidden):
    """Not allowed for this user (403 ``forbidden``)."""

    code = "forbidden"


class Missing(Coded, NotFound):
    """No such battle or unit (404 ``not_found``)."""

    code = "not_found"


class Refused(Coded, Conflict):
    """The rules or the battle's state refuse it (409 with ``code``: illegal, stale, duplicate_id, ...)."""

    def __init__(self, message: str, *, code: str, rule: str | None = None, **extra: Any) -> None:
        super().__init__(message, rule=rule)
        self.code = code
        self.extra = extra

    @classmethod
    def rules(cls, refusal: IllegalAction, *, code: str = "illegal", roster: Mapping[str, Any] | None = None,
              **extra: Any) -> Refused:
        """A refusal of the rules in the active language, units named from ``roster`` (``tactical.refusals``).

        The body also carries ``refusal``: the engine's code and params, for a client that words it itself.
        """
        return cls(sentence(refusal, roster), code=code, rule=refusal.rule, refusal=refusal_of(refusal),
                   **extra)
