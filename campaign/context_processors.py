"""Template context: who the visitor is in the campaign being shown (every page says it)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from campaign.selectors import membership_of


def membership(request: HttpRequest) -> dict[str, Any]:
    """``current_campaign`` (a view sets ``request.campaign``) and the visitor's ``current_membership``."""
    campaign = getattr(request, "campaign", None)
    user = getattr(request, "user", None)
    if campaign is None:
        return {"current_campaign": None, "current_membership": None}
    return {"current_campaign": campaign, "current_membership": membership_of(user=user, campaign=campaign)}
