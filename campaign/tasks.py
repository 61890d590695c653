"""Celery tasks of the campaign app: the strategic turn clock (S4)."""

from __future__ import annotations

from celery import shared_task

from campaign.services import faction_turns_expire_overdue


@shared_task(name="campaign.faction_turns_expire")
def faction_turns_expire() -> list[str]:
    """End every faction turn whose deadline has passed; answers the campaigns' slugs."""
    return [campaign.slug for campaign in faction_turns_expire_overdue()]
