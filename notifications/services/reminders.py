"""Notices due at a time: one hour left on a faction's turn (S4), a battle starting in 15 minutes."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign
from notifications.names import both
from notifications.services.inbox import notify
from notifications.services.recipients import faction_players

HOUR = timedelta(hours=1)


def turn_hour_left_notify(*, now: datetime | None = None) -> int:
    """Tell the players of every acting faction whose deadline is an hour away or less; each turn once (the
    key holds the deadline, so a deadline the moderator extends is told again)."""
    now = now or timezone.now()
    due = Campaign.objects.filter(
        phase=Campaign.Phase.STRATEGIC, current_faction__isnull=False,
        faction_deadline__gt=now, faction_deadline__lte=now + HOUR,
    ).select_related("current_faction")
    told = 0
    for campaign in due:
        faction = campaign.current_faction
        assert faction is not None and campaign.faction_deadline is not None
        deadline = campaign.faction_deadline.isoformat()
        told += len(notify(
            kind="turn_hour_left",
            user_ids=faction_players(faction_ids=[faction.pk]),
            key=f"hour:{campaign.pk}:{campaign.turn}:{faction.pk}:{deadline}",
            campaign_id=campaign.pk,
            params={"campaign": campaign.name, "faction": both(faction), "deadline": deadline},
            link=reverse("turn", args=[campaign.slug]),
        ))
    return told
