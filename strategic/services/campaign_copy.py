"""A new campaign started from a template (M1): the map, the unit cards and the factions of another one."""

from __future__ import annotations

from django.db import transaction

from campaign import permissions
from campaign.errors import Conflict, Invalid, NotFound
from campaign.messages import CAMPAIGN_NOT_FOUND, TEMPLATE_NOT_EMPTY, TEMPLATE_SAME
from campaign.models import Campaign, Faction
from campaign.permissions import Actor
from campaign.services import log_append, require_moderator
from strategic.models import Border, Province, TerrainTransition, UnitType


@transaction.atomic
def campaign_copy_from(*, actor: Actor, campaign: Campaign, source: Campaign) -> Campaign:
    """Copy into an empty campaign the provinces (with who controls them and the capitals), borders,
    terrain transitions, unit cards and factions of ``source``, a campaign the actor may read.

    Armies, units, commanders, members and the log are the source's own play and are not copied."""
    require_moderator(actor, campaign)
    if source.pk == campaign.pk:
        raise Invalid(TEMPLATE_SAME, field="template")
    if not permissions.can_read_campaign(actor, source):
        raise NotFound(CAMPAIGN_NOT_FOUND, field="template")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if (
        Province.objects.filter(campaign=campaign).exists()
        or UnitType.objects.filter(campaign=campaign).exists()
        or Faction.objects.filter(campaign=campaign).exists()
    ):
        raise Conflict(TEMPLATE_NOT_EMPTY, field="template")
    factions = {}
    for f in Faction.objects.filter(campaign=source).order_by("turn_order", "slug"):
        factions[f.pk] = Faction.objects.create(
            campaign=campaign, slug=f.slug, name_en=f.name_en, name_ru=f.name_ru, color=f.color,
            turn_order=f.turn_order, naval_capacity=f.naval_capacity,
        )
    provinces = {}
    for p in Province.objects.filter(campaign=source).order_by("code"):
        provinces[p.pk] = Province.objects.create(
            campaign=campaign, code=p.code, name_en=p.name_en, name_ru=p.name_ru, terrain=p.terrain,
            is_port=p.is_port, has_fortress=p.has_fortress, fortress_capacity=p.fortress_capacity,
            has_tribe=p.has_tribe, x=p.x, y=p.y, shape=p.shape,
            controller=factions.get(p.controller_id), capital_of=factions.get(p.capital_of_id),
        )
    borders = []
    for b in Border.objects.filter(campaign=source):
        low, high = sorted((provinces[b.a_id], provinces[b.b_id]), key=lambda p: p.pk)
        borders.append(Border(campaign=campaign, a=low, b=high, kind=b.kind))
    Border.objects.bulk_create(borders)
    TerrainTransition.objects.bulk_create(
        TerrainTransition(
            campaign=campaign, source=provinces[t.source_id], target=provinces[t.target_id], terrain=t.terrain
        )
        for t in TerrainTransition.objects.filter(campaign=source)
    )
    unit_types = UnitType.objects.filter(campaign=source).order_by("code")
    UnitType.objects.bulk_create(
        UnitType(
            campaign=campaign, code=t.code, name_en=t.name_en, name_ru=t.name_ru, unit_class=t.unit_class,
            mounted=t.mounted, health=t.health, damage=t.damage, missile=t.missile, arrows=t.arrows,
            missile_damage=t.missile_damage, morale=t.morale,
        )
        for t in unit_types
    )
    log_append(
        campaign=campaign,
        kind="campaign_copied",
        actor=actor,
        rule="M1",
        data={
            "source": source.slug,
            "provinces": len(provinces),
            "borders": len(borders),
            "factions": len(factions),
            "unit_types": len(unit_types),
        },
    )
    return campaign
