"""Writes of the retreat after a battle (S10, R1–R6): the commander's choice, the default at the deadline,
and the support points the winner gains (R6).

The pure engine (``combat.retreat``) decides what is legal and what each choice does; these services check
who asks, lock the rows, execute the engine's result on the database and log every step (M3).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid, ServiceError, refusal_of
from campaign.messages import NEEDS_LOGIN, NEEDS_MODERATOR
from campaign.models import Campaign
from campaign.permissions import Actor
from campaign.refusals import sentence
from campaign.services import log_append
from combat.errors import IllegalAction, InvalidAction
from combat.politics import SupportChange
from combat.retreat.apply import apply_retreat
from combat.retreat.model import RetreatChoice, RetreatOptions, RetreatResult
from strategic.messages import (
    NEEDS_RETREAT_COMMANDER,
    NO_WINNER,
    NOT_RETREATING,
    RETREAT_MALFORMED,
    RETREAT_REFUSED,
    RETREAT_TIME_UP,
    SUPPORT_SPLIT,
)
from strategic.models import Army, Battle, Province, RetreatRecord, SupportPoints, Unit
from strategic.selectors.retreats import (
    PendingRetreat,
    armies_to_retreat,
    pending_retreat,
    plain_ids,
    retreat_battle_of,
    retreat_deadline,
    unit_key,
)
from strategic.services.battles import province_capture_if_clear

log = logging.getLogger(__name__)



def _require_login(actor: Actor) -> None:
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)


def default_choice(options: RetreatOptions, units_by_health: list[str]) -> RetreatChoice:
    """R1 default: the nearest destination with the least penalty (ties by province code), else the first
    friendly port, else as many units as fit into the fortress city (the healthiest), else nothing (R1.4).

    ``units_by_health`` lists the army's unit ids, healthiest first.
    """
    if options.routes:
        best = min(options.routes, key=lambda r: (r.penalty, len(r.path), r.destination, r.path))
        return RetreatChoice(route=best.path)
    if options.sea is not None:
        return RetreatChoice(sea_port=options.sea.ports[0])
    if options.fortress is not None:
        return RetreatChoice(fortress_units=tuple(units_by_health[: options.fortress.room]))
    return RetreatChoice()


def _ids(values: Iterable[Any]) -> tuple[str, ...]:
    return tuple(unit_key(v) if str(v).isdigit() else str(v) for v in values)


@transaction.atomic
def retreat_choose(*, actor: Actor, army: Army, route: Iterable[str] = (), sea_port: str | None = None,
                   fortress_units: Iterable[Any] = (), sea_units: Iterable[Any] = (),
                   lost_units: Iterable[Any] = ()) -> RetreatRecord:
    """R1–R5: apply the retreating commander's choice (route by province codes, units by id).

    Refused with 403 for anyone but the army's commander, its leader or a moderator; 409 naming the rule
    when the engine forbids the choice or the deadline has passed; 400 when the choice is malformed.
    """
    _require_login(actor)
    campaign = Campaign.objects.select_for_update().get(pk=army.campaign_id)
    army = Army.objects.select_for_update().select_related("faction", "commander", "campaign").get(pk=army.pk)
    if not permissions.can_command_army(actor, army):
        raise Forbidden(NEEDS_RETREAT_COMMANDER)
    pending = pending_retreat(army=army)
    if pending is None:
        raise Conflict(NOT_RETREATING, rule="S10")
    if pending.is_overdue:
        raise Conflict(RETREAT_TIME_UP, rule="R1")
    choice = RetreatChoice(route=tuple(route), sea_port=sea_port or None, fortress_units=_ids(fortress_units),
                           sea_units=_ids(sea_units), lost_units=_ids(lost_units))
    return _apply(campaign=campaign, pending=pending, choice=choice, actor=actor, defaulted=False)


@transaction.atomic
def retreat_expire(*, army_id: int, now: datetime | None = None) -> RetreatRecord | None:
    """Apply the default retreat of an army whose deadline has passed; None when there is nothing to do.

    Idempotent: the army row is locked and ``must_retreat`` read under the lock.
    """
    army = Army.objects.filter(pk=army_id).first()
    if army is None:
        return None
    campaign = Campaign.objects.select_for_update().get(pk=army.campaign_id)
    army = Army.objects.select_for_update().select_related("faction", "commander", "campaign").get(pk=army_id)
    pending = pending_retreat(army=army)
    if pending is None or pending.deadline > (now or timezone.now()):
        return None
    units = sorted(pending.inp.units, key=lambda u: (-u.health, u.id))
    choice = default_choice(pending.options, [u.id for u in units])
    return _apply(campaign=campaign, pending=pending, choice=choice, actor=None, defaulted=True)


def retreat_sweep(*, now: datetime | None = None) -> int:
    """Apply the default to every overdue retreat (a lost deadline task); returns how many were applied."""
    now = now or timezone.now()
    applied = 0
    for army in armies_to_retreat():
        battle = retreat_battle_of(army=army)
        # Cheap check first: only overdue retreats take the campaign's lock.
        if battle is None or retreat_deadline(campaign=army.campaign, battle=battle) > now:
            continue
        try:
            if retreat_expire(army_id=army.pk, now=now) is not None:
                applied += 1
        except ServiceError:
            log.exception("could not apply the default retreat of army %s", army.pk)
    return applied


def _engine_error(exc: IllegalAction | InvalidAction, names: dict[str, str]) -> ServiceError:
    """The engine's refusal (409) or its malformed-input message (400) in the reader's language, with
    ``refusal`` (its code and params) in the API's answer."""
    if isinstance(exc, IllegalAction):
        return Conflict(RETREAT_REFUSED, params={"rule": exc.rule, "reason": sentence(exc, names)}, rule=exc.rule,
                        refusal=refusal_of(exc, plain_units=True))
    return Invalid(RETREAT_MALFORMED, params={"field": exc.field, "message": sentence(exc, names)}, field="choice",
                   refusal=refusal_of(exc, plain_units=True))


def _engine_names(campaign: Campaign, exc: IllegalAction | InvalidAction) -> dict[str, str]:
    """The engine names provinces by code and units by padded id: the reader sees their names (a unit of
    no army of this campaign by its plain id)."""
    names = {p.code: p.name for p in Province.objects.filter(campaign=campaign)}
    unit = str(exc.params.get("unit", ""))
    if unit.isdigit():
        found = Unit.objects.filter(campaign=campaign, pk=int(unit)).select_related("unit_type").first()
        names[unit] = str(found) if found is not None else str(int(unit))
    return names


def _rule_of(kind: str) -> str:
    if kind.endswith("destroyed"):
        return "R1.4"
    if kind.endswith("sea"):
        return "R5"
    if kind == "fortress":
        return "R3"
    return "R1"


def _apply(*, campaign: Campaign, pending: PendingRetreat, choice: RetreatChoice, actor: Actor | None,
           defaulted: bool) -> RetreatRecord:
    try:
        result = apply_retreat(pending.inp, choice)
    except (IllegalAction, InvalidAction) as exc:
        raise _engine_error(exc, _engine_names(campaign, exc)) from exc
    army, battle = pending.army, pending.battle
    name, army_id = army.name, army.pk
    provinces = {p.code: p for p in Province.objects.filter(campaign=campaign)}
    lost_in_battle = _lost_in_battle(battle, army)
    allied_moves = _execute(campaign=campaign, army=army, battle=battle, result=result, provinces=provinces)
    entry_data = {
        "army": army_id, "name": name, "faction": army.faction_id, "battle": battle.pk, "kind": result.kind,
        "province": battle.province.code, "path": list(result.path), "to": result.destination,
        "defaulted": defaulted, "choice": _choice_dict(choice), "result": plain_ids(result.to_dict()),
    }
    log_append(campaign=campaign, kind="retreat_applied", actor=actor, rule=_rule_of(result.kind), data=entry_data,
               reason="R1: deadline passed" if defaulted else "")
    if result.swept_units:
        log_append(campaign=campaign, kind="retreat_swept", actor=actor, rule="R2",
                   data={"army": army_id, "name": name, "units": [int(u.id) for u in result.swept_units]})
    for data in allied_moves:
        log_append(campaign=campaign, kind="retreat_swept_allied", actor=actor, rule="R2", data=data)
    if result.lost_units:
        log_append(campaign=campaign, kind="retreat_penalty", actor=actor, rule="R4",
                   data={"army": army_id, "name": name, "penalty": result.penalty,
                         "units": [int(u.id) for u in result.lost_units]})
    destroyed = army.pk is None
    if result.kind.endswith("destroyed") or (destroyed and not result.fortress_units):
        commander = army.commander
        commander.displaced = True
        commander.save(update_fields=["displaced"])
        capital = Province.objects.filter(capital_of_id=army.faction_id).values_list("code", flat=True).first()
        log_append(campaign=campaign, kind="army_destroyed", actor=actor, rule="R1.4",
                   data={"name": name, "faction": army.faction_id, "commander": commander.pk,
                         "capital": capital, "units": [int(u.id) for u in result.destroyed_units],
                         "reason": result.reason or ""})
    record = RetreatRecord.objects.create(
        campaign=campaign, battle=battle, army=None if destroyed else army, army_name=name,
        faction_id=army.faction_id, side=pending.side, kind=result.kind,
        destination=provinces.get(result.destination or ""), choice=_choice_dict(choice),
        result=plain_ids(result.to_dict()),
        defaulted=defaulted, chosen_by=actor if actor is not None else None, units_lost=result.units_lost,
        lost_in_battle=lost_in_battle,
    )
    _support(campaign=campaign, record=record, battle=battle, actor=actor)
    capture_after_retreat(campaign=campaign, battle=battle, actor=actor)
    return record


def _choice_dict(choice: RetreatChoice) -> dict[str, Any]:
    def ids(values: tuple[str, ...]) -> list[Any]:
        return [int(v) if v.isdigit() else v for v in values]

    return {"route": list(choice.route), "sea_port": choice.sea_port, "fortress_units": ids(choice.fortress_units),
            "sea_units": ids(choice.sea_units), "lost_units": ids(choice.lost_units)}


def _lost_in_battle(battle: Battle, army: Army) -> int:
    """Units of this army the battle removed: routed on the tactical map, or lost in a quick battle."""
    result = battle.result or {}
    routed = sum(1 for r in result.get("routed", []) if isinstance(r, dict) and r.get("army") == army.pk)
    return routed + int((result.get("lost_by_army") or {}).get(str(army.pk), 0))


def _execute(*, campaign: Campaign, army: Army, battle: Battle, result: RetreatResult,
             provinces: dict[str, Province]) -> list[dict[str, Any]]:
    """The engine's result on the map; returns what became of each group of allied units swept up (R2)."""
    # Where the swept units came from, read before the penalties delete any of them.
    swept_from = {pk: (army_id, faction_id) for pk, army_id, faction_id in Unit.objects.filter(
        pk__in=[int(u.id) for u in result.swept_units]).values_list("pk", "army_id", "faction_id")}
    gone = [int(u.id) for u in (*result.lost_units, *result.destroyed_units)]
    Unit.objects.filter(pk__in=gone).delete()
    if result.fortress_units:
        Unit.objects.filter(pk__in=[int(u.id) for u in result.fortress_units]).update(
            army=None, province=battle.province, in_fortress=True)
    swept = [int(u.id) for u in result.swept_units if not u.faction]
    if swept:
        sources = {swept_from[pk][0] for pk in swept if swept_from[pk][0] is not None}
        Unit.objects.filter(pk__in=swept).update(army=army, province=None, in_fortress=False)
        for source in Army.objects.filter(pk__in=sources).exclude(pk=army.pk):
            if not source.units.exists():
                log_append(campaign=campaign, kind="army_dissolved", rule="R2",
                           data={"army": source.pk, "name": source.name, "into": army.pk})
                source.delete()
    allied = [int(u.id) for u in result.swept_units if u.faction]
    allied_moves = []
    if allied and result.destination:
        allied_moves = _allied_follow(army=army, units={pk: swept_from[pk] for pk in allied}, lost=set(gone),
                                      destination=provinces[result.destination])
    if not army.units.exists():
        army.delete()
        return allied_moves
    if result.destination and result.destination != battle.province.code:
        army.province = provinces[result.destination]
    army.must_retreat = False
    army.version += 1
    army.save(update_fields=["province", "must_retreat", "version"])
    return allied_moves


def _allied_follow(*, army: Army, units: dict[int, tuple[int | None, int]], lost: set[int],
                   destination: Province) -> list[dict[str, Any]]:
    """R2: allied units swept up stay their faction's. Each allied army goes to the destination whole, under
    its own commander; loose allied units stand there loose; an allied army the penalties emptied is gone.
    Returns the log data of each group."""
    moves = []
    groups: dict[tuple[int | None, int], list[int]] = {}
    for pk, source in sorted(units.items()):
        groups.setdefault(source, []).append(pk)
    allied_armies = Army.objects.in_bulk([a for a, _f in groups if a is not None])
    for (source_id, faction_id), pks in sorted(groups.items(), key=lambda g: (g[0][1], g[0][0] or 0)):
        arrived = [pk for pk in pks if pk not in lost]
        source = allied_armies.get(source_id) if source_id is not None else None
        data: dict[str, Any] = {"army": army.pk, "name": army.name, "faction": faction_id, "to": destination.code,
                                "units": arrived, "lost": sorted(lost.intersection(pks)),
                                "allied_army": source_id, "allied_name": source.name if source else ""}
        if source is None:
            Unit.objects.filter(pk__in=arrived).update(province=destination, in_fortress=False)
        elif source.units.exists():
            source.province = destination
            source.version += 1
            source.save(update_fields=["province", "version"])
        else:
            source.delete()
        moves.append(data)
    return moves


def _loser_factions(battle: Battle) -> set[int]:
    loser = Battle.Side.DEFENDER if battle.winner == Battle.Side.ATTACKER else Battle.Side.ATTACKER
    own = battle.attacker_faction_id if loser == Battle.Side.ATTACKER else battle.defender_faction_id
    return {own, *battle.supports.filter(side=loser).values_list("army__faction_id", flat=True)}


def _battle_losses(battle: Battle) -> int:
    """Units the losing side lost in the battle itself (routed on the tactical map, or in a quick battle)."""
    losers = _loser_factions(battle)
    result = battle.result or {}
    routed = sum(1 for r in result.get("routed", []) if isinstance(r, dict) and r.get("faction") in losers)
    quick = sum(int(n) for f, n in (result.get("lost_by_faction") or {}).items() if int(f) in losers)
    return routed + quick


def _support(*, campaign: Campaign, record: RetreatRecord, battle: Battle, actor: Actor | None) -> None:
    """R6: the winner gains half, rounded up, of every unit the losing side lost in the battle and in its
    retreats; each retreat adds what the total has grown by. By default the winner adds the points for
    itself; a moderator may move some to removing the loser's (``retreat_support_set``)."""
    if not battle.winner:
        return
    winner_id = battle.attacker_faction_id if battle.winner == Battle.Side.ATTACKER else battle.defender_faction_id
    if winner_id == record.faction_id:
        return
    records = RetreatRecord.objects.filter(battle=battle)
    in_battle = _battle_losses(battle)
    in_retreats = sum(r.units_lost for r in records)
    change = SupportChange(army_units=in_battle + in_retreats, lost_in_battle=in_battle,
                           lost_in_retreat=in_retreats, lost_to_events=0)
    awarded = sum(r.support_points for r in records.exclude(pk=record.pk))
    points = max(0, change.points - awarded)
    record.winner_id = winner_id
    record.support_points = points
    record.support_added = points
    record.save(update_fields=["winner", "support_points", "support_added"])
    if points:
        row, _created = SupportPoints.objects.select_for_update().get_or_create(
            province=battle.province, faction_id=winner_id)
        row.points += points
        row.save(update_fields=["points"])
    log_append(campaign=campaign, kind="support_points", actor=actor, rule="R6",
               data={"battle": battle.pk, "province": battle.province.code, "faction": winner_id,
                     "loser": record.faction_id, "added": points, "removed": 0, "before": awarded,
                     **change.to_dict()})


def capture_after_retreat(*, campaign: Campaign, battle: Battle, actor: Actor | None) -> None:
    """S10: once the beaten defenders have left, the attacker's army standing there captures the province."""
    if battle.winner != Battle.Side.ATTACKER or battle.attacker_army_id is None:
        return
    attacker = Army.objects.filter(pk=battle.attacker_army_id, province_id=battle.province_id).select_related(
        "faction").first()
    if attacker is None or not attacker.units.exists():
        return
    if Army.objects.filter(province_id=battle.province_id, must_retreat=True).exists():
        return
    province_capture_if_clear(campaign=campaign, province=battle.province, faction=attacker.faction, actor=actor,
                              data={"battle": battle.pk, "army": attacker.pk})


@transaction.atomic
def retreat_support_set(*, actor: Actor, record: RetreatRecord, removed: int) -> RetreatRecord:
    """R6, the moderator's choice: of the points won, ``removed`` are taken from the loser, the rest added."""
    _require_login(actor)
    campaign = Campaign.objects.select_for_update().get(pk=record.campaign_id)
    if not permissions.can_moderate(actor, campaign):
        raise Forbidden(NEEDS_MODERATOR)
    record = RetreatRecord.objects.select_for_update().select_related("battle__province").get(pk=record.pk)
    if record.winner_id is None:
        raise Conflict(NO_WINNER, rule="R6")
    if not 0 <= removed <= record.support_points:
        raise Invalid(SUPPORT_SPLIT, params={"points": record.support_points}, field="removed", rule="R6")
    province = record.battle.province
    added = record.support_points - removed
    winner_row, _c = SupportPoints.objects.select_for_update().get_or_create(province=province,
                                                                            faction_id=record.winner_id)
    winner_row.points = max(0, winner_row.points - record.support_added + added)
    winner_row.save(update_fields=["points"])
    loser_row, _c = SupportPoints.objects.select_for_update().get_or_create(province=province,
                                                                           faction_id=record.faction_id)
    # Points taken before are given back first, then the new number is taken (never below zero).
    loser_row.points = max(0, loser_row.points + record.support_removed - removed)
    loser_row.save(update_fields=["points"])
    log_append(campaign=campaign, kind="support_points_changed", actor=actor, rule="R6",
               data={"battle": record.battle_id, "province": province.code, "faction": record.winner_id,
                     "loser": record.faction_id, "added": added, "removed": removed,
                     "before_added": record.support_added, "before_removed": record.support_removed})
    record.support_added, record.support_removed = added, removed
    record.save(update_fields=["support_added", "support_removed"])
    return record
