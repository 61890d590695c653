"""Celery tasks of the turn clock (T6.1): thin, they load by id and call a service."""

from __future__ import annotations

from celery import shared_task

from tactical.services import play as services


@shared_task(name="tactical.battle_turn_timeout", ignore_result=True)
def battle_turn_timeout(battle_id: int, turn_key: str) -> bool:
    """End the turn ``turn_key`` of a battle if it is still current and overdue.

    A battle locked by someone else is left alone: an action ends an overdue turn itself, and the sweep
    (every half second) takes whatever is left, so timers never queue behind a sweep's batch.
    """
    return services.battle_turn_expire(battle_id=battle_id, turn_key=turn_key, skip_locked=True)


@shared_task(name="tactical.battle_clock_sweep", ignore_result=True, expires=5)
def battle_clock_sweep() -> int:
    """End every overdue turn whose timer was lost; returns how many turns it ended."""
    return services.battle_clock_sweep()
