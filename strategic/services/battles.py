"""Writes of the strategic stage about battles: support (S8), the start on the tactical map, results (S10)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid
from campaign.models import Campaign, Faction, Relation
from campaign.permissions import Actor
from campaign.selectors import relation_kind, relations_map
from campaign.services import log_append
from strategic.messages import (
    ALREADY_DEFENDS,
    ALREADY_SUPPORTS,
    ATTACKER_SUPPORTS_ITSELF,
    BAD_SIDE,
    BAD_UNIT_CHANGE,
    BATTLE_RESOLVED,
    BATTLE_STARTED,
    MUST_RETREAT,
    NEEDS_COMMANDER,
    NOT_FRIENDLY_SIDE,
    NOT_IN_CAMPAIGN,
    TOO_FAR,
)
from strategic.models import Army, Battle, BattleSupport, Border, Province, Unit
from strategic.selectors.map import border_between, units_in_province
from strategic.services.locks import lock_armies, lock_campaign, require_login, touch
from strategic.services.retreat_deadlines import retreat_deadlines_schedule


@dataclass(frozen=True)
class UnitChange:
    """A unit's state after a battle (S10): health in half lines, arrows, and whether it was routed."""

    unit_id: int
    health_halves: int
    arrows: int | None = None
    routed: bool = False


@transaction.atomic
def battle_support_declare(*, actor: Actor, battle: Battle, army: Army, side: str) -> BattleSupport:
    """S8: an allied army declares support before the battle starts.

    From the battle's province it may support the attack and loses its own move; from an adjacent
    province it may support either side and arrives as reinforcements (T9.6).
    """
    require_login(actor)
    campaign = lock_campaign(battle.campaign_id)
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if army.campaign_id != campaign.pk:
        raise Invalid(NOT_IN_CAMPAIGN, field="army")
    (army,) = lock_armies(army)
    if not permissions.can_command_army(actor, army):
        raise Forbidden(NEEDS_COMMANDER)
    if side not in Battle.Side.values:
        raise Invalid(BAD_SIDE, field="side")
    if battle.status != Battle.Status.PENDING:
        raise Conflict(BATTLE_STARTED, rule="S8")
    if army.pk == battle.attacker_army_id:
        raise Invalid(ATTACKER_SUPPORTS_ITSELF, field="army", rule="S8")
    if BattleSupport.objects.filter(battle=battle, army=army).exists():
        raise Conflict(ALREADY_SUPPORTS, field="army", rule="S8")
    side_faction = battle.attacker_faction if side == Battle.Side.ATTACKER else battle.defender_faction
    if relation_kind(campaign=campaign, a=army.faction, b=side_faction) != Relation.Kind.ALLIED:
        raise Invalid(NOT_FRIENDLY_SIDE, field="army", rule="S8")
    if army.must_retreat:
        raise Conflict(MUST_RETREAT, field="army", rule="S10")
    in_province = army.province_id == battle.province_id
    if in_province:
        if side == Battle.Side.DEFENDER:
            raise Invalid(ALREADY_DEFENDS, field="side", rule="S8")
        # The move it gives up is this turn's unless its faction has already acted this turn.
        acted = army.faction.passed_turn is not None and army.faction.passed_turn >= campaign.turn
        army.moved_turn = campaign.turn + 1 if acted else campaign.turn
        touch(army)
    else:
        border = border_between(a=army.province, b=battle.province)
        if border is None or border.kind == Border.Kind.IMPASSABLE:
            raise Invalid(TOO_FAR, field="army", rule="S8")
    support = BattleSupport.objects.create(battle=battle, army=army, side=side, from_adjacent=not in_province)
    log_append(
        campaign=campaign,
        kind="support_declared",
        actor=actor,
        rule="S8",
        data={
            "battle": battle.pk,
            "army": army.pk,
            "faction": army.faction_id,
            "side": side,
            "from_adjacent": not in_province,
            "moved_turn": army.moved_turn if in_province else None,
        },
    )
    return support


@transaction.atomic
def battle_tactical_start(*, actor: Actor, battle: Battle) -> Battle:
    """The battle goes to the tactical map: no more support may be declared (S8)."""
    campaign = lock_campaign(battle.campaign_id)
    battle = Battle.objects.select_for_update().get(pk=battle.pk)
    if battle.status != Battle.Status.PENDING:
        raise Conflict(BATTLE_STARTED, rule="S8")
    battle.status = Battle.Status.TACTICAL
    battle.save(update_fields=["status"])
    log_append(campaign=campaign, kind="battle_started", actor=actor, rule="S8", data={"battle": battle.pk})
    return battle


def _side_factions(campaign: Campaign, battle: Battle, side: str) -> set[int]:
    """The factions fighting on a side: its own faction and the factions of its declared supporters."""
    own = battle.attacker_faction_id if side == Battle.Side.ATTACKER else battle.defender_faction_id
    supporters = set(battle.supports.filter(side=side).values_list("army__faction_id", flat=True))
    return {own, *supporters}


@transaction.atomic
def province_capture_if_clear(
    *,
    campaign: Campaign,
    province: Province,
    faction: Faction,
    actor: Actor | None = None,
    rule: str = "S10",
    data: dict[str, Any] | None = None,
) -> bool:
    """Give the province to ``faction`` if no units of a faction at war with it stand there (S6, S10)."""
    relations = relations_map(campaign=campaign)
    present = set(units_in_province(province=province).values_list("faction_id", flat=True))
    if any(relations.get((faction.pk, other)) == Relation.Kind.WAR for other in present):
        return False
    province = Province.objects.select_for_update().get(pk=province.pk)
    if province.controller_id == faction.pk:
        return False
    before = province.controller_id
    province.controller = faction
    province.save(update_fields=["controller"])
    log_append(
        campaign=campaign,
        kind="province_captured",
        actor=actor,
        rule=rule,
        data={"province": province.code, "faction": faction.pk, "before": before, **(data or {})},
    )
    return True


@transaction.atomic
def battle_result_apply(
    *,
    battle: Battle,
    winner: str,
    unit_changes: Iterable[UnitChange],
    actor: Actor | None = None,
    result: dict[str, Any] | None = None,
    reason: str = "",
) -> Battle:
    """S10: apply a finished battle: units' health and arrows, routed units removed, the winner, the capture
    when the defender lost and no enemy units remain, and the losing armies marked ``must_retreat`` with
    their deadline task queued on commit (R1)."""
    campaign, battle, changes, units = _result_check(battle=battle, winner=winner, unit_changes=unit_changes)
    routed, changed = _units_change(changes=changes, units=units)
    battle.winner = winner
    battle.status = Battle.Status.RESOLVED
    battle.resolved_at = timezone.now()
    battle.result = {**(result or {}), "units": changed, "routed": routed}
    battle.save(update_fields=["winner", "status", "resolved_at", "result"])

    retreating = _losers_retreat(campaign=campaign, battle=battle, winner=winner)
    log_append(
        campaign=campaign,
        kind="battle_resolved",
        actor=actor,
        rule="S10",
        reason=reason,
        data={
            "battle": battle.pk,
            "winner": winner,
            "units": changed,
            "routed": routed,
            "must_retreat": retreating,
        },
    )
    if winner == Battle.Side.ATTACKER and battle.attacker_army_id is not None:
        _attacker_capture(campaign=campaign, battle=battle, actor=actor)
    return battle


def _result_check(
    *, battle: Battle, winner: str, unit_changes: Iterable[UnitChange]
) -> tuple[Campaign, Battle, list[UnitChange], dict[int, Unit]]:
    """Under the locks: a battle not yet resolved, a known winner, only units that fought in it (S10)."""
    campaign = lock_campaign(battle.campaign_id)
    battle = Battle.objects.select_for_update(of=("self",)).select_related("province").get(pk=battle.pk)
    if battle.status == Battle.Status.RESOLVED:
        raise Conflict(BATTLE_RESOLVED, rule="S10")
    if winner not in Battle.Side.values:
        raise Invalid(BAD_SIDE, field="winner")
    changes = list(unit_changes)
    fighting = _side_factions(campaign, battle, Battle.Side.ATTACKER) | _side_factions(
        campaign, battle, Battle.Side.DEFENDER
    )
    units = {u.pk: u for u in Unit.objects.select_for_update().filter(pk__in=[c.unit_id for c in changes])}
    for change in changes:
        unit = units.get(change.unit_id)
        if unit is None or unit.campaign_id != campaign.pk or unit.faction_id not in fighting:
            raise Invalid(BAD_UNIT_CHANGE, field="unit_changes", rule="S10")
    return campaign, battle, changes, units


def _units_change(
    *, changes: list[UnitChange], units: dict[int, Unit]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """S10: routed units are removed, the others get their health and arrows; returns both lists."""
    routed, changed = [], []
    for change in changes:
        unit = units[change.unit_id]
        if change.routed or change.health_halves <= 0:
            routed.append({"unit": unit.pk, "faction": unit.faction_id, "army": unit.army_id})
            unit.delete()
            continue
        unit.health_halves = change.health_halves
        if change.arrows is not None:
            unit.arrows = max(0, change.arrows)
        unit.save(update_fields=["health_halves", "arrows"])
        changed.append({"unit": unit.pk, "health_halves": unit.health_halves, "arrows": unit.arrows})
    return routed, changed


def _losers_retreat(*, campaign: Campaign, battle: Battle, winner: str) -> list[int]:
    """R1: the losing armies that still have units must retreat; their deadline is queued on commit."""
    loser = Battle.Side.DEFENDER if winner == Battle.Side.ATTACKER else Battle.Side.ATTACKER
    if loser == Battle.Side.ATTACKER:
        losing = Army.objects.filter(pk=battle.attacker_army_id) | Army.objects.filter(
            supports__battle=battle, supports__side=loser, supports__from_adjacent=False
        )
    else:
        losing = Army.objects.filter(
            province=battle.province, faction_id__in=_side_factions(campaign, battle, loser)
        ).exclude(supports__battle=battle, supports__side=winner)
    retreating = sorted({a.pk for a in losing.distinct() if a.units.exists()})
    Army.objects.filter(pk__in=retreating).update(must_retreat=True)
    retreat_deadlines_schedule(campaign=campaign, battle=battle, army_ids=retreating)
    return retreating


def _attacker_capture(*, campaign: Campaign, battle: Battle, actor: Actor) -> None:
    """S10: the winning attacker's army, if it still has units, takes the province when no enemy is left."""
    attacker = Army.objects.get(pk=battle.attacker_army_id)
    if attacker.units.exists():
        province_capture_if_clear(
            campaign=campaign,
            province=battle.province,
            faction=attacker.faction,
            actor=actor,
            data={"battle": battle.pk, "army": attacker.pk},
        )
