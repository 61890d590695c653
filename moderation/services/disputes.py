"""Writes of the moderation layer (M1, M3): disputes, deadlines, interception rulings, ending battles.

Every change leaves a campaign log entry with its reason; the logs themselves are never changed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid, NotFound
from campaign.messages import NEEDS_LOGIN, NEEDS_MODERATOR
from campaign.models import Campaign, Faction
from campaign.permissions import Actor
from campaign.services import faction_update, log_append
from moderation.messages import (
    ALREADY_ANSWERED,
    ALREADY_RULED,
    BAD_HOURS,
    BAD_ORDER,
    BAD_VERDICT,
    BAD_WINNER,
    BATTLE_OVER,
    NEEDS_ANSWER,
    NEEDS_MEMBER,
    NEEDS_REASON,
    NEEDS_TEXT,
    NO_DEADLINE,
    NO_INTERCEPTION,
    TAKEN_BACK,
)
from moderation.models import Dispute, InterceptionRuling
from moderation.selectors.audit import entry_by_ref
from notifications.services.inbox import notify_on_commit
from tactical.models import BattleEvent, LiveBattle
from tactical.services.play import battle_action_apply

MAX_TEXT = 4000


def _require_moderator(actor: Actor, campaign: Campaign) -> None:
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)
    if not permissions.can_moderate(actor, campaign):
        raise Forbidden(NEEDS_MODERATOR)


def _text(value: Any, message: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise Invalid(message, field=field, rule="M1")
    return value.strip()


@transaction.atomic
def dispute_open(*, actor: Actor, campaign: Campaign, ref: str, text: Any) -> Dispute:
    """A participant objects to one log entry (``L<id>`` or ``B<battle>v<version>``)."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)
    if not (permissions.is_member(actor, campaign) or permissions.can_moderate(actor, campaign)):
        raise Forbidden(NEEDS_MEMBER)
    body = _text(text, NEEDS_TEXT, "text")
    entry = entry_by_ref(campaign=campaign, ref=ref)
    is_event = isinstance(entry, BattleEvent)
    return Dispute.objects.create(
        campaign=campaign,
        author=actor,
        text=body,
        log_entry=None if is_event else entry,
        battle_event=entry if is_event else None,
    )


@transaction.atomic
def dispute_answer(*, actor: Actor, dispute: Dispute, answer: Any) -> Dispute:
    """The moderator answers a dispute; the answer is appended to the campaign log as its reason (M3)."""
    _require_moderator(actor, dispute.campaign)
    body = _text(answer, NEEDS_ANSWER, "answer")
    dispute = (
        Dispute.objects.select_for_update(of=("self",)).select_related("battle_event").get(pk=dispute.pk)
    )
    if dispute.status == Dispute.Status.ANSWERED:
        raise Conflict(ALREADY_ANSWERED)
    entry = log_append(
        campaign=dispute.campaign,
        kind="dispute_answered",
        actor=actor,
        rule="M3",
        reason=body,
        data={
            "dispute": dispute.pk,
            "entry": dispute.entry_ref,
            "author": dispute.author.get_username() if dispute.author else "",
        },
    )
    dispute.status = Dispute.Status.ANSWERED
    dispute.answer = body
    dispute.answered_by = actor
    dispute.answered_at = entry.created_at
    dispute.answer_entry = entry
    dispute.save(update_fields=["status", "answer", "answered_by", "answered_at", "answer_entry"])
    if dispute.author_id is not None:
        campaign = dispute.campaign
        notify_on_commit(
            kind="dispute_answered", user_ids=[dispute.author_id], key=f"dispute:{dispute.pk}",
            campaign_id=campaign.pk, params={"campaign": campaign.name, "answer": body[:300]},
            link=reverse("audit-log", args=[campaign.slug]) + f"#L{entry.pk}",
        )
    return dispute


@transaction.atomic
def faction_deadline_extend(*, actor: Actor, campaign: Campaign, hours: Any, reason: Any) -> Campaign:
    """Give the acting faction more time for its strategic turn (S4), with a reason in the log."""
    _require_moderator(actor, campaign)
    why = _text(reason, NEEDS_REASON, "reason")
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= 24 * 14:
        raise Invalid(BAD_HOURS, field="hours", rule="S4")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.current_faction_id is None or campaign.faction_deadline is None:
        raise Conflict(NO_DEADLINE, rule="S4")
    before = campaign.faction_deadline
    campaign.faction_deadline = before + timedelta(hours=hours)
    campaign.save(update_fields=["faction_deadline"])
    log_append(
        campaign=campaign,
        kind="faction_deadline_extended",
        actor=actor,
        rule="S4",
        reason=why,
        data={
            "faction": campaign.current_faction_id,
            "hours": hours,
            "before": before.isoformat(),
            "deadline": campaign.faction_deadline.isoformat(),
        },
    )
    return campaign


@transaction.atomic
def faction_order_set(*, actor: Actor, campaign: Campaign, faction_ids: Any) -> list[Faction]:
    """Set the order in which the factions act (S4): every faction once, first to last."""
    _require_moderator(actor, campaign)
    factions = {f.pk: f for f in Faction.objects.select_for_update().filter(campaign=campaign)}
    if (
        not isinstance(faction_ids, list)
        or sorted(faction_ids) != sorted(factions)
        or len(set(faction_ids)) != len(faction_ids)
    ):
        raise Invalid(BAD_ORDER, field="order", rule="S4")
    return [
        faction_update(actor=actor, faction=factions[pk], turn_order=index)
        for index, pk in enumerate(faction_ids, start=1)
    ]


def _live(battle_id: int) -> LiveBattle:
    battle = LiveBattle.objects.select_related("campaign", "record").filter(pk=battle_id).first()
    if battle is None:
        raise NotFound(str(_("There is no such battle.")))
    return battle


@transaction.atomic
def interception_rule(
    *, actor: Actor, battle_id: int, version: Any, unit: Any, verdict: Any, reason: Any
) -> InterceptionRuling:
    """T10.4: the moderator confirms (or overrules) an interception declared at ``version``, in writing."""
    battle = _live(battle_id)
    _require_moderator(actor, battle.campaign)
    why = _text(reason, NEEDS_REASON, "reason")
    if verdict not in InterceptionRuling.Verdict.values:
        raise Invalid(BAD_VERDICT, field="verdict", rule="T10.4")
    row = None
    if isinstance(version, int) and not isinstance(version, bool):
        row = BattleEvent.objects.filter(battle=battle, version=version).first()
    declared = next(
        (
            e
            for e in (row.events if row else [])
            if e.get("type") == "interception_declared" and e.get("unit") == unit
        ),
        None,
    )
    if row is None or declared is None:
        raise NotFound(NO_INTERCEPTION, field="unit", rule="T10.4")
    LiveBattle.objects.select_for_update().filter(pk=battle.pk).first()  # one ruling at a time per battle
    # Read under the battle's lock, which an undo takes too: no ruling slips in beside a concurrent undo.
    undo = BattleEvent.objects.filter(battle=battle, kind=BattleEvent.Kind.UNDO, action__undoes=version).first()
    if undo is not None:
        raise Conflict(TAKEN_BACK, params={"version": undo.version}, rule="T10.4")
    if InterceptionRuling.objects.filter(battle=battle, version=version, unit=unit).exists():
        raise Conflict(ALREADY_RULED, rule="T10.4")
    entry = log_append(
        campaign=battle.campaign,
        kind="interception_ruled",
        actor=actor,
        rule="T10.4",
        reason=why,
        turn=battle.record.turn,
        data={
            "battle": battle.pk,
            "version": version,
            "unit": _plain(unit),
            "target": _plain(declared.get("target")),
            "verdict": verdict,
        },
    )
    return InterceptionRuling.objects.create(
        battle=battle,
        version=version,
        unit=unit,
        target=declared.get("target", ""),
        verdict=verdict,
        reason=why,
        moderator=actor,
        log_entry=entry,
        created_at=entry.created_at,
    )


def _plain(engine_id: Any) -> Any:
    """An engine id ``u17`` as the strategic unit id 17 the campaign log names units by."""
    if isinstance(engine_id, str) and engine_id[1:].isdigit():
        return int(engine_id[1:])
    return engine_id


def battle_end(*, actor: Actor, battle_id: int, winner: Any, reason: Any) -> LiveBattle:
    """T11: the moderator ends the battle through the engine's ``end_battle``, and logs why."""
    battle = _live(battle_id)
    _require_moderator(actor, battle.campaign)
    why = _text(reason, NEEDS_REASON, "reason")
    if winner not in ("attacker", "defender"):
        raise Invalid(BAD_WINNER, field="winner", rule="T11")
    if battle.status == LiveBattle.Status.ENDED:
        raise Conflict(BATTLE_OVER, rule="T11")
    with transaction.atomic():
        result = battle_action_apply(
            actor=actor, battle_id=battle.pk, action={"do": "end_battle", "winner": winner}
        )
        log_append(
            campaign=battle.campaign,
            kind="battle_ended_by_moderator",
            actor=actor,
            rule="T11",
            reason=why,
            turn=battle.record.turn,
            data={"battle": battle.pk, "version": result.version, "winner": winner},
        )
    battle.refresh_from_db()
    return battle
