"""Reads of the inbox: a user's notices, the unread count, a notice's sentence in the reader's language."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.dateparse import parse_datetime

from campaign.instants import moment
from campaign.models import Campaign, Membership
from notifications.kinds import KINDS
from notifications.models import Notification
from notifications.names import pick

TIME_PARAMS = ("deadline", "at")


def unread_count(*, user_id: int) -> int:
    """How many of the user's notices are unread (the bell)."""
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def notifications_of(*, user: Any, limit: int = 100) -> QuerySet[Notification]:
    """The user's latest notices, newest first."""
    return Notification.objects.filter(user=user).select_related("campaign").order_by("-id")[:limit]


def notice_text(*, kind: str, params: dict[str, Any], campaign: Campaign | None = None) -> str:
    """The notice's sentence in the active language, its times in the active time zone with their offset, the
    campaign named in the reader's language."""
    values = {name: pick(value) for name, value in params.items()}
    if campaign is not None:
        values["campaign"] = campaign.name
    for name in TIME_PARAMS:
        when = parse_datetime(str(values.get(name) or ""))
        if when is not None:
            values[name] = moment(when)
    if "role" in values:
        values["role"] = str(dict(Membership.Role.choices).get(values["role"], values["role"]))
    known = KINDS.get(kind)
    if known is None:
        return kind
    try:
        return str(known.sentence) % values
    except (KeyError, TypeError, ValueError):
        return str(known.label)
