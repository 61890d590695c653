"""The retreat's clock (R1, ``retreat_hours``): the deadline task queued for each beaten army.

Two things apply the default retreat of an army whose commander has not chosen, both through the
idempotent ``services.retreats.retreat_expire``: the task queued here for the deadline, and the periodic
sweep (``tasks.retreat_sweep``) that catches tasks lost with the broker or a worker.

Every service that ends a battle queues the deadlines: ``services.battles.battle_result_apply`` (the
tactical map) and ``services.quick_battles.quick_battle_resolve``. The task is looked up by its name, so that this
module imports no task module (the tasks import the services).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from celery import current_app
from django.db import transaction

from campaign.models import Campaign
from strategic.models import Battle
from strategic.selectors.retreats import retreat_deadline
from strategic.services.notices import retreat_waits_notify

log = logging.getLogger(__name__)


def retreat_deadline_schedule(*, army_id: int, deadline: datetime) -> None:
    """Queue the deadline task of one retreat now; a task the broker loses is caught by the sweep."""
    # By name: the task module imports the retreat services, which import the battle services that use this.
    task = current_app.tasks["strategic.retreat_deadline"]
    try:
        task.apply_async((army_id,), eta=deadline)
    except Exception:  # the broker is down: the sweep still applies the default
        log.exception("could not queue the retreat deadline of army %s", army_id)


def retreat_deadlines_schedule(*, campaign: Campaign, battle: Battle, army_ids: Iterable[int]) -> None:
    """After a battle: queue the deadline task of each beaten army once the transaction commits (a task
    that ran before the commit would not see the army owing its retreat)."""
    deadline = retreat_deadline(campaign=campaign, battle=battle)
    army_ids = list(army_ids)
    retreat_waits_notify(campaign=campaign, army_ids=army_ids, deadline=deadline)
    for army_id in army_ids:
        transaction.on_commit(lambda a=army_id: retreat_deadline_schedule(army_id=a, deadline=deadline))
