"""The moderator resolves a pending battle by the quick contest (Q1–Q7) with verifiable dice (M2).

The server draws a secret seed with ``secrets``, stores and logs its SHA-256 commitment before the first
die, rolls every die with ``SeededDice``, logs each roll, applies the units' outcomes on the map (Q7),
records the winner and the next-day Morale on the armies, gathers the beaten units into retreats (R),
captures the defending commander on an overwhelming victory of the attacker (Q5 17+,
``services.captives``) and reveals the seed.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid, refusal_of
from campaign.messages import NEEDS_LOGIN, NEEDS_MODERATOR
from campaign.models import Campaign, Commander
from campaign.permissions import Actor
from campaign.refusals import sentence
from campaign.services import log_append
from combat.dice import SeededDice, seed_commitment
from combat.errors import IllegalAction, InvalidAction
from combat.quick.model import Commander as QuickCommander
from combat.quick.model import QuickBattle, QuickResult, QuickSide, QuickUnit, UnitOutcome
from combat.quick.resolve import resolve_quick_battle
from combat.retreat.routes import retreat_options
from strategic.messages import (
    QUICK_BAD_SKILL,
    QUICK_MALFORMED,
    QUICK_NO_ATTACKER,
    QUICK_NO_COMMANDER,
    QUICK_NOT_PENDING,
    QUICK_REFUSED,
    STORM_NEEDS_SIEGE,
)
from strategic.models import Army, Battle, QuickBattleRecord, Unit
from strategic.selectors.retreats import plain_ids, retreat_input, unit_key
from strategic.services.captives import commander_capture
from strategic.services.retreat_deadlines import retreat_deadlines_schedule
from strategic.services.retreats import capture_after_retreat

# Q1: the engine contests with Tactics below this many men; the moderator's choice is passed as a count.
MEN_FOR_SKILL = {QuickBattleRecord.Skill.STRATEGY: 200, QuickBattleRecord.Skill.TACTICS: 199}


def _side_units(battle: Battle) -> tuple[list[Unit], list[Unit]]:
    attack_armies = {battle.attacker_army_id} | set(
        battle.supports.filter(side=Battle.Side.ATTACKER).values_list("army_id", flat=True))
    defend_armies = set(battle.supports.filter(side=Battle.Side.DEFENDER).values_list("army_id", flat=True))
    units = Unit.objects.select_for_update(of=("self",)).select_related("unit_type", "army").order_by("pk")
    attackers = list(units.filter(army_id__in=attack_armies))
    in_province = units.filter(faction_id=battle.defender_faction_id).filter(
        army__province_id=battle.province_id) | units.filter(
        faction_id=battle.defender_faction_id, province_id=battle.province_id)
    defenders = {u.pk: u for u in in_province}
    defenders.update({u.pk: u for u in units.filter(army_id__in=defend_armies)})
    return attackers, [defenders[k] for k in sorted(defenders)]


def _main_defender(battle: Battle) -> Army | None:
    armies = Army.objects.filter(province_id=battle.province_id, faction_id=battle.defender_faction_id)
    ranked = sorted(armies.select_related("commander"), key=lambda a: (-a.units.count(), a.pk))
    return ranked[0] if ranked else None


def _quick_side(commander: Commander, units: list[Unit], morale_modifier: int, nowhere: bool) -> QuickSide:
    return QuickSide(
        commander=QuickCommander(commander.name, commander.strategy, commander.tactics, commander.has_luck),
        units=tuple(QuickUnit(unit_key(u.pk), u.unit_type.morale, u.health) for u in units),
        morale_modifier=morale_modifier, nowhere_to_retreat=nowhere,
    )


def _nowhere_to_retreat(army: Army | None, battle: Battle) -> bool:
    """Q5 footnote: the defending army could not retreat (R1.4); loose units and garrisons never can."""
    if army is None or not army.units.exists():
        return True
    return retreat_options(retreat_input(army=army, battle=battle, side=Battle.Side.DEFENDER)).is_destroyed


@dataclass(frozen=True)
class _Sides:
    """Who fights (Q1): the attacking army, the units of each side, the main defending army and its leader."""

    attacker: Army
    attack_units: list[Unit]
    defend_units: list[Unit]
    defender_army: Army | None
    commander: Commander

    @property
    def captive(self) -> Commander | None:
        """The commander a Q5 17+ takes: only one who stood in the battle with his army."""
        # Q5 17+ captures the commander who stood in the battle; a leader who only lent his Strategy to loose
        # units or a garrison is elsewhere and cannot be taken.
        return self.commander if self.defender_army is not None else None

    def units(self) -> dict[str, Unit]:
        """Every unit of the battle by its engine key, attackers first."""
        return {unit_key(u.pk): u for u in (*self.attack_units, *self.defend_units)}


@transaction.atomic
def quick_battle_resolve(*, actor: Actor, battle: Battle, skill: str, open_field: bool = False, siege: bool = False,
                         storm: bool = False, seed: bytes | None = None) -> QuickBattleRecord:
    """Q1–Q7: resolve a pending battle by the commanders' contest and apply it on the map (moderator).

    ``seed`` is for tests and replays only; the server otherwise draws it with ``secrets``.
    """
    campaign, battle, attacker = _quick_check(actor=actor, battle=battle, skill=skill, siege=siege,
                                              storm=storm)
    sides = _quick_sides(battle=battle, attacker=attacker)
    quick = _quick_input(campaign=campaign, battle=battle, sides=sides, skill=skill, open_field=open_field,
                         siege=siege, storm=storm)
    seed = seed if seed is not None else secrets.token_bytes(32)
    record = _quick_begin(actor=actor, campaign=campaign, battle=battle, skill=skill, open_field=open_field,
                          siege=siege, storm=storm, seed=seed)
    result = _quick_adjudicate(quick=quick, seed=seed, sides=sides)
    _rolls_log(actor=actor, campaign=campaign, battle=battle, result=result)
    units = sides.units()
    retreating, lost_by_army = _apply_outcomes(campaign=campaign, battle=battle, result=result, units=units,
                                               actor=actor)
    _battle_resolved(battle=battle, sides=sides, record=record, result=result, units=units,
                     lost_by_army=lost_by_army)
    _seed_reveal(record=record, seed=seed, result=result, units=units)
    _resolved_log(actor=actor, campaign=campaign, battle=battle, record=record, result=result,
                  retreating=retreating)
    _quick_after(actor=actor, campaign=campaign, battle=battle, sides=sides, result=result,
                 retreating=retreating)
    return record


def _quick_check(*, actor: Actor, battle: Battle, skill: str, siege: bool,
                 storm: bool) -> tuple[Campaign, Battle, Army]:
    """The guards under the campaign's and the battle's locks: a moderator, a pending battle, an attacker."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)
    campaign = Campaign.objects.select_for_update().get(pk=battle.campaign_id)
    if not permissions.can_moderate(actor, campaign):
        raise Forbidden(NEEDS_MODERATOR)
    if skill not in QuickBattleRecord.Skill.values:
        raise Invalid(QUICK_BAD_SKILL, field="skill", rule="Q1")
    if storm and not siege:
        raise Invalid(STORM_NEEDS_SIEGE, field="storm", rule="Q6")
    battle = Battle.objects.select_for_update(of=("self",)).select_related(
        "province", "origin", "attacker_army__commander").get(pk=battle.pk)
    if battle.status != Battle.Status.PENDING:
        raise Conflict(QUICK_NOT_PENDING, rule="S10")
    attacker = battle.attacker_army
    if attacker is None or not attacker.units.exists():
        raise Conflict(QUICK_NO_ATTACKER, rule="S7")
    return campaign, battle, attacker


def _quick_sides(*, battle: Battle, attacker: Army) -> _Sides:
    """Q1: the units of each side, locked, and the commander of the defence; refused when there is none."""
    attack_units, defend_units = _side_units(battle)
    defender_army = _main_defender(battle)
    commander = defender_army.commander if defender_army is not None else battle.defender_faction.leader
    if commander is None:
        raise Conflict(QUICK_NO_COMMANDER, rule="Q1")
    return _Sides(attacker, attack_units, defend_units, defender_army, commander)


def _quick_input(*, campaign: Campaign, battle: Battle, sides: _Sides, skill: str, open_field: bool,
                 siege: bool, storm: bool) -> QuickBattle:
    """The battle as the engine takes it: both sides, the men that choose the skill (Q1), the field (Q6)."""
    attacker, defender_army = sides.attacker, sides.defender_army
    return QuickBattle(
        attacker=_quick_side(attacker.commander, sides.attack_units, attacker.morale_penalty, False),
        defender=_quick_side(sides.commander, sides.defend_units,
                             defender_army.morale_penalty if defender_army else 0,
                             _nowhere_to_retreat(defender_army, battle)),
        men=MEN_FOR_SKILL[QuickBattleRecord.Skill(skill)], open_field=open_field, siege=siege, storm=storm,
        rout_health_loss=float(campaign.setting("rout_health_loss")),  # type: ignore[arg-type]
    )


def _quick_begin(*, actor: Actor, campaign: Campaign, battle: Battle, skill: str, open_field: bool, siege: bool,
                 storm: bool, seed: bytes) -> QuickBattleRecord:
    """M2: the record with the seed's commitment, logged before the first die is rolled."""
    record = QuickBattleRecord.objects.create(
        campaign=campaign, battle=battle, skill=skill, open_field=open_field, siege=siege, storm=storm,
        seed_commitment=seed_commitment(seed), created_by=actor,
    )
    log_append(campaign=campaign, kind="quick_battle_begun", actor=actor, rule="M2",
               data={"battle": battle.pk, "province": battle.province.code, "skill": skill,
                     "open_field": open_field, "siege": siege, "storm": storm,
                     "commitment": record.seed_commitment})
    return record


def _quick_adjudicate(*, quick: QuickBattle, seed: bytes, sides: _Sides) -> QuickResult:
    """The engine's ruling with the seeded dice; its refusals become the service's errors."""
    try:
        return resolve_quick_battle(quick, SeededDice(seed))
    except IllegalAction as exc:
        raise Conflict(QUICK_REFUSED, params={"rule": exc.rule, "reason": sentence(exc)}, rule=exc.rule,
                       refusal=refusal_of(exc, plain_units=True)) from exc
    except InvalidAction as exc:
        names = {unit_key(u.pk): str(u) for u in (*sides.attack_units, *sides.defend_units)}
        raise Invalid(QUICK_MALFORMED, params={"field": exc.field, "message": sentence(exc, names)},
                      refusal=refusal_of(exc, plain_units=True)) from exc


def _rolls_log(*, actor: Actor, campaign: Campaign, battle: Battle, result: QuickResult) -> None:
    """M2: every die the engine rolled, in order, one log entry each."""
    for number, roll in enumerate(result.rolls):
        log_append(campaign=campaign, kind="quick_battle_roll", actor=actor,
                   rule="Q1" if roll.purpose.startswith("contest") else "Q2",
                   data={"battle": battle.pk, "number": number, **_plain_roll(roll.to_dict())})


def _battle_resolved(*, battle: Battle, sides: _Sides, record: QuickBattleRecord, result: QuickResult,
                     units: dict[str, Unit], lost_by_army: dict[str, int]) -> None:
    """Q7: the next day's Morale on the armies, and the battle resolved with its winner and losses."""
    sides.attacker.refresh_from_db()
    _next_day(battle=battle, attacker=sides.attacker, result=result)
    captive = sides.captive
    battle.winner = result.winner or ""
    battle.status = Battle.Status.RESOLVED
    battle.resolved_at = timezone.now()
    battle.result = {"quick": True, "quick_battle": record.pk, "lost_by_army": lost_by_army,
                     "lost_by_faction": _lost_by_faction(result, units),
                     "winner": result.winner, "table": result.table.value, "band": result.band,
                     "margin": result.margin,
                     "captured_commander": captive.pk if captive and result.commander_captured else None}
    battle.save(update_fields=["winner", "status", "resolved_at", "result"])


def _seed_reveal(*, record: QuickBattleRecord, seed: bytes, result: QuickResult,
                 units: dict[str, Unit]) -> None:
    """M2: the record gets the seed and the whole result, each unit named beside its id."""
    record.seed = seed.hex()
    record.result = _named(plain_ids({**result.to_dict(), "rolls": [_plain_roll(r.to_dict()) for r in result.rolls]}),
                           {u.pk: str(u) for u in units.values()})
    record.save(update_fields=["seed", "result"])


def _resolved_log(*, actor: Actor, campaign: Campaign, battle: Battle, record: QuickBattleRecord,
                  result: QuickResult, retreating: set[int]) -> None:
    """Q7: the log entry of the outcome, with the seed revealed beside its commitment (M2)."""
    log_append(campaign=campaign, kind="quick_battle_resolved", actor=actor, rule="Q7",
               data={"battle": battle.pk, "province": battle.province.code, "winner": result.winner or "",
                     "table": result.table.value, "band": result.band, "margin": result.margin,
                     "result": result.result, "attacker_margin": result.attacker_margin,
                     "defender_margin": result.defender_margin, "must_retreat": sorted(retreating),
                     "seed": record.seed, "commitment": record.seed_commitment,
                     "next_day_morale": list(result.next_day_morale),
                     "commander_captured": result.commander_captured})


def _quick_after(*, actor: Actor, campaign: Campaign, battle: Battle, sides: _Sides, result: QuickResult,
                 retreating: set[int]) -> None:
    """Afterwards: the captive taken (Q5), the province taken once the beaten left (S10), deadlines (R)."""
    captive = sides.captive
    if captive is not None and result.commander_captured:
        commander_capture(campaign=campaign, commander=captive, captor_id=battle.attacker_faction_id,
                          battle=battle, actor=actor)
    capture_after_retreat(campaign=campaign, battle=battle, actor=actor)
    retreat_deadlines_schedule(campaign=campaign, battle=battle, army_ids=sorted(retreating))


def _apply_outcomes(*, campaign: Campaign, battle: Battle, result: QuickResult, units: dict[str, Unit],
                    actor: Actor) -> tuple[set[int], dict[str, int]]:
    """Q7 on the map; returns the armies that must retreat and the units each of them lost in the battle."""
    removed, going, thrown_back = _units_apply(battle=battle, result=result, units=units)
    lost_from = _units_remove(campaign=campaign, battle=battle, result=result, removed=removed, actor=actor)
    if thrown_back:
        _thrown_back(campaign=campaign, battle=battle, actor=actor)
    return _retreats_gather(campaign=campaign, going=going, lost_from=lost_from, actor=actor)


def _units_apply(*, battle: Battle, result: QuickResult,
                 units: dict[str, Unit]) -> tuple[list[Unit], dict[int, list[Unit]], bool]:
    """Q7 per unit: a rout costs health; returns the units lost, those leaving by army, and a throw-back."""
    removed: list[Unit] = []
    going: dict[int, list[Unit]] = {}
    thrown_back = False
    for unit_result in result.units:
        unit = units[unit_result.id]
        outcome = unit_result.outcome
        if unit_result.removed:
            removed.append(unit)
            continue
        if outcome is UnitOutcome.ROUT:
            unit.health_halves = int(unit_result.health_after * 2)
            unit.save(update_fields=["health_halves"])
        if outcome is UnitOutcome.THROWN_BACK and unit.army_id == battle.attacker_army_id:
            thrown_back = True
        # Units outside armies (garrisons) and supporters in their own province do not retreat with an army.
        if outcome in (UnitOutcome.RETREAT, UnitOutcome.ROUT) and unit.army is not None \
                and unit.army.province_id == battle.province_id:
            going.setdefault(unit.army_id, []).append(unit)  # type: ignore[arg-type]
    return removed, going, thrown_back


def _units_remove(*, campaign: Campaign, battle: Battle, result: QuickResult, removed: list[Unit],
                  actor: Actor) -> dict[int, int]:
    """Q7: the units lost leave the map, logged first; returns how many each army lost."""
    lost_from: dict[int, int] = {}
    for unit in removed:
        if unit.army_id is not None:
            lost_from[unit.army_id] = lost_from.get(unit.army_id, 0) + 1
    if removed:
        log_append(campaign=campaign, kind="quick_battle_units_lost", actor=actor, rule="Q7",
                   data={"battle": battle.pk, "units": [u.pk for u in removed],
                         "outcomes": {str(int(r.id)): r.outcome.value for r in result.units if r.removed}})
        Unit.objects.filter(pk__in=[u.pk for u in removed]).delete()
    return lost_from


def _thrown_back(*, campaign: Campaign, battle: Battle, actor: Actor) -> None:
    """Q4: the attacking army is thrown back to the province it came from."""
    Army.objects.filter(pk=battle.attacker_army_id).update(province=battle.origin)
    log_append(campaign=campaign, kind="quick_battle_thrown_back", actor=actor, rule="Q4",
               data={"battle": battle.pk, "army": battle.attacker_army_id, "to": battle.origin.code})


def _retreats_gather(*, campaign: Campaign, going: dict[int, list[Unit]], lost_from: dict[int, int],
                     actor: Actor) -> tuple[set[int], dict[str, int]]:
    """R: the armies that must retreat, in id order, and the units each of them lost (after splits)."""
    retreating: set[int] = set()
    lost_by_army: dict[str, int] = {}
    for army_id, leaving in sorted(going.items()):
        army = Army.objects.select_for_update().get(pk=army_id)
        army_id = _retreat_mark(campaign=campaign, army=army, leaving=leaving, actor=actor)
        retreating.add(army_id)
        lost = lost_from.pop(army.pk, 0)
        if lost:
            lost_by_army[str(army_id)] = lost
    for army_id, lost in lost_from.items():
        lost_by_army[str(army_id)] = lost_by_army.get(str(army_id), 0) + lost
    return retreating, lost_by_army


def _retreat_mark(*, campaign: Campaign, army: Army, leaving: list[Unit], actor: Actor) -> int:
    """Q7: the army must retreat, or only its beaten units as a new army; returns the retreating army's id."""
    staying = army.units.exclude(pk__in=[u.pk for u in leaving])
    if staying.exists():
        # Q7: only the beaten units retreat; they go as a new army under the same commander.
        beaten = Army.objects.create(
            campaign=campaign, faction_id=army.faction_id, commander_id=army.commander_id,
            province_id=army.province_id, name=gettext("%(army)s (retreating)") % {"army": army.name},
            moved_turn=army.moved_turn, must_retreat=True,
        )
        Unit.objects.filter(pk__in=[u.pk for u in leaving]).update(army=beaten)
        log_append(campaign=campaign, kind="army_split", actor=actor, rule="Q7",
                   data={"army": army.pk, "new_army": beaten.pk, "name": beaten.name,
                         "commander": army.commander_id, "units": sorted(u.pk for u in leaving)})
        return beaten.pk
    army.must_retreat = True
    army.version += 1
    army.save(update_fields=["must_retreat", "version"])
    return army.pk


def _named(result: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The result with each unit's name beside its id, so the page can show units removed since."""
    units = [{**u, "name": names.get(u["id"], "")} for u in result["units"]]
    rolls = [{**r, "name": names.get(r["unit"], r["roller"]) if "unit" in r else r["roller"]} for r in result["rolls"]]
    return {**result, "units": units, "rolls": rolls}


def _plain_roll(roll: dict[str, Any]) -> dict[str, Any]:
    """A roll for the log: a unit's roll names the unit by its plain id."""
    roller = roll["roller"]
    if isinstance(roller, str) and roller.isdigit():
        return {**roll, "roller": str(int(roller)), "unit": int(roller)}
    return roll


def _lost_by_faction(result: QuickResult, units: dict[str, Unit]) -> dict[str, int]:
    lost: dict[str, int] = {}
    for unit_result in result.units:
        if unit_result.removed:
            key = str(units[unit_result.id].faction_id)
            lost[key] = lost.get(key, 0) + 1
    return lost


def _next_day(*, battle: Battle, attacker: Army, result: QuickResult) -> None:
    """Q7: the next day's Morale modifier of each side replaces the one it carried into this battle."""
    attacker_mod, defender_mod = result.next_day_morale
    Army.objects.filter(pk=attacker.pk).update(morale_penalty=attacker_mod)
    Army.objects.filter(province_id=battle.province_id, faction_id=battle.defender_faction_id).update(
        morale_penalty=defender_mod)
