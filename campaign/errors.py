"""Errors that services raise; views turn them into HTTP answers (400, 403, 404, 409).

Every error says what was wrong in a sentence a player understands, names the field where there is one
and the rule of RULES.md where one applies. Nothing is changed when one is raised (services are atomic).
"""

from __future__ import annotations


class ServiceError(Exception):
    """Bad input: HTTP 400."""

    status = 400

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None,
                 errors: dict[str, list[str]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule
        self.errors = errors or ({field: [message]} if field else {})

    def as_dict(self) -> dict[str, object]:
        """The JSON body of the answer."""
        body: dict[str, object] = {"detail": self.message}
        if self.rule:
            body["rule"] = self.rule
        if self.errors:
            body["errors"] = self.errors
        return body


class Forbidden(ServiceError):
    """This user may not do this: HTTP 403."""

    status = 403


class NotFound(ServiceError):
    """No such object (or not visible to this user): HTTP 404."""

    status = 404


class Conflict(ServiceError):
    """The state does not allow it now (not your turn, moved already, stale version): HTTP 409."""

    status = 409
