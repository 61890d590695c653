"""Template context: who the visitor is in the campaign being shown (every page says it)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def membership(request: HttpRequest) -> dict[str, Any]:
    """``current_membership``: the visitor's membership in ``request.campaign``, if a view set one."""
    campaign = getattr(request, "campaign", None)
    user = getattr(request, "user", None)
    if campaign is None or user is None or not user.is_authenticated:
        return {"current_membership": None}
    return {"current_membership": campaign.memberships.filter(user=user).select_related("faction").first()}
