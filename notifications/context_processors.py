"""Template context: the bell's unread count."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from notifications.selectors.inbox import unread_count


def bell(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications``: the signed-in user's unread notices (None for a guest)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": None}
    return {"unread_notifications": unread_count(user_id=user.pk)}
