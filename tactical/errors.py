"""Errors of live battles: the campaign errors (400/403/404/409) with the protocol's ``code`` (§4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from campaign.errors import Conflict, Forbidden, NotFound, ServiceError
from combat.errors import IllegalAction, InvalidAction
from tactical.refusals import refusal_of, sentence

STALE = _("The battle has changed: reload it.")
DUPLICATE_ID = _("This action id was already used for another action.")
NOT_EDITABLE = _("The map can only be changed before any unit is deployed.")
ROUTE_CUT = _("The map must leave a passable route between the two deployment zones (T5).")
NOT_YOUR_UNIT = _("Only the unit's own commander or a moderator can act with it (T2).")
NOT_YOUR_SIDE = _("Only a commander of that side or a moderator can do this (T2).")
NOT_CHIEF = _("Only the side's chief commander or a moderator can concede (T11).")
MODERATORS_ONLY = _("Only a moderator of the campaign can do this (M1).")
NEEDS_LOGIN = _("Log in to take part in the battle.")
NO_BATTLE = _("There is no such battle.")
NOT_WATCHER = _("Only the battle's commanders, the leaders of its factions and the campaign's moderators "
                "may watch this battle.")
WATCH_NEEDS_LOGIN = _("Log in to watch this battle: only its commanders, the leaders of its factions and the "
                      "campaign's moderators may watch it.")
ALREADY_SET_UP = _("This battle is already being fought on the tactical map.")
NOT_PENDING = _("Only a battle awaiting resolution can go to the tactical map.")
NO_UNITS = _("Both sides need at least one unit on the tactical map.")
NOT_LEADER = _("Only a faction leader can give orders, and only to a commander of his faction on the same side (T2).")
EMPTY_ORDER = _("An order needs some text (at most 2000 characters).")
UNKNOWN_UNIT = _("There is no such unit in this battle.")
BAD_PATH = _("A path is a list of [x, y] cells, at least one.")
BAD_CELL = _("Each cell needs x 0..17, y 0..20 and a feature: river, swamp, gorge, wall or null.")


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
