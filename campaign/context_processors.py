"""Template context: who the visitor is in the campaign being shown (every page says it)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from campaign.models import Membership
from campaign.selectors import membership_of


def membership(request: HttpRequest) -> dict[str, Any]:
    """``current_campaign`` (a view sets ``request.campaign``), the visitor's ``current_membership`` and whether
    he moderates it (the menu shows each person what he may do)."""
    campaign = getattr(request, "campaign", None)
    user = getattr(request, "user", None)
    if campaign is None:
        return {"current_campaign": None, "current_membership": None, "current_is_moderator": False}
    membership = membership_of(user=user, campaign=campaign)
    moderates = bool(getattr(user, "is_superuser", False)) or (
        membership is not None and membership.role == Membership.Role.MODERATOR)
    return {"current_campaign": campaign, "current_membership": membership, "current_is_moderator": moderates}
