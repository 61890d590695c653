"""Celery tasks of the retreat deadline (R1, ``retreat_hours``): thin, they load by id and call a service."""

from __future__ import annotations

from celery import shared_task

from strategic.services import retreats as retreat_services
from strategic.services import schedule as schedule_services


@shared_task(name="strategic.retreat_deadline", ignore_result=True)
def retreat_deadline(army_id: int) -> bool:
    """Apply the default retreat of the army if it still owes one and its deadline has passed."""
    return retreat_services.retreat_expire(army_id=army_id) is not None


@shared_task(name="strategic.retreat_sweep", ignore_result=True, expires=50)
def retreat_sweep() -> int:
    """Apply the default to every overdue retreat whose deadline task was lost; returns how many."""
    return retreat_services.retreat_sweep()


@shared_task(name="strategic.battle_reminder", ignore_result=True)
def battle_reminder(battle_id: int, at: str) -> bool:
    """Tell everyone in a battle scheduled for ``at`` that it starts in 15 minutes (unless it moved)."""
    return schedule_services.battle_reminder_send(battle_id=battle_id, at=at)
