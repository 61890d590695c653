"""Writes of the inbox: a notice for the people an event concerns, read marks, the bell's live count.

The apps above call ``notify_on_commit`` with plain data (ids and strings) inside their transaction: the notice
is written once the game's change has committed, and whatever fails here (the database of notices, the socket,
the mail queue) is logged and never undoes or fails the game's action.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterable
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from campaign.errors import Forbidden
from notifications.messages import NEEDS_LOGIN, NOT_YOURS
from notifications.models import Notification
from notifications.selectors.inbox import unread_count
from notifications.services import mail

log = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    """The group of every notifications socket of one user."""
    return f"notify.user.{user_id}"


def notify(
    *,
    kind: str,
    user_ids: Iterable[int],
    key: str,
    campaign_id: int | None = None,
    params: dict[str, Any] | None = None,
    link: str = "",
) -> list[Notification]:
    """One notice per user for one event; ``key`` names the event, so the same event told twice adds nothing.

    Answers the notices written now (none for a user who already has this event's notice).
    """
    users = sorted({int(u) for u in user_ids if u is not None})
    rows = [
        Notification(user_id=u, campaign_id=campaign_id, kind=kind, params=params or {}, link=link,
                     key=f"{key}:u{u}")
        for u in users
    ]
    with transaction.atomic():
        existing = set(
            Notification.objects.filter(key__in=[r.key for r in rows]).values_list("key", flat=True)
        )
        fresh = [r for r in rows if r.key not in existing]
        Notification.objects.bulk_create(fresh, ignore_conflicts=True)
        created = list(Notification.objects.filter(key__in=[r.key for r in fresh]).select_related("user"))
        for notice in created:
            transaction.on_commit(partial(push_count, notice.user_id))
            if mail.mailed_to(notice) is not None:
                transaction.on_commit(partial(mail.email_queue, notification_id=notice.pk))
    return created


def notify_on_commit(**event: Any) -> None:
    """``notify`` once the caller's transaction commits; a failure is logged, the game goes on."""
    transaction.on_commit(partial(_notify_safely, event), robust=True)


def _notify_safely(event: dict[str, Any]) -> None:
    try:
        notify(**event)
    except Exception:
        log.exception("could not write the notices of %s", event.get("key"))


def push_count(user_id: int) -> None:
    """Send the user's sockets his unread count (the bell); a lost push is made good by the next page load."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "notify.count", "unread": unread_count(user_id=user_id)}

    def send() -> None:
        try:
            async_to_sync(layer.group_send)(user_group(user_id), message)
        except Exception:
            log.exception("could not push the unread count of user %s", user_id)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send()
        return
    # Called where an event loop runs in this thread (async_to_sync refuses there): from a thread of its own.
    sender = threading.Thread(target=send)
    sender.start()
    sender.join(timeout=5)


def _require_login(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)


def notification_read(*, user: Any, notification_id: int) -> Notification:
    """Mark one of the user's notices as read (403 for someone else's)."""
    _require_login(user)
    notice = Notification.objects.filter(pk=notification_id).first()
    if notice is None or notice.user_id != user.pk:
        raise Forbidden(NOT_YOURS, field="notification")
    if notice.read_at is None:
        notice.read_at = timezone.now()
        notice.save(update_fields=["read_at"])
        transaction.on_commit(partial(push_count, user.pk))
    return notice


def notifications_read_all(*, user: Any) -> int:
    """Mark every unread notice of the user as read; answers how many."""
    _require_login(user)
    count = Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
    transaction.on_commit(partial(push_count, user.pk))
    return count
