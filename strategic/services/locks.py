"""What the strategic services share: row locks, the version bump, and messages used by several of them."""

from __future__ import annotations

from django.db import connection

from campaign.errors import Forbidden
from campaign.messages import NEEDS_LOGIN
from campaign.models import Campaign
from campaign.permissions import Actor
from strategic.models import Army


def require_login(actor: Actor) -> None:
    """403 for an anonymous actor."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)


def lock_campaign(campaign_id: int) -> Campaign:
    """The campaign row, locked: every strategic write takes this lock first."""
    return Campaign.objects.select_for_update().get(pk=campaign_id)


def lock_campaign_for_order(*, slug: str) -> Campaign | None:
    """The campaign by slug, its row locked, read with the fields an order checks (the others load when first
    read): the hot move's lock, in plain SQL because building the ORM's query cost more than running it."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = (
        "SELECT id, is_public, turn, phase, current_faction_id, faction_deadline FROM campaign_campaign"
        " WHERE slug = %s" + lock
    )
    found = list(Campaign.objects.raw(sql, [slug]))
    return found[0] if found else None


def lock_armies(*armies: Army) -> list[Army]:
    """The armies' rows, locked in id order (no deadlock between two writers), fresh from the database."""
    ids = sorted({army.pk for army in armies})
    locked = {a.pk: a for a in Army.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    return [locked[army.pk] for army in armies]


def touch(army: Army) -> None:
    """Save the army with its version + 1 (the optimistic check of ``expected_version``)."""
    army.version += 1
    army.save()
