"""Writes of an army's move on the strategic map (S4–S7): the order checked under the campaign's lock, then the
move, a capture or the start of a battle, each in the campaign log."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid
from campaign.models import Campaign
from campaign.permissions import Actor
from campaign.services import log_append
from strategic.messages import (
    BATTLE_PENDING_THERE,
    IMPASSABLE,
    NEEDS_COMMANDER,
    NOT_ADJACENT,
    SAME_PROVINCE,
    STALE_VERSION,
    THIRD_POWER,
)
from strategic.models import Army, Battle, Border, Province
from strategic.selectors.map import (
    Entry,
    MoveRead,
    entry_of,
    move_read,
    move_refusal,
)
from strategic.services.locks import lock_campaign, lock_campaign_for_order, require_login, touch
from strategic.services.notices import battle_created_notify


@dataclass(frozen=True)
class MoveOutcome:
    """What an army move did (S5–S7): "moved", "captured" or "battle" (with the battle begun)."""

    kind: str
    army: Army
    province: Province
    battle: Battle | None = None
    unit_ids: tuple[int, ...] | None = None  # the army's units, when the move has read them


class UnknownInOrder(Exception):
    """A move order by ids names a campaign the actor may not read, or an army or a destination that campaign
    does not have: the API then answers 404 or 400 as for any unknown id. Raised before any check or change."""


@transaction.atomic
def army_move(
    *, actor: Actor, army: Army, destination: Province, expected_version: int | None = None
) -> MoveOutcome:
    """S5–S7: move the army into an adjacent province: a plain move, a capture, or the start of a battle.

    The army row is locked and ``moved_turn`` checked under the lock, so two simultaneous submissions of
    the same move apply exactly once.
    """
    require_login(actor)
    campaign = lock_campaign(army.campaign_id)
    read = move_read(
        campaign_id=campaign.pk, army_id=army.pk, destination_id=destination.pk, user_id=actor.pk
    )
    if read is None or read.destination is None:
        raise Army.DoesNotExist() if read is None else Province.DoesNotExist()
    return _army_move(
        actor=actor, campaign=campaign, read=read, destination=destination, expected_version=expected_version
    )


@transaction.atomic
def army_move_order(
    *, actor: Actor, campaign_slug: str, army_id: int, destination_id: int, expected_version: int | None = None
) -> MoveOutcome:
    """``army_move`` by ids, as the API receives the order: the campaign, the army and the destination are
    read under the lock with what the checks need. ``UnknownInOrder`` (nothing checked or changed) unless
    the campaign is one the actor may read and the army and the destination are its own."""
    require_login(actor)
    campaign = lock_campaign_for_order(slug=campaign_slug)
    if campaign is None:
        raise UnknownInOrder()
    read = move_read(
        campaign_id=campaign.pk, army_id=army_id, destination_id=destination_id, user_id=actor.pk
    )
    if (
        read is None
        or read.destination is None
        or read.destination.campaign_id != campaign.pk
        or not permissions.can_read_campaign(actor, campaign, member=read.membership is not None)
    ):
        raise UnknownInOrder()
    return _army_move(
        actor=actor,
        campaign=campaign,
        read=read,
        destination=read.destination,
        expected_version=expected_version,
    )


def _army_move(
    *, actor: Actor, campaign: Campaign, read: MoveRead, destination: Province, expected_version: int | None
) -> MoveOutcome:
    """A move on what ``move_read`` read under the campaign's lock: check, adjudicate the entry, execute."""
    _move_check(actor=actor, campaign=campaign, read=read, expected_version=expected_version)
    entry = _move_entry(read=read)
    return _move_execute(actor=actor, campaign=campaign, read=read, destination=destination, entry=entry)


def _move_check(*, actor: Actor, campaign: Campaign, read: MoveRead, expected_version: int | None) -> None:
    """Who gives the order, the version he saw, the turn's guards (``move_refusal``) and the border (S5)."""
    army = read.army
    allowed = permissions.can_command_army_as_read(
        actor,
        faction_id=army.faction_id,
        commander_user_id=read.commander_user_id,
        leader_user_id=read.leader_user_id,
        membership=read.membership,
    )
    if not allowed:
        raise Forbidden(NEEDS_COMMANDER)
    if expected_version is not None and expected_version != army.version:
        raise Conflict(STALE_VERSION, field="expected_version")
    refusal = move_refusal(
        campaign=campaign, army=army, in_battle=lambda: read.in_battle, has_units=lambda: bool(read.unit_ids)
    )
    if refusal is not None:
        message, rule = refusal
        raise Conflict(message, rule=rule)
    if read.destination.campaign_id != campaign.pk:
        raise Invalid(NOT_ADJACENT, field="destination", rule="S5")
    if read.destination.pk == army.province_id:
        raise Invalid(SAME_PROVINCE, field="destination", rule="S5")
    if read.border is None:
        raise Invalid(NOT_ADJACENT, field="destination", rule="S5")
    if read.border == Border.Kind.IMPASSABLE:
        raise Invalid(IMPASSABLE, field="destination", rule="S5")


def _move_entry(*, read: MoveRead) -> Entry:
    """What entering the destination means (S6, S7, S8): a move, a capture or a battle; refused otherwise."""
    entry = entry_of(
        faction_id=read.army.faction_id,
        controller_id=read.destination.controller_id,
        counts=read.counts,
        relations=read.relations,
        battle_pending=read.battle_pending,
    )
    if entry.kind == "third_power":
        raise Invalid(THIRD_POWER, field="destination", rule="S7")
    if entry.kind == "battle_pending":
        raise Conflict(BATTLE_PENDING_THERE, field="destination", rule="S8")
    return entry


def _move_execute(
    *, actor: Actor, campaign: Campaign, read: MoveRead, destination: Province, entry: Entry
) -> MoveOutcome:
    """The army moves and the log says so; a capture takes the province, a battle is recorded (S5–S7)."""
    army = read.army
    origin_id = army.province_id
    controller_before = read.destination.controller_id
    army.province = destination
    army.moved_turn = campaign.turn
    touch(army)
    log_append(
        campaign=campaign,
        kind="army_moved",
        actor=actor,
        rule="S5",
        data={
            "army": army.pk,
            "faction": army.faction_id,
            "from": read.origin_code,
            "to": read.destination.code,
            "border": read.border,
        },
    )
    unit_ids = tuple(read.unit_ids)
    if entry.kind == "capture":
        _capture(actor=actor, campaign=campaign, read=read, destination=destination, before=controller_before)
        return MoveOutcome("captured", army, destination, unit_ids=unit_ids)
    if entry.kind == "battle":
        battle = _battle_begin(
            actor=actor, campaign=campaign, read=read, destination=destination, origin_id=origin_id, entry=entry
        )
        return MoveOutcome("battle", army, destination, battle, unit_ids=unit_ids)
    return MoveOutcome("moved", army, destination, unit_ids=unit_ids)


def _capture(*, actor: Actor, campaign: Campaign, read: MoveRead, destination: Province, before: int | None) -> None:
    """The army takes the empty province (S6)."""
    army = read.army
    Province.objects.filter(pk=destination.pk).update(controller_id=army.faction_id)
    destination.controller_id = army.faction_id
    log_append(
        campaign=campaign,
        kind="province_captured",
        actor=actor,
        rule="S6",
        data={"province": read.destination.code, "faction": army.faction_id, "before": before, "army": army.pk},
    )


def _battle_begin(
    *, actor: Actor, campaign: Campaign, read: MoveRead, destination: Province, origin_id: int, entry: Entry
) -> Battle:
    """The army meets an enemy: the battle record, fought where it stands, from where it came (S7)."""
    army = read.army
    battle = Battle.objects.create(
        campaign=campaign,
        turn=campaign.turn,
        province=destination,
        origin_id=origin_id,
        terrain=read.battlefield_terrain,
        attacker_army=army,
        attacker_faction_id=army.faction_id,
        defender_faction_id=entry.defender_id,
    )
    log_append(
        campaign=campaign,
        kind="battle_begun",
        actor=actor,
        rule="S7",
        data={
            "battle": battle.pk,
            "province": read.destination.code,
            "origin": read.origin_code,
            "terrain": battle.terrain,
            "attacker_army": army.pk,
            "attacker": army.faction_id,
            "defender": entry.defender_id,
        },
    )
    battle_created_notify(campaign=campaign, battle=battle)
    return battle
