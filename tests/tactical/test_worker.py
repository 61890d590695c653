"""How the Celery worker that runs the turn clock (T6.1) treats its database connections, and beat's sweep."""

from __future__ import annotations

import time
from types import SimpleNamespace
from unittest import mock

import django.conf
import pytest
from django.conf import settings
from django.db import connection

from config import celery


def _task(eager: bool) -> SimpleNamespace:
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


def test_a_worker_keeps_its_connections_where_the_web_process_does_not() -> None:
    databases = {"default": {"CONN_MAX_AGE": 0}, "other": {"CONN_MAX_AGE": 300}}
    with mock.patch.object(django.conf.settings, "DATABASES", databases):
        celery.keep_database_connections()
    assert databases == {"default": {"CONN_MAX_AGE": 60}, "other": {"CONN_MAX_AGE": 300}}


def test_a_worker_uses_a_persistent_connection_instead_of_the_web_process_pool() -> None:
    databases = {"default": {"CONN_MAX_AGE": 0, "OPTIONS": {"pool": {"min_size": 2, "max_size": 20}}}}
    with mock.patch.object(django.conf.settings, "DATABASES", databases):
        celery.keep_database_connections()
    assert databases == {"default": {"CONN_MAX_AGE": 60, "OPTIONS": {}}}


def test_celery_closes_connections_only_every_thousand_tasks() -> None:
    assert celery.app.conf.get("CELERY_DB_REUSE_MAX") == 1000


@pytest.mark.django_db(transaction=True)
def test_after_a_task_a_connection_past_its_age_is_closed_as_after_a_request() -> None:
    connection.ensure_connection()
    connection.close_at = time.monotonic() - 1
    celery.close_spent_connections(task=_task(eager=True))  # an eager task runs inside its caller
    assert connection.connection is not None
    celery.close_spent_connections(task=_task(eager=False))
    assert connection.connection is None


@pytest.mark.django_db(transaction=True)
def test_after_a_task_a_fresh_connection_is_kept() -> None:
    connection.ensure_connection()
    connection.close_at = time.monotonic() + 60
    celery.close_spent_connections(task=_task(eager=False))
    assert connection.connection is not None


def test_beat_sweeps_the_clock_every_half_second() -> None:
    assert settings.CELERY_BEAT_SCHEDULE["tactical-clock-sweep"] == {"task": "tactical.battle_clock_sweep",
                                                                    "schedule": 0.5}
