"""The one way to delete log entries (M3's deliberate exception): purging a whole campaign or battle.

Only a superuser may purge. On PostgreSQL the append-only trigger lets a DELETE through only inside the
purging transaction and only for an entry of the campaign or battle it names (``limes.purge`` set locally to
``campaign:<id>`` or ``battle:<id>``), and at commit refuses every deleted entry whose campaign or battle
still exists (migration 0004): a single entry still cannot go.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

from campaign.errors import Forbidden
from campaign.models import Campaign
from campaign.permissions import Actor
from moderation.messages import NEEDS_ADMIN
from strategic.models import Army, Battle, Unit

log = logging.getLogger(__name__)


def _purge_scope(scope: str) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('limes.purge', %s, true)", [scope])


@contextmanager
def purging(actor: Actor, scope: str) -> Iterator[None]:
    """A transaction in which the DELETEs of the logs of ``scope`` (``campaign:<id>``, ``battle:<id>``) are
    let through; refused to anyone but a superuser."""
    if not getattr(actor, "is_superuser", False):
        raise Forbidden(NEEDS_ADMIN, rule="M3")
    with transaction.atomic():
        _purge_scope(scope)
        yield
        _purge_scope("")  # not for the rest of a transaction around this one


def campaign_purge(*, actor: Actor, campaign: Campaign) -> None:
    """Delete a campaign with everything in it, its logs included."""
    with purging(actor, f"campaign:{campaign.pk}"):
        log.warning("campaign %s (%s) purged by %s", campaign.pk, campaign.slug, actor.get_username())
        # Battles, units and armies protect the provinces, factions and unit types they point at: first them.
        Battle.objects.filter(campaign=campaign).delete()
        Unit.objects.filter(unit_type__campaign=campaign).delete()
        Army.objects.filter(province__campaign=campaign).delete()
        campaign.delete()


def battle_purge(*, actor: Actor, battle: Battle) -> None:
    """Delete one battle record with its live battle and event log."""
    with purging(actor, f"battle:{battle.pk}"):
        log.warning("battle %s of campaign %s purged by %s", battle.pk, battle.campaign_id, actor.get_username())
        battle.delete()
