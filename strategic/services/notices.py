"""The notices of strategic events, for the people they concern (sent after commit, as plain data)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.urls import reverse

from campaign.models import Campaign, Faction
from notifications.names import both
from notifications.services.inbox import notify_on_commit
from strategic.models import Army, Battle


def _leaders(faction_ids: Iterable[int]) -> set[int]:
    return {
        u for u in Faction.objects.filter(pk__in=list(faction_ids)).values_list("leader__user_id", flat=True)
        if u is not None
    }


def battle_created_notify(*, campaign: Campaign, battle: Battle) -> None:
    """S7: the commanders of every army in the battle's province on either side, and both leaders."""
    sides = (battle.attacker_faction_id, battle.defender_faction_id)
    armies = list(
        Army.objects.filter(campaign=campaign, province_id=battle.province_id, faction_id__in=sides)
        .values_list("commander__user_id", "name", "faction_id")
    )
    if battle.attacker_army_id is not None:
        armies += list(Army.objects.filter(pk=battle.attacker_army_id)
                       .values_list("commander__user_id", "name", "faction_id"))
    province = both(battle.province)
    link = reverse("after-battle", args=[campaign.slug])
    by_user: dict[int, str] = {}
    for user_id, name, _faction in armies:
        if user_id is not None:
            by_user.setdefault(user_id, name)
    leaders = {f: u for f, u in Faction.objects.filter(pk__in=sides).values_list("pk", "leader__user_id")}
    for faction_id, user_id in leaders.items():
        if user_id is not None and user_id not in by_user:
            by_user[user_id] = next((n for _u, n, f in armies if f == faction_id), "")
    for user_id, army_name in by_user.items():
        notify_on_commit(
            kind="battle_created", user_ids=[user_id], key=f"battle:{battle.pk}", campaign_id=campaign.pk,
            params={"campaign": campaign.name, "province": province, "army": army_name}, link=link,
        )


def retreat_waits_notify(*, campaign: Campaign, army_ids: Iterable[int], deadline: datetime) -> None:
    """R1: the commander and the leader of each beaten army, with the deadline of its choice."""
    for army in Army.objects.filter(pk__in=list(army_ids)).select_related("commander", "faction__leader"):
        users = {army.commander.user_id} | _leaders([army.faction_id])
        notify_on_commit(
            kind="retreat_waits", user_ids=[u for u in users if u is not None],
            key=f"retreat:{army.pk}:{deadline.isoformat()}", campaign_id=campaign.pk,
            params={"campaign": campaign.name, "army": army.name, "deadline": deadline.isoformat()},
            link=reverse("retreat", args=[campaign.slug, army.pk]),
        )
