"""Who an event concerns, from campaign data: the players of a faction, the moderators of a campaign."""

from __future__ import annotations

from collections.abc import Iterable

from campaign.models import Commander, Membership


def faction_players(*, faction_ids: Iterable[int]) -> set[int]:
    """The users who play a faction: its leader and commanders (memberships and commanders played)."""
    ids = [f for f in faction_ids if f is not None]
    members = Membership.objects.filter(
        faction_id__in=ids, role__in=[Membership.Role.LEADER, Membership.Role.COMMANDER]
    ).values_list("user_id", flat=True)
    played = Commander.objects.filter(faction_id__in=ids, user__isnull=False).values_list("user_id", flat=True)
    return set(members) | set(played)


def moderators(*, campaign_id: int) -> set[int]:
    """The campaign's moderators."""
    return set(
        Membership.objects.filter(campaign_id=campaign_id, role=Membership.Role.MODERATOR).values_list(
            "user_id", flat=True
        )
    )
