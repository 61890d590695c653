"""The Celery app: the broker comes from settings (Redis, or the file system in the embedded mode)."""

import os
from pathlib import Path
from typing import Any

from celery import Celery, bootsteps, signals
from celery.beat import EmbeddedService
from click import Option

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("limes")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class EmbeddedBeat(bootsteps.StartStopStep):
    """``worker --embedded-beat``: beat in a thread of the worker process (the embedded mode, scripts/run).

    Celery's own ``--beat`` forks beat as a child process, which outlives a worker killed with SIGKILL: a
    restart then ran two beats, and every periodic task twice. A thread dies with its process. A second
    worker with ``--embedded-beat`` on the same schedule refuses to start while the first runs: the worker's
    pid file (``--pidfile``, by default ``celery-worker.pid`` beside the schedule), which a killed worker
    leaves stale and the next start removes.
    """

    label = "EmbeddedBeat"
    conditional = True

    def __init__(self, parent: Any, embedded_beat: bool = False, **kwargs: Any) -> None:
        self.enabled = embedded_beat
        super().__init__(parent, **kwargs)

    def create(self, parent: Any) -> Any:
        if not parent.pidfile:
            parent.pidfile = str(Path(parent.schedule_filename).parent / "celery-worker.pid")
        return EmbeddedService(
            parent.app,
            thread=True,
            schedule_filename=parent.schedule_filename,
            scheduler_cls=parent.scheduler,
        )


app.user_options["worker"].add(
    Option(["--embedded-beat"], is_flag=True, default=False, help="Run beat in a thread of this worker.")
)
app.steps["worker"].add(EmbeddedBeat)

WORKER_CONN_MAX_AGE = 60  # seconds a worker keeps a database connection (CELERY_DB_REUSE_MAX in settings)


@signals.worker_init.connect
def keep_database_connections(**_: Any) -> None:
    """A worker keeps its database connections between tasks, also where the web process does not.

    Set in the worker's main process before the pool forks (an open connection is never inherited: Celery
    closes them in each new child). A process of the prefork pool runs one task at a time: one persistent
    connection, not the web process's connection pool (DATABASE_POOL), which Django refuses beside
    CONN_MAX_AGE and whose threads a fork would not carry over.
    """
    from django.conf import settings

    for database in settings.DATABASES.values():
        if not database.get("CONN_MAX_AGE"):
            database["CONN_MAX_AGE"] = WORKER_CONN_MAX_AGE
        database.get("OPTIONS", {}).pop("pool", None)


@signals.worker_init.connect
def tune_garbage_collector(**_: Any) -> None:
    """The loaded app out of the collector's walks (config/gc_tuning.py), before the pool forks."""
    from config import gc_tuning

    gc_tuning.tune()


@signals.task_postrun.connect
def close_spent_connections(task: Any = None, **_: Any) -> None:
    """After a task, close a connection that failed or outlived its age, as Django does after a request.

    Not after a task run eagerly: that runs inside its caller's transaction (tests, the embedded mode).
    """
    if task is None or getattr(task.request, "is_eager", False):
        return
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()
