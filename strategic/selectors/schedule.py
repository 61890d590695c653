"""Reads of a battle's schedule: who commands each side, the times proposed and accepted."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from campaign.models import Faction
from strategic.models import Army, Battle, BattleTime, BattleTimeAcceptance

SIDES = (Battle.Side.ATTACKER, Battle.Side.DEFENDER)


def battle_people(*, battle: Battle) -> dict[str, set[int]]:
    """The users who command each side of the battle: the attacking army's commander and the commanders of
    the defender's armies in the province, and each side's faction leader."""
    people: dict[str, set[int]] = {side: set() for side in SIDES}
    if battle.attacker_army_id is not None:
        people[Battle.Side.ATTACKER] |= {
            u for u in Army.objects.filter(pk=battle.attacker_army_id).values_list("commander__user_id", flat=True)
            if u is not None
        }
    people[Battle.Side.DEFENDER] |= {
        u for u in Army.objects.filter(province_id=battle.province_id, faction_id=battle.defender_faction_id)
        .values_list("commander__user_id", flat=True) if u is not None
    }
    leaders = dict(Faction.objects.filter(pk__in=[battle.attacker_faction_id, battle.defender_faction_id])
                   .values_list("pk", "leader__user_id"))
    for side, faction_id in ((Battle.Side.ATTACKER, battle.attacker_faction_id),
                             (Battle.Side.DEFENDER, battle.defender_faction_id)):
        if leaders.get(faction_id) is not None:
            people[side].add(leaders[faction_id])
    return people


def sides_of(*, user: Any, battle: Battle) -> list[str]:
    """The sides of the battle the user commands (none for a stranger)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    people = battle_people(battle=battle)
    return [side for side in SIDES if user.pk in people[side]]


@dataclass
class ProposedTime:
    """One proposed time and the sides that accepted it."""

    pk: int
    at: datetime
    proposed_by: str
    accepted_by: list[str] = field(default_factory=list)


def battle_times(*, battle: Battle) -> list[ProposedTime]:
    """The proposed times in order, each with the sides that accepted it."""
    accepted: dict[int, list[str]] = {}
    for time_id, side in BattleTimeAcceptance.objects.filter(battle=battle).values_list("time_id", "side"):
        accepted.setdefault(time_id, []).append(side)
    return [
        ProposedTime(pk=t.pk, at=t.at, proposed_by=t.proposed_by.get_username() if t.proposed_by else "",
                     accepted_by=sorted(accepted.get(t.pk, [])))
        for t in BattleTime.objects.filter(battle=battle).select_related("proposed_by")
    ]
