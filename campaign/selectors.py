"""Reads of the campaign app."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet

from campaign import permissions
from campaign.messages import LOCKED_OUT
from campaign.models import Campaign, Faction, LogEntry, Membership, Relation


def membership_of(*, user: Any, campaign: Campaign) -> Membership | None:
    """The user's membership in the campaign, if any."""
    return permissions.membership_in(user, campaign.pk)


def locked_out_detail() -> str:
    """What a login refused by the throttle (django-axes) says, in the active language: how long to wait."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return str(LOCKED_OUT % {"minutes": minutes})


def campaign_for_reader(*, slug: str, user: Any) -> Campaign | None:
    """The campaign by slug, with its acting faction, and ``reader_is_member``: whether the user has a role
    there (read in the same query; None when not needed: anonymous users and superusers)."""
    campaigns = Campaign.objects.filter(slug=slug).select_related("current_faction").order_by()
    if user is not None and getattr(user, "is_authenticated", False) and not user.is_superuser:
        campaigns = campaigns.annotate(
            reader_is_member=Exists(Membership.objects.filter(campaign=OuterRef("pk"), user=user))
        )
    campaign = campaigns.first()
    if campaign is not None and not hasattr(campaign, "reader_is_member"):
        campaign.reader_is_member = None
    return campaign


def campaign_visible_to(*, user: Any) -> QuerySet[Campaign]:
    """Campaigns the user may read: public ones, and private ones the user belongs to."""
    campaigns = Campaign.objects.all()
    if user is None or not getattr(user, "is_authenticated", False):
        return campaigns.filter(is_public=True)
    if user.is_superuser:
        return campaigns
    return campaigns.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()


def relation_kind(*, campaign: Campaign, a: Faction, b: Faction) -> str:
    """How two factions stand (S1): "allied" for a faction with itself, "neutral" without a row."""
    if a.pk == b.pk:
        return Relation.Kind.ALLIED
    low, high = sorted((a.pk, b.pk))
    row = (
        Relation.objects.filter(campaign=campaign, a_id=low, b_id=high).values_list("kind", flat=True).first()
    )
    return row or Relation.Kind.NEUTRAL


def relations_map(*, campaign: Campaign) -> dict[tuple[int, int], str]:
    """Every stored relation, under both orders of the pair; a faction is allied with itself."""
    result: dict[tuple[int, int], str] = {}
    for a_id, b_id, kind in Relation.objects.filter(campaign=campaign).values_list("a_id", "b_id", "kind"):
        result[(a_id, b_id)] = kind
        result[(b_id, a_id)] = kind
    for faction_id in Faction.objects.filter(campaign=campaign).order_by().values_list("id", flat=True):
        result[(faction_id, faction_id)] = Relation.Kind.ALLIED
    return result


def is_friendly(*, campaign: Campaign, a: Faction, b: Faction) -> bool:
    """Same faction or allied (S1)."""
    return relation_kind(campaign=campaign, a=a, b=b) == Relation.Kind.ALLIED


def is_enemy(*, campaign: Campaign, a: Faction, b: Faction) -> bool:
    """At war (S1)."""
    return relation_kind(campaign=campaign, a=a, b=b) == Relation.Kind.WAR


def factions_in_turn_order(*, campaign: Campaign) -> list[Faction]:
    """The factions in the order they act in the strategic phase (S4)."""
    return list(Faction.objects.filter(campaign=campaign).order_by("turn_order", "slug", "id"))


def turn_state(*, campaign: Campaign, now: datetime | None = None) -> dict[str, Any]:
    """The turn, the phase, who acts and until when (S4)."""
    from django.utils import timezone

    now = now or timezone.now()
    deadline = campaign.faction_deadline
    seconds_left = None
    if deadline is not None:
        seconds_left = max(0, int((deadline - now).total_seconds()))
    return {
        "turn": campaign.turn,
        "phase": campaign.phase,
        "current_faction": campaign.current_faction,
        "deadline": deadline,
        "seconds_left": seconds_left,
        "is_overdue": deadline is not None and deadline <= now,
        "factions": factions_in_turn_order(campaign=campaign),
    }


def log_entries(*, campaign: Campaign, after_id: int | None = None) -> QuerySet[LogEntry]:
    """The campaign log in order, optionally only entries after a known id."""
    entries = LogEntry.objects.filter(campaign=campaign).select_related("actor").order_by("id")
    if after_id is not None:
        entries = entries.filter(id__gt=after_id)
    return entries


def campaign_has_begun(*, campaign: Campaign) -> bool:
    """True once play has started (M1): the first economic phase has ended (the strategic phase of turn 1 was
    opened), so a later change to what the game itself changes is a correction that needs a reason."""
    return campaign.turn > 1 or campaign.phase != Campaign.Phase.ECONOMIC
