"""Celery tasks of the retreat deadline (R1, ``retreat_hours``): thin, they load by id and call a service."""

from __future__ import annotations

from celery import shared_task

from strategic.services import retreats as retreat_services


@shared_task(name="strategic.retreat_deadline", ignore_result=True)
def retreat_deadline(army_id: int) -> bool:
    """Apply the default retreat of the army if it still owes one and its deadline has passed."""
    return retreat_services.retreat_expire(army_id=army_id) is not None


@shared_task(name="strategic.retreat_sweep", ignore_result=True, expires=50)
def retreat_sweep() -> int:
    """Apply the default to every overdue retreat whose deadline task was lost; returns how many."""
    return retreat_services.retreat_sweep()
