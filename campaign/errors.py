"""The one error model of every app (docs/errors.md): services raise these; the API and the socket answer them
in one JSON shape.

An error carries its HTTP status, a stable machine ``code``, the ``params`` its sentence was built from, the
rule of RULES.md where one applies, the sentence itself (``detail``, in the active language), the fields at
fault (``errors``) and, where the rules engine refused, its ``refusal``; a live battle adds ``version`` and
``state``. Nothing is changed when one is raised (services are atomic).

The code of a sentence of an app's catalogue (``*/messages.py``) is its constant's name in lower case
(``NOT_YOUR_TURN`` → ``"not_your_turn"``): each catalogue ends with ``catalogue(globals())``.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from django.utils.functional import Promise

from combat.errors import IllegalAction, InvalidAction

# Keyed by the sentence object's id: a lazy sentence hashes (and compares) by its text in the active
# language, and the catalogues' constants live as long as the process, so their ids are stable.
_CODES: dict[int, str] = {}


def catalogue(namespace: MutableMapping[str, Any]) -> None:
    """Give every sentence of a messages module (an upper-case name bound to a lazy text) its stable code."""
    for name, value in namespace.items():
        if name.isupper() and isinstance(value, Promise):
            _CODES[id(value)] = name.lower()


def code_of(message: object) -> str | None:
    """The stable code of a catalogue's sentence (``None`` for any other text)."""
    return _CODES.get(id(message))


def refusal_of(error: IllegalAction | InvalidAction, *, plain_units: bool = False) -> dict[str, Any]:
    """An answer's ``refusal``: the engine's stable code and the params its sentence was built from, for a
    client that words it itself.

    ``plain_units`` is for the strategic API, whose units are known by their plain ids: a unit's engine id
    there is its zero-padded primary key (``strategic.selectors.retreats.unit_key``), given back as the int;
    malformed input also names the engine's own ``field`` (the request's field is in ``errors``).
    """
    params = dict(error.params)
    if plain_units:
        unit = params.get("unit")
        if isinstance(unit, str) and unit.isdigit():
            params["unit"] = int(unit)
    body: dict[str, Any] = {"code": error.code, "params": params}
    if plain_units and isinstance(error, InvalidAction):
        body["field"] = error.field
    return body


class ServiceError(Exception):
    """The base of the family: what was refused, why, and which HTTP status says so (400 unless a subclass).

    ``message`` is a catalogue's sentence (its code becomes ``code``) or any text; with ``params`` it is a
    template filled from them. ``code`` given explicitly wins (the live battle's protocol codes,
    docs/tactical-protocol.md §4); otherwise a text outside the catalogues has the class's code.
    """

    status = 400
    default_code = "invalid"

    def __init__(self, message: str | Promise, *, code: str | None = None, params: Mapping[str, Any] | None = None,
                 field: str | None = None, rule: str | None = None, errors: Mapping[str, list[str]] | None = None,
                 refusal: Mapping[str, Any] | None = None, version: int | None = None,
                 state: Mapping[str, Any] | None = None) -> None:
        self.params = dict(params or {})
        text = str(message) % self.params if self.params else str(message)
        super().__init__(text)
        self.message = text
        self.code = code or code_of(message) or self.default_code
        self.field = field
        self.rule = rule
        self.errors = dict(errors) if errors else ({field: [text]} if field else {})
        self.refusal = dict(refusal) if refusal is not None else None
        self.version = version
        self.state = state

    @property
    def detail(self) -> str:
        """The sentence a player reads, in the language that was active when it was raised."""
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """The JSON body of the answer (and of a socket's error frame, with its ``type`` and ``id``)."""
        body: dict[str, Any] = {"status": self.status, "code": self.code, "detail": self.message}
        if self.rule:
            body["rule"] = self.rule
        if self.errors:
            body["errors"] = self.errors
        if self.refusal is not None:
            body["refusal"] = self.refusal
        if self.version is not None:
            body["version"] = self.version
        if self.state is not None:
            body["state"] = self.state
        return body


class Invalid(ServiceError):
    """Input that is not understood or not acceptable: HTTP 400 ``invalid``."""


class Forbidden(ServiceError):
    """This user may not do this: HTTP 403 ``forbidden``."""

    status = 403
    default_code = "forbidden"


class NotFound(ServiceError):
    """No such object (or not visible to this user): HTTP 404 ``not_found``."""

    status = 404
    default_code = "not_found"


class Conflict(ServiceError):
    """The state does not allow it now (not your turn, moved already, stale version): HTTP 409 ``conflict``."""

    status = 409
    default_code = "conflict"


class LockedOut(ServiceError):
    """Too many failed logins for this account or address: HTTP 429 until the lock ends."""

    status = 429
    default_code = "locked_out"
