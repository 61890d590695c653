"""Captured commanders (Q5, table C 17+): the capture after a quick battle and the moderator's release.

A captured commander is marked ``captured_by`` the winner's faction and ``displaced``: out of command, so
that every check that refuses a displaced commander (R1.4: forming an army, taking command) refuses him.
His armies pass to a free commander of his faction (the faction's leader first, then by rank and name);
with nobody free they keep him as their commander of record and the log says that one must be appointed
(an army always has a commander in this app). A moderator releases him with a reason (M1): he is free
and may be given command again; the armies he lost keep their new commanders.
"""

from __future__ import annotations

from django.db import transaction

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid
from campaign.messages import NEEDS_MODERATOR
from campaign.models import Campaign, Commander, Faction
from campaign.permissions import Actor
from campaign.services import log_append
from strategic.messages import NOT_CAPTURED, RELEASE_NEEDS_REASON
from strategic.models import Army, Battle
from strategic.services.locks import lock_campaign, require_login

RANK_ORDER = [Commander.Rank.LEADER, Commander.Rank.GENERAL, Commander.Rank.CHIEFTAIN]


def successor_of(commander: Commander) -> Commander | None:
    """Who takes the armies of a captured commander: his faction's leader if free, else the first free
    commander of the faction by rank, then name; None when nobody is free."""
    free = [c for c in Commander.objects.filter(faction_id=commander.faction_id, displaced=False,
                                                captured_by__isnull=True).exclude(pk=commander.pk)]
    leader_id = Faction.objects.filter(pk=commander.faction_id).values_list("leader_id", flat=True).first()
    free.sort(key=lambda c: (c.pk != leader_id, RANK_ORDER.index(Commander.Rank(c.rank)), c.name, c.pk))
    return free[0] if free else None


def commander_capture(*, campaign: Campaign, commander: Commander, captor_id: int, battle: Battle,
                      actor: Actor | None = None) -> Commander:
    """Q5 (17+): the winner captures the beaten commander; his armies pass to a successor (call inside the
    battle's transaction, with the campaign locked)."""
    commander = Commander.objects.select_for_update().get(pk=commander.pk)
    if commander.captured_by_id is not None:
        return commander
    commander.captured_by_id = captor_id
    commander.displaced = True
    commander.save(update_fields=["captured_by", "displaced"])
    successor = successor_of(commander)
    armies = list(Army.objects.select_for_update().filter(commander=commander).order_by("pk"))
    log_append(campaign=campaign, kind="commander_captured", actor=actor, rule="Q5",
               data={"commander": commander.pk, "faction": commander.faction_id, "by": captor_id,
                     "battle": battle.pk, "province": battle.province.code, "armies": [a.pk for a in armies],
                     "successor": successor.pk if successor is not None else None})
    if successor is None:
        return commander
    for army in armies:
        army.commander = successor
        army.version += 1
        army.save(update_fields=["commander", "version"])
        log_append(campaign=campaign, kind="army_commander_set", actor=actor, rule="Q5",
                   data={"army": army.pk, "before": commander.pk, "commander": successor.pk})
    return commander


@transaction.atomic
def commander_release(*, actor: Actor, commander: Commander, reason: str) -> Commander:
    """Q5, M1: a moderator releases a captured commander, with a reason that goes into the log.

    403 for anyone but a moderator, 400 without a reason, 409 when the commander is not held.
    """
    require_login(actor)
    campaign = lock_campaign(commander.campaign_id)
    if not permissions.can_moderate(actor, campaign):
        raise Forbidden(NEEDS_MODERATOR)
    reason = (reason or "").strip()
    if not reason:
        raise Invalid(RELEASE_NEEDS_REASON, field="reason", rule="M1")
    commander = Commander.objects.select_for_update().get(pk=commander.pk)
    captor_id = commander.captured_by_id
    if captor_id is None:
        raise Conflict(NOT_CAPTURED, rule="Q5")
    commander.captured_by = None
    commander.displaced = False
    commander.save(update_fields=["captured_by", "displaced"])
    log_append(campaign=campaign, kind="commander_released", actor=actor, rule="Q5", reason=reason,
               data={"commander": commander.pk, "faction": commander.faction_id, "by": captor_id})
    return commander
