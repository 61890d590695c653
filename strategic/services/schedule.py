"""When a pending battle is fought: the moderator or either commander proposes times, each side accepts one,
and when both sides accepted the same time the battle is scheduled; the moderator may clear the schedule
(a new time is then told as moved) or record that a commander did not come."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from celery import current_app
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid, NotFound
from campaign.models import LogEntry
from campaign.permissions import Actor
from campaign.services import log_append
from notifications.names import both
from notifications.services.inbox import notify, notify_on_commit
from notifications.services.recipients import moderators
from strategic.messages import (
    SCHEDULE_FORBIDDEN,
    SCHEDULE_NO_TIMES,
    SCHEDULE_NOT_PENDING,
    SCHEDULE_NOT_SCHEDULED,
    SCHEDULE_PAST,
    SCHEDULE_SIDE,
    SCHEDULE_TOO_MANY,
    SCHEDULE_UNKNOWN_TIME,
)
from strategic.models import Battle, BattleTime, BattleTimeAcceptance
from strategic.selectors.schedule import SIDES, battle_people, sides_of
from strategic.services.locks import require_login

log = logging.getLogger(__name__)

REMINDER = timedelta(minutes=15)
MAX_TIMES = 10


def _lock(battle: Battle) -> Battle:
    battle = Battle.objects.select_for_update().select_related("campaign", "province").get(pk=battle.pk)
    if battle.status != Battle.Status.PENDING:
        raise Conflict(SCHEDULE_NOT_PENDING, rule="S7")
    return battle


def _require_party(actor: Actor, battle: Battle) -> list[str]:
    require_login(actor)
    sides = sides_of(user=actor, battle=battle)
    if not sides and not permissions.can_moderate(actor, battle.campaign):
        raise Forbidden(SCHEDULE_FORBIDDEN)
    return sides


def _everyone(battle: Battle) -> set[int]:
    people = battle_people(battle=battle)
    return people[Battle.Side.ATTACKER] | people[Battle.Side.DEFENDER] | moderators(campaign_id=battle.campaign_id)


@transaction.atomic
def battle_times_propose(*, actor: Actor, battle: Battle, times: Iterable[datetime]) -> list[BattleTime]:
    """Propose one or more times (in the future) for the battle; a time proposed before is kept once."""
    battle = _lock(battle)
    _require_party(actor, battle)
    times = sorted(set(times))
    if not times:
        raise Invalid(SCHEDULE_NO_TIMES, field="times")
    if len(times) > MAX_TIMES:
        raise Invalid(SCHEDULE_TOO_MANY, field="times", params={"count": MAX_TIMES})
    now = timezone.now()
    if any(t <= now for t in times):
        raise Invalid(SCHEDULE_PAST, field="times")
    made = [BattleTime.objects.get_or_create(battle=battle, at=t, defaults={"proposed_by": actor})[0]
            for t in times]
    log_append(campaign=battle.campaign, kind="battle_times_proposed", actor=actor, rule="S7",
               data={"battle": battle.pk, "province": battle.province.code,
                     "times": [t.isoformat() for t in times]})
    return made


@transaction.atomic
def battle_time_accept(*, actor: Actor, battle: Battle, time_id: int, side: str | None = None) -> Battle:
    """A commander accepts a proposed time for his side; when both sides accepted the same one, the battle is
    scheduled for it (and everyone in it told, reminded 15 minutes before)."""
    battle = _lock(battle)
    sides = _require_party(actor, battle)
    if side is None and len(sides) == 1:
        side = sides[0]
    if side not in sides:
        raise Forbidden(SCHEDULE_SIDE, field="side")
    time = BattleTime.objects.filter(battle=battle, pk=time_id).first()
    if time is None:
        raise NotFound(SCHEDULE_UNKNOWN_TIME, field="time")
    if time.at <= timezone.now():
        raise Invalid(SCHEDULE_PAST, field="time")
    BattleTimeAcceptance.objects.update_or_create(battle=battle, side=side, defaults={"time": time, "user": actor})
    chosen = set(BattleTimeAcceptance.objects.filter(battle=battle).values_list("side", "time_id"))
    if {s for s, t in chosen if t == time.pk} == set(SIDES) and battle.scheduled_at != time.at:
        _schedule(actor=actor, battle=battle, at=time.at)
    return battle


def _schedule(*, actor: Actor, battle: Battle, at: datetime) -> None:
    # Scheduled before (and cleared or replaced since): everyone is told it moved.
    moved = battle.scheduled_at is not None or LogEntry.objects.filter(
        campaign_id=battle.campaign_id, kind="battle_scheduled", data__battle=battle.pk
    ).exists()
    battle.scheduled_at = at
    battle.save(update_fields=["scheduled_at"])
    log_append(campaign=battle.campaign, kind="battle_scheduled", actor=actor, rule="S7",
               data={"battle": battle.pk, "province": battle.province.code, "at": at.isoformat()})
    kind = "battle_moved" if moved else "battle_scheduled"
    notify_on_commit(
        kind=kind, user_ids=_everyone(battle), key=f"sched:{battle.pk}:{at.isoformat()}",
        campaign_id=battle.campaign_id,
        params={"campaign": battle.campaign.name, "province": both(battle.province), "at": at.isoformat()},
        link=reverse("battle-schedule", args=[battle.campaign.slug, battle.pk]),
    )
    transaction.on_commit(lambda: _queue_reminder(battle.pk, at), robust=True)


def _queue_reminder(battle_id: int, at: datetime) -> None:
    # By name: the task module imports these services.
    try:
        current_app.tasks["strategic.battle_reminder"].apply_async((battle_id, at.isoformat()), eta=at - REMINDER)
    except Exception:
        log.exception("could not queue the reminder of battle %s", battle_id)


def battle_reminder_send(*, battle_id: int, at: str) -> bool:
    """Tell everyone in the battle it starts in 15 minutes, if it is still pending and scheduled for ``at``."""
    battle = Battle.objects.select_related("campaign", "province").filter(pk=battle_id).first()
    if battle is None or battle.status != Battle.Status.PENDING or battle.scheduled_at is None:
        return False
    if battle.scheduled_at.isoformat() != at:
        return False  # moved since: the new time has its own reminder
    notify(kind="battle_soon", user_ids=_everyone(battle), key=f"soon:{battle.pk}:{at}",
           campaign_id=battle.campaign_id,
           params={"campaign": battle.campaign.name, "province": both(battle.province), "at": at},
           link=reverse("battle-schedule", args=[battle.campaign.slug, battle.pk]))
    return True


@transaction.atomic
def battle_schedule_clear(*, actor: Actor, battle: Battle, reason: str = "") -> Battle:
    """The moderator reschedules: the accepted times are dropped (the proposals stay), and the next time both
    sides accept is told as a moved battle."""
    battle = _lock(battle)
    require_login(actor)
    if not permissions.can_moderate(actor, battle.campaign):
        raise Forbidden(SCHEDULE_FORBIDDEN)
    before = battle.scheduled_at
    BattleTimeAcceptance.objects.filter(battle=battle).delete()
    battle.scheduled_at = None
    battle.save(update_fields=["scheduled_at"])
    log_append(campaign=battle.campaign, kind="battle_schedule_cleared", actor=actor, rule="S7", reason=reason,
               data={"battle": battle.pk, "province": battle.province.code,
                     "before": before.isoformat() if before else None})
    return battle


@transaction.atomic
def battle_no_show(*, actor: Actor, battle: Battle, side: str, reason: str = "") -> Battle:
    """The moderator records that a side's commander did not come to the scheduled battle and starts it
    anyway (the absent side's clock runs on the board)."""
    battle = _lock(battle)
    require_login(actor)
    if not permissions.can_moderate(actor, battle.campaign):
        raise Forbidden(SCHEDULE_FORBIDDEN)
    if side not in SIDES:
        raise Invalid(SCHEDULE_SIDE, field="side")
    if battle.scheduled_at is None:
        raise Conflict(SCHEDULE_NOT_SCHEDULED)
    log_append(campaign=battle.campaign, kind="battle_started_anyway", actor=actor, rule="S7", reason=reason,
               data={"battle": battle.pk, "province": battle.province.code, "side": side,
                     "at": battle.scheduled_at.isoformat()})
    return battle
