"""The one way to delete log entries (M3's deliberate exception): purging a whole campaign or battle.

Only a superuser may purge. On PostgreSQL the append-only trigger lets the DELETEs through only inside the
purging transaction (``SET LOCAL limes.purge = 'on'``, migration 0003); a single entry still cannot go.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction

from campaign.errors import Forbidden
from campaign.models import Campaign
from moderation.messages import NEEDS_ADMIN
from strategic.models import Army, Battle, Unit

log = logging.getLogger(__name__)


@contextmanager
def purging(actor: Any) -> Iterator[None]:
    """A transaction in which the logs' DELETEs are let through; refused to anyone but a superuser."""
    if not getattr(actor, "is_superuser", False):
        raise Forbidden(NEEDS_ADMIN, rule="M3")
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL limes.purge = 'on'")
        yield


def campaign_purge(*, actor: Any, campaign: Campaign) -> None:
    """Delete a campaign with everything in it, its logs included."""
    with purging(actor):
        log.warning("campaign %s (%s) purged by %s", campaign.pk, campaign.slug, actor.get_username())
        # Battles, units and armies protect the provinces, factions and unit types they point at: first them.
        Battle.objects.filter(campaign=campaign).delete()
        Unit.objects.filter(unit_type__campaign=campaign).delete()
        Army.objects.filter(province__campaign=campaign).delete()
        campaign.delete()


def battle_purge(*, actor: Any, battle: Battle) -> None:
    """Delete one battle record with its live battle and event log."""
    with purging(actor):
        log.warning("battle %s of campaign %s purged by %s", battle.pk, battle.campaign_id, actor.get_username())
        battle.delete()
