"""The moderator's corrections of what the game itself changes in a unit (M1): its health, and its place (a
province, or an army, whose members it then is). Before the campaign has begun these are setup; once it has,
each needs a reason, written into the log every participant reads."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction

from campaign.errors import Invalid
from campaign.permissions import Actor
from campaign.services import log_append, require_moderator
from campaign.versions import require_version
from strategic.messages import BAD_UNIT_HEALTH, NOT_IN_CAMPAIGN, ONE_PLACE, OTHER_FACTION
from strategic.models import Army, Province, Unit
from strategic.services.armies import location_of
from strategic.services.locks import lock_armies, lock_campaign, touch
from strategic.services.map import require_correction_reason

UNSET: Any = object()


def _halves(health: Any, card_health: Decimal) -> int:
    try:
        value = Decimal(str(health))
    except (InvalidOperation, ValueError):
        raise Invalid(BAD_UNIT_HEALTH, params={"most": card_health}, field="health", rule="T3.1") from None
    if value <= 0 or value > card_health or value * 2 != int(value * 2):
        raise Invalid(BAD_UNIT_HEALTH, params={"most": card_health.normalize()}, field="health", rule="T3.1")
    return int(value * 2)


@transaction.atomic
def unit_correct(
    *,
    actor: Actor,
    unit: Unit,
    reason: str = "",
    health: Any = None,
    province: Province | None = None,
    army: Army | None = None,
    expected_version: str | None = None,
) -> Unit:
    """Set a unit's health (lines, half lines allowed, at most its card's) and/or its place: ``army`` (of its
    faction; the unit stands where the army stands) or ``province`` (outside any army). Once the campaign has
    begun a change needs a reason (M1)."""
    campaign = lock_campaign(unit.campaign_id)
    require_moderator(actor, campaign)
    if province is not None and army is not None:
        raise Invalid(ONE_PLACE, field="army")
    for value, field in ((province, "province"), (army, "army")):
        if value is not None and value.campaign_id != campaign.pk:
            raise Invalid(NOT_IN_CAMPAIGN, field=field)
    unit = (
        Unit.objects.select_for_update(of=("self",))
        .select_related("unit_type", "army__province", "province")
        .get(pk=unit.pk)
    )
    require_version(unit, expected_version)
    if army is not None and army.faction_id != unit.faction_id:
        raise Invalid(OTHER_FACTION, field="army", rule="S2")
    # The armies the unit leaves or joins are locked before it moves (their version rises with it).
    armies = lock_armies(*[a for a in (unit.army, army) if a is not None])
    before = {"health": unit.health, "army": unit.army_id, "province": location_of(unit).code}
    changed: dict[str, Any] = {}
    if health is not None:
        halves = _halves(health, unit.unit_type.health)
        if halves != unit.health_halves:
            unit.health_halves = halves
            changed["health"] = halves / 2
    if army is not None and army.pk != unit.army_id:
        unit.army, unit.province, unit.in_fortress = army, None, False
        changed["army"] = army.pk
    elif province is not None and (unit.army_id is not None or unit.province_id != province.pk):
        unit.army, unit.province, unit.in_fortress = None, province, False
        changed["army"] = None
    if not changed:
        return unit
    require_correction_reason(campaign=campaign, reason=reason)
    unit.save()
    if "army" in changed:
        for touched in armies:
            touch(touched)
    after = {"health": unit.health, "army": unit.army_id, "province": location_of(unit).code}
    log_append(
        campaign=campaign,
        kind="unit_corrected",
        actor=actor,
        rule="M1",
        reason=reason,
        data={"unit": unit.pk, "before": before, "after": after},
    )
    return unit
