"""The live battle's errors: the project's one family (``campaign.errors``) with the protocol's codes.

docs/tactical-protocol.md §4 fixes the codes of a live battle's 400, 403 and 404 (``invalid``, ``forbidden``,
``not_found``) whatever the sentence; its 409s name their own code (``stale``, ``exists``, ``illegal``, ...)
and are raised as ``Conflict(..., code=...)``. A refusal of the engine is said in the reader's language with
the units' names from the battle's roster (``tactical.refusals``) and carries the engine's ``refusal``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise

from campaign.errors import Conflict, Forbidden, Invalid, NotFound, refusal_of
from combat.errors import IllegalAction, InvalidAction
from tactical.refusals import sentence


def denied(message: str | Promise, *, rule: str | None = None) -> Forbidden:
    """Not allowed for this user: 403 ``forbidden``."""
    return Forbidden(message, code="forbidden", rule=rule)


def missing(message: str | Promise) -> NotFound:
    """No such battle or unit: 404 ``not_found``."""
    return NotFound(message, code="not_found")


def invalid(message: str | Promise, *, field: str | None = None, rule: str | None = None) -> Invalid:
    """Malformed input: 400 ``invalid``."""
    return Invalid(message, code="invalid", field=field, rule=rule)


def malformed(error: InvalidAction, *, roster: Mapping[str, Any] | None = None) -> Invalid:
    """The engine's malformed-input error in the active language, on the field it names (400 ``invalid``).

    Like a refusal of the rules, the body carries ``refusal``: the engine's code and params.
    """
    return Invalid(sentence(error, roster), code="invalid", field=error.field,
                   refusal=refusal_of(error) if error.code else None)


def refused_by_rules(refusal: IllegalAction, *, code: str = "illegal", roster: Mapping[str, Any] | None = None
                     ) -> Conflict:
    """A refusal of the rules in the active language, units named from ``roster`` (409 ``illegal``, or
    ``ended``); the body also carries ``refusal``, the engine's code and params, for a client that words it
    itself."""
    return Conflict(sentence(refusal, roster), code=code, rule=refusal.rule, refusal=refusal_of(refusal))
